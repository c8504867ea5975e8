package dataset

import (
	"fmt"
	"io"
	"math"
	"sort"
	"strings"

	"github.com/cudaperf/cudaperf/bench/verdict"
)

// Drift compares the primary-configuration medians of the variants two
// measurement runs have in common: how much a number in RESULTS.md moves
// when the whole suite is measured again.
type Drift struct {
	Common int     `json:"common"`
	Median float64 `json:"median_rel"` // relative differences |b-a|/a
	P90    float64 `json:"p90_rel"`
	Max    float64 `json:"max_rel"`
	// Ratio is the median of b/a: where Median says how far the runs
	// differ, Ratio says whether b is systematically slower (> 1) or
	// faster, as a GPU shared with other work would make it.
	Ratio   float64        `json:"ratio"`
	Largest []VariantDrift `json:"largest"` // the five largest differences
	OnlyInA int            `json:"only_in_a"`
	OnlyInB int            `json:"only_in_b"`
}

// VariantDrift is one variant's change between two runs.
type VariantDrift struct {
	Task    string  `json:"task"`
	Variant string  `json:"variant"`
	A       float64 `json:"a_ms"`
	B       float64 `json:"b_ms"`
	Rel     float64 `json:"rel"`
}

// Compare computes the drift from run a to run b.
func Compare(a, b []*Task) Drift {
	type key struct{ t, v string }
	old := map[key]float64{}
	for _, t := range a {
		for _, v := range t.Variants {
			if v.Accepted && v.MedianMs > 0 {
				old[key{t.Name, v.Name}] = v.MedianMs
			}
		}
	}
	var d Drift
	seen := map[key]bool{}
	for _, t := range b {
		for _, v := range t.Variants {
			if !v.Accepted || v.MedianMs <= 0 {
				continue
			}
			k := key{t.Name, v.Name}
			seen[k] = true
			x, ok := old[k]
			if !ok {
				d.OnlyInB++
				continue
			}
			d.Largest = append(d.Largest, VariantDrift{Task: t.Name, Variant: v.Name, A: x, B: v.MedianMs, Rel: math.Abs(v.MedianMs-x) / x})
		}
	}
	for k := range old {
		if !seen[k] {
			d.OnlyInA++
		}
	}
	d.Common = len(d.Largest)
	if d.Common == 0 {
		return d
	}
	sort.Slice(d.Largest, func(i, j int) bool { return d.Largest[i].Rel > d.Largest[j].Rel })
	rel := make([]float64, d.Common)
	for i, x := range d.Largest {
		rel[d.Common-1-i] = x.Rel // ascending
	}
	ratios := make([]float64, d.Common)
	for i, x := range d.Largest {
		ratios[i] = x.B / x.A
	}
	// Medians average the two middle values of an even count (the upper
	// one was taken: {1.00, 1.04} gave 1.04, outside the [0.98, 1.02] that
	// ControlDecision accepts, though the median is 1.02).
	d.Ratio = verdict.Median(ratios)
	d.Median = verdict.Median(rel)
	d.P90 = rel[min(d.Common-1, int(0.9*float64(d.Common)))]
	d.Max = rel[d.Common-1]
	d.Largest = d.Largest[:min(5, d.Common)]
	return d
}

// WriteDrift appends a reproducibility section to RESULTS.md.
func WriteDrift(w io.Writer, d Drift, against string) error {
	var b strings.Builder
	fmt.Fprintf(&b, "\n## Run to run\n\nPrimary-configuration medians of this run against an earlier full run (`%s`), over the %d accepted variants both measured", against, d.Common)
	if d.OnlyInA+d.OnlyInB > 0 {
		fmt.Fprintf(&b, " (%d only in the earlier run, %d only in this one)", d.OnlyInA, d.OnlyInB)
	}
	fmt.Fprintf(&b, ": relative difference median %.2f%%, 90th percentile %.2f%%, largest %.1f%%.\n\n", 100*d.Median, 100*d.P90, 100*d.Max)
	if len(d.Largest) > 0 {
		b.WriteString("| task | variant | earlier ms | this run ms | difference |\n|---|---|---|---|---|\n")
		for _, x := range d.Largest {
			fmt.Fprintf(&b, "| %s | %s | %.4g | %.4g | %.1f%% |\n", x.Task, x.Variant, x.A, x.B, 100*x.Rel)
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// The rule that decides whether a dataset sweep's candidates may share the
// GPU outside their timed calls (bench/gpu-dataset.sh sweep), fixed on
// 2026-12-02 before any control had run.
const (
	// ControlMinCommon: each control run must compare at least this many
	// accepted variants with the records.
	ControlMinCommon = 20
	// ControlRatioLow and ControlRatioHigh bound the median ratio of the
	// shared run's primary medians to the exclusive run's (same machine,
	// minutes apart): sharing may not make kernels systematically slower
	// or faster by more than 2 %.
	ControlRatioLow, ControlRatioHigh = 0.98, 1.02
	// ControlSlack: the shared run's median distance from the records may
	// exceed the exclusive run's by at most 2 points.
	ControlSlack = 0.02
)

// ControlDecision applies the rule to a control: exclusive and shared are
// the two runs' drift from the committed records, direct the shared run's
// drift from the exclusive run. It reports whether candidates may share
// the GPU, with one line per criterion.
func ControlDecision(exclusive, shared, direct Drift) (ok bool, why []string) {
	a := exclusive.Common >= ControlMinCommon && shared.Common >= ControlMinCommon
	b := direct.Common > 0 && direct.Ratio >= ControlRatioLow && direct.Ratio <= ControlRatioHigh
	c := exclusive.Common > 0 && shared.Common > 0 && shared.Median <= exclusive.Median+ControlSlack
	why = []string{
		fmt.Sprintf("(a) at least %d variants compared: exclusive %d, shared %d: %s", ControlMinCommon, exclusive.Common, shared.Common, pass(a)),
		fmt.Sprintf("(b) shared/exclusive median ratio in [%.2f, %.2f]: %.4f over %d variants: %s", ControlRatioLow, ControlRatioHigh, direct.Ratio, direct.Common, pass(b)),
		fmt.Sprintf("(c) shared within %.0f points of exclusive's distance from the records: %.2f%% against %.2f%%: %s", 100*ControlSlack, 100*shared.Median, 100*exclusive.Median, pass(c)),
	}
	return a && b && c, why
}

func pass(ok bool) string {
	if ok {
		return "pass"
	}
	return "FAIL"
}
