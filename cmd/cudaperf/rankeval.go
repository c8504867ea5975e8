package main

import (
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/cudaperf/cudaperf/bench/dataset"
	"github.com/cudaperf/cudaperf/host/rank"
)

// scorerResult is one row of `rank eval`: a scorer on the held-out tasks.
type scorerResult struct {
	Name   string `json:"name"`
	Detail string `json:"detail,omitempty"`
	// Primary is measured at each task's primary configuration; AllSizes
	// averages each task over its configurations whose fastest variant
	// runs at least dataset.MinFastestMs first.
	Primary  rank.Summary      `json:"primary"`
	AllSizes rank.Summary      `json:"all_sizes"`
	PerTask  []rank.TaskResult `json:"per_task"`
	// Diff is model − this scorer at the primary configuration, by metric,
	// with a paired bootstrap interval (absent for the model itself).
	Diff map[string]rank.CI `json:"model_minus_this,omitempty"`
}

type evalReport struct {
	Side     string            `json:"side"`
	Tasks    []string          `json:"tasks"`
	DataHash string            `json:"data_hash"`
	Model    string            `json:"model"`
	Scorers  []scorerResult    `json:"scorers"`
	PerSize  []rank.TaskResult `json:"model_per_configuration"`
}

// evalSeed seeds every bootstrap of an evaluation, so scorers are compared
// on the same resamples.
const evalSeed = 2026

func runRankEval(c *cli.Context) error {
	format := c.String("format")
	if !slices.Contains([]string{"text", "markdown", "json"}, format) {
		return usageErrorf("--format %q: use text, markdown or json", format)
	}
	if err := checkOutFile("plot", c.String("plot")); err != nil {
		return err
	}
	side := c.String("side")
	if side != "validation" && side != "test" {
		return usageErrorf("--side %q: use validation or test (the model trains on train)", side)
	}
	if c.Bool("record") && c.String("model") == "" {
		return usageErrorf("--record writes into the model file: name it with --model")
	}
	if c.IsSet("kernels") && !c.IsSet("measurements") {
		return usageErrorf("--kernels goes with --measurements FILE (the results of those kernels)")
	}
	if c.IsSet("feature-plugin") {
		return usageErrorf("--feature-plugin: eval computes the features the model was trained on (its schema's plugins); choose them when training (rank train --feature-plugin)")
	}
	m, err := loadModel(c.String("model"))
	if err != nil {
		return err
	}
	// The model's device unless one is named: features depend on it, and a
	// model scored on another device's features is not the one trained.
	if !c.IsSet("arch") && m.Training.Arch != "" {
		if err := c.Set("arch", m.Training.Arch); err != nil {
			return failuref("%v", err)
		}
	}
	plugins := m.Schema.Plugins()
	bind, err := bindSizes(m.Training.Sizes)
	if err != nil {
		return err
	}
	// The suite is the held-out side and the controls' training data; a
	// user's --measurements scored without controls needs neither, and
	// analyzing every suite variant cost seconds for nothing.
	var suite *rankData
	var held []rank.Task
	var what string
	if f := c.String("measurements"); f == "" || !c.Bool("no-controls") {
		if suite, err = loadRankData(c, filepath.Join(c.String("suite"), "measurements.jsonl"), filepath.Join(c.String("suite"), dataset.SplitFile), c.String("suite"), plugins, bind); err != nil {
			return err
		}
		if err := schemaMismatch(m, suite.schema, c.String("model")); err != nil {
			return err
		}
		held, what = suite.side(side), side+" split of "+c.String("suite")
	}
	if f := c.String("measurements"); f != "" {
		user, err := loadRankData(c, f, "", c.String("kernels"), plugins, bind)
		if err != nil {
			return err
		}
		if err := schemaMismatch(m, user.schema, c.String("model")); err != nil {
			return err
		}
		held, what, side = user.tasks, f, "custom"
	}
	if len(held) == 0 {
		return usageErrorf("no measured task on the %s", what)
	}
	held, err = heldOut(c.App.ErrWriter, m, held, what, side == "validation")
	if err != nil {
		return err
	}
	rep := evalReport{Side: side, DataHash: rank.Hash(held), Model: c.String("model")}
	if rep.Model == "" {
		rep.Model = "built-in"
	}
	for _, t := range held {
		rep.Tasks = append(rep.Tasks, t.Name)
	}
	sc := m.NewScorer()
	model := func(v rank.Variant) float64 { return sc.ScoreFile(v.Kernels) }
	desc := fmt.Sprintf("%s, %d input(s)", m.Kind, len(m.Inputs))
	if len(m.Members) > 1 {
		desc += fmt.Sprintf(", ensemble of %d", len(m.Members))
	}
	base := evaluateScorer("model", desc, held, model)
	rep.Scorers = append(rep.Scorers, base)
	rep.PerSize = rank.Evaluate(held, model, dataset.MinFastestMs)
	if bind {
		r := evaluateScorer("model-nosizes", "the same model on features computed without problem sizes, as lint scores a file", rank.WithoutSizes(held), model)
		r.Diff = diffs(base, r)
		rep.Scorers = append(rep.Scorers, r)
	}
	if !c.Bool("no-controls") {
		train, err := suite.named(m.Training.Train)
		if err != nil {
			return usageErrorf("controls: %v", err)
		}
		val, err := suite.named(m.Training.Validation)
		if err != nil {
			return usageErrorf("controls: %v", err)
		}
		controls, err := trainControls(c, m, suite.schema, train, val)
		if err != nil {
			return err
		}
		for _, ctl := range controls {
			r := evaluateScorer(ctl.name, ctl.detail, held, ctl.score)
			r.Diff = diffs(base, r)
			rep.Scorers = append(rep.Scorers, r)
		}
	}
	if p := c.String("plot"); p != "" {
		title := fmt.Sprintf("ranker (%s) on the %s: score vs speedup over the slowest variant", rep.Model, what)
		if err := rank.Plot(held, model, title, p); err != nil {
			return failuref("%v", err)
		}
	}
	if c.Bool("record") {
		if m.Training.Metrics == nil {
			m.Training.Metrics = map[string]rank.Summary{}
		}
		recordMetrics(m, side, held, bind)
		if err := m.Save(c.String("model")); err != nil {
			return failuref("%v", err)
		}
	}
	w := c.App.Writer
	switch format {
	case "json":
		err = writeJSON(w, rep)
	case "markdown":
		err = writeEvalMarkdown(w, rep, what)
	default:
		err = writeEvalText(w, rep, what)
	}
	if err != nil {
		return failuref("write: %v", err)
	}
	return nil
}

// heldOut keeps the tasks a scorer can be measured on: not one the model
// trained on (its numbers there are not held-out numbers, whatever file
// they come from), and with two timed variants or more at its primary
// configuration (a ranking). It names every task it leaves out, fails when
// none is left, and says so when tasks the model early-stopped on are
// scored outside the validation split's own evaluation (validation
// numbers, mildly optimistic, not test numbers).
func heldOut(w io.Writer, m *rank.Model, tasks []rank.Task, what string, validation bool) ([]rank.Task, error) {
	var keep []rank.Task
	var seen, flat, val []string
	for _, t := range tasks {
		switch {
		case slices.Contains(m.Training.Train, t.Name):
			seen = append(seen, t.Name)
		case !t.Rankable():
			flat = append(flat, t.Name)
		default:
			keep = append(keep, t)
			if !validation && slices.Contains(m.Training.Validation, t.Name) {
				val = append(val, t.Name)
			}
		}
	}
	if len(seen) > 0 {
		fmt.Fprintf(w, "rank eval: left out %d task(s) the model trained on, so not held out: %s\n", len(seen), strings.Join(seen, ", "))
	}
	if len(val) > 0 {
		fmt.Fprintf(w, "rank eval: note: %d task(s) are the model's validation tasks (it early-stopped on them): these are validation numbers, not test numbers: %s\n", len(val), strings.Join(val, ", "))
	}
	if len(flat) > 0 {
		fmt.Fprintf(w, "rank eval: left out %d task(s) with fewer than two timed variants at the primary configuration (no ranking to measure): %s\n", len(flat), strings.Join(flat, ", "))
	}
	if len(keep) == 0 {
		return nil, usageErrorf("no task of the %s can be evaluated (above: why each was left out); measure two variants or more of tasks the model did not train on", what)
	}
	return keep, nil
}

func evaluateScorer(name, detail string, tasks []rank.Task, score func(rank.Variant) float64) scorerResult {
	per := rank.ByTask(rank.Evaluate(tasks, score, rank.PrimaryOnly))
	return scorerResult{Name: name, Detail: detail, PerTask: per,
		Primary:  rank.Summarize(per, evalSeed),
		AllSizes: rank.Summarize(rank.ByTask(rank.Evaluate(tasks, score, dataset.MinFastestMs)), evalSeed)}
}

// diffs is base − r for every metric, paired over tasks.
func diffs(base, r scorerResult) map[string]rank.CI {
	out := map[string]rank.CI{}
	for name, f := range rank.Metrics {
		out[name] = rank.PairedBootstrap(base.PerTask, r.PerTask, f, evalSeed)
	}
	return out
}

type control struct {
	name, detail string
	score        func(rank.Variant) float64
}

// trainControls trains the five controls on the model's own train and
// validation tasks, with the model's options except what each control
// changes.
func trainControls(c *cli.Context, m *rank.Model, schema rank.Schema, train, val []rank.Task) ([]control, error) {
	base := m.Training.Options
	base.Featurizer = ""
	base.Features = nil
	var paper []string
	for _, f := range rank.PaperFeatures {
		if slices.Contains(schema.Names(), f) {
			paper = append(paper, f)
		}
	}
	variants := []struct {
		name, detail string
		opt          func(o *rank.Options)
	}{
		{"linear", "linear model, same features", func(o *rank.Options) { o.Kind, o.Hidden = "linear", nil }},
		{"paper-11", "same model on the paper's 11 features only", func(o *rank.Options) { o.Features = paper }},
		{"paper-proxies", "linear model on the paper's thresholded proxies", func(o *rank.Options) {
			o.Kind, o.Hidden, o.Featurizer = "linear", nil, rank.FeaturizerPaperProxies
		}},
		{"random-labels", "same model trained on times shuffled within each task", func(o *rank.Options) { o.ShuffleLabels = true }},
	}
	var out []control
	for _, v := range variants {
		o := base
		v.opt(&o)
		cm, err := rank.Train(schema, train, val, o)
		if err != nil {
			return nil, failuref("control %s: %v", v.name, err)
		}
		s := cm.NewScorer()
		out = append(out, control{v.name, v.detail, func(x rank.Variant) float64 { return s.ScoreFile(x.Kernels) }})
	}
	best := rank.BestSingleFeature(schema, train)
	sign := "more is faster"
	if best.Sign < 0 {
		sign = "less is faster"
	}
	out = append(out, control{"best-feature", fmt.Sprintf("%s (%s; train ρ %.2f)", best.Feature, sign, best.TrainRho), best.Score})
	fmt.Fprintf(c.App.ErrWriter, "trained %d controls on %d train tasks\n", len(out), len(train))
	return out, nil
}

func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

func ci(x rank.CI) string {
	if x.N == 0 {
		return "n/a (no task has it)"
	}
	return fmt.Sprintf("%.2f [%.2f, %.2f]", x.Mean, x.Lo, x.Hi)
}

func diff(r scorerResult, metric string) string {
	d, ok := r.Diff[metric]
	if !ok {
		return ""
	}
	if d.N == 0 {
		return "n/a" // no task with the metric for both: it was +0.00 [+0.00, +0.00]
	}
	s := fmt.Sprintf("%+.2f [%+.2f, %+.2f]", d.Mean, d.Lo, d.Hi)
	if d.Lo > 0 || d.Hi < 0 {
		s += " *"
	}
	return s
}

func writeEvalText(w io.Writer, rep evalReport, what string) error {
	fmt.Fprintf(w, "ranker evaluation on the %s: %d tasks (data %s)\n", what, len(rep.Tasks), rep.DataHash)
	fmt.Fprintf(w, "primary configuration; mean over tasks [95%% bootstrap CI over tasks]; Δ = model − control (paired; * = CI excludes 0)\n\n")
	fmt.Fprintf(w, "%-14s %-20s %-20s %-20s %-22s %-22s %s\n", "scorer", "ρ", "τ", "pair accuracy", "Δρ", "Δpair accuracy", "all sizes ρ")
	for _, r := range rep.Scorers {
		fmt.Fprintf(w, "%-14s %-20s %-20s %-20s %-22s %-22s %s\n", r.Name, ci(r.Primary.Rho), ci(r.Primary.Tau), ci(r.Primary.Acc),
			diff(r, "rho"), diff(r, "pair_accuracy"), ci(r.AllSizes.Rho))
	}
	fmt.Fprintln(w)
	for _, r := range rep.Scorers {
		fmt.Fprintf(w, "  %-14s %s\n", r.Name, r.Detail)
	}
	fmt.Fprintf(w, "\nmodel per task (primary):\n%-22s %8s %7s %7s %7s %6s\n", "task", "variants", "ρ", "τ", "acc", "pairs")
	for _, t := range rep.Scorers[0].PerTask {
		fmt.Fprintf(w, "%-22s %8d %7.2f %7.2f %7.2f %6d\n", t.Task, t.N, t.Rho, t.Tau, t.Acc, t.Pairs)
	}
	p := rep.Scorers[0].Primary
	fmt.Fprintf(w, "pooled pair accuracy: %.3f over %d pairs\n", p.PooledAcc, p.Pairs)
	fmt.Fprintf(w, "\nmodel ρ per configuration (fastest variant >= %g ms; * = primary):\n", dataset.MinFastestMs)
	for _, line := range perSizeLines(rep) {
		fmt.Fprintf(w, "%-22s %s\n", line[0], line[1])
	}
	return nil
}

// perSizeLines gives, per task, its configurations' ρ in the task's order.
func perSizeLines(rep evalReport) [][2]string {
	var out [][2]string
	for _, task := range rep.Tasks {
		var cells []string
		for _, r := range rep.PerSize {
			if r.Task != task {
				continue
			}
			mark := ""
			for _, t := range rep.Scorers[0].PerTask {
				if t.Task == task && t.Config == r.Config {
					mark = "*"
				}
			}
			cells = append(cells, fmt.Sprintf("%s%s %.2f", r.Config, mark, r.Rho))
		}
		out = append(out, [2]string{task, strings.Join(cells, ", ")})
	}
	return out
}

func writeEvalMarkdown(w io.Writer, rep evalReport, what string) error {
	fmt.Fprintf(w, "Evaluation on the %s: %d tasks (%s), data hash `%s`, model %s. Primary configuration; mean over tasks with a 95%% bootstrap interval over tasks; Δ = model − control with a paired bootstrap interval (* = excludes 0).\n\n",
		what, len(rep.Tasks), strings.Join(rep.Tasks, ", "), rep.DataHash, rep.Model)
	fmt.Fprintln(w, "| scorer | ρ | τ | pair accuracy | Δρ | Δ pair accuracy | ρ, all sizes |")
	fmt.Fprintln(w, "|---|---|---|---|---|---|---|")
	for _, r := range rep.Scorers {
		fmt.Fprintf(w, "| %s (%s) | %s | %s | %s | %s | %s | %s |\n", r.Name, r.Detail, ci(r.Primary.Rho), ci(r.Primary.Tau), ci(r.Primary.Acc),
			diff(r, "rho"), diff(r, "pair_accuracy"), ci(r.AllSizes.Rho))
	}
	fmt.Fprintf(w, "\nPooled pair accuracy of the model: %.3f over %d pairs.\n\n", rep.Scorers[0].Primary.PooledAcc, rep.Scorers[0].Primary.Pairs)
	fmt.Fprintln(w, "| task | variants | ρ | τ | pair accuracy | pairs |")
	fmt.Fprintln(w, "|---|---|---|---|---|---|")
	for _, t := range rep.Scorers[0].PerTask {
		fmt.Fprintf(w, "| %s | %d | %.2f | %.2f | %.2f | %d |\n", t.Task, t.N, t.Rho, t.Tau, t.Acc, t.Pairs)
	}
	fmt.Fprintf(w, "\nModel ρ per configuration (those whose fastest variant runs ≥ %g ms, in the task's order; * = primary):\n\n", dataset.MinFastestMs)
	fmt.Fprintln(w, "| task | ρ by configuration |")
	fmt.Fprintln(w, "|---|---|")
	for _, line := range perSizeLines(rep) {
		fmt.Fprintf(w, "| %s | %s |\n", line[0], line[1])
	}
	return nil
}
