package ablation

import (
	"strings"
	"testing"

	"github.com/cudaperf/cudaperf/host/grpo"
)

func planConfig(t *testing.T, seeds string) *Config {
	t.Helper()
	c, err := Parse("a.yaml", []byte("name: abl\nroot: "+t.TempDir()+"\nmodes: [ver, both, random]\nseeds: "+seeds+
		"\neval: {sides: [test], n: 10, k: [1]}\ntrain: {steps: 2}\n"))
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// base is an evaluation of len(correct) tasks with n samples each; task i
// has correct[i] correct samples, with speedups 100 and 300.
func base(n int, correct []int) *grpo.EvalReport {
	rep := &grpo.EvalReport{}
	for i, c := range correct {
		te := grpo.TaskEval{Task: string(rune('a' + i)), N: n, Correct: c}
		for k := range n {
			s := 0.0
			if k < c {
				s = 100 + 200*float64(k%2)
			}
			te.Speedups = append(te.Speedups, s)
		}
		rep.Tasks = append(rep.Tasks, te)
	}
	return rep
}

func mde(rows []PlanRow, metric, a, b string) float64 {
	for _, r := range rows {
		if r.Metric == metric && r.A == a && r.B == b {
			return r.Median
		}
	}
	return -1
}

// A checkpoint measured so well that its tasks are known to be always or
// never right leaves (nearly) nothing to detect noise with; one measured on
// 4 samples a task leaves room: a task at 0 of 4 may be right a tenth of
// the time. More seeds make the MDE smaller.
func TestPlan(t *testing.T) {
	sure := map[string]*grpo.EvalReport{"test": base(2000, []int{0, 2000, 0, 2000, 0, 0, 2000, 0})}
	rows, err := Plan(planConfig(t, "[1, 2, 3]"), sure, 5, 200, 1)
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 2*3 { // pass@1, speedup@1 × both−random, both−ver, random−ver
		t.Fatalf("%d rows, want 6", len(rows))
	}
	if m := mde(rows, "pass@1", "both", "random"); m > 0.01 {
		t.Errorf("rates known to be 0 or 1: pass@1 MDE %v, want < 0.01", m)
	}
	unsure := map[string]*grpo.EvalReport{"test": base(4, []int{0, 0, 0, 0, 0, 0, 0, 0})}
	rows, err = Plan(planConfig(t, "[1, 2, 3]"), unsure, 20, 200, 1)
	if err != nil {
		t.Fatal(err)
	}
	if m := mde(rows, "pass@1", "both", "random"); m < 0.02 {
		t.Errorf("0 of 4 correct on every task: pass@1 MDE %v, want ≥ 0.02 (the true rates are uncertain)", m)
	}
	noisy := map[string]*grpo.EvalReport{"test": base(4, []int{1, 2, 0, 3, 1, 0, 2, 1})}
	few, err := Plan(planConfig(t, "[1, 2, 3]"), noisy, 20, 400, 1)
	if err != nil {
		t.Fatal(err)
	}
	many, err := Plan(planConfig(t, "[1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]"), noisy, 20, 400, 1)
	if err != nil {
		t.Fatal(err)
	}
	f, m := mde(few, "pass@1", "both", "random"), mde(many, "pass@1", "both", "random")
	// pass@1 is about 0.31 per sample; with 3 seeds × 8 tasks × 10 samples
	// a difference of a few points is noise.
	if f <= 0.03 || f > 0.5 || m >= f {
		t.Errorf("pass@1 both − random MDE: %v with 3 seeds, %v with 12; want 0.03 < 3 seeds' ≤ 0.5 and 12 seeds' smaller", f, m)
	}
	var b strings.Builder
	WritePlan(&b, planConfig(t, "[1, 2, 3]"), few, map[string]string{"test": "eval-sft-test.json"}, noisy, 20, "cudaperf ablate plan")
	for _, want := range []string{"| test | pass@1 (primary) | both − random |", "lower bounds", "`eval-sft-test.json` (, : 8 tasks × 4 samples)"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("plan page lacks %q:\n%s", want, b.String())
		}
	}

	bad := base(4, []int{1, 2})
	bad.Tasks[1].Correct = 3
	if _, err := Plan(planConfig(t, "[1, 2]"), map[string]*grpo.EvalReport{"test": bad}, 2, 10, 1); err == nil || !strings.Contains(err.Error(), "task b") {
		t.Errorf("inconsistent base: error %v, want one naming task b", err)
	}
	if _, err := Plan(planConfig(t, "[1, 2]"), map[string]*grpo.EvalReport{"train": bad}, 2, 10, 1); err == nil {
		t.Error("no base for the config's sides: no error")
	}
}
