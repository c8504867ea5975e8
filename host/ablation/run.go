package ablation

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/cudaperf/cudaperf/host/grpo"
	"github.com/cudaperf/cudaperf/host/pluginhost"
)

// Parts are one run's plugin clients, fresh for each run so no state
// leaks from one run's policy into the next.
type Parts struct {
	Policy      grpo.Policy
	Benchmarker grpo.Benchmarker
	Scorer      grpo.Scorer
	Close       func()
}

// Env opens the parts of a run and holds the dataset.
type Env struct {
	Open    func(ctx context.Context) (*Parts, error)
	Dataset *grpo.Dataset
	// Log receives one line per event (start, resume, step, eval, stop).
	Log io.Writer
}

// ErrBudget says the ablation stopped at its time budget; rerun with
// --resume to continue.
var ErrBudget = errors.New("the time budget is spent (or the next step would not end within it): rerun with --resume to continue from the checkpoints")

// EvalFile is a run's evaluation report for a side.
func EvalFile(runDir, side string) string { return filepath.Join(runDir, "eval-"+side+".json") }

// Execute makes every run (train, then evaluate on each side) that is not
// already complete. Without resume the ablation folder must be new; with
// it, the folder's configuration must be c's (see MadeFile). What can be
// checked without the plugins is checked before the folder is made, so a
// start refused leaves nothing behind. With a budget > 0 it stops between
// steps, returning ErrBudget, before a step or an evaluation that would not
// end within the budget by the longest of its kind so far (see clock).
//
// A mistake in what was asked is a *UsageError. A failure says whether
// finished steps or evaluations were kept (then --resume continues); when
// nothing was and the folder is this call's, the folder is removed, so the
// same command can simply be run again.
func Execute(ctx context.Context, c *Config, env Env, resume bool, budget time.Duration) error {
	k := newClock(budget, nil)
	if err := check(c, env.Dataset); err != nil {
		return err
	}
	created := false
	if _, err := os.Stat(c.Dir()); err == nil {
		if !resume {
			return usageErrorf("ablation: %s exists: continue it with --resume, or choose another name", c.Dir())
		}
		if err := c.checkMade(); err != nil {
			return err
		}
		if _, err := os.Stat(filepath.Join(c.Dir(), MadeFile)); errors.Is(err, fs.ErrNotExist) {
			if err := c.writeMade(); err != nil {
				return err
			}
			logf(env, "%s recorded no configuration (made before ablations recorded theirs): recorded this one; the runs made before it are not checked against it", c.Dir())
		}
	} else {
		if err := os.MkdirAll(c.Dir(), 0o755); err != nil {
			return fmt.Errorf("ablation: %w", err)
		}
		created = true
		if err := c.writeMade(); err != nil {
			os.RemoveAll(c.Dir())
			return err
		}
	}
	err := runAll(ctx, c, env, k)
	if err == nil || errors.Is(err, ErrBudget) {
		return err
	}
	if kept(c) {
		return fmt.Errorf("%w (finished steps and evaluations are kept: rerun with --resume)", err)
	}
	if created {
		os.RemoveAll(c.Dir())
	}
	return err
}

func runAll(ctx context.Context, c *Config, env Env, k *clock) error {
	for _, r := range c.Runs() {
		if err := ctx.Err(); err != nil {
			return context.Cause(ctx)
		}
		if done(c, r) {
			continue
		}
		// Before opening the run's plugins (a policy process takes tens of
		// seconds to start): its first piece of work must fit.
		what := "step"
		if r.Mode == StartMode {
			what = "eval"
		}
		if k.spent() || !k.fits(what, true) {
			return ErrBudget
		}
		if err := one(ctx, c, env, r, k); err != nil {
			return err
		}
	}
	return nil
}

// check finds what would fail in the runs anyway and needs no plugin: the
// start's path and the tasks named (the plugins are the caller's to check).
func check(c *Config, ds *grpo.Dataset) error {
	var bad []string
	if c.Init != "" {
		if _, err := os.Stat(c.Init); err != nil {
			bad = append(bad, fmt.Sprintf("init: %v: give the folder a policy's Save wrote (e.g. an SFT epoch), or leave init out to start from the policy's own weights", err))
		}
	}
	if ds != nil {
		key := "train.side"
		if len(c.base.Tasks) > 0 {
			key = "train.tasks"
		}
		if _, err := ds.Side(c.base.Side, c.base.Tasks); err != nil {
			bad = append(bad, key+": "+strings.TrimPrefix(err.Error(), "grpo: "))
		}
		for _, side := range c.Eval.Sides {
			key := "eval.sides"
			if len(c.Eval.Tasks[side]) > 0 {
				key = "eval.tasks." + side
			}
			if _, err := ds.Side(side, c.Eval.Tasks[side]); err != nil {
				bad = append(bad, key+": "+strings.TrimPrefix(err.Error(), "grpo: "))
			}
		}
	}
	if len(bad) > 0 {
		return usageErrorf("%s: %s", c.path, strings.Join(bad, "; "))
	}
	return nil
}

// kept reports whether any run has a finished evaluation or a checkpoint:
// what --resume would continue from.
func kept(c *Config) bool {
	for _, r := range c.Runs() {
		if _, err := os.Stat(filepath.Join(r.Cfg.Dir(), "checkpoints", "latest")); err == nil {
			return true
		}
		for _, side := range c.Eval.Sides {
			if _, err := os.Stat(EvalFile(r.Cfg.Dir(), side)); err == nil {
				return true
			}
		}
	}
	return false
}

// done reports whether a run's every evaluation exists.
func done(c *Config, r Run) bool {
	for _, side := range c.Eval.Sides {
		if _, err := os.Stat(EvalFile(r.Cfg.Dir(), side)); err != nil {
			return false
		}
	}
	return true
}

func one(ctx context.Context, c *Config, env Env, r Run, k *clock) error {
	// The first piece of work of a process is timed from here: it includes
	// the plugins' start and the policy's load.
	opened := k.now()
	parts, err := env.Open(ctx)
	if err != nil {
		return err
	}
	defer parts.Close()
	if r.Mode == StartMode {
		if err := startPolicy(ctx, c, parts.Policy, r); err != nil {
			return err
		}
		logf(env, "run %s: the start, evaluated untrained", r.Cfg.Name)
		return evaluate(ctx, c, env, parts, r, k, opened)
	}
	_, statErr := os.Stat(filepath.Join(r.Cfg.Dir(), "config.yaml"))
	tr, err := grpo.NewTrainer(ctx, r.Cfg, grpo.Options{Policy: parts.Policy, Benchmarker: parts.Benchmarker,
		Scorer: parts.Scorer, Dataset: env.Dataset}, statErr == nil)
	if err != nil {
		return fmt.Errorf("ablation: run %s: %w", r.Cfg.Name, err)
	}
	logf(env, "run %s: from step %d of %d", r.Cfg.Name, tr.Step(), r.Cfg.Steps)
	trained := false // a step ran in this process
	for first := true; tr.Step() < int64(r.Cfg.Steps); first = false {
		if !k.fits("step", first) {
			return ErrBudget
		}
		t0 := k.now()
		if first {
			t0 = opened
		}
		m, err := tr.RunStep(ctx)
		if err != nil {
			return fmt.Errorf("ablation: run %s: %w", r.Cfg.Name, err)
		}
		k.took("step", first, k.now().Sub(t0))
		trained = true
		logf(env, "run %s: step %d: reward %.3f, correct %.0f%%", r.Cfg.Name, m.Step, m.RewardMean, 100*m.CorrectRate)
	}
	if !trained {
		// Trained in an earlier call: this process's first work is the evaluation.
		return evaluate(ctx, c, env, parts, r, k, opened)
	}
	return evaluate(ctx, c, env, parts, r, k, time.Time{})
}

// startPolicy readies a start row: its folder, and the init checkpoint
// loaded as the trained runs load it.
func startPolicy(ctx context.Context, c *Config, pol grpo.Policy, r Run) error {
	if err := os.MkdirAll(r.Cfg.Dir(), 0o755); err != nil {
		return fmt.Errorf("ablation: %w", err)
	}
	if err := grpo.LoadInit(ctx, pol, r.Cfg.Dir(), c.Init); err != nil {
		return fmt.Errorf("ablation: run %s: %w", r.Cfg.Name, err)
	}
	return nil
}

// evaluate writes a run's missing evaluations, one side at a time. opened,
// when set, is when the run's plugins were opened: the first evaluation is
// timed from there (a start row does nothing before it).
func evaluate(ctx context.Context, c *Config, env Env, parts *Parts, r Run, k *clock, opened time.Time) error {
	train, _ := env.Dataset.Side("train", nil)
	first := true
	for _, side := range c.Eval.Sides {
		path := EvalFile(r.Cfg.Dir(), side)
		if _, err := os.Stat(path); err == nil {
			continue
		}
		if !k.fits("eval", first) {
			return ErrBudget
		}
		tasks, err := env.Dataset.Side(side, c.Eval.Tasks[side])
		if err != nil {
			return err
		}
		o := grpo.EvalOptions{Tasks: tasks, Train: train, FewShot: *c.Eval.FewShot, N: c.Eval.N, Ks: c.Eval.K,
			Sampling: pluginhost.Sampling{Temperature: c.Eval.Temperature, TopP: c.Eval.TopP, MaxTokens: c.Eval.MaxTokens},
			Seed:     r.Seed, Concurrency: r.Cfg.Benchmarker.Concurrency,
			CandidateTimeout: r.Cfg.Benchmarker.CandidateLimit()}
		t0 := k.now()
		if first && !opened.IsZero() {
			t0 = opened
		}
		rep, err := grpo.Evaluate(ctx, parts.Policy, parts.Benchmarker, nil, o, nil)
		if err != nil {
			return fmt.Errorf("ablation: run %s: eval %s: %w", r.Cfg.Name, side, err)
		}
		k.took("eval", first, k.now().Sub(t0))
		first = false
		b, _ := json.MarshalIndent(rep, "", "  ")
		if err := os.WriteFile(path+".tmp", b, 0o644); err != nil {
			return fmt.Errorf("ablation: %w", err)
		}
		if err := os.Rename(path+".tmp", path); err != nil {
			return fmt.Errorf("ablation: %w", err)
		}
		logf(env, "run %s: eval %s: pass@%d %.3f", r.Cfg.Name, side, rep.AtK[0].K, rep.AtK[0].PassAtK.Value)
	}
	return nil
}

func logf(env Env, format string, args ...any) {
	if env.Log != nil {
		fmt.Fprintf(env.Log, strings.TrimSuffix(format, "\n")+"\n", args...)
	}
}
