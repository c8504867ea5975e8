package main

import (
	"fmt"
	"path/filepath"

	"github.com/urfave/cli/v2"

	"github.com/cudaperf/cudaperf/host/grpo"
	"github.com/cudaperf/cudaperf/plugins/sdk"
)

func sftCommand() *cli.Command {
	return &cli.Command{
		Name:      "sft",
		Usage:     "supervised warm start: fine-tune a policy on the train split's known kernels",
		ArgsUsage: " ",
		Description: "sft teaches a policy plugin the train split's measured variants, each as the answer to the\n" +
			"prompt the RL loop and eval ask (same builder), through the policy's Update with the SFT\n" +
			"objective. A small model needs this before RL has any signal. Faster variants can weigh\n" +
			"more (--weighting speed: √(speedup / the task's known-variant geomean), clipped to [0.25, 4]),\n" +
			"and the first epoch can go from short kernels to long ones (--curriculum short-first).\n" +
			"It also teaches the loop's refinement turn (--refine): after a slow taught variant and the\n" +
			"feedback the loop would give it (speedup, features, diagnostics), the fastest variant.\n" +
			"Validation and test tasks are never taught.\n\n" +
			"Writes OUT/epoch-N/ (the policy's Save: pass one to 'train' as policy.init or to 'eval --load'),\n" +
			"OUT/sft.jsonl (the plugin's statistics per update) and OUT/sft-loss.png, and prints each epoch's\n" +
			"mean loss as it ends. OUT must not hold an SFT run already: to go on from a saved epoch, start\n" +
			"a new run from it (--load OUT/epoch-N) with another --out.\n\n" +
			"Example: cudaperf sft --policy hf --epochs 4 --out runs/sft-1\n" +
			"         cudaperf eval --policy hf --load runs/sft-1/epoch-4 --side train\n" +
			"         cudaperf sft --policy hf --refine-from runs/grpo-1/rollouts/step-000008.jsonl.gz --out runs/sft-2",
		Flags: append(policyFlags(),
			&cli.StringFlag{Name: "out", Required: true, Usage: "output `DIR`"},
			&cli.IntFlag{Name: "epochs", Value: 3, Usage: "passes over the examples"},
			&cli.IntFlag{Name: "batch", Value: 16, Usage: "examples per Update"},
			&cli.Float64Flag{Name: "lr", Value: 0, Usage: "learning rate (0: the plugin's default)"},
			&cli.StringFlag{Name: "weighting", Value: "speed", Usage: "example weights: speed or uniform"},
			&cli.StringFlag{Name: "curriculum", Value: "short-first", Usage: "order: short-first or shuffle"},
			&cli.IntFlag{Name: "top", Value: 0, Usage: "only each task's `K` fastest variants (0: all, simple correct ones included)"},
			&cli.IntFlag{Name: "max-chars", Value: 0, Usage: "skip variants longer than `N` characters (0: none); an answer longer than the sampling limit (--max-tokens of eval and train) teaches answers that get cut off: CUDA is about 2.4 characters a token for the default model (1.8 at worst), so 1500 characters fit 768 tokens"},
			&cli.IntFlag{Name: "sweep-instances", Value: 2, Usage: "keep at most `K` sweep instances (cudaperf dataset expand) per task, the fastest (0: all, -1: none): they differ only in their #defines"},
			&cli.IntFlag{Name: "refine", Value: 2, Usage: "at most `K` refinement examples per task (0: none): the loop's refinement prompt after one of the task's slowest taught variants (its recorded speedup, features and diagnostics as feedback), answered by its fastest; a model taught first attempts only does not answer the loop's later turns"},
			&cli.StringSliceFlag{Name: "refine-from", Usage: "also teach the refinement prompts after failed attempts in these rollout `FILE`s of earlier runs (RUN/rollouts/step-N.jsonl.gz; repeatable), each answered by the task's fastest taught variant: the loop's real compiler errors and wrong results; train tasks only"},
			&cli.IntFlag{Name: "refine-per-task", Value: 4, Usage: "at most `K` of --refine-from's prompts per task"},
			&cli.Uint64Flag{Name: "seed", Value: 1, Usage: "shuffle seed"},
		),
		Action: sftAction,
	}
}

func sftAction(c *cli.Context) error {
	hyper := map[string]float64{}
	if lr := c.Float64("lr"); lr > 0 {
		hyper["learning_rate"] = lr
	}
	o := grpo.SFTOptions{FewShot: c.Int("few-shot"), Epochs: c.Int("epochs"), Batch: c.Int("batch"),
		Weighting: c.String("weighting"), Curriculum: c.String("curriculum"), TopK: c.Int("top"), MaxChars: c.Int("max-chars"),
		SweepInstances: c.Int("sweep-instances"), Refine: c.Int("refine"),
		RefineFrom: c.StringSlice("refine-from"), RefinePerTask: c.Int("refine-per-task"),
		Seed: c.Uint64("seed"), Hyper: hyper, Out: c.String("out")}
	// Flags and the output folder first: a policy plugin can take minutes
	// to load its model, and a typo should not cost them.
	if err := o.Check(); err != nil {
		return usageErrorf("%v", err)
	}
	if err := grpo.CheckSFTOut(o.Out); err != nil {
		return usageErrorf("%v", err)
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
	tasks, err := ds.Side("train", c.StringSlice("task"))
	if err != nil {
		return usageErrorf("%v (sft teaches train tasks only)", err)
	}
	o.Tasks = tasks
	o.Train, _ = ds.Side("train", nil)
	if n := c.Int("refine"); n > 0 && len(h.OfKind(sdk.KindAnalyzer)) > 0 {
		o.Scorer = &grpo.AnalyzerScorer{Analyzers: h} // the loop's feedback: features and diagnostics
	} else if n > 0 {
		fmt.Fprintln(c.App.ErrWriter, "sft: no analyzer plugin is installed: refinement examples get feedback without features and diagnostics, unlike the loop's (see 'cudaperf plugins list')")
	}
	ex, err := grpo.SFTExamples(c.Context, o)
	if err != nil {
		return usageErrorf("%v", err)
	}
	refine := 0
	for _, e := range ex {
		if len(e.Prompt.Messages) > 2 {
			refine++
		}
	}
	fmt.Fprintf(c.App.Writer, "sft: %d examples (%d of them refinement turns) from %d train tasks, %d epochs, batch %d, weighting %s, curriculum %s\n",
		len(ex), refine, len(tasks), o.Epochs, o.Batch, o.Weighting, o.Curriculum)
	bar := newBar((len(ex)+o.Batch-1)/o.Batch*o.Epochs, "sft", true)
	last, saved := 0, 0
	// Each epoch's line as it ends: a run of hours shows its loss as it
	// goes, and a run cut short has shown every epoch it saved.
	o.EpochDone = func(epoch int, logs []grpo.SFTLog) {
		saved = epoch
		if line := sftEpochLine(logs, epoch); line != "" {
			bar.clear()
			fmt.Fprintln(c.App.Writer, line)
		}
	}
	_, err = grpo.RunSFT(c.Context, pol, o, ex, func(done, _ int) { bar.addN(done - last); last = done })
	bar.clear()
	if err != nil {
		// Printed rather than returned: on an interrupt the command's
		// error gives way to the signal's, and this is what to do next.
		if saved > 0 {
			fmt.Fprintf(c.App.ErrWriter, "sft: stopped with %d of %d epochs saved (%s/epoch-1 … epoch-%d): --load %s starts a new run from the last, with another --out\n",
				saved, o.Epochs, o.Out, saved, filepath.Join(o.Out, fmt.Sprintf("epoch-%d", saved)))
		} else {
			fmt.Fprintf(c.App.ErrWriter, "sft: stopped before the end of epoch 1 of %d: no epoch was saved\n", o.Epochs)
		}
		return failuref("%v", err)
	}
	fmt.Fprintf(c.App.Writer, "saved %s/epoch-1 … epoch-%d, %s/sft.jsonl\n", o.Out, o.Epochs, o.Out)
	return nil
}

// sftEpochLine is the report of epoch's updates in logs: the mean loss
// over those not skipped, and how many were skipped; empty for a policy
// that reports no loss and skipped nothing.
func sftEpochLine(logs []grpo.SFTLog, epoch int) string {
	var sum float64
	n := 0
	for _, l := range logs {
		if v, ok := l.Stats["loss"]; ok && l.Epoch == epoch && l.Stats[grpo.SkipStat] == 0 {
			sum += v
			n++
		}
	}
	msg := ""
	if all, skipped := grpo.SkippedUpdates(logs, epoch); skipped > 0 {
		msg = fmt.Sprintf(" (%d of %d updates skipped: non-finite loss or gradient, weights left as they were)", skipped, all)
	}
	switch {
	case n > 0:
		return fmt.Sprintf("epoch %d: mean loss %.4f over %d updates%s", epoch, sum/float64(n), n, msg)
	case msg != "":
		return fmt.Sprintf("epoch %d:%s", epoch, msg)
	}
	return ""
}
