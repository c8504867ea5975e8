package grpo

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/cudaperf/cudaperf/bench"
	"github.com/cudaperf/cudaperf/host/pluginhost"
	"github.com/cudaperf/cudaperf/host/reward"
)

// Benchmarker evaluates candidates; a benchmarker plugin (pluginhost) is
// one, a test's fake is another.
type Benchmarker interface {
	Evaluate(ctx context.Context, req pluginhost.EvalRequest) (*pluginhost.Evaluation, error)
}

// Structure is what the analyzers and the ranker say about one source.
type Structure struct {
	// Str is the ranker's score; NaN when there is none (no ranker, or the
	// analyzers could not read the source).
	Str float64
	// Features are the feature values, keyed by name (per-kernel values
	// as the analyzer aggregates them for the ranker).
	Features map[string]float64
	// Diagnostics are the analyzers' messages, most severe first.
	Diagnostics []string
}

// Scorer computes the structure of a batch of candidate sources for a task.
type Scorer interface {
	Structure(ctx context.Context, t *Task, sources []string) ([]Structure, error)
	// Ranked reports whether Structure gives Rstr (a ranker is set), not
	// only features and diagnostics.
	Ranked() bool
}

// Policy is the policy plugin's client (pluginhost.PolicyClient).
type Policy interface {
	Describe(ctx context.Context) (pluginhost.PolicyInfo, error)
	Generate(ctx context.Context, prompts []pluginhost.Prompt, group int, s pluginhost.Sampling) ([][]pluginhost.Completion, error)
	Update(ctx context.Context, step int64, rollouts []pluginhost.Rollout, hyper map[string]float64) (map[string]float64, error)
	Save(ctx context.Context, path string) error
	// Load restores what Save wrote: everything to resume a run, the
	// weights alone (weightsOnly) to start one from them.
	Load(ctx context.Context, path string, weightsOnly bool) error
}

// Judged is one candidate after code extraction, benchmarking and
// structural scoring.
type Judged struct {
	Task    *Task
	Code    string
	HasCode bool
	// NoCode says why no code was extracted.
	NoCode string
	Eval   *pluginhost.Evaluation // nil without code
	// Shared says that Eval was measured once for an identical candidate
	// (same task, same code) earlier in the batch and is shared.
	Shared    bool
	Outcome   reward.Outcome
	Structure Structure
	// Stopped says that the benchmarker gave no answer within the
	// candidate limit (JudgeOptions.CandidateTimeout): its evaluation was
	// cancelled, and the candidate scored as one that did not compile.
	Stopped time.Duration
}

// Correct reports whether the candidate passed every configuration and
// was not refused.
func (j *Judged) Correct() bool { return j.Outcome.Correct() }

// Speedup is the primary configuration's speedup of a correct candidate
// (0 otherwise).
func (j *Judged) Speedup() float64 {
	if !j.Correct() {
		return 0
	}
	return j.Outcome.Speedup
}

// outcome turns an evaluation into the reward's terms. A run-level refusal
// (a cheat, a crash between configurations) fails every configuration.
func outcome(t *Task, ev *pluginhost.Evaluation) reward.Outcome {
	o := reward.Outcome{HasCode: true, Compiled: ev.Compiled, Baseline: t.Baseline, Total: len(ev.Configs)}
	for _, c := range ev.Configs {
		if !c.Passed {
			o.Failed++
		}
		if c.Name == t.Primary {
			o.Speedup, o.CV = c.Speedup, c.CV
		}
	}
	if len(ev.Reasons) > 0 {
		o.Failed = o.Total
	}
	if o.Speedup == 0 {
		o.Speedup = ev.GeomeanSpeedup
	}
	return o
}

// DefaultCandidateTimeout bounds one candidate's evaluation when
// JudgeOptions leave it 0. A step's whole batch takes 10-25 s on an H200
// (bench/h200/2026-12-03-lease6), a candidate a few seconds; a candidate
// past this limit is stuck (a compile or a run that does not end), and
// without the limit it would hold the step for as long as the host waits
// for the plugin (20 minutes in bench/rl/device.sh).
const DefaultCandidateTimeout = 3 * time.Minute

// JudgeOptions configure Judge.
type JudgeOptions struct {
	Concurrency int // benchmark calls in flight (< 1: 1)
	Seed        int64
	// Profile is the benchmarker's evaluation profile: bench.ProfileRL in
	// the loop (the task's RL configurations, fewer timed calls, the same
	// checks), bench.ProfileReport for a reported evaluation.
	Profile bench.Profile
	// CandidateTimeout bounds one candidate's evaluation (0:
	// DefaultCandidateTimeout). A candidate past it is cancelled and scored
	// as one that did not compile (Judged.Stopped says so): one stuck
	// candidate does not stop the batch.
	CandidateTimeout time.Duration
}

// Judge extracts, benchmarks and scores completions; texts[i] is a
// completion for tasks[i]. Benchmark calls run concurrently
// (o.Concurrency at a time); the structural scores are asked per task, in
// one call each. The results are in input order whatever the completion
// order, so a run is reproducible. A plugin failure fails the whole batch:
// a step is either scored completely or not at all (and then resumed from
// the checkpoint). A candidate that outlasts o.CandidateTimeout is not a
// plugin failure: it is cancelled and judged as not compiled, and the
// host's request limit (--plugin-timeout) does not apply to it. As many
// such candidates in a row as are in flight, with no answer between them,
// are: the batch fails.
func Judge(ctx context.Context, b Benchmarker, s Scorer, o JudgeOptions, tasks []*Task, texts []string) ([]Judged, error) {
	conc, seed, profile := o.Concurrency, o.Seed, o.Profile
	limit := o.CandidateTimeout
	if limit <= 0 {
		limit = DefaultCandidateTimeout
	}
	out := make([]Judged, len(texts))
	for i, text := range texts {
		code, ok, why := ExtractFor(tasks[i], text)
		out[i] = Judged{Task: tasks[i], Code: code, HasCode: ok, NoCode: why, Structure: Structure{Str: math.NaN()}}
	}
	// A small policy often writes the same code more than once in a group:
	// each distinct (task, code) is measured and analyzed once and its
	// evaluation and structure shared, so identical candidates get
	// identical rewards and the GPU and analyzers are spent on distinct ones.
	first := map[[2]string]int{}
	dup := make([]int, len(out)) // index of the candidate measured for it; -1: itself
	for i := range out {
		dup[i] = -1
		if !out[i].HasCode {
			continue
		}
		key := [2]string{out[i].Task.Dir + "\x00" + out[i].Task.Name, out[i].Code}
		if f, ok := first[key]; ok {
			dup[i] = f
			continue
		}
		first[key] = i
	}
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	// The benchmarker's request limit is the candidate limit, whatever the
	// host's --plugin-timeout says: with the 1-minute default, a compile of
	// more than a minute would stop the plugin as hung and fail the batch,
	// and a resumed step, sampling the same candidates, would fail again.
	// The candidate's own deadline comes first; the margin only keeps the
	// host's idle timer from racing it.
	bctx := pluginhost.WithRequestTimeout(ctx, limit+candidateMargin)
	// A benchmarker that answers nothing is not a batch of stuck
	// candidates: after silentAfter candidates in a row stopped at the
	// limit with no answer between them, the batch fails. (Asking the
	// plugin whether it is alive would not tell: a deadlocked evaluator's
	// gRPC server still answers.) Candidates that really never end, that
	// many in a row, also fail it; the error says how to let the
	// benchmarker judge those itself.
	silentAfter := max(2, conc)
	var silent atomic.Int64
	var wg sync.WaitGroup
	sem := make(chan struct{}, max(1, conc))
	for i := range out {
		if !out[i].HasCode || dup[i] >= 0 {
			continue
		}
		wg.Add(1)
		go func(j *Judged) {
			defer wg.Done()
			select {
			case sem <- struct{}{}:
			case <-ctx.Done():
				return
			}
			defer func() { <-sem }()
			kind, file := "c2cuda", "candidate.cu"
			if j.Task.Kind == KindTorch2CUDA {
				kind, file = KindTorch2CUDA, "model_new.py"
			}
			cctx, stop := context.WithTimeoutCause(bctx, limit, errCandidateLimit)
			ev, err := b.Evaluate(cctx, pluginhost.EvalRequest{TaskKind: kind, TaskPath: j.Task.Dir,
				Source: []byte(j.Code), Filename: file, Seed: seed, Profile: profile})
			stop()
			if err != nil && ctx.Err() == nil && errors.Is(context.Cause(cctx), errCandidateLimit) {
				if n := silent.Add(1); n >= int64(silentAfter) {
					cancel(fmt.Errorf("the benchmarker answered none of %d candidates in a row within the candidate limit (%s): it hangs (fix or restart the plugin), or these candidates never end; "+
						"to let the benchmarker judge those, raise benchmarker.candidate_timeout (cudaperf eval --candidate-timeout) above its compile limit (CUDAPERF_COMPILE_LIMIT, default 5m)", n, limit))
					return
				}
				slog.Warn("grpo: a candidate's evaluation was stopped at the candidate limit; it is scored as not compiled",
					"task", j.Task.Name, "limit", limit, "error", err)
				j.Stopped = limit
				j.Eval = &pluginhost.Evaluation{CompileLog: fmt.Sprintf("stopped: the benchmarker gave no result within %s (a compile or a run that does not end)", limit)}
				j.Outcome = outcome(j.Task, j.Eval)
				return
			}
			if err != nil {
				cancel(fmt.Errorf("benchmark a candidate for %s: %w", j.Task.Name, err))
				return
			}
			silent.Store(0)
			j.Eval = ev
			j.Outcome = outcome(j.Task, ev)
		}(&out[i])
	}
	if s != nil {
		byTask := map[*Task][]int{}
		for i := range out {
			if out[i].HasCode && dup[i] < 0 { // a duplicate shares its first's structure too
				byTask[out[i].Task] = append(byTask[out[i].Task], i)
			}
		}
		for t, idx := range byTask {
			srcs := make([]string, len(idx))
			for k, i := range idx {
				srcs[k] = out[i].Code
			}
			st, err := s.Structure(ctx, t, srcs)
			if err != nil {
				cancel(fmt.Errorf("structural score for %s: %w", t.Name, err))
				break
			}
			for k, i := range idx {
				out[i].Structure = st[k]
			}
		}
	}
	wg.Wait()
	if err := context.Cause(ctx); err != nil {
		return nil, err
	}
	for i, f := range dup {
		if f >= 0 {
			out[i].Eval, out[i].Outcome, out[i].Structure, out[i].Shared = out[f].Eval, out[f].Outcome, out[f].Structure, true
		}
	}
	return out, nil
}

// errCandidateLimit is the cause of a candidate's cancelled context.
var errCandidateLimit = errors.New("the candidate limit")

// candidateMargin is how much longer than the candidate limit the host
// lets a benchmarker request run before it calls the plugin hung.
const candidateMargin = 30 * time.Second

// maxFeedbackLines bounds each part of the feedback, so it fits in a small
// model's context next to the task.
const maxFeedbackLines = 12

// Feedback is the user message after an attempt: what went wrong or how
// fast it was, the features and the top diagnostics.
func (j *Judged) Feedback() string {
	var b strings.Builder
	switch {
	case !j.HasCode:
		fmt.Fprintf(&b, "Your answer could not be used: %s. Answer with one ```cuda code block holding the complete .cu file.\n", j.NoCode)
	case j.Eval.NotRecorded:
		b.WriteString("Your code could not be judged: the benchmarker only knows recorded kernels. Try again.\n")
	case j.Stopped > 0:
		fmt.Fprintf(&b, "Your code was stopped after %s without a result: it did not finish compiling or running. Make sure every loop ends.\n", j.Stopped)
	case !j.Eval.Compiled:
		b.WriteString("Your code did not compile. The compiler said:\n")
		b.WriteString(trimLog(j.Eval.CompileLog))
	case !j.Correct():
		fmt.Fprintf(&b, "Your code compiled but is wrong on %d of %d size configurations:\n", j.Outcome.Failed, j.Outcome.Total)
		n := 0
		for _, c := range j.Eval.Configs {
			if !c.Passed && n < maxFeedbackLines {
				fmt.Fprintf(&b, "- %s: %s\n", c.Name, orDefault(strings.Join(c.Reasons, "; "), "wrong result"))
				n++
			}
		}
		for _, r := range j.Eval.Reasons {
			fmt.Fprintf(&b, "- refused: %s\n", r)
		}
	default:
		fmt.Fprintf(&b, "Your code is correct on all %d configurations. Speedup on the largest size: %.3g× over the C reference", j.Outcome.Total, j.Outcome.Speedup)
		if len(j.Task.Variants) > 0 {
			fmt.Fprintf(&b, " (the fastest known kernel reaches %.3g×)", j.Task.Variants[0].Speedup)
		}
		b.WriteString(".\n")
	}
	if len(j.Structure.Features) > 0 {
		names := make([]string, 0, len(j.Structure.Features))
		for k := range j.Structure.Features {
			names = append(names, k)
		}
		sort.Strings(names)
		b.WriteString("Structural features:")
		for _, k := range names {
			fmt.Fprintf(&b, " %s=%.3g", k, j.Structure.Features[k])
		}
		b.WriteString("\n")
	}
	for i, d := range j.Structure.Diagnostics {
		if i == 0 {
			b.WriteString("Diagnostics:\n")
		}
		if i == 5 {
			break
		}
		fmt.Fprintf(&b, "- %s\n", d)
	}
	if j.Correct() {
		b.WriteString("Write a faster version that stays correct.")
	} else {
		b.WriteString("Fix it and answer with the complete corrected file.")
	}
	return b.String()
}

func orDefault(s, d string) string {
	if s == "" {
		return d
	}
	return s
}

// trimLog keeps the compiler's error lines (and the line after each, which
// usually quotes the code), at most maxFeedbackLines of them.
func trimLog(log string) string {
	lines := strings.Split(log, "\n")
	var keep []string
	for i, l := range lines {
		if strings.Contains(l, "error") {
			keep = append(keep, l)
			if i+1 < len(lines) && !strings.Contains(lines[i+1], "error") && strings.TrimSpace(lines[i+1]) != "" {
				keep = append(keep, lines[i+1])
			}
		}
		if len(keep) >= maxFeedbackLines {
			break
		}
	}
	if len(keep) == 0 {
		for _, l := range lines {
			if strings.TrimSpace(l) != "" && len(keep) < maxFeedbackLines {
				keep = append(keep, l)
			}
		}
	}
	return strings.Join(keep, "\n") + "\n"
}
