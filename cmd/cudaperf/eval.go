package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"text/tabwriter"

	"github.com/urfave/cli/v2"

	"github.com/cudaperf/cudaperf/bench"
	"github.com/cudaperf/cudaperf/host/grpo"
	"github.com/cudaperf/cudaperf/host/pluginhost"
	"github.com/cudaperf/cudaperf/plugins/sdk"
)

// policyFlags are the flags eval and sft share: which policy, which tasks.
func policyFlags() []cli.Flag {
	return []cli.Flag{
		&cli.StringFlag{Name: "policy", Value: "replay", Usage: "policy plugin `NAME` (hf, openai, replay)"},
		&cli.StringFlag{Name: "load", Usage: "restore the policy from `DIR` first (an SFT result, or runs/<name>/checkpoints/step-N/policy)"},
		&cli.StringFlag{Name: "suite", Value: filepath.Join("bench", "suites", "c2cuda"), Usage: "task suite `DIR` (with split.yaml and measurements.jsonl)"},
		&cli.StringSliceFlag{Name: "measurements", Usage: "measured variants `FILE` (default <suite>/measurements.jsonl)"},
		&cli.StringSliceFlag{Name: "task", Usage: "only this `TASK` of the side (repeatable)"},
		&cli.IntFlag{Name: "few-shot", Value: 1, Usage: "example kernels per prompt, from the train split"},
	}
}

func evalCommand() *cli.Command {
	return &cli.Command{
		Name:      "eval",
		Usage:     "measure a policy: correctness and speedup at pass@1/3/5 with confidence intervals",
		ArgsUsage: " ",
		Description: "eval samples n candidates per task of a split side from a policy plugin, judges them with\n" +
			"a benchmarker plugin, and reports pass@k (unbiased estimator), the geometric-mean speedup of the\n" +
			"fastest correct candidate among k, KernelBench's fast_p, and 95% bootstrap intervals over tasks.\n" +
			"The protocol is printed with the numbers. Report in-distribution (--side train) and held-out\n" +
			"(--side test) results apart.\n\n" +
			"--turns T gives each sample T attempts: every attempt after the first answers the training\n" +
			"loop's refinement prompt with the previous attempt's feedback (compiler errors, failed\n" +
			"configurations, speedup, features), a sample counts its best attempt, and the report adds the\n" +
			"fraction correct by each turn, next to its control: the fraction that as many fresh first\n" +
			"attempts would have solved (pass@t of the first attempts; needs -n >= t). Compare numbers\n" +
			"only at the same --turns.\n\n" +
			"Example, offline: cudaperf eval --policy replay --benchmarker recorded --side test -n 10",
		Flags: append(policyFlags(),
			&cli.StringFlag{Name: "benchmarker", Value: "cudaperf-benchmarker", Usage: "benchmarker plugin `NAME`"},
			&cli.StringFlag{Name: "side", Value: "test", Usage: "split `SIDE`: train, validation or test"},
			&cli.IntFlag{Name: "n", Value: 10, Usage: "samples per task (≥ the largest k)"},
			&cli.IntFlag{Name: "turns", Value: 1, Usage: "attempts per sample `T` (1: no refinement turns)"},
			&cli.IntSliceFlag{Name: "k", Value: cli.NewIntSlice(1, 3, 5), Usage: "report at these `K` values"},
			&cli.Float64Flag{Name: "temperature", Value: 0.8, Usage: "sampling temperature"},
			&cli.Float64Flag{Name: "top-p", Value: 0.95, Usage: "nucleus sampling"},
			&cli.IntFlag{Name: "max-tokens", Value: 1024, Usage: "tokens per completion"},
			&cli.Uint64Flag{Name: "seed", Value: 1, Usage: "sampling and bootstrap seed"},
			&cli.IntFlag{Name: "concurrency", Value: 64, Usage: "candidates sent to the benchmarker at once (it compiles and runs as many as its CPUs and GPU slots allow)"},
			&cli.DurationFlag{Name: "candidate-timeout", Value: grpo.DefaultCandidateTimeout, Usage: "stop a candidate's evaluation after `DURATION` and count it as not compiled (a compile or run that does not end)"},
			&cli.StringFlag{Name: "profile", Value: "report", Usage: "benchmarker `PROFILE`: report (every configuration, full rigour) or rl (faster)"},
			&cli.StringFlag{Name: "format", Value: "text", Usage: "output `FORMAT`: text or json"},
			&cli.StringFlag{Name: "out", Usage: "also write the JSON report to `FILE`"},
			&cli.StringFlag{Name: "samples", Usage: "write every completion with its verdict and feedback to `FILE` (JSON lines), to read why samples fail"},
		),
		Action: evalAction,
	}
}

// loadForPolicy reads the dataset and starts the policy (restored from
// --load when given).
func loadForPolicy(c *cli.Context, h *pluginhost.Host) (*grpo.Dataset, pluginhost.PolicyClient, error) {
	replaySuite(c.String("suite"))
	ms := c.StringSlice("measurements")
	if len(ms) == 0 {
		ms = []string{filepath.Join(c.String("suite"), "measurements.jsonl")}
	}
	ds, err := grpo.LoadDataset(c.String("suite"), ms)
	if err != nil {
		return nil, pluginhost.PolicyClient{}, usageErrorf("%v", err)
	}
	if dir := c.String("load"); dir != "" {
		// Before the policy starts (the hf plugin takes minutes to load).
		if _, err := os.Stat(dir); err != nil {
			return nil, pluginhost.PolicyClient{}, usageErrorf("--load %v: name a policy folder (an SFT result's epoch-N, or runs/<name>/checkpoints/step-N/policy)", err)
		}
	}
	p, err := startPlugin(c.Context, h, c.String("policy"), sdk.KindPolicy)
	if err != nil {
		return nil, pluginhost.PolicyClient{}, err
	}
	pol := p.Policy()
	if dir := c.String("load"); dir != "" {
		abs, _ := filepath.Abs(dir)
		if err := pol.Load(c.Context, abs, true); err != nil {
			return nil, pol, failuref("load the policy from %s: %v", dir, err)
		}
	}
	return ds, pol, nil
}

// checkEvalFlags refuses what eval cannot run, before the plugins start
// (the hf policy takes minutes to load): the report's protocol must be what
// ran, and the hf plugin reads an out-of-range value as another one.
func checkEvalFlags(c *cli.Context) error {
	n := c.Int("n")
	if n < 1 {
		return usageErrorf("-n %d: at least 1 sample per task", n)
	}
	ks := c.IntSlice("k")
	for _, k := range ks {
		if k < 1 {
			return usageErrorf("-k %d: pass@k needs k ≥ 1", k)
		}
	}
	if m := slices.Max(ks); m > n {
		return usageErrorf("-n %d: pass@%d needs at least %d samples per task", n, m, m)
	}
	if f := c.Int("few-shot"); f < 0 {
		return usageErrorf("--few-shot %d: 0 (no example) or more", f)
	}
	if t := c.Int("turns"); t < 1 {
		return usageErrorf("--turns %d: give at least 1 attempt per sample", t)
	}
	if p := bench.Profile(c.String("profile")); p != bench.ProfileReport && p != bench.ProfileRL {
		return usageErrorf("--profile %q: use report or rl", p)
	}
	if t := c.Float64("temperature"); !(t >= 0 && t <= 10) {
		return usageErrorf("--temperature %v: give 0 (greedy) to 10", t)
	}
	if p := c.Float64("top-p"); !(p > 0 && p <= 1) {
		return usageErrorf("--top-p %v: give a value in (0, 1]", p)
	}
	if m := c.Int("max-tokens"); m < 1 {
		return usageErrorf("--max-tokens %d: at least 1", m)
	}
	if n := c.Int("concurrency"); n < 1 {
		return usageErrorf("--concurrency %d: at least 1 candidate at a time", n)
	}
	if d := c.Duration("candidate-timeout"); d <= 0 {
		return usageErrorf("--candidate-timeout %v: give a positive duration, such as 5m", d)
	}
	return nil
}

func evalAction(c *cli.Context) error {
	format, err := outputFormat(c)
	if err != nil {
		return err
	}
	if err := checkEvalFlags(c); err != nil {
		return err
	}
	for _, flag := range []string{"out", "samples"} {
		if err := checkOutFile(flag, c.String(flag)); err != nil {
			return err
		}
	}
	h, err := openHost(c)
	if err != nil {
		return err
	}
	defer h.Close()
	ds, pol, err := loadForPolicy(c, h)
	if err != nil {
		return err
	}
	tasks, err := ds.Side(c.String("side"), c.StringSlice("task"))
	if err != nil {
		return usageErrorf("%v", err)
	}
	train, _ := ds.Side("train", nil)
	bm, err := startPlugin(c.Context, h, c.String("benchmarker"), sdk.KindBenchmarker)
	if err != nil {
		return err
	}
	ks := c.IntSlice("k")
	o := grpo.EvalOptions{Tasks: tasks, Train: train, FewShot: c.Int("few-shot"), N: c.Int("n"), Ks: ks,
		Sampling: pluginhost.Sampling{Temperature: c.Float64("temperature"), TopP: c.Float64("top-p"), MaxTokens: c.Int("max-tokens")},
		Seed:     c.Uint64("seed"), Concurrency: c.Int("concurrency"), CandidateTimeout: c.Duration("candidate-timeout"), Profile: bench.Profile(c.String("profile")),
		Turns: c.Int("turns")}
	bar := newBar(2*o.Turns, "eval: generate, judge (per turn)", format == "text")
	last := 0
	rep, err := grpo.Evaluate(c.Context, pol, bm, nil, o, func(done, _ int) { bar.addN(done - last); last = done })
	bar.clear()
	if err != nil {
		return failuref("%v", noGPUHint(err, "--benchmarker recorded"))
	}
	// The report is printed before the files are written, so that a write
	// that fails after all (a full disk) does not take it with it.
	if format == "json" {
		err = printJSON(c, rep)
	} else {
		printEval(c, rep, c.String("side"))
	}
	if out := c.String("out"); out != "" {
		b, _ := json.MarshalIndent(rep, "", "  ")
		if werr := os.WriteFile(out, append(b, '\n'), 0o644); werr != nil {
			return failuref("eval: --out: %v", werr)
		}
	}
	if path := c.String("samples"); path != "" {
		var b []byte
		for _, smp := range rep.Samples {
			line, _ := json.Marshal(smp)
			b = append(append(b, line...), '\n')
		}
		if werr := os.WriteFile(path, b, 0o644); werr != nil {
			return failuref("eval: --samples: %v", werr)
		}
	}
	return err
}

func printEval(c *cli.Context, rep *grpo.EvalReport, side string) {
	w := c.App.Writer
	fmt.Fprintf(w, "policy %s, model %s, %d %s tasks\n", rep.Policy, rep.Model, len(rep.Tasks), side)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "task\tn\tno code\tcompiled\tcorrect\tbest correct ×\tbest known ×")
	for _, t := range rep.Tasks {
		best := "-" // no correct sample: no speedup to show
		if t.Correct > 0 {
			best = fmt.Sprintf("%.4g", slices.Max(t.Speedups))
		}
		fmt.Fprintf(tw, "%s\t%d\t%d\t%d\t%d\t%s\t%.4g\n", t.Task, t.N, t.NoCode, t.Compiled, t.Correct, best, t.Best)
	}
	tw.Flush()
	fmt.Fprintln(w)
	// The intervals resample tasks: with one task every resample is that
	// task, and [x, x] read as certainty.
	ci := func(verb string, e grpo.Estimate) string {
		if len(rep.Tasks) < 2 {
			return "[n/a]"
		}
		return fmt.Sprintf("["+verb+", "+verb+"]", e.Lo, e.Hi)
	}
	for _, a := range rep.AtK {
		fmt.Fprintf(w, "pass@%d  %.3f %s   speedup@%d  %.4g× %s\n", a.K,
			a.PassAtK.Value, ci("%.3f", a.PassAtK), a.K, a.Speedup.Value, ci("%.4g", a.Speedup))
	}
	for _, k := range []string{"fast_0", "fast_1_ref", "fast_1_known"} {
		e := rep.FastP[k]
		fmt.Fprintf(w, "%-13s %.3f %s\n", k, e.Value, ci("%.3f", e))
	}
	if len(rep.Tasks) < 2 {
		fmt.Fprintln(w, "(no intervals: they resample tasks, and there is one; evaluate more tasks for them)")
	}
	if len(rep.TurnCorrect) > 1 {
		fmt.Fprint(w, "correct by turn (fraction of samples):")
		for t, f := range rep.TurnCorrect {
			fmt.Fprintf(w, " %d: %.3f", t+1, f)
		}
		fmt.Fprintln(w)
		// The control: would the same number of fresh samples have done as well?
		fmt.Fprint(w, "fresh samples instead (pass@t of the first attempts):")
		for t, f := range rep.FreshCorrect {
			fmt.Fprintf(w, " %d: %.3f", t+1, f)
		}
		fmt.Fprintln(w)
	}
	co := rep.Cost
	fmt.Fprintf(w, "\ncost: generation %.1f s (%d tokens, %d completions cut at the token limit), judging %.1f s\n",
		co.GenerateSeconds, co.CompletionTokens, co.Truncated, co.JudgeSeconds)
	fmt.Fprintf(w, "\n%s\n", rep.Protocol)
}
