package grpo

import (
	"context"
	"fmt"
	"math"
	"time"

	"github.com/cudaperf/cudaperf/bench"
	"github.com/cudaperf/cudaperf/host/stats"

	"github.com/cudaperf/cudaperf/host/pluginhost"
)

// EvalOptions are the protocol of an evaluation.
type EvalOptions struct {
	Tasks    []*Task
	Train    []*Task // few-shot pool
	FewShot  int
	N        int   // samples per task (≥ max K)
	Ks       []int // e.g. 1, 3, 5
	Sampling pluginhost.Sampling
	Seed     uint64
	// Concurrency of the benchmarker calls.
	Concurrency int
	// Bootstrap resamples for the confidence intervals (default 2000).
	Bootstrap int
	// Profile is the benchmarker's evaluation profile (default report:
	// every configuration at full rigour, as a reported number deserves).
	Profile bench.Profile
}

// TaskEval is one task's samples.
type TaskEval struct {
	Task     string    `json:"task"`
	Side     string    `json:"side"`
	N        int       `json:"n"`
	Correct  int       `json:"correct"`
	Compiled int       `json:"compiled"`
	NoCode   int       `json:"no_code"`
	Speedups []float64 `json:"speedups"` // per sample; 0 when not correct
	Baseline float64   `json:"baseline"` // geomean of the known variants' speedups
	Best     float64   `json:"best_known"`
}

// Estimate is a number with its bootstrap interval over tasks.
type Estimate struct {
	Value float64 `json:"value"`
	Lo    float64 `json:"lo"`
	Hi    float64 `json:"hi"`
}

// AtK are the metrics at one k.
type AtK struct {
	K       int      `json:"k"`
	PassAtK Estimate `json:"pass_at_k"`
	// Speedup is the geometric mean over tasks of the expected speedup
	// (over the C reference) of the fastest correct candidate among k; a
	// task whose k candidates are all wrong counts 1× (the reference is
	// kept), and a correct kernel slower than the reference counts 1× too.
	Speedup Estimate `json:"geomean_speedup"`
}

// EvalReport is an evaluation's result.
type EvalReport struct {
	Policy   string     `json:"policy"`
	Model    string     `json:"model"`
	Protocol string     `json:"protocol"`
	Tasks    []TaskEval `json:"tasks"`
	AtK      []AtK      `json:"at_k"`
	// FastP: KernelBench's fast_p, the fraction of (task, sample) pairs
	// that are correct and faster than p× the baseline, averaged per task.
	// Keys: "fast_0" (= correctness), "fast_1_ref" (faster than the C
	// reference), "fast_1_known" (faster than the known variants' geomean).
	FastP map[string]Estimate `json:"fast_p"`
	// Cost is where the evaluation's time went; generation and judging
	// run one after the other (on one GPU they must not overlap).
	Cost EvalCost `json:"cost"`
	// Samples are every completion and how it was judged, in task order
	// (not in the report's JSON: `cudaperf eval --samples` writes them).
	Samples []EvalSample `json:"-"`
}

// EvalCost is an evaluation's time by stage and its generated tokens.
type EvalCost struct {
	GenerateSeconds  float64 `json:"generate_seconds"`
	JudgeSeconds     float64 `json:"judge_seconds"`
	CompletionTokens int     `json:"completion_tokens"`
	// Truncated counts completions that stopped at the token limit
	// (finish reason "length"): a limit too small for the answers.
	Truncated int `json:"truncated"`
}

// EvalSample is one sampled completion and its verdict: what a person reads
// to see why a model's kernels fail (one line of `cudaperf eval --samples`).
type EvalSample struct {
	Task       string  `json:"task"`
	Index      int     `json:"index"`
	Completion string  `json:"completion"`
	HasCode    bool    `json:"has_code"`
	NoCode     string  `json:"no_code,omitempty"`
	Compiled   bool    `json:"compiled"`
	Correct    bool    `json:"correct"`
	Speedup    float64 `json:"speedup,omitempty"`
	// Feedback is what a refinement turn would tell the policy: the
	// trimmed compiler errors, the failed configurations, the speedup.
	Feedback string `json:"feedback"`
}

// Protocol is the text printed with the numbers.
func (o EvalOptions) Protocol() string {
	return fmt.Sprintf("protocol: benchmarker profile %s; %d samples per task (temperature %g, top_p %g, max %d tokens, seed %d), one attempt each (no refinement turns), %d few-shot example(s) from the train split; "+
		"pass@k is the unbiased estimator 1 − C(n−c,k)/C(n,k) averaged over tasks; "+
		"speedup@k is the expected speedup of the fastest correct candidate among k drawn without replacement, "+
		"over %s, with a task whose k candidates all fail (or whose correct ones are slower than the reference) counted as 1× (the reference is kept), then the geometric mean over tasks; "+
		"fast_p (KernelBench) is the per-task fraction of samples that are correct and faster than p× a baseline, averaged over tasks; "+
		"intervals are 95%% percentile bootstraps over tasks (%d resamples)",
		orReport(o.Profile), o.N, o.Sampling.Temperature, o.Sampling.TopP, o.Sampling.MaxTokens, o.Seed, o.FewShot, o.baseline(), o.Bootstrap)
}

// baseline names what speedups are over, by the tasks' kind.
func (o EvalOptions) baseline() string {
	const c, torch = "the C reference (gcc -O2) on the primary configuration", "eager PyTorch (CUDA events, L2 flushed)"
	kinds := map[string]bool{}
	for _, t := range o.Tasks {
		kinds[t.Kind] = true
	}
	switch {
	case len(kinds) == 1 && kinds[KindTorch2CUDA]:
		return torch
	case kinds[KindTorch2CUDA]:
		return "each task's reference (" + c + "; " + torch + " for torch2cuda tasks)"
	}
	return c
}

// Evaluate samples N candidates per task and judges them; progress is told
// about its two stages (generate, judge) as done/2.
func Evaluate(ctx context.Context, pol Policy, b Benchmarker, s Scorer, o EvalOptions, progress func(done, total int)) (*EvalReport, error) {
	if o.Bootstrap == 0 {
		o.Bootstrap = 2000
	}
	for _, k := range o.Ks {
		if k < 1 || k > o.N {
			return nil, fmt.Errorf("grpo: eval: k = %d needs 1 ≤ k ≤ n = %d samples per task", k, o.N)
		}
	}
	info, err := pol.Describe(ctx)
	if err != nil {
		return nil, err
	}
	rep := &EvalReport{Policy: info.Name + " " + info.Version, Model: info.Model, Protocol: o.Protocol(), FastP: map[string]Estimate{}}
	// One Generate call for every task (a GPU policy batches them), then
	// one concurrent judging of every sample.
	prompts := make([]pluginhost.Prompt, len(o.Tasks))
	for i, t := range o.Tasks {
		prompts[i] = pluginhost.Prompt{ID: t.Name + ":eval", Messages: Prompt(t, FewShot(t, o.Train, o.FewShot))}
	}
	sp := o.Sampling
	sp.Seed = int64(o.Seed%(1<<31)) * 1_000_003
	if progress != nil {
		progress(0, 2)
	}
	start := time.Now()
	groups, err := pol.Generate(ctx, prompts, o.N, sp)
	if err != nil {
		return nil, fmt.Errorf("grpo: eval: %w", err)
	}
	rep.Cost.GenerateSeconds = time.Since(start).Seconds()
	if progress != nil {
		progress(1, 2)
	}
	var tasks []*Task
	var texts []string
	for i, t := range o.Tasks {
		for _, c := range groups[i] {
			tasks, texts = append(tasks, t), append(texts, c.Text)
			rep.Cost.CompletionTokens += c.CompletionTokens
			if c.FinishReason == "length" {
				rep.Cost.Truncated++
			}
		}
	}
	if o.Profile == "" {
		o.Profile = bench.ProfileReport
	}
	start = time.Now()
	js, err := Judge(ctx, b, s, o.Concurrency, int64(o.Seed), o.Profile, tasks, texts)
	if err != nil {
		return nil, fmt.Errorf("grpo: eval: %w", err)
	}
	rep.Cost.JudgeSeconds = time.Since(start).Seconds()
	for i, t := range o.Tasks {
		te := TaskEval{Task: t.Name, Side: t.Side, N: o.N, Baseline: t.Baseline}
		if len(t.Variants) > 0 {
			te.Best = t.Variants[0].Speedup
		}
		for k, j := range js[i*o.N : (i+1)*o.N] {
			rep.Samples = append(rep.Samples, EvalSample{Task: t.Name, Index: k, Completion: texts[i*o.N+k], HasCode: j.HasCode,
				NoCode: j.NoCode, Compiled: j.Eval != nil && j.Eval.Compiled, Correct: j.Correct(), Speedup: j.Speedup(), Feedback: j.Feedback()})
			if !j.HasCode {
				te.NoCode++
			}
			if j.Eval != nil && j.Eval.Compiled {
				te.Compiled++
			}
			if j.Correct() {
				te.Correct++
			}
			te.Speedups = append(te.Speedups, j.Speedup())
		}
		rep.Tasks = append(rep.Tasks, te)
	}
	if progress != nil {
		progress(2, 2)
	}
	rep.summarize(o)
	return rep, nil
}

func (r *EvalReport) summarize(o EvalOptions) {
	n := len(r.Tasks)
	est := func(perTask func(te *TaskEval) float64, geo bool) Estimate {
		vals := make([]float64, n)
		for i := range r.Tasks {
			vals[i] = perTask(&r.Tasks[i])
		}
		agg := func(idx []int) float64 {
			var s float64
			for _, i := range idx {
				s += vals[i]
			}
			m := s / float64(len(idx))
			if geo {
				return math.Exp(m)
			}
			return m
		}
		all := make([]int, n)
		for i := range all {
			all[i] = i
		}
		lo, hi := stats.Bootstrap(n, o.Bootstrap, 0.95, o.Seed, agg)
		return Estimate{Value: agg(all), Lo: lo, Hi: hi}
	}
	for _, k := range o.Ks {
		r.AtK = append(r.AtK, AtK{K: k,
			PassAtK: est(func(te *TaskEval) float64 { return PassAtK(te.N, te.Correct, k) }, false),
			Speedup: est(func(te *TaskEval) float64 {
				logs := make([]float64, len(te.Speedups))
				for i, s := range te.Speedups {
					logs[i] = math.Log(max(1, s))
				}
				return ExpectedMaxOfK(logs, k)
			}, true),
		})
	}
	frac := func(ok func(te *TaskEval, s float64) bool) func(te *TaskEval) float64 {
		return func(te *TaskEval) float64 {
			c := 0
			for _, s := range te.Speedups {
				if s > 0 && ok(te, s) {
					c++
				}
			}
			return float64(c) / float64(max(1, te.N))
		}
	}
	r.FastP["fast_0"] = est(frac(func(*TaskEval, float64) bool { return true }), false)
	r.FastP["fast_1_ref"] = est(frac(func(_ *TaskEval, s float64) bool { return s > 1 }), false)
	r.FastP["fast_1_known"] = est(frac(func(te *TaskEval, s float64) bool { return te.Baseline > 0 && s > te.Baseline }), false)
}

func orReport(p bench.Profile) bench.Profile {
	if p == "" {
		return bench.ProfileReport
	}
	return p
}
