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
	// CandidateTimeout bounds one candidate's evaluation (0:
	// DefaultCandidateTimeout; see JudgeOptions).
	CandidateTimeout time.Duration
	// Bootstrap resamples for the confidence intervals (default 2000).
	Bootstrap int
	// Profile is the benchmarker's evaluation profile (default report:
	// every configuration at full rigour, as a reported number deserves).
	Profile bench.Profile
	// Turns is the attempts per sample (default 1). Each attempt after the
	// first answers the training loop's refinement prompt (Refine) with
	// the previous attempt's feedback, and a sample counts its best
	// attempt: a correct one before an incorrect one, then the fastest.
	Turns int
}

func (o EvalOptions) turns() int { return max(1, o.Turns) }

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
	// TurnCorrect[t] is the fraction of samples with a correct attempt
	// among their first t+1 (one value per turn; the last is what the
	// tasks' Correct counts say).
	TurnCorrect []float64 `json:"turn_correct"`
	// FreshCorrect[t] (with Turns > 1) is the control for TurnCorrect[t]:
	// the fraction expected correct had each sample's t+1 attempts been
	// fresh first attempts instead of refinements, pass@(t+1) of the
	// first attempts (the unbiased estimator, per task, then the mean).
	// As long as there are samples to estimate it from (t+1 ≤ N).
	FreshCorrect []float64 `json:"fresh_correct,omitempty"`
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
	// Turn is the attempt (0: the first answer; t: the t-th refinement).
	Turn int `json:"turn"`
}

// Protocol is the text printed with the numbers.
func (o EvalOptions) Protocol() string {
	attempts := "one attempt each (no refinement turns)"
	if t := o.turns(); t > 1 {
		attempts = fmt.Sprintf("%d attempts each (every attempt after the first answers the training loop's refinement prompt with the previous attempt's feedback: compiler errors, failed configurations, speedup, features); a sample counts its best attempt (correct before incorrect, then the fastest)", t)
	}
	return fmt.Sprintf("protocol: benchmarker profile %s; %d samples per task (temperature %g, top_p %g, max %d tokens, seed %d), %s, %d few-shot example(s) from the train split; "+
		"pass@k is the unbiased estimator 1 − C(n−c,k)/C(n,k) averaged over tasks; "+
		"speedup@k is the expected speedup of the fastest correct candidate among k drawn without replacement, "+
		"over %s, with a task whose k candidates all fail (or whose correct ones are slower than the reference) counted as 1× (the reference is kept), then the geometric mean over tasks; "+
		"fast_p (KernelBench) is the per-task fraction of samples that are correct and faster than p× a baseline, averaged over tasks; "+
		"intervals are 95%% percentile bootstraps over tasks (%d resamples)",
		orReport(o.Profile), o.N, o.Sampling.Temperature, o.Sampling.TopP, o.Sampling.MaxTokens, o.Seed, attempts, o.FewShot, o.baseline(), o.Bootstrap)
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

// Evaluate samples N candidates per task and judges them, Turns attempts
// each; progress is told about its stages (generate, judge per turn) as
// done/(2·Turns).
func Evaluate(ctx context.Context, pol Policy, b Benchmarker, s Scorer, o EvalOptions, progress func(done, total int)) (*EvalReport, error) {
	if o.Bootstrap == 0 {
		o.Bootstrap = 2000
	}
	for _, k := range o.Ks {
		if k < 1 || k > o.N {
			return nil, fmt.Errorf("grpo: eval: k = %d needs 1 ≤ k ≤ n = %d samples per task", k, o.N)
		}
	}
	if o.Profile == "" {
		o.Profile = bench.ProfileReport
	}
	info, err := pol.Describe(ctx)
	if err != nil {
		return nil, err
	}
	rep := &EvalReport{Policy: info.Name + " " + info.Version, Model: info.Model, Protocol: o.Protocol(), FastP: map[string]Estimate{}}
	turns, stages := o.turns(), 2*o.turns()
	tell := func(done int) {
		if progress != nil {
			progress(done, stages)
		}
	}
	tell(0)
	// hist[i*N+k] are sample k of task i's attempts, in turn order.
	type attempt struct {
		text string
		j    Judged
	}
	hist := make([][]attempt, len(o.Tasks)*o.N)
	for turn := range turns {
		// One Generate call for every prompt of the turn (a GPU policy
		// batches them), then one concurrent judging of every answer. The
		// first turn samples N answers to each task's prompt; a
		// refinement, one answer to each sample's own prompt.
		var prompts []pluginhost.Prompt
		for i, t := range o.Tasks {
			ex := FewShot(t, o.Train, o.FewShot)
			if turn == 0 {
				prompts = append(prompts, pluginhost.Prompt{ID: t.Name + ":eval", Messages: Prompt(t, ex)})
				continue
			}
			for k := range o.N {
				last := hist[i*o.N+k][turn-1]
				prompts = append(prompts, pluginhost.Prompt{ID: fmt.Sprintf("%s:eval:t%d:m%d", t.Name, turn, k),
					Messages: Refine(t, ex, last.text, last.j.Feedback())})
			}
		}
		n := o.N
		if turn > 0 {
			n = 1
		}
		sp := o.Sampling
		sp.Seed = int64(o.Seed%(1<<31))*1_000_003 + int64(turn)
		start := time.Now()
		groups, err := pol.Generate(ctx, prompts, n, sp)
		if err != nil {
			return nil, fmt.Errorf("grpo: eval: turn %d: %w", turn+1, err)
		}
		rep.Cost.GenerateSeconds += time.Since(start).Seconds()
		tell(2*turn + 1)
		// Answers in sample order (task i's sample k at i*N+k) either way.
		var tasks []*Task
		var texts []string
		for i, t := range o.Tasks {
			for k := range o.N {
				var c pluginhost.Completion
				if turn == 0 {
					c = groups[i][k]
				} else {
					c = groups[i*o.N+k][0]
				}
				tasks, texts = append(tasks, t), append(texts, c.Text)
				rep.Cost.CompletionTokens += c.CompletionTokens
				if c.FinishReason == "length" {
					rep.Cost.Truncated++
				}
			}
		}
		start = time.Now()
		js, err := Judge(ctx, b, s, JudgeOptions{Concurrency: o.Concurrency, Seed: int64(o.Seed), Profile: o.Profile, CandidateTimeout: o.CandidateTimeout}, tasks, texts)
		if err != nil {
			return nil, fmt.Errorf("grpo: eval: %w", err)
		}
		rep.Cost.JudgeSeconds += time.Since(start).Seconds()
		for x := range js {
			hist[x] = append(hist[x], attempt{texts[x], js[x]})
		}
		tell(2*turn + 2)
	}
	rep.TurnCorrect = make([]float64, turns)
	if turns > 1 {
		rep.FreshCorrect = make([]float64, min(turns, o.N))
	}
	for i, t := range o.Tasks {
		te := TaskEval{Task: t.Name, Side: t.Side, N: o.N, Baseline: t.Baseline}
		if len(t.Variants) > 0 {
			te.Best = t.Variants[0].Speedup
		}
		for k := range o.N {
			h := hist[i*o.N+k]
			for turn, a := range h {
				j := a.j
				rep.Samples = append(rep.Samples, EvalSample{Task: t.Name, Index: k, Turn: turn, Completion: a.text, HasCode: j.HasCode,
					NoCode: j.NoCode, Compiled: j.Eval != nil && j.Eval.Compiled, Correct: j.Correct(), Speedup: j.Speedup(), Feedback: j.Feedback()})
			}
			// The sample's best attempt: the fastest correct one, else
			// the last (what the sample ended with).
			best := &h[len(h)-1].j
			solved := false // a correct attempt so far
			for turn := range h {
				j := &h[turn].j
				if j.Correct() && (!best.Correct() || j.Speedup() > best.Speedup()) {
					best = j
				}
				solved = solved || j.Correct()
				if solved {
					rep.TurnCorrect[turn]++
				}
			}
			if !best.HasCode {
				te.NoCode++
			}
			if best.Eval != nil && best.Eval.Compiled {
				te.Compiled++
			}
			if best.Correct() {
				te.Correct++
			}
			te.Speedups = append(te.Speedups, best.Speedup())
		}
		firstCorrect := 0
		for k := range o.N {
			if hist[i*o.N+k][0].j.Correct() {
				firstCorrect++
			}
		}
		for x := range rep.FreshCorrect {
			rep.FreshCorrect[x] += PassAtK(o.N, firstCorrect, x+1) / float64(len(o.Tasks))
		}
		rep.Tasks = append(rep.Tasks, te)
	}
	if n := len(o.Tasks) * o.N; n > 0 {
		for t := range rep.TurnCorrect {
			rep.TurnCorrect[t] /= float64(n)
		}
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
