package ablation

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
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
var ErrBudget = errors.New("the time budget is spent: rerun with --resume to continue from the checkpoints")

// EvalFile is a run's evaluation report for a side.
func EvalFile(runDir, side string) string { return filepath.Join(runDir, "eval-"+side+".json") }

// Execute makes every run (train, then evaluate on each side) that is not
// already complete. Without resume the ablation folder must be new. With a
// budget > 0 it stops between steps once the budget is spent (a step or an
// evaluation in progress finishes first), returning ErrBudget.
func Execute(ctx context.Context, c *Config, env Env, resume bool, budget time.Duration) error {
	start := time.Now()
	if _, err := os.Stat(c.Dir()); err == nil && !resume {
		return fmt.Errorf("ablation: %s exists: continue it with --resume, or choose another name", c.Dir())
	}
	if err := os.MkdirAll(c.Dir(), 0o755); err != nil {
		return fmt.Errorf("ablation: %w", err)
	}
	over := func() bool { return budget > 0 && time.Since(start) > budget }
	for _, r := range c.Runs() {
		if err := ctx.Err(); err != nil {
			return context.Cause(ctx)
		}
		if done(c, r) {
			continue
		}
		if over() {
			return ErrBudget
		}
		if err := one(ctx, c, env, r, over); err != nil {
			return err
		}
	}
	return nil
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

func one(ctx context.Context, c *Config, env Env, r Run, over func() bool) error {
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
		return evaluate(ctx, c, env, parts, r, over)
	}
	_, statErr := os.Stat(filepath.Join(r.Cfg.Dir(), "config.yaml"))
	tr, err := grpo.NewTrainer(ctx, r.Cfg, grpo.Options{Policy: parts.Policy, Benchmarker: parts.Benchmarker,
		Scorer: parts.Scorer, Dataset: env.Dataset}, statErr == nil)
	if err != nil {
		return fmt.Errorf("ablation: run %s: %w", r.Cfg.Name, err)
	}
	logf(env, "run %s: from step %d of %d", r.Cfg.Name, tr.Step(), r.Cfg.Steps)
	for tr.Step() < int64(r.Cfg.Steps) {
		if over() {
			return ErrBudget
		}
		m, err := tr.RunStep(ctx)
		if err != nil {
			return fmt.Errorf("ablation: run %s: %w", r.Cfg.Name, err)
		}
		logf(env, "run %s: step %d: reward %.3f, correct %.0f%%", r.Cfg.Name, m.Step, m.RewardMean, 100*m.CorrectRate)
	}
	return evaluate(ctx, c, env, parts, r, over)
}

// startPolicy readies a start row: its folder, and the init checkpoint
// loaded as the trained runs load it.
func startPolicy(ctx context.Context, c *Config, pol grpo.Policy, r Run) error {
	if err := os.MkdirAll(r.Cfg.Dir(), 0o755); err != nil {
		return fmt.Errorf("ablation: %w", err)
	}
	if err := grpo.LoadInit(ctx, pol, c.Init); err != nil {
		return fmt.Errorf("ablation: run %s: %w", r.Cfg.Name, err)
	}
	return nil
}

// evaluate writes a run's missing evaluations, one side at a time.
func evaluate(ctx context.Context, c *Config, env Env, parts *Parts, r Run, over func() bool) error {
	train, _ := env.Dataset.Side("train", nil)
	for _, side := range c.Eval.Sides {
		path := EvalFile(r.Cfg.Dir(), side)
		if _, err := os.Stat(path); err == nil {
			continue
		}
		if over() {
			return ErrBudget
		}
		tasks, err := env.Dataset.Side(side, c.Eval.Tasks[side])
		if err != nil {
			return err
		}
		o := grpo.EvalOptions{Tasks: tasks, Train: train, FewShot: *c.Eval.FewShot, N: c.Eval.N, Ks: c.Eval.K,
			Sampling: pluginhost.Sampling{Temperature: c.Eval.Temperature, TopP: c.Eval.TopP, MaxTokens: c.Eval.MaxTokens},
			Seed:     r.Seed, Concurrency: r.Cfg.Benchmarker.Concurrency}
		rep, err := grpo.Evaluate(ctx, parts.Policy, parts.Benchmarker, nil, o, nil)
		if err != nil {
			return fmt.Errorf("ablation: run %s: eval %s: %w", r.Cfg.Name, side, err)
		}
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
