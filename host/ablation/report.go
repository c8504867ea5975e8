package ablation

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"image/color"
	"io"
	"maps"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"

	"github.com/cudaperf/cudaperf/bench/verdict"
	"github.com/cudaperf/cudaperf/host/grpo"
)

// Results are everything measured by an ablation's runs.
type Results struct {
	Config *Config
	// Evals[side][mode][seed index] is the run's evaluation.
	Evals map[string]map[string][]*grpo.EvalReport
	// Curves[mode][seed index] are the run's training metrics.
	Curves map[string][][]grpo.Metrics
	// Orders[mode][seed index] is the run's ClassOrder, from its rollouts.
	Orders map[string][]ClassOrder
	// Missing lists the runs (or evaluations) not made yet.
	Missing []string
	// Starts maps a start checkpoint's digest (grpo.Start) to the runs
	// that began from it; Unrecorded lists the runs made before runs
	// recorded their start.
	Starts     map[string][]string
	Unrecorded []string
	// Reading is a reading of the results written by hand (Markdown),
	// printed under the generated conclusion, and ReadingFile names it
	// there. Its line "<!-- results: FINGERPRINT -->" says which results
	// it was written against; Write sets ReadingStale when those are not
	// the results it prints, so a reading cannot silently outlive them.
	Reading, ReadingFile string
	ReadingStale         bool
}

// Collect reads the runs' files. Runs not made yet are listed in Missing;
// a mode that lacks a seed is left out of the tables. A configuration that
// differs from the one the runs were made with is refused (a *UsageError):
// the page would describe a protocol they did not follow.
func Collect(c *Config) (*Results, error) {
	if err := c.checkMade(); err != nil {
		return nil, err
	}
	res := &Results{Config: c, Evals: map[string]map[string][]*grpo.EvalReport{}, Curves: map[string][][]grpo.Metrics{}, Orders: map[string][]ClassOrder{},
		Starts: map[string][]string{}}
	for _, side := range c.Eval.Sides {
		res.Evals[side] = map[string][]*grpo.EvalReport{}
	}
	for _, r := range c.Runs() {
		if _, err := os.Stat(r.Cfg.Dir()); err == nil {
			st, err := grpo.ReadStart(r.Cfg.Dir())
			if err != nil {
				return nil, err
			}
			if st == nil {
				res.Unrecorded = append(res.Unrecorded, r.Cfg.Name)
			} else {
				res.Starts[st.SHA256] = append(res.Starts[st.SHA256], r.Cfg.Name)
			}
		}
		ms, err := grpo.ReadMetrics(filepath.Join(r.Cfg.Dir(), "metrics.jsonl"))
		if err != nil {
			return nil, err
		}
		res.Curves[r.Mode] = append(res.Curves[r.Mode], ms)
		if r.Mode != StartMode {
			recs, err := grpo.RunRollouts(r.Cfg.Dir())
			if err != nil {
				return nil, fmt.Errorf("ablation: %s: %w", r.Cfg.Name, err)
			}
			res.Orders[r.Mode] = append(res.Orders[r.Mode], orderOf(recs, c.base.Reward.Weights.Compile))
		}
		for _, side := range c.Eval.Sides {
			b, err := os.ReadFile(EvalFile(r.Cfg.Dir(), side))
			if err != nil {
				res.Missing = append(res.Missing, fmt.Sprintf("%s (eval %s)", r.Cfg.Name, side))
				res.Evals[side][r.Mode] = append(res.Evals[side][r.Mode], nil)
				continue
			}
			var rep grpo.EvalReport
			if err := json.Unmarshal(b, &rep); err != nil {
				return nil, fmt.Errorf("ablation: %s: %w", EvalFile(r.Cfg.Dir(), side), err)
			}
			res.Evals[side][r.Mode] = append(res.Evals[side][r.Mode], &rep)
		}
	}
	return res, nil
}

// perTask is a metric's value for one task's samples.
func perTask(metric string, te grpo.TaskEval) float64 {
	kind, k, _ := parseMetric(metric)
	if kind == "pass" {
		return grpo.PassAtK(te.N, te.Correct, k)
	}
	logs := make([]float64, len(te.Speedups))
	for i, s := range te.Speedups {
		logs[i] = math.Log(max(1, s))
	}
	return grpo.ExpectedMaxOfK(logs, k) // log speedup; reported as exp(mean)
}

// Table builds a metric's table on a side, over the modes whose every
// seed has been evaluated.
func (r *Results) Table(metric, side string) *Table {
	c := r.Config
	t := &Table{Metric: metric, Seeds: c.Seeds, Values: map[string][][]float64{}}
	for _, mode := range c.RowModes() {
		reps := r.Evals[side][mode]
		complete := len(reps) == len(c.Seeds)
		for _, rep := range reps {
			complete = complete && rep != nil
		}
		if !complete {
			continue
		}
		if t.Tasks == nil {
			for _, te := range reps[0].Tasks {
				t.Tasks = append(t.Tasks, te.Task)
			}
		}
		var v [][]float64
		for _, rep := range reps {
			row := make([]float64, len(rep.Tasks))
			for i, te := range rep.Tasks {
				row[i] = perTask(metric, te)
			}
			v = append(v, row)
		}
		t.Modes = append(t.Modes, mode)
		t.Values[mode] = v
	}
	return t
}

// bootstraps per interval; fixed seed so a report is reproducible.
const (
	resamples = 4000
	bootSeed  = 20261201
)

// Write prints the results page (Markdown) and saves curves.png next to
// it (in dir).
func (r *Results) Write(w io.Writer, dir, command string) error {
	c := r.Config
	fmt.Fprintf(w, "# Reward ablation: %s\n\n", c.Name)
	fmt.Fprintf(w, "Generated by `%s`; do not edit by hand.\n\n", command)
	fmt.Fprintf(w, "- **Primary metric** (named before the runs): %s on the %s side.\n", c.Primary.Metric, c.Primary.Side)
	b := c.base
	fmt.Fprintf(w, "- Design: modes %s × seeds %v, identical budgets: %d steps × %d tasks × G = %d × T = %d, from `%s`.\n",
		strings.Join(c.Modes, ", "), c.Seeds, b.Steps, b.Batch, b.Group, b.Turns, orNone(c.Init))
	if line := r.startsLine(); line != "" {
		fmt.Fprintf(w, "- %s\n", line)
	}
	if *c.Start {
		fmt.Fprintf(w, "- Control: the start itself (`start`), evaluated untrained with each seed's sampling; each mode − start says whether its training moved it at all.\n")
	}
	rw := b.Reward.Weights
	fmt.Fprintf(w, "- Reward: λ = %g on Rstr, given to candidates with str_on = %s (the random control draws for the same candidates); αc %g, αt %g, αs %g, L %g, β %g.\n",
		rw.Lambda, orNone(string(rw.StrOn)), rw.Compile, rw.Tests, rw.Speedup, rw.Clip, rw.CorrectBonus)
	if rw.StrBound > 0 {
		fmt.Fprintf(w, "- The structural term is squashed into ±%g (str_bound: b·tanh(λ·Rstr/b)).\n", rw.StrBound)
	}
	fmt.Fprintf(w, "- Evaluation: %d samples per task, k ∈ %v, temperature %g; intervals are 95%% two-way bootstraps (seeds and tasks, crossed: every seed on one task sample; %d resamples); comparisons are paired by seed and task; MDE = 2.80 × the bootstrap SE of the difference (α = 0.05 two-sided, power 0.8).\n",
		c.Eval.N, c.Eval.K, c.Eval.Temperature, resamples)
	fmt.Fprintf(w, "- Commands: the runs by `cudaperf ablate --config FILE --resume [--budget D]`, in as many slices as the machine allows (each run's full configuration is `%s/<run>/config.yaml`); this page by the command above.\n", c.Dir())
	if len(r.Missing) > 0 {
		fmt.Fprintf(w, "- **Not made yet** (%d): %s. Modes missing a seed are left out of the tables.\n", len(r.Missing), strings.Join(r.Missing, ", "))
		if line := r.remaining(); line != "" {
			fmt.Fprintf(w, "- %s\n", line)
		}
	}
	fmt.Fprintln(w)
	// The fingerprint covers every run's evaluation (the runs' table) and
	// the primary comparisons: what a reading by hand is written against.
	var runs strings.Builder
	r.writeRuns(&runs)
	fmt.Fprint(w, runs.String())

	metrics := reportMetrics(c)
	var conclusion []string
	others, othersDetected := 0, 0
	for _, side := range c.Eval.Sides {
		label := map[string]string{"test": "held out (test split)", "train": "in distribution (train split)", "validation": "validation split"}[side]
		fmt.Fprintf(w, "## %s\n\n| mode |", label)
		for _, m := range metrics {
			fmt.Fprintf(w, " %s |", m)
		}
		fmt.Fprintf(w, "\n|---|%s\n", strings.Repeat("---|", len(metrics)))
		tables := map[string]*Table{}
		for _, m := range metrics {
			tables[m] = r.Table(m, side)
		}
		for _, mode := range c.RowModes() {
			fmt.Fprintf(w, "| %s |", mode)
			for _, m := range metrics {
				t := tables[m]
				if _, ok := t.Values[mode]; !ok {
					fmt.Fprint(w, " — |")
					continue
				}
				e := t.Mode(mode, resamples, bootSeed)
				fmt.Fprintf(w, " %s |", fmtEst(m, e))
			}
			fmt.Fprintln(w)
		}
		fmt.Fprintf(w, "\nPaired comparisons:\n\n| metric | comparison | difference [95%% CI] | MDE | verdict |\n|---|---|---|---|---|\n")
		for _, m := range metrics {
			t := tables[m]
			for _, pair := range comparedPairs(c.RowModes()) {
				if _, ok := t.Values[pair[0]]; !ok {
					continue
				}
				if _, ok := t.Values[pair[1]]; !ok {
					continue
				}
				cmp := t.Compare(pair[0], pair[1], resamples, bootSeed)
				fmt.Fprintf(w, "| %s | %s − %s | %s | %s | %s |\n", m, pair[0], pair[1], fmtDiff(m, cmp.Diff), fmtMDE(m, cmp.MDE), cmp.Verdict())
				if m == c.Primary.Metric && side == c.Primary.Side {
					conclusion = append(conclusion, fmt.Sprintf("%s − %s: %s (%s; the design detects |differences| ≥ %s)",
						pair[0], pair[1], fmtDiff(m, cmp.Diff), cmp.Verdict(), fmtMDE(m, cmp.MDE)))
				} else {
					others++
					if cmp.Diff.Lo > 0 || cmp.Diff.Hi < 0 {
						othersDetected++
					}
				}
			}
		}
		fmt.Fprintln(w)
	}

	fmt.Fprintf(w, "## Ranker validity during training\n\nWithin-group Spearman ρ between the real Rstr and the measured speedup of correct candidates, averaged over a run's groups with ≥ 3 correct candidates (every mode computes the real Rstr):\n\n| mode | ρ per seed | groups |\n|---|---|---|\n")
	for _, mode := range c.Modes {
		var parts []string
		groups := 0
		for _, ms := range r.Curves[mode] {
			var s float64
			n := 0
			for _, m := range ms {
				s += m.StrSpeedupRho * float64(m.RhoGroups)
				n += m.RhoGroups
			}
			if n > 0 {
				parts = append(parts, fmt.Sprintf("%.2f", s/float64(n)))
			} else {
				parts = append(parts, "—")
			}
			groups += n
		}
		fmt.Fprintf(w, "| %s | %s | %d |\n", mode, strings.Join(parts, ", "), groups)
	}
	fmt.Fprintf(w, "\nIs the ranker being climbed instead of the benchmark? The real Rstr of every code block, the compile rate and the share of answers without a code block, means over a run's first and last quarter of steps, then over seeds (a run of lease 3 of 2026-12-03 with Rstr on code that did not compile went from −0.91 to +1.33 while compiling fell from 10%% to 1.4%% and answers without code rose from 15%% to 46%%):\n\n| mode | real Rstr, first → last | compile rate, first → last | no code block, first → last |\n|---|---|---|---|\n")
	for _, mode := range c.Modes {
		var str, comp, noCode [2]float64
		n := 0
		for _, ms := range r.Curves[mode] {
			if len(ms) == 0 {
				continue
			}
			q := max(1, len(ms)/4)
			for i, part := range [2][]grpo.Metrics{ms[:q], ms[len(ms)-q:]} {
				for _, m := range part {
					str[i] += m.StrMean / float64(q)
					comp[i] += m.CompileRate / float64(q)
					if m.Candidates > 0 {
						noCode[i] += float64(m.NoCode) / float64(m.Candidates) / float64(q)
					}
				}
			}
			n++
		}
		if n == 0 {
			fmt.Fprintf(w, "| %s | — | — | — |\n", mode)
			continue
		}
		fmt.Fprintf(w, "| %s | %+.2f → %+.2f | %.1f%% → %.1f%% | %.1f%% → %.1f%% |\n", mode, str[0]/float64(n), str[1]/float64(n),
			100*comp[0]/float64(n), 100*comp[1]/float64(n), 100*noCode[0]/float64(n), 100*noCode[1]/float64(n))
	}
	r.writeOrder(w)
	r.writeTurns(w)
	if err := r.plot(filepath.Join(dir, "curves.png")); err != nil {
		return err
	}
	fmt.Fprintf(w, "\n![correct rate of the training candidates per step, mean over the seeds that reached the step](curves.png)\n\n## Conclusion\n\n")
	if len(conclusion) == 0 {
		fmt.Fprintf(w, "No conclusion yet: the primary metric (%s, %s) needs every seed of at least two modes.\n", c.Primary.Metric, c.Primary.Side)
	} else {
		fmt.Fprintf(w, "On the primary metric (%s, %s):\n\n", c.Primary.Metric, c.Primary.Side)
		for _, l := range conclusion {
			fmt.Fprintf(w, "- %s\n", l)
		}
		fmt.Fprintf(w, "\n\"No difference detected\" means the interval includes 0; it is not evidence of equality beyond the MDE.\n")
		if others > 0 {
			// 95% intervals, uncorrected: a secondary "difference" has to be
			// read against how many a null result would show.
			fmt.Fprintf(w, "\nThe page's other %d comparisons (other metrics and sides, not named before the runs) are not corrected for multiplicity: were there no effect at all, about %.1f of them (5%%) would show a difference by chance; %d do.\n",
				others, 0.05*float64(others), othersDetected)
		}
	}
	fp := fingerprint(runs.String(), conclusion)
	fmt.Fprintf(w, "\nResults fingerprint: `%s` (a reading written by hand names it in a line `<!-- results: %s -->`, so that this page can tell when the results change under it).\n", fp, fp)
	r.ReadingStale = false
	if r.Reading != "" {
		fmt.Fprintf(w, "\n### Reading, by hand (`%s`)\n\n", r.ReadingFile)
		body, marked := readingMarker(r.Reading)
		if marked != fp {
			r.ReadingStale = true
			was := "does not say which results it was written against"
			if marked != "" {
				was = "was written against results `" + marked + "`"
			}
			fmt.Fprintf(w, "> **Possibly stale:** this reading %s; the results above are `%s`. Read it again against them, then set its line to `<!-- results: %s -->`.\n\n", was, fp, fp)
		}
		fmt.Fprintf(w, "%s\n", strings.TrimSpace(body))
	}
	return nil
}

// fingerprint is the first 12 hex digits of a SHA-256 over the runs'
// table and the primary comparisons.
func fingerprint(runs string, conclusion []string) string {
	h := sha256.New()
	io.WriteString(h, runs)
	for _, l := range conclusion {
		io.WriteString(h, "\x00"+l)
	}
	return hex.EncodeToString(h.Sum(nil))[:12]
}

// readingMarker splits a reading into its text and the fingerprint its
// "<!-- results: X -->" line names ("" without one).
func readingMarker(reading string) (body, fp string) {
	var keep []string
	for _, l := range strings.Split(reading, "\n") {
		t := strings.TrimSpace(l)
		if v, ok := strings.CutPrefix(t, "<!-- results:"); ok && strings.HasSuffix(v, "-->") {
			fp = strings.TrimSpace(strings.TrimSuffix(v, "-->"))
			continue
		}
		keep = append(keep, l)
	}
	return strings.Join(keep, "\n"), fp
}

// startsLine says whether the runs made so far began from one start
// checkpoint, by content: the config names it by path only, and a path
// can come to hold another adapter (as on 2026-12-04).
func (r *Results) startsLine() string {
	sums := slices.Sorted(maps.Keys(r.Starts))
	name := func(sum string) string {
		if sum == "" {
			return "the policy's own weights"
		}
		return "sha256 `" + sum[:min(12, len(sum))] + "`"
	}
	switch {
	case len(sums) == 0 && len(r.Unrecorded) == 0:
		return ""
	case len(sums) == 1 && len(r.Unrecorded) == 0:
		return "Start checkpoint, by content: " + name(sums[0]) + " for every run."
	}
	var parts []string
	for _, sum := range sums {
		parts = append(parts, name(sum)+" for "+strings.Join(r.Starts[sum], ", "))
	}
	if len(r.Unrecorded) > 0 {
		parts = append(parts, "not recorded for "+strings.Join(r.Unrecorded, ", ")+" (made before runs recorded their start)")
	}
	lead := "**The runs do not all have a recorded, common start**"
	if len(sums) > 1 {
		lead = "**The runs began from different start checkpoints**"
	}
	return lead + ": " + strings.Join(parts, "; ") + ". A comparison within a seed is paired on the start only where that seed's runs share one."
}

// remaining estimates the device time the missing steps and evaluations
// need, from the medians of those already made, so a lease can be
// planned: "" when nothing has been measured yet.
func (r *Results) remaining() string {
	c := r.Config
	var stepS, evalS []float64
	stepsLeft := 0
	for _, run := range c.Runs() {
		if run.Mode == StartMode {
			continue
		}
		idx := slices.Index(c.Seeds, run.Seed)
		var ms []grpo.Metrics
		if curves := r.Curves[run.Mode]; idx < len(curves) {
			ms = curves[idx]
		}
		stepsLeft += max(0, run.Cfg.Steps-len(ms))
		for _, m := range ms {
			if s, ok := m.Stage["step_s"]; ok {
				stepS = append(stepS, s)
			}
		}
	}
	for _, bySide := range r.Evals {
		for _, reps := range bySide {
			for _, rep := range reps {
				if rep != nil && rep.Cost.GenerateSeconds+rep.Cost.JudgeSeconds > 0 {
					evalS = append(evalS, rep.Cost.GenerateSeconds+rep.Cost.JudgeSeconds)
				}
			}
		}
	}
	evalsLeft := len(r.Missing)
	if (stepsLeft > 0 && len(stepS) == 0) || (evalsLeft > 0 && len(evalS) == 0) {
		return ""
	}
	secs := 0.0
	var at []string
	if stepsLeft > 0 {
		secs += float64(stepsLeft) * verdict.Median(stepS)
		at = append(at, fmt.Sprintf("a step %.1f s", verdict.Median(stepS)))
	}
	if evalsLeft > 0 {
		secs += float64(evalsLeft) * verdict.Median(evalS)
		at = append(at, fmt.Sprintf("an evaluation %.1f s", verdict.Median(evalS)))
	}
	return fmt.Sprintf("Left: training steps %d, evaluations %d: about %.1f device minutes at the medians so far (%s), plus each new plugin process's start and compiles.",
		stepsLeft, evalsLeft, secs/60, strings.Join(at, ", "))
}

// writeRuns lists every evaluated run on its own, so a page whose modes
// still lack seeds (and so has no comparison yet) shows what has been
// measured. Intervals here are over tasks only: one seed says nothing of
// the spread between seeds, which is why the mode tables wait for all.
func (r *Results) writeRuns(w io.Writer) {
	c := r.Config
	type row struct {
		name, side string
		rep        *grpo.EvalReport
	}
	var rows []row
	var ks []int
	for _, side := range c.Eval.Sides {
		for _, mode := range c.RowModes() {
			for i, rep := range r.Evals[side][mode] {
				if rep == nil || i >= len(c.Seeds) {
					continue
				}
				rows = append(rows, row{runName(mode, c.Seeds[i]), side, rep})
				if ks == nil {
					for _, a := range rep.AtK {
						ks = append(ks, a.K)
					}
				}
			}
		}
	}
	if len(rows) == 0 {
		return
	}
	fmt.Fprintf(w, "## Each evaluated run on its own\n\nOne seed each: intervals are 95%% bootstraps over tasks only, so they leave out the spread between seeds; modes are compared only in the tables below, once every seed is in.\n\n| run | side |")
	for _, k := range ks {
		fmt.Fprintf(w, " pass@%d |", k)
	}
	for _, k := range ks {
		fmt.Fprintf(w, " speedup@%d |", k)
	}
	fmt.Fprintf(w, "\n|---|---|%s\n", strings.Repeat("---|", 2*len(ks)))
	for _, rw := range rows {
		fmt.Fprintf(w, "| %s | %s |", rw.name, rw.side)
		byK := map[int]grpo.AtK{}
		for _, a := range rw.rep.AtK {
			byK[a.K] = a
		}
		for _, k := range ks {
			if a, ok := byK[k]; ok {
				fmt.Fprintf(w, " %.3f [%.3f, %.3f] |", a.PassAtK.Value, a.PassAtK.Lo, a.PassAtK.Hi)
			} else {
				fmt.Fprint(w, " — |")
			}
		}
		for _, k := range ks {
			if a, ok := byK[k]; ok {
				fmt.Fprintf(w, " %.4g× [%.4g, %.4g] |", a.Speedup.Value, a.Speedup.Lo, a.Speedup.Hi)
			} else {
				fmt.Fprint(w, " — |")
			}
		}
		fmt.Fprintln(w)
	}
	fmt.Fprintln(w)
}

// writeTurns says whether the refinement turns earn their generation
// budget: the correct rate of each turn's answers over training, against
// the first turn's, which is what a fresh sample would reach (in lease 4's
// ver-s1 refinements were correct far less often than first attempts).
func (r *Results) writeTurns(w io.Writer) {
	c := r.Config
	turns := c.base.Turns
	if turns < 2 {
		return
	}
	fmt.Fprintf(w, "\nDo the refinement turns help? The correct rate of each turn's answers, mean over steps and seeds; a fresh sample would be correct at turn 1's rate, so a later turn earns its budget only above it:\n\n| mode | correct rate, turn 1 → %d |\n|---|---|\n", turns)
	for _, mode := range c.Modes {
		sum := make([]float64, turns)
		n := 0
		for _, ms := range r.Curves[mode] {
			for _, m := range ms {
				if len(m.TurnCorrect) != turns {
					continue
				}
				for t, v := range m.TurnCorrect {
					sum[t] += v
				}
				n++
			}
		}
		if n == 0 {
			fmt.Fprintf(w, "| %s | — |\n", mode)
			continue
		}
		parts := make([]string, len(sum))
		for t, v := range sum {
			parts[t] = fmt.Sprintf("%.1f%%", 100*v/float64(n))
		}
		fmt.Fprintf(w, "| %s | %s |\n", mode, strings.Join(parts, " → "))
	}
}

func orNone(s string) string {
	if s == "" {
		return "the policy's initial weights"
	}
	return s
}

func isSpeed(metric string) bool { return strings.HasPrefix(metric, "speedup") }

func fmtEst(metric string, e Estimate) string {
	if isSpeed(metric) {
		return fmt.Sprintf("%.4g× [%.4g, %.4g]", math.Exp(e.Value), math.Exp(e.Lo), math.Exp(e.Hi))
	}
	return fmt.Sprintf("%.3f [%.3f, %.3f]", e.Value, e.Lo, e.Hi)
}

func fmtDiff(metric string, e Estimate) string {
	if isSpeed(metric) {
		return fmt.Sprintf("×%.3g [%.3g, %.3g]", math.Exp(e.Value), math.Exp(e.Lo), math.Exp(e.Hi))
	}
	return fmt.Sprintf("%+.3f [%+.3f, %+.3f]", e.Value, e.Lo, e.Hi)
}

func fmtMDE(metric string, mde float64) string {
	if isSpeed(metric) {
		return fmt.Sprintf("×%.3g", math.Exp(mde))
	}
	return fmt.Sprintf("%.3f", mde)
}

// plot draws the correct rate of the training candidates per step per
// mode, averaged over the seeds that reached the step. Not the reward:
// both and random add λ·Rstr to Rver, so their rewards are on another
// scale than ver's and the curves would not compare.
func (r *Results) plot(path string) error {
	p := plot.New()
	p.Title.Text = "training candidates correct, per step"
	p.X.Label.Text = "step"
	p.Y.Label.Text = "correct rate"
	p.Add(plotter.NewGrid())
	colors := []color.Color{color.RGBA{31, 119, 180, 255}, color.RGBA{214, 39, 40, 255}, color.RGBA{44, 160, 44, 255}, color.RGBA{148, 103, 189, 255}}
	drawn := 0
	for i, mode := range r.Config.Modes {
		sum, n := map[int64]float64{}, map[int64]int{}
		var last int64
		for _, ms := range r.Curves[mode] {
			for _, m := range ms {
				sum[m.Step] += m.CorrectRate
				n[m.Step]++
				last = max(last, m.Step)
			}
		}
		var pts plotter.XYs
		for s := int64(1); s <= last; s++ {
			if n[s] > 0 {
				pts = append(pts, plotter.XY{X: float64(s), Y: sum[s] / float64(n[s])})
			}
		}
		if len(pts) == 0 {
			continue
		}
		l, err := plotter.NewLine(pts)
		if err != nil {
			return err
		}
		l.LineStyle.Color = colors[i%len(colors)]
		l.LineStyle.Width = vg.Points(1.5)
		p.Add(l)
		p.Legend.Add(mode, l)
		drawn++
	}
	if drawn == 0 {
		return nil
	}
	p.Legend.Top = true
	return p.Save(7*vg.Inch, 4*vg.Inch, path)
}
