package grpo

import (
	"context"
	"math"
	"sync/atomic"
	"testing"

	"github.com/cudaperf/cudaperf/bench"
	"github.com/cudaperf/cudaperf/bench/task"
	"github.com/cudaperf/cudaperf/host/pluginhost"
)

// countingBench answers every candidate as compiled and correct, with a
// speedup that differs per call, and counts the calls.
type countingBench struct{ calls atomic.Int64 }

func (c *countingBench) Evaluate(ctx context.Context, req pluginhost.EvalRequest) (*pluginhost.Evaluation, error) {
	n := c.calls.Add(1)
	s := float64(n)
	return &pluginhost.Evaluation{Compiled: true, Configs: []pluginhost.ConfigOutcome{{Name: "large", Passed: true, Speedup: s}}, GeomeanSpeedup: s}, nil
}

// TestJudgeSharesIdenticalCandidates: identical code for the same task is
// measured once and its evaluation shared (same outcome, marked Shared);
// the same code for another task, and different code, are measured apart.
func TestJudgeSharesIdenticalCandidates(t *testing.T) {
	a := &Task{Task: &task.Task{Name: "a", Dir: "suite/a"}}
	b := &Task{Task: &task.Task{Name: "b", Dir: "suite/b"}}
	k1 := "```cuda\n__global__ void k1(float *x) {}\n```"
	k2 := "```cuda\n__global__ void k2(float *x) {}\n```"
	tasks := []*Task{a, a, a, b, a, a}
	texts := []string{k1, k2, k1, k1, "no code here", k1}
	cb := &countingBench{}
	sc := &countingScorer{}
	out, err := Judge(context.Background(), cb, sc, 2, 1, bench.ProfileRL, tasks, texts)
	if err != nil {
		t.Fatal(err)
	}
	if n := cb.calls.Load(); n != 3 {
		t.Errorf("%d evaluations; want 3 (k1 and k2 for a, k1 for b)", n)
	}
	for _, i := range []int{2, 5} {
		if !out[i].Shared || out[i].Eval != out[0].Eval || out[i].Outcome != out[0].Outcome {
			t.Errorf("candidate %d (k1 for a again): shared %v, evaluation %p, want candidate 0's %p", i, out[i].Shared, out[i].Eval, out[0].Eval)
		}
	}
	for _, i := range []int{0, 1, 3} {
		if out[i].Shared || out[i].Eval == nil {
			t.Errorf("candidate %d: shared %v, evaluated %v; want measured itself", i, out[i].Shared, out[i].Eval != nil)
		}
	}
	if sc.sources != 3 {
		t.Errorf("%d sources analyzed; want 3 (duplicates share their first's structure)", sc.sources)
	}
	for _, i := range []int{2, 5} {
		if out[i].Structure.Str != out[0].Structure.Str || math.IsNaN(out[i].Structure.Str) {
			t.Errorf("candidate %d: Rstr %v, want candidate 0's %v", i, out[i].Structure.Str, out[0].Structure.Str)
		}
	}
	if out[3].Eval == out[0].Eval {
		t.Error("the same code for another task reused the first task's evaluation")
	}
	if out[4].HasCode || out[4].Shared || out[4].Eval != nil {
		t.Errorf("candidate without code: %+v", out[4])
	}
}

// countingScorer gives each source a distinct Rstr and counts the sources
// it was asked about.
type countingScorer struct{ sources int }

func (c *countingScorer) Structure(_ context.Context, _ *Task, srcs []string) ([]Structure, error) {
	out := make([]Structure, len(srcs))
	for i := range srcs {
		c.sources++
		out[i] = Structure{Str: float64(c.sources)}
	}
	return out, nil
}

func (c *countingScorer) Ranked() bool { return true }
