package grpo

import (
	"context"
	"errors"
	"math"
	"strings"
	"sync/atomic"
	"testing"
	"time"

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
	out, err := Judge(context.Background(), cb, sc, JudgeOptions{Concurrency: 2, Seed: 1, Profile: bench.ProfileRL}, tasks, texts)
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

// hangingBench never answers a candidate whose code holds "spin" (a
// compile or a run that does not end) until its context is cancelled,
// answers the others as compiled and correct, and fails every candidate
// holding "broken" as a plugin would that cannot work.
type hangingBench struct {
	cancelled atomic.Int64
	// shortest is the shortest plugin request limit a call was given
	// (pluginhost.RequestTimeout), in nanoseconds; 0 before any call.
	shortest atomic.Int64
}

func (h *hangingBench) Evaluate(ctx context.Context, req pluginhost.EvalRequest) (*pluginhost.Evaluation, error) {
	d := int64(pluginhost.RequestTimeout(ctx))
	for {
		old := h.shortest.Load()
		if (old != 0 && old <= d) || h.shortest.CompareAndSwap(old, d) {
			break
		}
	}
	switch {
	case strings.Contains(string(req.Source), "spin"):
		<-ctx.Done()
		h.cancelled.Add(1)
		return nil, ctx.Err()
	case strings.Contains(string(req.Source), "broken"):
		return nil, errors.New("plugin cudaperf-benchmarker: no GPU")
	}
	return &pluginhost.Evaluation{Compiled: true, Configs: []pluginhost.ConfigOutcome{{Name: "large", Passed: true, Speedup: 2}}, GeomeanSpeedup: 2}, nil
}

// TestJudgeStopsAStuckCandidate: a candidate that gets no answer within the
// candidate limit is cancelled and judged as not compiled, with feedback
// that says so, while the batch's other candidates keep their results; a
// benchmarker error is still the batch's failure.
func TestJudgeStopsAStuckCandidate(t *testing.T) {
	a := &Task{Task: &task.Task{Name: "a", Dir: "suite/a"}}
	ok := "```cuda\n__global__ void k(float *x) { x[0] = 1; }\n```"
	spin := "```cuda\n__global__ void spin(float *x) { while (1) {} }\n```"
	hb := &hangingBench{}
	o := JudgeOptions{Concurrency: 2, Seed: 1, Profile: bench.ProfileRL, CandidateTimeout: 50 * time.Millisecond}
	out, err := Judge(context.Background(), hb, nil, o, []*Task{a, a, a}, []string{ok, spin, ok + "\n"})
	if err != nil {
		t.Fatalf("a stuck candidate failed the batch: %v", err)
	}
	if hb.cancelled.Load() != 1 {
		t.Errorf("%d stuck evaluations cancelled; want 1", hb.cancelled.Load())
	}
	if s := out[1]; s.Stopped != o.CandidateTimeout || s.Eval == nil || s.Eval.Compiled || s.Outcome.Compiled || !s.Outcome.HasCode {
		t.Errorf("stuck candidate: stopped %v, evaluation %+v, outcome %+v; want stopped at the limit, judged as code that did not compile", s.Stopped, s.Eval, s.Outcome)
	}
	if fb := out[1].Feedback(); !strings.Contains(fb, "stopped after 50ms") {
		t.Errorf("stuck candidate's feedback %q does not say it was stopped", fb)
	}
	for _, i := range []int{0, 2} {
		if !out[i].Correct() || out[i].Stopped != 0 {
			t.Errorf("candidate %d: correct %v, stopped %v; want its own result", i, out[i].Correct(), out[i].Stopped)
		}
	}
	// Each request may outlast the candidate limit, whatever the host's
	// --plugin-timeout (1 minute by default) says: the candidate's own
	// deadline stops it, not the host calling the plugin hung.
	if d := time.Duration(hb.shortest.Load()); d <= o.CandidateTimeout {
		t.Errorf("a benchmark request's plugin limit is %v; want it past the candidate limit %v", d, o.CandidateTimeout)
	}
	// Candidates stopped in a row, as many as are in flight, with no answer
	// between them: the benchmarker is silent, and the batch fails saying so.
	spin2 := strings.Replace(spin, "while (1)", "while (2)", 1)
	spin3 := strings.Replace(spin, "while (1)", "while (3)", 1)
	_, err = Judge(context.Background(), hb, nil, o, []*Task{a, a, a, a}, []string{ok, spin, spin2, spin3})
	if err == nil || !strings.Contains(err.Error(), "answered none of 2 candidates in a row") || !strings.Contains(err.Error(), "candidate_timeout") {
		t.Errorf("a silent benchmarker: Judge's error %v; want the batch failed, naming the streak and the limit to raise", err)
	}
	// Fewer stuck candidates than are in flight: the benchmarker answered
	// the others, and the stuck ones are scored as stopped.
	o3 := o
	o3.Concurrency = 3
	out, err = Judge(context.Background(), hb, nil, o3, []*Task{a, a, a}, []string{spin, ok, spin2})
	if err != nil || out[0].Stopped == 0 || out[2].Stopped == 0 || !out[1].Correct() {
		t.Errorf("2 stuck of 3 in flight: err %v, stopped %v %v, the other correct %v; want no error, both stopped", err, out[0].Stopped, out[2].Stopped, out[1].Correct())
	}
	broken := "```cuda\n__global__ void broken(float *x) {}\n```"
	if _, err := Judge(context.Background(), hb, nil, o, []*Task{a, a}, []string{ok, broken}); err == nil || !strings.Contains(err.Error(), "no GPU") {
		t.Errorf("a benchmarker error: Judge's error %v; want the batch to fail with it", err)
	}
}
