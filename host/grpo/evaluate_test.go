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
