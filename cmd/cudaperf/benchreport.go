package main

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/cudaperf/cudaperf/bench"
	"github.com/cudaperf/cudaperf/bench/dataset"
)

func benchReportCommand() *cli.Command {
	return &cli.Command{
		Name:      "report",
		Usage:     "write a suite's RESULTS.md and speedup plot from measured results",
		ArgsUsage: "RESULTS.jsonl...",
		Description: "Reads results.jsonl files written by `cudaperf bench` (a later line for the\n" +
			"same task and variant replaces an earlier one, so re-measured variants win) and\n" +
			"writes <suite>/RESULTS.md: the dataset summary (tasks, variants accepted, tasks\n" +
			"with a best/worst spread of 2x or more, fastest variants above 50 us), an\n" +
			"overview table and one table per task, plus <suite>/speedups.png. It also checks\n" +
			"that <suite>/split.yaml assigns every task to exactly one side.\n\n" +
			"The suite's RESULTS.md describes its whole measurements.jsonl: a report of a few\n" +
			"tasks' run goes elsewhere with --out DIR.",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "suites", Value: filepath.Join("bench", "suites"), Usage: "root `DIR` of the task suites"},
			&cli.StringFlag{Name: "suite", Value: "c2cuda", Usage: "the suite `S` the results belong to"},
			&cli.StringFlag{Name: "compare", Usage: "also report how far the primary medians moved against an earlier run's `RESULTS.jsonl`"},
			&cli.StringFlag{Name: "command", Usage: "the `COMMAND` that produced the results, quoted in RESULTS.md (default: this report's own command line)"},
			&cli.StringFlag{Name: "out", Usage: "write RESULTS.md and speedups.png into `DIR` (created if missing) instead of the suite's folder"},
		},
		Action: runBenchReport,
	}
}

func runBenchReport(c *cli.Context) error {
	if c.NArg() == 0 {
		return usageErrorf("bench report needs at least one results.jsonl (written by cudaperf bench)")
	}
	dir := filepath.Join(c.String("suites"), c.String("suite"))
	tasks, errs := bench.LoadTasks(c.String("suites"), c.String("suite"), nil)
	if len(errs) > 0 {
		return usageErrorf("%v", errors.Join(errs...))
	}
	var names []string
	for _, t := range tasks {
		names = append(names, t.Name)
	}
	split, err := dataset.LoadSplit(filepath.Join(dir, dataset.SplitFile))
	if err != nil {
		return usageErrorf("%v", err)
	}
	if err := split.Check(names); err != nil {
		return usageErrorf("%v", err)
	}
	rs, err := dataset.Load(c.Args().Slice()...)
	if err != nil {
		return usageErrorf("%v", err)
	}
	ts := dataset.Summarize(rs, split)
	if len(ts) == 0 {
		return usageErrorf("no variant results in %v", c.Args().Slice())
	}
	// Everything read before anything is written: a bad --compare used
	// to fail after the page and plot were already replaced.
	var prev []bench.Result
	if old := c.String("compare"); old != "" {
		if prev, err = dataset.Load(old); err != nil {
			return usageErrorf("--compare: %v", err)
		}
	}
	out := dir
	if o := c.String("out"); o != "" {
		if err := os.MkdirAll(o, 0o755); err != nil {
			return usageErrorf("--out: %v", err)
		}
		out = o
	}
	command := c.String("command")
	if command == "" {
		command = "cudaperf " + strings.Join(os.Args[1:], " ")
	}
	plot := "speedups.png"
	if s := dataset.Summary(ts); s.Accepted == 0 {
		// Nothing to plot, but the page is wanted most then: it lists
		// every rejection and its reason (it failed with exit 3 and wrote
		// nothing).
		plot = ""
		fmt.Fprintf(c.App.ErrWriter, "cudaperf: bench report: no variant was accepted: RESULTS.md without the speedup plot\n")
	} else if err := dataset.Plot(ts, filepath.Join(out, plot)); err != nil {
		return failuref("%v", err)
	}
	f, err := os.Create(filepath.Join(out, "RESULTS.md"))
	if err != nil {
		return failuref("%v", err)
	}
	defer f.Close()
	if err := dataset.WriteMarkdown(f, ts, command, plot); err != nil {
		return failuref("write RESULTS.md: %v", err)
	}
	if old := c.String("compare"); old != "" {
		d := dataset.Compare(dataset.Summarize(prev, split), ts)
		if err := dataset.WriteDrift(f, d, old); err != nil {
			return failuref("write RESULTS.md: %v", err)
		}
		fmt.Fprintf(c.App.Writer, "run to run over %d variants: median %.2f%%, p90 %.2f%%, max %.1f%%\n", d.Common, 100*d.Median, 100*d.P90, 100*d.Max)
	}
	s := dataset.Summary(ts)
	fmt.Fprintf(c.App.Writer, "%s: %d tasks, %d variants (%d accepted); all-pass tasks %d; spread >= 2x: %d; fastest >= 50 us: %d\n",
		filepath.Join(out, "RESULTS.md"), s.Tasks, s.Variants, s.Accepted, s.TasksAllPass, s.TasksSpread2x, s.TasksFastestAboveMin)
	return nil
}
