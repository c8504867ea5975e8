package dataset

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"sort"
	"strings"

	"github.com/cudaperf/cudaperf/bench"
	"github.com/cudaperf/cudaperf/bench/results"
	"github.com/cudaperf/cudaperf/bench/verdict"
)

// MinFastestMs is the quality bar for the primary configuration: the fastest
// variant must run at least this long so timings sit well above launch noise.
const MinFastestMs = 0.050

// Variant is one measured variant of a task, on its primary configuration.
type Variant struct {
	Name      string
	Accepted  bool
	Reasons   []string // rejection reasons, "id: detail"
	Passed    int      // configurations within tolerance
	Configs   int
	MedianMs  float64 // primary configuration; 0 when not timed
	CV        float64
	Speedup   float64 // over the C reference compiled with gcc -O2 (the task's RefMs when known)
	RefMs     float64 // the reference's primary median in this variant's own run; 0 when not recorded
	Registers int     // most registers of any kernel of the variant
	Spills    int     // spill stores + loads over its kernels
}

// Task is the summary of one task's variants.
type Task struct {
	Name     string
	Side     string
	Variants []Variant // fastest first; unaccepted ones last
	Device   string
	// RefMs is the reference's primary median the speedups are over: the
	// median over the runs that measured the task's variants (0: unknown).
	RefMs float64
}

// Best and Worst are the fastest and slowest accepted variants (nil when
// none was accepted).
func (t *Task) Best() *Variant {
	if len(t.Variants) == 0 || !t.Variants[0].Accepted {
		return nil
	}
	return &t.Variants[0]
}

func (t *Task) Worst() *Variant {
	for i := len(t.Variants) - 1; i >= 0; i-- {
		if t.Variants[i].Accepted && t.Variants[i].MedianMs > 0 {
			return &t.Variants[i]
		}
	}
	return nil
}

// Spread is the worst accepted time over the best; 0 when undefined.
func (t *Task) Spread() float64 {
	b, w := t.Best(), t.Worst()
	if b == nil || w == nil || b.MedianMs <= 0 {
		return 0
	}
	return w.MedianMs / b.MedianMs
}

// AllPass reports whether every variant passed every configuration.
func (t *Task) AllPass() bool {
	for _, v := range t.Variants {
		if !v.Accepted || v.Passed != v.Configs {
			return false
		}
	}
	return len(t.Variants) > 0
}

// Load reads results.jsonl files; later lines for the same (task, variant)
// replace earlier ones, so a re-measured variant supersedes its old result.
func Load(paths ...string) ([]bench.Result, error) {
	type key struct{ task, cand string }
	index := map[key]int{}
	var out []bench.Result
	for _, p := range paths {
		err := results.Read(p, func(line []byte) error {
			var r bench.Result
			if err := json.Unmarshal(line, &r); err != nil {
				return err
			}
			if r.Task == "" || r.Candidate == "" {
				// Nameless records would all be one (task, candidate) and
				// enter reports and rankings as such.
				return fmt.Errorf("the record names no task or no candidate (task %q, candidate %q): every line must be a result of cudaperf bench; remove this one", r.Task, r.Candidate)
			}
			k := key{r.Task, r.Candidate}
			if i, ok := index[k]; ok {
				out[i] = r
				return nil
			}
			index[k] = len(out)
			out = append(out, r)
			return nil
		})
		if err != nil {
			return nil, fmt.Errorf("dataset: %w", err)
		}
	}
	return out, nil
}

// Summarize groups variant results by task.
func Summarize(rs []bench.Result, split *Split) []*Task {
	byTask := map[string]*Task{}
	for _, r := range rs {
		if r.Kind != bench.KindVariant {
			continue
		}
		t := byTask[r.Task]
		if t == nil {
			t = &Task{Name: r.Task}
			if split != nil {
				t.Side = split.Side(r.Task)
			}
			byTask[r.Task] = t
		}
		if r.Device != nil && t.Device == "" {
			t.Device = r.Device.Name
		}
		v := Variant{Name: r.Candidate}
		for _, k := range r.Compile.Kernels {
			v.Registers = max(v.Registers, k.Registers)
			v.Spills += k.SpillLoads + k.SpillStores
		}
		if !r.Compile.OK {
			v.Reasons = append(v.Reasons, "compile: failed")
		}
		if r.Error != "" {
			v.Reasons = append(v.Reasons, "harness: "+r.Error)
		}
		if vd := r.Verdict; vd != nil {
			v.Accepted = vd.Accepted
			for _, reason := range vd.Reasons {
				v.Reasons = append(v.Reasons, reason.String())
			}
			v.Speedup = vd.Speedup
			for _, c := range vd.Configs {
				v.Configs++
				if c.Pass {
					v.Passed++
				}
				if c.Primary && c.Time != nil {
					v.MedianMs, v.CV = c.Time.Median, c.Time.CV
				}
				if c.Primary && c.RefTime != nil {
					v.RefMs = c.RefTime.Median
				}
			}
		}
		t.Variants = append(t.Variants, v)
	}
	var out []*Task
	for _, t := range byTask {
		t.commonReference()
		sort.SliceStable(t.Variants, func(i, j int) bool {
			a, b := t.Variants[i], t.Variants[j]
			if a.Accepted != b.Accepted {
				return a.Accepted
			}
			if (a.MedianMs > 0) != (b.MedianMs > 0) {
				return a.MedianMs > 0
			}
			if a.MedianMs != b.MedianMs {
				return a.MedianMs < b.MedianMs
			}
			return a.Name < b.Name
		})
		out = append(out, t)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// commonReference puts every variant's speedup over one reference time,
// the median of the reference times its records carry. Each run times the
// C reference anew, and runs disagree (box_blur's took 1,283 ms in one run
// and about 700 ms in a later one on the same H200): speedups against
// their own runs' references would rank a task's variants by when they
// were measured as much as by their speed. Records without a reference
// time keep their own speedup.
func (t *Task) commonReference() {
	var refs []float64
	for _, v := range t.Variants {
		if v.Accepted && v.RefMs > 0 {
			refs = append(refs, v.RefMs)
		}
	}
	if len(refs) == 0 {
		return
	}
	t.RefMs = verdict.Median(refs)
	for i := range t.Variants {
		if v := &t.Variants[i]; v.Accepted && v.RefMs > 0 && v.MedianMs > 0 {
			v.Speedup = t.RefMs / v.MedianMs
		}
	}
}

// Stats are the dataset-wide numbers quoted in RESULTS.md.
type Stats struct {
	Tasks, Variants, Accepted     int
	TasksAllPass, TasksSpread2x   int
	TasksFastestAboveMin          int
	MedianSpread, GeomeanBestSpdp float64
}

// Summary computes Stats.
func Summary(ts []*Task) Stats {
	var s Stats
	var spreads []float64
	logSum, nLog := 0.0, 0
	for _, t := range ts {
		s.Tasks++
		s.Variants += len(t.Variants)
		for _, v := range t.Variants {
			if v.Accepted {
				s.Accepted++
			}
		}
		if t.AllPass() {
			s.TasksAllPass++
		}
		if sp := t.Spread(); sp > 0 {
			spreads = append(spreads, sp)
			if sp >= 2 {
				s.TasksSpread2x++
			}
		}
		if b := t.Best(); b != nil {
			if b.MedianMs >= MinFastestMs {
				s.TasksFastestAboveMin++
			}
			if b.Speedup > 0 {
				logSum += math.Log(b.Speedup)
				nLog++
			}
		}
	}
	if len(spreads) > 0 {
		s.MedianSpread = verdict.Median(spreads)
	}
	if nLog > 0 {
		s.GeomeanBestSpdp = math.Exp(logSum / float64(nLog))
	}
	return s
}

// WriteMarkdown writes RESULTS.md: the dataset summary, one overview row per
// task, then a table per task with every variant.
func WriteMarkdown(w io.Writer, ts []*Task, command, plot string) error {
	s := Summary(ts)
	device := ""
	for _, t := range ts {
		if t.Device != "" {
			device = t.Device
			break
		}
	}
	var b strings.Builder
	fmt.Fprintf(&b, "# c2cuda measurements\n\nGenerated by `cudaperf bench report`; do not edit by hand.\n\n")
	fmt.Fprintf(&b, "- Device: %s\n- Reproduce: `%s`\n", orUnknown(device), command)
	fmt.Fprintf(&b, "- Tasks: %d; variants: %d, accepted: %d\n", s.Tasks, s.Variants, s.Accepted)
	fmt.Fprintf(&b, "- Tasks whose every variant passes every configuration: %d of %d\n", s.TasksAllPass, s.Tasks)
	fmt.Fprintf(&b, "- Tasks with a best/worst spread ≥ 2×: %d of %d (median spread %.2f×)\n", s.TasksSpread2x, s.Tasks, s.MedianSpread)
	fmt.Fprintf(&b, "- Tasks whose fastest variant runs ≥ %.0f µs on the primary configuration: %d of %d\n", MinFastestMs*1000, s.TasksFastestAboveMin, s.Tasks)
	fmt.Fprintf(&b, "- Geometric mean speedup of the best variant over the C reference (gcc -O2, one core): %.1f×\n", s.GeomeanBestSpdp)
	b.WriteString("- Speedups are over one reference time per task: the median of the C reference's primary time over the runs that measured its variants (each run times the reference anew, and runs disagree)\n\n")
	if plot != "" {
		fmt.Fprintf(&b, "![speedup of every variant over the C reference, per task](%s)\n\n", plot)
	}
	b.WriteString("## Overview (primary configuration)\n\n| task | split | variants ok | best | best ms | worst | worst ms | spread | best speedup |\n|---|---|---|---|---|---|---|---|---|\n")
	for _, t := range ts {
		ok := 0
		for _, v := range t.Variants {
			if v.Accepted && v.Passed == v.Configs {
				ok++
			}
		}
		best, worst := t.Best(), t.Worst()
		fmt.Fprintf(&b, "| %s | %s | %d/%d | %s | %s | %s | %s | %s | %s |\n", t.Name, orUnknown(t.Side), ok, len(t.Variants),
			name(best), ms(best), name(worst), ms(worst), ratio(t.Spread()), speedup(best))
	}
	for _, t := range ts {
		fmt.Fprintf(&b, "\n## %s\n\n| variant | status | configs passed | median ms | CV | speedup | regs | spills |\n|---|---|---|---|---|---|---|---|\n", t.Name)
		for _, v := range t.Variants {
			status := "accepted"
			if !v.Accepted {
				status = "rejected: " + strings.ReplaceAll(strings.Join(v.Reasons, "; "), "|", "/")
			}
			fmt.Fprintf(&b, "| %s | %s | %d/%d | %s | %.2f%% | %s | %d | %d |\n", v.Name, status, v.Passed, v.Configs,
				fmtMs(v.MedianMs), 100*v.CV, speedup(&v), v.Registers, v.Spills)
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func orUnknown(s string) string {
	if s == "" {
		return "unknown"
	}
	return s
}

func name(v *Variant) string {
	if v == nil {
		return "—"
	}
	return v.Name
}

func ms(v *Variant) string {
	if v == nil {
		return "—"
	}
	return fmtMs(v.MedianMs)
}

func fmtMs(x float64) string {
	if x <= 0 {
		return "—"
	}
	return fmt.Sprintf("%.4g", x)
}

func ratio(x float64) string {
	if x <= 0 {
		return "—"
	}
	return fmt.Sprintf("%.2f×", x)
}

func speedup(v *Variant) string {
	if v == nil || v.Speedup <= 0 {
		return "—"
	}
	return fmt.Sprintf("%.1f×", v.Speedup)
}
