package rank

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"maps"
	"math"
	"slices"
	"sort"
	"strconv"
)

// Vector is a feature vector: feature name → value. An absent feature is a
// value the analysis could not determine.
type Vector map[string]float64

// Variant is one measured implementation of a task.
type Variant struct {
	Name string
	File string
	// Kernels are the per-kernel vectors of the file (file-level features
	// repeated on each), sorted by kernel name.
	Kernels []Kernel
	// Times maps a configuration name to the measured median time in ms; a
	// configuration that was not timed (or not passed) is absent.
	Times map[string]float64
	// At holds, when the features were computed with each configuration's
	// problem sizes bound, the kernels at each configuration (Kernels are
	// then those at the primary one). Nil when sizes were not bound: the
	// same vectors then stand for every configuration.
	At map[string][]Kernel
	// Unbound are the kernels computed without problem sizes (as lint sees
	// the file), when At is set; nil otherwise.
	Unbound []Kernel
}

// WithoutSizes returns the tasks with every variant's kernels replaced by
// those computed without problem sizes (tasks whose features were never
// bound are returned as they are).
func WithoutSizes(tasks []Task) []Task {
	out := make([]Task, len(tasks))
	for i, t := range tasks {
		t.Variants = slices.Clone(t.Variants)
		for j := range t.Variants {
			v := &t.Variants[j]
			if v.Unbound != nil {
				v.Kernels, v.At, v.Unbound = v.Unbound, nil, nil
			}
		}
		out[i] = t
	}
	return out
}

// atConfig returns v with the kernels computed at config, when there are.
func (v Variant) atConfig(config string) Variant {
	if ks, ok := v.At[config]; ok {
		v.Kernels = ks
	}
	return v
}

// Kernel is one kernel's vector.
type Kernel struct {
	Name   string
	Vector Vector
}

// Task is a set of variants of one program.
type Task struct {
	Name     string
	Side     string   // train, validation, test or ""
	Primary  string   // the primary configuration
	Configs  []string // every configuration, in the task's order
	Variants []Variant
}

// FileVector is the vector of a whole file: per feature, the mean over the
// kernels that report it (file-level features repeat on each kernel, so
// they keep their value). Nil when the file has no kernel.
func FileVector(ks []Kernel) Vector {
	if len(ks) == 0 {
		return nil
	}
	sum, n := Vector{}, map[string]int{}
	for _, k := range ks {
		for name, v := range k.Vector {
			sum[name] += v
			n[name]++
		}
	}
	for name := range sum {
		sum[name] /= float64(n[name])
	}
	return sum
}

// PairRule says which pairs of variants of a task train or evaluate.
type PairRule struct {
	// All takes every pair whose times differ by more than TieBand (a
	// ratio: 0.1 means the slower is over 10% slower); otherwise the top
	// quartile by time is paired with the bottom quartile (the paper's rule).
	All     bool    `json:"all"`
	TieBand float64 `json:"tie_band,omitempty"`
}

func (r PairRule) String() string {
	if r.All {
		return fmt.Sprintf("all pairs outside a %.0f%% tie band", 100*r.TieBand)
	}
	return "top quartile vs bottom quartile"
}

// Pair is two variants of one task on one configuration; Fast was
// measured faster. Indices are into the task's Variants.
type Pair struct {
	Fast, Slow int
}

// timed returns the indices of variants timed on config, fastest first.
// Rankable reports whether the task has two timed variants or more at its
// primary configuration: a ranking to measure a scorer on.
func (t *Task) Rankable() bool { return len(t.timed(t.Primary)) >= 2 }

func (t *Task) timed(config string) []int {
	var idx []int
	for i, v := range t.Variants {
		if ms, ok := v.Times[config]; ok && ms > 0 {
			idx = append(idx, i)
		}
	}
	sort.SliceStable(idx, func(a, b int) bool { return t.Variants[idx[a]].Times[config] < t.Variants[idx[b]].Times[config] })
	return idx
}

// Pairs returns the pairs of a task on one configuration under rule.
func (t *Task) Pairs(config string, rule PairRule) []Pair {
	idx := t.timed(config)
	n := len(idx)
	if n < 2 {
		return nil
	}
	var out []Pair
	if rule.All {
		for a := 0; a < n; a++ {
			for b := a + 1; b < n; b++ {
				fa, fb := t.Variants[idx[a]].Times[config], t.Variants[idx[b]].Times[config]
				if fb > fa*(1+rule.TieBand) {
					out = append(out, Pair{idx[a], idx[b]})
				}
			}
		}
		return out
	}
	q := Quartile(n)
	for _, f := range idx[:q] {
		for _, s := range idx[n-q:] {
			if t.Variants[s].Times[config] > t.Variants[f].Times[config] {
				out = append(out, Pair{f, s})
			}
		}
	}
	return out
}

// Quartile is the size of the top (and bottom) quartile of n variants:
// ceil(n/4), at most n/2, so 4 variants give 1 against 1 and 5 give 2
// against 2.
func Quartile(n int) int {
	return min((n+3)/4, n/2)
}

// Hash is a digest of the data a model is trained on: task and variant
// names, the rounded feature values of each kernel, bound and unbound (the analyzer's last
// bits are not deterministic) and the measured times.
func Hash(tasks []Task) string {
	h := sha256.New()
	ts := slices.Clone(tasks)
	sort.Slice(ts, func(i, j int) bool { return ts[i].Name < ts[j].Name })
	for _, t := range ts {
		fmt.Fprintf(h, "task %s %s\n", t.Name, t.Primary)
		vs := slices.Clone(t.Variants)
		sort.Slice(vs, func(i, j int) bool { return vs[i].Name < vs[j].Name })
		for _, v := range vs {
			fmt.Fprintf(h, "variant %s\n", v.Name)
			hashKernels(h, "", v.Kernels)
			hashKernels(h, "unbound ", v.Unbound)
			for _, c := range slices.Sorted(maps.Keys(v.At)) {
				hashKernels(h, "at "+c+" ", v.At[c])
			}
			for _, c := range slices.Sorted(maps.Keys(v.Times)) {
				fmt.Fprintf(h, "time %s=%s\n", c, round(v.Times[c]))
			}
		}
	}
	return hex.EncodeToString(h.Sum(nil))[:16]
}

// hashKernels writes kernels, sorted by name, with their features sorted
// by name and rounded.
func hashKernels(h io.Writer, label string, ks []Kernel) {
	ks = slices.Clone(ks)
	sort.Slice(ks, func(i, j int) bool { return ks[i].Name < ks[j].Name })
	for _, k := range ks {
		fmt.Fprintf(h, "%skernel %s", label, k.Name)
		for _, n := range slices.Sorted(maps.Keys(k.Vector)) {
			fmt.Fprintf(h, " %s=%s", n, round(k.Vector[n]))
		}
		fmt.Fprintln(h)
	}
}

// round prints x to 6 significant digits.
func round(x float64) string {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return fmt.Sprint(x)
	}
	return strconv.FormatFloat(x, 'g', 6, 64)
}
