package grpo

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"

	"github.com/cudaperf/cudaperf/host/pluginhost"
	"github.com/cudaperf/cudaperf/host/reward"
)

// SFTPolicy is a policy that can be fine-tuned (pluginhost.PolicyClient).
type SFTPolicy interface {
	SFT(ctx context.Context, step int64, examples []pluginhost.Rollout, hyper map[string]float64) (map[string]float64, error)
	Save(ctx context.Context, path string) error
}

// SFTOptions choose the warm start's data and schedule.
type SFTOptions struct {
	Tasks   []*Task // the tasks taught (train side only)
	Train   []*Task // few-shot pool
	FewShot int
	Epochs  int
	Batch   int // examples per Update
	// Weighting: "speed" (weight √(s/b) clipped to [0.25, 4]: a variant
	// 4× faster than the task's known-variant geomean counts twice, one
	// 4× slower half) or "uniform".
	Weighting string
	// Curriculum: "short-first" (the first epoch in order of source
	// length, simple kernels first; later epochs shuffled) or "shuffle".
	Curriculum string
	// TopK keeps only each task's k fastest variants (0: all of them, the
	// simple correct ones included).
	TopK int
	// MaxChars skips variants longer than this (0: none skipped).
	MaxChars int
	// SweepInstances keeps at most this many sweep instances per task,
	// the fastest (0: all, as for TopK; negative: none). Instances of one template differ only
	// in their #defines; taught all of them (600 of 664 examples on
	// 2026-12-02), a small model wrote template instances for every task.
	SweepInstances int
	// Refine adds up to this many refinement examples per task (0: none):
	// the loop's refinement prompt after a slow correct variant (its
	// measured speedup, features and diagnostics as feedback) answered by
	// the task's fastest variant. Taught single-turn answers only, the
	// default model compiled 1 of 512 refinement samples on the H200
	// (2026-12-03, lease 2) against 98 of 512 first attempts: it had never
	// seen a four-message prompt.
	Refine int
	// Scorer gives the refinement feedback's features and diagnostics, as
	// the loop's Judge does (nil: feedback without them).
	Scorer Scorer
	// RefineFrom are rollout files of earlier runs (rollouts/step-N.jsonl,
	// gzipped or not) whose refinement prompts after a failed attempt are
	// taught, each answered by the task's fastest taught variant: the
	// loop's own prompts with real compiler errors and wrong results, the
	// case Refine's examples (built from correct variants) cannot show and
	// that most refinements face. Only the taught (train) tasks' records
	// are used; RefinePerTask caps them per task (0: 4).
	RefineFrom    []string
	RefinePerTask int
	Seed          uint64
	Hyper         map[string]float64
	// Out receives epoch-N/ (the policy's Save), sft.jsonl and sft-loss.png.
	// It must not hold an SFT run already (CheckSFTOut).
	Out string
	// EpochDone, if set, is called as each epoch ends, once its
	// checkpoint and sft.jsonl are written, with every update so far: a
	// run of many epochs reports as it goes, and one cut short has said
	// which checkpoints it left.
	EpochDone func(epoch int, logs []SFTLog)
}

// Check refuses a schedule RunSFT cannot follow. It needs no examples or
// plugin, so a command can call it before starting anything.
func (o SFTOptions) Check() error {
	switch o.Weighting {
	case "speed", "uniform":
	default:
		return fmt.Errorf("grpo: sft: weighting %q: use speed or uniform", o.Weighting)
	}
	switch o.Curriculum {
	case "short-first", "shuffle":
	default:
		return fmt.Errorf("grpo: sft: curriculum %q: use short-first or shuffle", o.Curriculum)
	}
	if o.Epochs < 1 {
		return fmt.Errorf("grpo: sft: epochs %d: teach at least 1 epoch", o.Epochs)
	}
	if o.Batch < 1 {
		return fmt.Errorf("grpo: sft: batch %d: give at least 1 example per update", o.Batch)
	}
	if o.FewShot < 0 {
		return fmt.Errorf("grpo: sft: few-shot %d: 0 (no example) or more", o.FewShot)
	}
	return nil
}

// ErrSFTRunExists is returned when a warm start would write into a folder
// that already holds one.
var ErrSFTRunExists = errors.New("the folder already holds an SFT run")

// CheckSFTOut refuses an output folder that holds an SFT run (sft.jsonl,
// sft-loss.png or an epoch-N folder): a second run would replace some
// epochs and leave the first run's later ones beside them, one folder of
// two runs. A missing or empty folder, or one of other files, is fine.
func CheckSFTOut(dir string) error {
	entries, err := os.ReadDir(dir)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("grpo: sft: output folder %s: %w", dir, err)
	}
	last := 0
	var found []string
	for _, e := range entries {
		var n int
		switch name := e.Name(); {
		case name == "sft.jsonl" || name == "sft-loss.png":
			found = append(found, name)
		case e.IsDir() && sftEpochName(name, &n):
			last = max(last, n)
		}
	}
	if last == 0 && len(found) == 0 {
		return nil
	}
	hint := "choose another --out, or remove the folder"
	if last > 0 {
		found = append([]string{fmt.Sprintf("epoch folders up to epoch-%d", last)}, found...)
		hint += fmt.Sprintf("; to go on from a saved epoch, start a new run from it: --load %s with another --out", filepath.Join(dir, fmt.Sprintf("epoch-%d", last)))
	}
	return fmt.Errorf("grpo: sft: %s: %w (%s): %s", dir, ErrSFTRunExists, strings.Join(found, ", "), hint)
}

// sftEpochName reports whether name is epoch-N (N ≥ 1), setting *n.
func sftEpochName(name string, n *int) bool {
	rest, ok := strings.CutPrefix(name, "epoch-")
	if !ok {
		return false
	}
	v, err := strconv.Atoi(rest)
	if err != nil || v < 1 {
		return false
	}
	*n = v
	return true
}

// SFTLog is one Update of a warm start, one line of sft.jsonl.
type SFTLog struct {
	Epoch    int                `json:"epoch"`
	Update   int64              `json:"update"`
	Examples int                `json:"examples"`
	Stats    map[string]float64 `json:"stats"`
}

// SFTExamples builds the teaching examples: the prompt the loop asks, and
// a known variant as the answer; with o.Refine, also refinement turns.
func SFTExamples(ctx context.Context, o SFTOptions) ([]pluginhost.Rollout, error) {
	var out []pluginhost.Rollout
	fastest := map[string]Example{} // per taught task
	for _, t := range o.Tasks {
		if t.Side != "train" {
			return nil, fmt.Errorf("grpo: sft: task %s is on the %s side; only train tasks are taught", t.Name, t.Side)
		}
		vs := t.Variants
		if o.TopK > 0 && len(vs) > o.TopK {
			vs = vs[:o.TopK]
		}
		ex := FewShot(t, o.Train, o.FewShot)
		msgs := Prompt(t, ex)
		sweeps := 0
		var taught []Example // fastest first, as t.Variants
		for _, v := range vs {
			if o.MaxChars > 0 && len(v.Source) > o.MaxChars {
				continue
			}
			if v.Generated {
				if o.SweepInstances < 0 || o.SweepInstances > 0 && sweeps >= o.SweepInstances {
					continue
				}
				sweeps++
			}
			taught = append(taught, v)
			out = append(out, pluginhost.Rollout{Prompt: pluginhost.Prompt{ID: t.Name + ":sft:" + v.Variant, Messages: msgs},
				Completion: Answer(t, v.Source), Weight: sftWeight(o, t, v), GroupID: t.Name})
		}
		ref, err := refineExamples(ctx, o, t, ex, taught)
		if err != nil {
			return nil, err
		}
		out = append(out, ref...)
		if len(taught) > 0 {
			fastest[t.Name] = taught[0]
		}
	}
	logged, err := loggedRefinements(o, fastest)
	if err != nil {
		return nil, err
	}
	out = append(out, logged...)
	if len(out) == 0 {
		return nil, fmt.Errorf("grpo: sft: no examples (no measured variants for these tasks, or all longer than the limit)")
	}
	return out, nil
}

func sftWeight(o SFTOptions, t *Task, v Example) float64 {
	if o.Weighting == "speed" && t.Baseline > 0 {
		return max(0.25, min(4, math.Sqrt(v.Speedup/t.Baseline)))
	}
	return 1
}

// minRefineGain is how much faster the taught answer of a refinement
// example must be than the attempt it improves: a pair of near-equal
// variants would teach rewriting for its own sake.
const minRefineGain = 1.25

// refineExamples are up to o.Refine refinement turns for t: each of the
// slowest taught variants as the previous attempt, the feedback the loop
// would give it had it been measured at its recorded speedup (every RL
// configuration passed), and the fastest taught variant as the answer.
// A torch2cuda task gets none (its variants carry no per-configuration
// count to report).
func refineExamples(ctx context.Context, o SFTOptions, t *Task, ex []Example, taught []Example) ([]pluginhost.Rollout, error) {
	if o.Refine <= 0 || len(taught) < 2 || t.Kind == KindTorch2CUDA || t.Task == nil {
		return nil, nil
	}
	best := taught[0]
	var prev []Example
	for i := len(taught) - 1; i > 0 && len(prev) < o.Refine; i-- {
		if taught[i].Speedup > 0 && best.Speedup >= minRefineGain*taught[i].Speedup {
			prev = append(prev, taught[i])
		}
	}
	if len(prev) == 0 {
		return nil, nil
	}
	st := make([]Structure, len(prev))
	if o.Scorer != nil {
		srcs := make([]string, len(prev))
		for i, v := range prev {
			srcs[i] = v.Source
		}
		var err error
		if st, err = o.Scorer.Structure(ctx, t, srcs); err != nil {
			return nil, fmt.Errorf("grpo: sft: refinement feedback for %s: %w", t.Name, err)
		}
	}
	total := len(t.RLConfigs())
	var out []pluginhost.Rollout
	for i, v := range prev {
		j := Judged{Task: t, Code: v.Source, HasCode: true, Eval: &pluginhost.Evaluation{Compiled: true},
			Outcome:   reward.Outcome{HasCode: true, Compiled: true, Total: total, Speedup: v.Speedup, Baseline: t.Baseline},
			Structure: st[i]}
		msgs := Refine(t, ex, Answer(t, v.Source), j.Feedback())
		out = append(out, pluginhost.Rollout{Prompt: pluginhost.Prompt{ID: t.Name + ":sft-refine:" + v.Variant + ">" + best.Variant, Messages: msgs},
			Completion: Answer(t, best.Source), Weight: sftWeight(o, t, best), GroupID: t.Name})
	}
	return out, nil
}

// loggedRefinements are o.RefineFrom's refinement prompts after a failed
// attempt, for the taught tasks, answered by the task's fastest taught
// variant; in file order, at most o.RefinePerTask per task.
func loggedRefinements(o SFTOptions, fastest map[string]Example) ([]pluginhost.Rollout, error) {
	per := o.RefinePerTask
	if per <= 0 {
		per = 4
	}
	byName := map[string]*Task{}
	for _, t := range o.Tasks {
		byName[t.Name] = t
	}
	taken := map[string]int{}
	seen := map[string]bool{}
	var out []pluginhost.Rollout
	for _, f := range o.RefineFrom {
		recs, err := ReadRollouts(f)
		if err != nil {
			return nil, err
		}
		// The attempt a refinement answers: same step, group and member, one turn before.
		correct := map[string]bool{}
		key := func(r RolloutRecord, turn int) string {
			return fmt.Sprintf("%d/%s/%d/%d", r.Step, trajectoryName(r.Group), r.Member, turn)
		}
		for _, r := range recs {
			correct[key(r, r.Turn)] = r.Correct
		}
		for _, r := range recs {
			best, ok := fastest[r.Task]
			if r.Turn < 1 || !ok || taken[r.Task] >= per || len(r.Prompt.Messages) < 4 || seen[r.Prompt.ID] {
				continue
			}
			if prev, known := correct[key(r, r.Turn-1)]; !known || prev {
				continue // only refinements of a failed attempt
			}
			seen[r.Prompt.ID] = true
			taken[r.Task]++
			t := byName[r.Task]
			out = append(out, pluginhost.Rollout{Prompt: pluginhost.Prompt{ID: r.Task + ":sft-logged:" + r.Prompt.ID, Messages: r.Prompt.Messages},
				Completion: Answer(t, best.Source), Weight: sftWeight(o, t, best), GroupID: r.Task})
		}
	}
	return out, nil
}

// RunSFT teaches the examples (SFTExamples of o) for o.Epochs, saving the
// policy after each epoch under o.Out/epoch-N. It refuses options that
// fail Check and an o.Out that holds an SFT run (CheckSFTOut).
func RunSFT(ctx context.Context, pol SFTPolicy, o SFTOptions, ex []pluginhost.Rollout, progress func(done, total int)) ([]SFTLog, error) {
	if err := o.Check(); err != nil {
		return nil, err
	}
	if len(ex) == 0 {
		return nil, fmt.Errorf("grpo: sft: no examples to teach")
	}
	if err := CheckSFTOut(o.Out); err != nil {
		return nil, err
	}
	if err := os.MkdirAll(o.Out, 0o755); err != nil {
		return nil, fmt.Errorf("grpo: sft: %w", err)
	}
	rng := rand.New(rand.NewPCG(o.Seed, 0x5f7))
	batch := o.Batch
	perEpoch := (len(ex) + batch - 1) / batch
	var logs []SFTLog
	var update int64
	for epoch := 1; epoch <= o.Epochs; epoch++ {
		order := slices.Clone(ex)
		if epoch == 1 && o.Curriculum == "short-first" {
			slices.SortStableFunc(order, func(a, b pluginhost.Rollout) int { return len(a.Completion) - len(b.Completion) })
		} else {
			rng.Shuffle(len(order), func(i, j int) { order[i], order[j] = order[j], order[i] })
		}
		for i := 0; i < len(order); i += batch {
			update++
			stats, err := pol.SFT(ctx, update, order[i:min(len(order), i+batch)], o.Hyper)
			if err != nil {
				return logs, fmt.Errorf("grpo: sft: epoch %d update %d: %w", epoch, update, err)
			}
			logs = append(logs, SFTLog{Epoch: epoch, Update: update, Examples: min(len(order), i+batch) - i, Stats: stats})
			if progress != nil {
				progress(int(update), perEpoch*o.Epochs)
			}
		}
		dir, err := filepath.Abs(filepath.Join(o.Out, fmt.Sprintf("epoch-%d", epoch)))
		if err != nil {
			return logs, err
		}
		if err := pol.Save(ctx, dir); err != nil {
			return logs, fmt.Errorf("grpo: sft: save epoch %d: %w", epoch, err)
		}
		if err := writeSFTLog(o.Out, logs); err != nil {
			return logs, err
		}
		if o.EpochDone != nil {
			o.EpochDone(epoch, logs)
		}
		if n, skipped := SkippedUpdates(logs, epoch); n > 0 && skipped == n {
			return logs, fmt.Errorf("grpo: sft: epoch %d: all %d updates had a non-finite loss or gradient and were skipped (the policy's log says which); "+
				"epoch-%d is the model as it was, unchanged by this epoch: lower the learning rate (--lr) or drop the longest examples (--max-chars)", epoch, n, epoch)
		}
	}
	return logs, nil
}

// SkipStat is the statistic a policy sets to 1 for an Update whose loss or
// gradient was not finite and whose step it therefore skipped.
const SkipStat = "skipped_nonfinite"

// SkippedUpdates counts epoch's updates in logs and those the policy
// skipped (SkipStat) or whose loss came back non-finite.
func SkippedUpdates(logs []SFTLog, epoch int) (n, skipped int) {
	for _, l := range logs {
		if l.Epoch != epoch {
			continue
		}
		n++
		if l.Stats[SkipStat] > 0 || l.Stats[pluginhost.NonFinitePrefix+"loss"] > 0 {
			skipped++
		}
	}
	return n, skipped
}

func writeSFTLog(dir string, logs []SFTLog) error {
	var b []byte
	for _, l := range logs {
		line, _ := json.Marshal(l)
		b = append(append(b, line...), '\n')
	}
	if err := writeAtomic(filepath.Join(dir, "sft.jsonl"), b); err != nil {
		return err
	}
	var pts plotter.XYs
	for _, l := range logs {
		if v, ok := l.Stats["loss"]; ok && !math.IsNaN(v) && !math.IsInf(v, 0) {
			pts = append(pts, plotter.XY{X: float64(l.Update), Y: v})
		}
	}
	if len(pts) == 0 {
		return nil // the policy reports no loss (replay)
	}
	p := plot.New()
	p.Title.Text = "SFT loss per update"
	p.X.Label.Text = "update"
	p.Y.Label.Text = "loss"
	p.Add(plotter.NewGrid())
	l, err := plotter.NewLine(pts)
	if err != nil {
		return fmt.Errorf("grpo: sft plot: %w", err)
	}
	l.LineStyle.Color = palette[0]
	p.Add(l)
	return p.Save(7*vg.Inch, 4*vg.Inch, filepath.Join(dir, "sft-loss.png"))
}
