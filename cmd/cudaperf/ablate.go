package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/cudaperf/cudaperf/host/ablation"
	"github.com/cudaperf/cudaperf/host/grpo"
	"github.com/cudaperf/cudaperf/plugins/sdk"
)

func ablateCommand() *cli.Command {
	return &cli.Command{
		Name:      "ablate",
		Usage:     "reward ablation: GRPO under modes ver, both, random (and str) × seeds, evaluated and compared",
		ArgsUsage: " ",
		Description: "ablate runs the same GRPO budget from the same start under each reward mode and seed\n" +
			"(runs/<name>/<mode>-s<seed>/), then evaluates every run on each eval side. The start itself\n" +
			"is evaluated too, once per seed (start-s<seed>, no training): the control that says whether\n" +
			"a mode's training moved it at all (start: false leaves it out). Every step is\n" +
			"checkpointed and every evaluation saved, so --resume continues an ablation across calls;\n" +
			"--budget stops it between steps so that it ends within the budget: a step or an evaluation starts\n" +
			"only while the longest of its kind so far in this call still fits (for machines lent in slices\n" +
			"with a hard limit, where a step cut off is lost).\n" +
			"'cudaperf ablate report' writes the results page; 'cudaperf ablate plan', before any run,\n" +
			"what differences the design can detect at all.\n\n" +
			"ablation.yaml:\n\n" +
			"  name: reward-ablation\n  modes: [ver, both, random]\n  seeds: [1, 2, 3]\n" +
			"  init: runs/sft-1/epoch-4              # the same SFT start for every run\n" +
			"  start: true                           # evaluate the start too (default)\n" +
			"  primary: {metric: pass@1, side: test}  # named before the runs\n" +
			"  eval: {sides: [test, train], n: 10, k: [1, 5], temperature: 0.8}\n" +
			"  train: {steps: 30, batch: 8, group: 8, turns: 2, policy: {plugin: hf}}   # a run.yaml body",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "config", Aliases: []string{"c"}, Usage: "ablation `FILE` (YAML), required"},
			&cli.BoolFlag{Name: "resume", Usage: "continue the ablation's runs from their checkpoints"},
			&cli.DurationFlag{Name: "budget", Usage: "end between steps within `DURATION` (0: no limit); resume later with --resume"},
		},
		Action: ablateAction,
		Subcommands: []*cli.Command{{
			Name:      "report",
			Usage:     "write the ablation's results page from its runs",
			ArgsUsage: " ",
			Flags: []cli.Flag{
				&cli.StringFlag{Name: "config", Aliases: []string{"c"}, Required: true, Usage: "ablation `FILE` (YAML)"},
				&cli.StringFlag{Name: "out", Usage: "write the page to `FILE` (curves.png beside it); default runs/<name>/RESULTS.md"},
				&cli.StringFlag{Name: "reading", Usage: "a reading of the results written by hand (Markdown `FILE`), printed under the generated conclusion; " +
					"its line <!-- results: FINGERPRINT --> names the results it was written against (the page prints theirs), and a reading written against others is marked as possibly stale"},
			},
			Action: ablateReportAction,
		}, {
			Name:      "plan",
			Usage:     "before the runs: the smallest difference the design can detect, by simulation",
			ArgsUsage: " ",
			Description: "plan simulates ablations in which every mode behaves like the start checkpoint: each\n" +
				"simulation draws every task's true correct rate from what an evaluation of that checkpoint\n" +
				"saw (cudaperf eval --out FILE, one per side; a Jeffreys posterior, so 0 of 4 correct may\n" +
				"still be a tenth), every run samples n answers per task at those rates, and the report's\n" +
				"paired bootstrap then gives the minimum detectable difference (80% power, α = 0.05) of\n" +
				"every comparison. Training noise adds to it, so these are lower bounds: if the effect you\n" +
				"hope for is smaller, add seeds, samples or tasks before spending GPU time.\n\n" +
				"Example: cudaperf ablate plan -c bench/ablation/ablation.yaml --base test=eval-sft-test.json \\\n" +
				"           --base train=eval-sft-train.json --out bench/ablation/PLAN.md",
			Flags: []cli.Flag{
				&cli.StringFlag{Name: "config", Aliases: []string{"c"}, Required: true, Usage: "ablation `FILE` (YAML)"},
				&cli.StringSliceFlag{Name: "base", Required: true, Usage: "`SIDE=FILE`: an evaluation report of the start checkpoint on that side (repeatable)"},
				&cli.IntFlag{Name: "sims", Value: 200, Usage: "simulated ablations"},
				&cli.StringFlag{Name: "out", Usage: "write the page to `FILE` (default: standard output)"},
			},
			Action: ablatePlanAction,
		}, {
			Name:      "rescore",
			Usage:     "replay the runs' recorded candidates under another structural term (no GPU)",
			ArgsUsage: " ",
			Description: "rescore recomputes every trained run's rewards, returns and group advantages from its\n" +
				"rollouts as mode both with the ablation's weights changed by the flags, keeping each\n" +
				"candidate's measured Rver and real Rstr, and prints, recorded → replayed, how many\n" +
				"compiled candidates scored below a compile failure, the mean advantage of compiling, and\n" +
				"how closely the advantages follow Rver's alone. It answers \"what would this reward have\n" +
				"taught on these samples\" before GPU time is spent on it; it cannot say what the policy\n" +
				"would then have sampled.\n\n" +
				"Example: cudaperf ablate rescore -c bench/ablation/ablation.yaml --str-bound 0.085",
			Flags: []cli.Flag{
				&cli.StringFlag{Name: "config", Aliases: []string{"c"}, Required: true, Usage: "ablation `FILE` (YAML)"},
				&cli.Float64Flag{Name: "str-bound", Usage: "squash λ·Rstr into ±`B` (reward.str_bound; at most Weights.OrderBound)"},
				&cli.Float64Flag{Name: "lambda", Value: -1, Usage: "λ, the weight of Rstr (default: the ablation's)"},
			},
			Action: ablateRescoreAction,
		}},
	}
}

func ablateRescoreAction(c *cli.Context) error {
	cfg, err := ablation.Load(c.String("config"))
	if err != nil {
		return usageErrorf("%v", err)
	}
	w := cfg.Weights()
	w.StrBound = c.Float64("str-bound")
	command := "cudaperf ablate rescore --config " + c.String("config")
	if c.IsSet("str-bound") {
		command += fmt.Sprintf(" --str-bound %g", w.StrBound)
	}
	if c.IsSet("lambda") {
		w.Lambda = c.Float64("lambda")
		command += fmt.Sprintf(" --lambda %g", w.Lambda)
	}
	if err := w.Validate(); err != nil {
		return usageErrorf("%v", err)
	}
	rows, err := ablation.Rescore(cfg, w)
	if err != nil {
		return ablationError(err)
	}
	ablation.WriteRescore(c.App.Writer, rows, w, command)
	return nil
}

func ablatePlanAction(c *cli.Context) error {
	cfg, err := ablation.Load(c.String("config"))
	if err != nil {
		return usageErrorf("%v", err)
	}
	bases, files := map[string]*grpo.EvalReport{}, map[string]string{}
	for _, b := range c.StringSlice("base") {
		side, file, ok := strings.Cut(b, "=")
		if !ok || side == "" || file == "" {
			return usageErrorf("--base %q: give SIDE=FILE, e.g. --base test=eval-sft-test.json", b)
		}
		raw, err := os.ReadFile(file)
		if err != nil {
			return usageErrorf("--base %s: %v", b, err)
		}
		var rep grpo.EvalReport
		if err := json.Unmarshal(raw, &rep); err != nil {
			return usageErrorf("--base %s: %v (a `cudaperf eval --out` report is expected)", b, err)
		}
		bases[side], files[side] = &rep, file
	}
	if c.Int("sims") < 2 {
		return usageErrorf("--sims %d: at least 2 simulations", c.Int("sims"))
	}
	rows, err := ablation.Plan(cfg, bases, c.Int("sims"), 1000, 1)
	if err != nil {
		return usageErrorf("%v", err)
	}
	var b strings.Builder
	command := "cudaperf ablate plan --config " + c.String("config")
	for _, b := range c.StringSlice("base") {
		command += " --base " + b
	}
	command += fmt.Sprintf(" --sims %d", c.Int("sims"))
	ablation.WritePlan(&b, cfg, rows, files, bases, c.Int("sims"), command)
	if out := c.String("out"); out != "" {
		if err := os.WriteFile(out, []byte(b.String()), 0o644); err != nil {
			return failuref("%v", err)
		}
		fmt.Fprintf(c.App.Writer, "wrote %s\n", out)
		return nil
	}
	fmt.Fprint(c.App.Writer, b.String())
	return nil
}

func ablateAction(c *cli.Context) error {
	if c.String("config") == "" {
		return usageErrorf("ablate needs --config FILE (see 'cudaperf ablate --help')")
	}
	cfg, err := ablation.Load(c.String("config"))
	if err != nil {
		return usageErrorf("%v", err)
	}
	base := cfg.Runs()[0].Cfg
	replaySuite(base.Suite)
	ds, err := grpo.LoadDataset(base.Suite, base.Measurements)
	if err != nil {
		return usageErrorf("%v", err)
	}
	// One scorer for every run: Rstr is needed as soon as one mode uses it.
	mode := "ver"
	for _, m := range cfg.Modes {
		if m != "ver" {
			mode = "both"
		}
	}
	if err := checkAblationPlugins(c, base, mode); err != nil {
		return err
	}
	env := ablation.Env{Dataset: ds, Log: c.App.Writer, Open: func(ctx context.Context) (*ablation.Parts, error) {
		h, err := openHost(c)
		if err != nil {
			return nil, err
		}
		pol, err := startPlugin(ctx, h, base.Policy.Plugin, sdk.KindPolicy)
		if err != nil {
			h.Close()
			return nil, err
		}
		bm, err := startPlugin(ctx, h, base.Benchmarker.Plugin, sdk.KindBenchmarker)
		if err != nil {
			h.Close()
			return nil, err
		}
		scorer, err := structureScorer(ctx, h, mode, base.Ranker.Model)
		if err != nil {
			h.Close()
			return nil, err
		}
		return &ablation.Parts{Policy: pol.Policy(), Benchmarker: bm, Scorer: scorer, Close: h.Close}, nil
	}}
	err = ablation.Execute(c.Context, cfg, env, c.Bool("resume"), c.Duration("budget"))
	if errors.Is(err, ablation.ErrBudget) {
		fmt.Fprintf(c.App.Writer, "stopped: %v\n", err)
		return nil
	}
	if err != nil {
		return ablationError(err)
	}
	fmt.Fprintf(c.App.Writer, "all %d runs done: cudaperf ablate report --config %s\n", len(cfg.Runs()), c.String("config"))
	return nil
}

// checkAblationPlugins finds the plugins every run opens before the
// ablation's folder is made, so that a plugin named wrong is a usage error
// that leaves nothing behind. The policy and the benchmarker are looked up,
// not started (a policy takes tens of seconds to load); the scorer is made
// as each run makes it, which checks the ranker against the analyzers.
func checkAblationPlugins(c *cli.Context, base *grpo.Config, mode string) error {
	h, err := openHost(c)
	if err != nil {
		return err
	}
	defer h.Close()
	for _, p := range []struct {
		name string
		kind sdk.Kind
	}{{base.Policy.Plugin, sdk.KindPolicy}, {base.Benchmarker.Plugin, sdk.KindBenchmarker}} {
		if _, err := findPlugin(h, p.name, p.kind); err != nil {
			return err
		}
	}
	_, err = structureScorer(c.Context, h, mode, base.Ranker.Model)
	return err
}

// ablationError maps an error of package ablation to its exit status: a
// mistake in what was asked is a usage error, an error that already has
// a status (a plugin's, from a run) keeps it, anything else is a failure.
func ablationError(err error) error {
	var ue *ablation.UsageError
	if errors.As(err, &ue) {
		return usageErrorf("%v", err)
	}
	var ee *exitError
	if errors.As(err, &ee) {
		return err
	}
	return failuref("%v", err)
}

func ablateReportAction(c *cli.Context) error {
	cfg, err := ablation.Load(c.String("config"))
	if err != nil {
		return usageErrorf("%v", err)
	}
	res, err := ablation.Collect(cfg)
	if err != nil {
		return ablationError(err)
	}
	out := c.String("out")
	if out == "" {
		out = filepath.Join(cfg.Dir(), "RESULTS.md")
	}
	var b strings.Builder
	cmd := "cudaperf ablate report --config " + c.String("config")
	if f := c.String("reading"); f != "" {
		raw, err := os.ReadFile(f)
		if err != nil {
			return usageErrorf("--reading: %v (give the Markdown file of the reading written by hand, or leave the flag out)", err)
		}
		res.Reading, res.ReadingFile = string(raw), f
		cmd += " --reading " + f
	}
	if err := res.Write(&b, filepath.Dir(out), cmd); err != nil {
		return failuref("%v", err)
	}
	if err := os.WriteFile(out, []byte(b.String()), 0o644); err != nil {
		return failuref("%v", err)
	}
	if res.ReadingStale {
		fmt.Fprintf(c.App.ErrWriter, "warning: %s was not written against these results: the page marks it as possibly stale; read it again and set its <!-- results: ... --> line to the fingerprint the page prints\n", c.String("reading"))
	}
	fmt.Fprintf(c.App.Writer, "wrote %s (%d runs or evaluations missing)\n", out, len(res.Missing))
	return nil
}
