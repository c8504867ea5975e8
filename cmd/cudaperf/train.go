package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/urfave/cli/v2"

	"github.com/cudaperf/cudaperf/host/grpo"
	"github.com/cudaperf/cudaperf/host/pluginhost"
	"github.com/cudaperf/cudaperf/host/reward"
	"github.com/cudaperf/cudaperf/plugins/sdk"
)

func trainCommand() *cli.Command {
	return &cli.Command{
		Name:      "train",
		Usage:     "train a kernel-writing policy with GRPO (rewards from a benchmarker, analyzers and the ranker)",
		ArgsUsage: " ",
		Description: "train reads a run configuration (YAML) and runs GRPO steps: for a batch of tasks\n" +
			"the policy plugin writes G candidates per task, the benchmarker plugin compiles, checks\n" +
			"and times them, the reward is computed (mode ver, str, both or random), up to T turns\n" +
			"refine each candidate with feedback, and the group-normalised advantages go back to\n" +
			"the policy's Update. A policy that cannot update (openai) makes this a data collection\n" +
			"run: the rollouts are written for an external trainer.\n\n" +
			"The run folder runs/<name>/ holds config.yaml, metrics.jsonl, rollouts/, checkpoints/,\n" +
			"a TensorBoard event file (tensorboard --logdir runs) and reward.png / rates.png.\n" +
			"A checkpoint is written after every step; --resume continues exactly (same next\n" +
			"batch, same random draws).\n\n" +
			"run.yaml (every key optional but name; defaults shown):\n\n" +
			"  name: demo                      # runs/<name>/\n" +
			"  root: runs                      # the folder of run folders\n" +
			"  suite: bench/suites/c2cuda      # tasks, split.yaml and measurements.jsonl\n" +
			"  measurements: [bench/suites/c2cuda/measurements.jsonl]  # few-shot examples, speedup baselines\n" +
			"  side: train                     # train | validation (never test: it measures the result)\n" +
			"  tasks: []                       # a subset of the side; default all\n" +
			"  steps: 30\n  batch: 8                        # tasks per step\n" +
			"  group: 16                       # G\n  turns: 5                        # T (1 = no refinement)\n" +
			"  discount: 0.8                   # per-turn discount of returns\n" +
			"  few_shot: 1                     # example kernels per prompt (train split, fastest first)\n" +
			"  seed: 0\n" +
			"  keep_checkpoints: 2             # step checkpoints kept\n" +
			"  policy: {plugin: replay, init: '', updates_per_step: 1,\n" +
			"           hyperparameters: {}}   # the plugin's keys, e.g. {learning_rate: 0.5}\n" +
			"  benchmarker: {plugin: cudaperf-benchmarker, concurrency: 64, profile: rl,\n" +
			"                candidate_timeout: ''}  # e.g. 3m; '' is the benchmarker's default\n" +
			"  reward: {mode: both, compile: 1, tests: 0.8, speedup: 0.1, clip: 3, variance: 0.1,\n" +
			"           max_cv: 0.3, correct_bonus: 0.5, lambda: 0.2,\n" +
			"           str_on: compiled,       # who gets λ·Rstr: code | compiled | correct; see 'go doc ./host/reward'\n" +
			"           str_bound: 0}           # > 0: squash λ·Rstr into ±b (at most 0.085 here keeps failure < wrong < correct)\n" +
			"  ranker: {model: ''}             # a `cudaperf rank train` model; '' is the built-in one\n" +
			"  sampling: {temperature: 1, top_p: 1, max_tokens: 1024, stop: []}\n\n" +
			"Offline demo (no GPU, no model): policy replay with benchmarker recorded, reward mode ver.",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "config", Aliases: []string{"c"}, Usage: "run configuration `FILE` (YAML)", Required: true},
			&cli.BoolFlag{Name: "resume", Usage: "continue runs/<name>/ from its latest checkpoint (steps may be raised)"},
		},
		Action: trainAction,
	}
}

func trainAction(c *cli.Context) error {
	cfg, err := grpo.LoadConfig(c.String("config"))
	if err != nil {
		return usageErrorf("%v", err)
	}
	ds, err := grpo.LoadDataset(cfg.Suite, cfg.Measurements)
	if err != nil {
		return usageErrorf("%v", err)
	}
	replaySuite(cfg.Suite)
	h, err := openHost(c)
	if err != nil {
		return err
	}
	defer h.Close()
	ctx := c.Context
	pol, err := startPlugin(ctx, h, cfg.Policy.Plugin, sdk.KindPolicy)
	if err != nil {
		return err
	}
	bm, err := startPlugin(ctx, h, cfg.Benchmarker.Plugin, sdk.KindBenchmarker)
	if err != nil {
		return err
	}
	scorer, err := structureScorer(ctx, h, cfg.Reward.Mode, cfg.Ranker.Model)
	if err != nil {
		return err
	}
	tr, err := grpo.NewTrainer(ctx, cfg, grpo.Options{Policy: pol.Policy(), Benchmarker: bm, Scorer: scorer, Dataset: ds}, c.Bool("resume"))
	if errors.Is(err, grpo.ErrRunExists) || errors.Is(err, grpo.ErrConfig) {
		return usageErrorf("%v", err)
	}
	if err != nil {
		return failuref("%v", err)
	}
	info := tr.Info()
	w := c.App.Writer
	fmt.Fprintf(w, "run %s: policy %s (%s), benchmarker %s, reward %s, %d steps × %d tasks × G=%d × T=%d\n",
		cfg.Dir(), info.Name, info.Model, bm.Name(), cfg.Reward.Mode, cfg.Steps, cfg.Batch, cfg.Group, cfg.Turns)
	if reward.Mode(cfg.Reward.Mode).UsesStr() && cfg.Reward.StrOn == reward.GateCode {
		fmt.Fprintf(w, "note: reward.str_on is code: λ·Rstr also rewards code that does not compile, which the ranker never saw; "+
			"a GRPO run on the H200 learnt to raise that score instead of compiling (docs/rl.md, \"Rewards\"). Watch str_mean against compile_rate.\n")
	}
	if !info.CanUpdate {
		fmt.Fprintf(w, "policy %s cannot update: collecting rollouts only (rollouts/*.jsonl.gz)\n", info.Name)
	}
	if tr.Step() > 0 {
		fmt.Fprintf(w, "resumed after step %d\n", tr.Step())
	}
	bar := newBar(cfg.Steps, "train", true)
	bar.addN(int(tr.Step()))
	tr.Progress = func(step int64, stage string, _, _ int) { bar.describe(fmt.Sprintf("step %d: %s", step, stage)) }
	for tr.Step() < int64(cfg.Steps) {
		if err := ctx.Err(); err != nil {
			return failuref("%v", context.Cause(ctx))
		}
		m, err := tr.RunStep(ctx)
		if err != nil {
			bar.clear()
			return failuref("%v (completed steps are checkpointed: rerun with --resume)", noGPUHint(err, "benchmarker: {plugin: recorded} in the run's config"))
		}
		bar.clear()
		speedup := "n/a" // nothing correct: no speedup to average
		if m.CorrectRate > 0 {
			speedup = fmt.Sprintf("%.4g×", m.GeomeanSpeedup)
		}
		fmt.Fprintf(w, "step %d/%d: reward %.3f ± %.3f, compiles %.0f%%, correct %.0f%%, geomean speedup %s, no code %d, skipped groups %d/%d, %.1f s\n",
			m.Step, cfg.Steps, m.RewardMean, m.RewardStd, 100*m.CompileRate, 100*m.CorrectRate, speedup,
			m.NoCode, m.ZeroVarianceGroups, m.Groups, m.Stage["step_s"])
		bar.add()
	}
	bar.finish()
	fmt.Fprintf(w, "done: %s/metrics.jsonl, reward.png, rates.png, events.out.tfevents.cudaperf\n", cfg.Dir())
	return nil
}

// replaySuite tells the replay policy plugin (which runs in its own folder
// and knows tasks only by name) which suite to propose variants from,
// unless $CUDAPERF_REPLAY_SUITE already says.
func replaySuite(suite string) {
	if os.Getenv("CUDAPERF_REPLAY_SUITE") == "" {
		if abs, err := filepath.Abs(suite); err == nil {
			os.Setenv("CUDAPERF_REPLAY_SUITE", abs)
		}
	}
}

// describe changes the bar's label (the stage of a long step).
func (p *progress) describe(s string) {
	if p.bar != nil {
		p.bar.Describe(s)
	}
}

// structureScorer gives the loop features and diagnostics from the
// installed analyzer plugins (for the feedback) and Rstr from the ranker
// (model, or the built-in one), so every mode measures the Rstr–speedup
// correlation. A mode that rewards Rstr fails without them; mode ver goes
// on with what there is.
func structureScorer(ctx context.Context, h *pluginhost.Host, mode, model string) (grpo.Scorer, error) {
	needs := mode != "ver"
	if len(h.OfKind(sdk.KindAnalyzer)) == 0 {
		if needs {
			return nil, usageErrorf("reward mode %s needs the structural score, but no analyzer plugin is installed (see 'cudaperf plugins list')", mode)
		}
		return nil, nil
	}
	s := &grpo.AnalyzerScorer{Analyzers: h}
	r, plugins, err := loadRanker(ctx, h, model)
	if err != nil && needs {
		return nil, err
	}
	s.Rank, s.Need = r, plugins
	return s, nil
}

// startPlugin finds an installed plugin by name, checks its kind and starts
// it.
func startPlugin(ctx context.Context, h *pluginhost.Host, name string, kind sdk.Kind) (*pluginhost.Plugin, error) {
	p, err := findPlugin(h, name, kind)
	if err != nil {
		return nil, err
	}
	if err := p.Start(ctx); err != nil {
		return nil, failuref("%v", err)
	}
	return p, nil
}

// findPlugin finds an installed plugin by name and checks its kind,
// without starting it.
func findPlugin(h *pluginhost.Host, name string, kind sdk.Kind) (*pluginhost.Plugin, error) {
	p, ok := h.Plugin(name)
	if err := leftOutError(h, name); !ok && err != nil {
		return nil, err
	}
	if !ok {
		var names []string
		for _, q := range h.OfKind(kind) {
			names = append(names, q.Name())
		}
		return nil, usageErrorf("no %s plugin named %q is installed (installed: %v; see 'cudaperf plugins list')", kind, name, names)
	}
	if p.Manifest() == nil { // found by name, but its manifest is broken
		return nil, failuref("%v", p.Err())
	}
	if p.Kind() != kind {
		return nil, usageErrorf("plugin %q is a %s plugin, not a %s plugin", name, p.Kind(), kind)
	}
	return p, nil
}
