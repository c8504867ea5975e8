package grpo

import (
	"context"
	"math"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/cudaperf/cudaperf/host/pluginhost"
)

func TestEvaluate(t *testing.T) {
	d := testDataset(t)
	tasks, err := d.Side("test", nil)
	if err != nil {
		t.Fatal(err)
	}
	// The replay policy answers with measured variants: tasks added to the
	// split before their first measurement have none.
	tasks = slices.DeleteFunc(tasks, func(t *Task) bool { return len(t.Variants) == 0 })
	train, _ := d.Side("train", nil)
	o := EvalOptions{Tasks: tasks[:3], Train: train, FewShot: 1, N: 6, Ks: []int{1, 3, 5},
		Sampling: pluginhost.Sampling{Temperature: 1, MaxTokens: 100}, Seed: 3, Concurrency: 4, Bootstrap: 200}
	rep, err := Evaluate(context.Background(), replayPolicy(t), newFakeBench(t, d), nil, o, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Tasks) != 3 || len(rep.AtK) != 3 {
		t.Fatalf("%d tasks, %d k values", len(rep.Tasks), len(rep.AtK))
	}
	// Every replayed answer with code is a known, correct variant; the
	// others have no code.
	var p1, p5 float64
	for _, te := range rep.Tasks {
		if te.Correct+te.NoCode != te.N {
			t.Errorf("%s: %d correct + %d without code ≠ %d", te.Task, te.Correct, te.NoCode, te.N)
		}
		p1 += PassAtK(te.N, te.Correct, 1) / 3
		p5 += PassAtK(te.N, te.Correct, 5) / 3
	}
	if math.Abs(rep.AtK[0].PassAtK.Value-p1) > 1e-12 || math.Abs(rep.AtK[2].PassAtK.Value-p5) > 1e-12 {
		t.Errorf("pass@1 %v (want %v), pass@5 %v (want %v)", rep.AtK[0].PassAtK.Value, p1, rep.AtK[2].PassAtK.Value, p5)
	}
	if rep.AtK[0].PassAtK.Value > rep.AtK[2].PassAtK.Value || rep.AtK[0].Speedup.Value > rep.AtK[2].Speedup.Value {
		t.Error("pass@5 or speedup@5 below the k=1 value")
	}
	if e := rep.FastP["fast_0"]; math.Abs(e.Value-p1) > 1e-12 {
		t.Errorf("fast_0 %v ≠ pass@1 %v", e.Value, p1)
	}
	for _, want := range []string{"6 samples per task", "unbiased estimator", "counted as 1×", "bootstrap"} {
		if !strings.Contains(rep.Protocol, want) {
			t.Errorf("protocol lacks %q", want)
		}
	}
	if _, err := Evaluate(context.Background(), replayPolicy(t), newFakeBench(t, d), nil, EvalOptions{Tasks: tasks[:1], N: 3, Ks: []int{5}}, nil); err == nil {
		t.Error("k > n accepted")
	}
}

// TestProtocolBaseline: the protocol names what speedups are over, by the
// tasks' kind (a torch2cuda speedup is over eager PyTorch, not a C
// reference).
func TestProtocolBaseline(t *testing.T) {
	c := &Task{Kind: ""}
	torch := &Task{Kind: KindTorch2CUDA}
	for _, tc := range []struct {
		tasks      []*Task
		want, lack string
	}{
		{[]*Task{c}, "over the C reference (gcc -O2)", "PyTorch"},
		{[]*Task{torch, torch}, "over eager PyTorch", "gcc"},
		{[]*Task{c, torch}, "each task's reference", ""},
	} {
		p := EvalOptions{Tasks: tc.tasks, N: 1}.Protocol()
		if !strings.Contains(p, tc.want) || (tc.lack != "" && strings.Contains(p, tc.lack)) {
			t.Errorf("tasks of kinds %v: protocol %q; want %q and not %q", kindsOf(tc.tasks), p, tc.want, tc.lack)
		}
	}
}

func kindsOf(ts []*Task) []string {
	var out []string
	for _, t := range ts {
		out = append(out, t.Kind)
	}
	return out
}

// cutPolicy answers every prompt with one finished completion and the
// rest cut off at the token limit.
type cutPolicy struct{ Policy }

func (cutPolicy) Describe(context.Context) (pluginhost.PolicyInfo, error) {
	return pluginhost.PolicyInfo{Name: "cut", Version: "0"}, nil
}

// cutGenerate is how long cutPolicy's Generate takes: the report's
// generation seconds must include it.
const cutGenerate = 30 * time.Millisecond

func (cutPolicy) Generate(_ context.Context, prompts []pluginhost.Prompt, group int, _ pluginhost.Sampling) ([][]pluginhost.Completion, error) {
	time.Sleep(cutGenerate)
	out := make([][]pluginhost.Completion, len(prompts))
	for i, p := range prompts {
		for k := range group {
			c := pluginhost.Completion{PromptID: p.ID, Index: k, Text: "```cuda\n__global__ void k() {", FinishReason: "length", CompletionTokens: 768}
			if k == 0 {
				c.Text, c.FinishReason, c.CompletionTokens = "no code here", "stop", 3
			}
			out[i] = append(out[i], c)
		}
	}
	return out, nil
}

// The report's cost counts tokens and completions cut at the limit, which
// is how a too-small --max-tokens shows (the lease-9 samples).
func TestEvaluateCost(t *testing.T) {
	d := testDataset(t)
	tasks, _ := d.Side("train", []string{"gelu", "row_sum"})
	rep, err := Evaluate(context.Background(), cutPolicy{}, newFakeBench(t, d), nil,
		EvalOptions{Tasks: tasks, N: 4, Ks: []int{1}, Seed: 1, Concurrency: 2, Bootstrap: 10}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if c := rep.Cost; c.Truncated != 6 || c.CompletionTokens != 2*(3+3*768) || c.GenerateSeconds < cutGenerate.Seconds() || c.JudgeSeconds <= 0 {
		t.Errorf("cost %+v, want 6 truncated of 8, %d tokens, generation ≥ %v (the policy's time) and judging > 0", c, 2*(3+3*768), cutGenerate)
	}
	for _, te := range rep.Tasks {
		if te.NoCode != 4 {
			t.Errorf("%s: %d samples without code, want all 4", te.Task, te.NoCode)
		}
	}
}

// fixPolicy answers a first prompt with code that does not compile and a
// refinement prompt with the task's fastest known variant, except for
// sample 0, which never gets it right; it records the prompts it saw.
type fixPolicy struct {
	Policy
	fix          map[string]string // task name → a correct answer
	firstCorrect int               // first attempts with index < firstCorrect answer correctly
	noRefine     bool              // refinements stay broken (else all but sample 0's are fixed)
	prompts      []pluginhost.Prompt
}

func (*fixPolicy) Describe(context.Context) (pluginhost.PolicyInfo, error) {
	return pluginhost.PolicyInfo{Name: "fix", Version: "0"}, nil
}

func (f *fixPolicy) Generate(_ context.Context, prompts []pluginhost.Prompt, group int, _ pluginhost.Sampling) ([][]pluginhost.Completion, error) {
	f.prompts = append(f.prompts, prompts...)
	out := make([][]pluginhost.Completion, len(prompts))
	for i, p := range prompts {
		task, rest, _ := strings.Cut(p.ID, ":")
		for k := range group {
			text := "```cuda\n__global__ void broken( {}\n```"
			refinement := strings.Contains(rest, ":t")
			if (refinement && !f.noRefine && !strings.HasSuffix(rest, ":m0")) || (!refinement && k < f.firstCorrect) {
				text = "```cuda\n" + f.fix[task] + "\n```"
			}
			out[i] = append(out[i], pluginhost.Completion{PromptID: p.ID, Index: k, Text: text, FinishReason: "stop", CompletionTokens: 10})
		}
	}
	return out, nil
}

// fixTasks is the test dataset, two of its train tasks and each one's
// fastest variant (a correct answer for fixPolicy).
func fixTasks(t *testing.T) (*Dataset, []*Task, map[string]string) {
	d := testDataset(t)
	tasks, _ := d.Side("train", []string{"gelu", "row_sum"})
	fix := map[string]string{}
	for _, task := range tasks {
		fix[task.Name] = task.Variants[0].Source
	}
	return d, tasks, fix
}

// With refinement turns, eval asks each sample's own refinement prompt
// (the loop's, with the previous attempt's feedback) and counts a sample's
// best attempt; one turn is the single-attempt protocol.
func TestEvaluateTurns(t *testing.T) {
	d, tasks, fix := fixTasks(t)
	for _, turns := range []int{1, 3} {
		pol := &fixPolicy{fix: fix}
		o := EvalOptions{Tasks: tasks, N: 4, Ks: []int{1}, Seed: 1, Concurrency: 2, Bootstrap: 10, Turns: turns}
		rep, err := Evaluate(context.Background(), pol, newFakeBench(t, d), nil, o, nil)
		if err != nil {
			t.Fatal(err)
		}
		if want := 2 + 2*4*(turns-1); len(pol.prompts) != want {
			t.Fatalf("turns %d: %d prompts, want %d (2 tasks, then one per sample and refinement)", turns, len(pol.prompts), want)
		}
		if len(rep.Samples) != 2*4*turns {
			t.Errorf("turns %d: %d samples written, want every attempt (%d)", turns, len(rep.Samples), 2*4*turns)
		}
		wantPass := 0.0
		wantTurns := []float64{0}
		if turns == 3 {
			wantPass, wantTurns = 0.75, []float64{0, 0.75, 0.75}
			// The second turn's prompt for gelu's sample 2 refines that
			// sample's own first answer with its compiler error.
			var p *pluginhost.Prompt
			for x := range pol.prompts {
				if pol.prompts[x].ID == "gelu:eval:t1:m2" {
					p = &pol.prompts[x]
				}
			}
			if p == nil {
				t.Fatal("no refinement prompt gelu:eval:t1:m2")
			}
			if last := p.Messages[len(p.Messages)-1].Content; !strings.Contains(last, "did not compile") {
				t.Errorf("refinement prompt lacks the compile feedback: %q", last)
			}
			if !strings.Contains(rep.Protocol, "3 attempts each") {
				t.Errorf("protocol %q does not say 3 attempts", rep.Protocol)
			}
		}
		if got := rep.AtK[0].PassAtK.Value; math.Abs(got-wantPass) > 1e-12 {
			t.Errorf("turns %d: pass@1 %v, want %v", turns, got, wantPass)
		}
		if !slices.Equal(rep.TurnCorrect, wantTurns) {
			t.Errorf("turns %d: correct by turn %v, want %v", turns, rep.TurnCorrect, wantTurns)
		}
		// No first attempt is correct, so fresh samples would solve none.
		if wantFresh := map[int][]float64{1: nil, 3: {0, 0, 0}}[turns]; !slices.Equal(rep.FreshCorrect, wantFresh) {
			t.Errorf("turns %d: fresh control %v, want %v", turns, rep.FreshCorrect, wantFresh)
		}
		for _, te := range rep.Tasks {
			if turns == 3 && (te.Correct != 3 || te.Speedups[0] != 0 || te.Speedups[1] <= 0) {
				t.Errorf("%s: %d correct, speedups %v: want samples 1-3 correct by their refinement, sample 0 not", te.Task, te.Correct, te.Speedups)
			}
		}
	}
}

// The control for refinement: with 1 of 4 first attempts correct per task
// and refinements that never help, t+1 turns leave a quarter solved, while
// t+1 fresh samples would solve pass@(t+1) = 1 − C(3, t+1)/C(4, t+1):
// 0.25, 0.5, 0.75. With N = 2 only pass@1 and pass@2 can be estimated.
func TestEvaluateFreshControl(t *testing.T) {
	d, tasks, fix := fixTasks(t)
	for _, c := range []struct {
		n, firstCorrect   int
		wantTurn, wantNew []float64
	}{
		{4, 1, []float64{0.25, 0.25, 0.25}, []float64{0.25, 0.5, 0.75}},
		{2, 1, []float64{0.5, 0.5, 0.5}, []float64{0.5, 1}},
	} {
		pol := &fixPolicy{fix: fix, firstCorrect: c.firstCorrect, noRefine: true}
		o := EvalOptions{Tasks: tasks, N: c.n, Ks: []int{1}, Seed: 1, Concurrency: 2, Bootstrap: 10, Turns: 3}
		rep, err := Evaluate(context.Background(), pol, newFakeBench(t, d), nil, o, nil)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(rep.TurnCorrect, c.wantTurn) {
			t.Errorf("n %d: correct by turn %v, want %v", c.n, rep.TurnCorrect, c.wantTurn)
		}
		if len(rep.FreshCorrect) != len(c.wantNew) {
			t.Fatalf("n %d: fresh control %v, want %v", c.n, rep.FreshCorrect, c.wantNew)
		}
		for x := range c.wantNew {
			if math.Abs(rep.FreshCorrect[x]-c.wantNew[x]) > 1e-12 {
				t.Errorf("n %d: fresh control %v, want %v", c.n, rep.FreshCorrect, c.wantNew)
			}
		}
	}
}
