package bankconflicts

import (
	"cmp"
	_ "embed"
	"slices"
	"strconv"

	"github.com/cudaperf/cudaperf/analysis"
	"github.com/cudaperf/cudaperf/analysis/affine"
	"github.com/cudaperf/cudaperf/analysis/passes/dataflow"
	"github.com/cudaperf/cudaperf/analysis/passes/kernels"
	"github.com/cudaperf/cudaperf/analysis/tripcount"
)

//go:embed doc.go
var doc string

// Analyzer reports the bank_conflicts feature and conflicting accesses.
var Analyzer = &analysis.Analyzer{
	Name:     "bankconflicts",
	Doc:      analysis.MustExtractDoc(doc, "bankconflicts"),
	URL:      "https://cudaperf.dev/checks/bankconflicts",
	Requires: []*analysis.Analyzer{dataflow.Analyzer},
	Run:      run,
	Features: []analysis.FeatureDef{
		{Name: "bank_conflicts", Unit: "ways", Doc: "loop-weighted mean shared-memory bank-conflict degree of the kernel's shared accesses (1 = conflict-free)", Range: "[1, 32]", Level: analysis.LevelKernel, Version: 2},
	},
	Severity: analysis.Warning,
}

// Degree returns the bank-conflict degree of a warp accessing shared
// elements of size bytes at index (evaluated per lane in blocks blockX
// threads wide, affine.Form.WarpShape),
// and the lane stride in elements (-1 when the lanes are not evenly
// spaced); ok is false when the index is not affine or scales the thread
// index by a runtime value.
func Degree(index affine.Form, size, blockX int64) (degree int, stride int64, ok bool) {
	lanes, symbolic, ok := index.WarpShape(0, blockX)
	if !ok || len(symbolic) > 0 {
		return 0, 0, false
	}
	if size <= 0 {
		size = 4
	}
	step := lanes[1] - lanes[0]
	stride = step
	if stride < 0 {
		stride = -stride
	}
	for l := range lanes {
		if lanes[l]-lanes[0] != int64(l)*step {
			stride = -1 // not evenly spaced
			break
		}
	}
	// Wide elements are served in phases of 128 bytes.
	lanesPerPhase := 32
	if size > 4 {
		lanesPerPhase = int(128 / size)
		if lanesPerPhase < 1 {
			lanesPerPhase = 1
		}
	}
	degree = 1
	// The distinct words a phase touches, sorted by bank then word: the
	// longest run of one bank is the degree. (A slice on the stack instead
	// of a map per bank: this runs for every shared access of every
	// kernel.)
	var buf [64]bankWord
	for start := 0; start < 32; start += lanesPerPhase {
		words := buf[:0]
		for l := start; l < start+lanesPerPhase && l < 32; l++ {
			addr := lanes[l] * size
			for w := floorDiv(addr, 4); w <= floorDiv(addr+size-1, 4); w++ {
				words = append(words, bankWord{bank: ((w % 32) + 32) % 32, word: w})
			}
		}
		slices.SortFunc(words, func(a, b bankWord) int {
			if c := cmp.Compare(a.bank, b.bank); c != 0 {
				return c
			}
			return cmp.Compare(a.word, b.word)
		})
		run := 0
		for i, x := range words {
			switch {
			case i == 0 || x.bank != words[i-1].bank:
				run = 1
			case x.word != words[i-1].word:
				run++
			}
			degree = max(degree, run)
		}
	}
	return degree, stride, true
}

type bankWord struct{ bank, word int64 }

func floorDiv(a, b int64) int64 {
	q := a / b
	if a%b != 0 && (a < 0) != (b < 0) {
		q--
	}
	return q
}

func run(pass *analysis.Pass) (any, error) {
	df := pass.ResultOf[dataflow.Analyzer].(*dataflow.Result)
	reported := map[[2]uint32]bool{}
	for _, k := range df.Kernels.Kernels {
		var sum, weight float64
		for _, c := range df.Reach(k) {
			for _, a := range df.Accesses(c.Func) {
				if a.Space != dataflow.Shared {
					continue
				}
				deg, stride, ok := Degree(c.Index(a), a.Size, df.BlockX(k))
				mean := float64(deg)
				if !ok {
					// Interleaved addressing (index = 2*s*tid, s doubling
					// each step): the degree at each value of s; the
					// finding names the worst.
					mean, deg, stride, ok = geometricDegree(df, c.Func, a, c.Index(a), df.BlockX(k))
				}
				if !ok {
					continue
				}
				w := a.Weight * c.Weight
				sum += w * mean
				weight += w
				key := [2]uint32{a.Node.StartByte(), a.Node.EndByte()}
				if deg >= 2 && !reported[key] {
					reported[key] = true
					report(pass, df, k.Name, a, deg, stride)
				}
			}
		}
		v := 1.0
		if weight > 0 {
			v = sum / weight
		}
		pass.ReportKernelFeatureStatus(k.Name, "bank_conflicts", v, df.Kernels.WeightStatus(k))
	}
	return nil, nil
}

func report(pass *analysis.Pass, df *dataflow.Result, kernel string, a *dataflow.Access, deg int, stride int64) {
	fix := "make threadIdx.x index consecutive words"
	if d := a.Decl; d != nil && len(d.Dims) >= 2 && d.Dims[len(d.Dims)-1] != nil {
		// Suggest padding the innermost dimension by one word.
		if inner, ok := df.Kernels.Scope(a.Func).Eval(d.Dims[len(d.Dims)-1]).Int(); ok {
			fix = "pad the innermost dimension by one element (declare " + a.Base + "[…][" + strconv.FormatInt(inner+1, 10) + "]) or make threadIdx.x index the innermost dimension"
		}
	}
	verb := "load"
	if a.Write {
		verb = "store"
	}
	why := "the lanes' addresses put"
	if stride >= 0 {
		why = "neighbouring threads are " + strconv.FormatInt(stride, 10) + " elements of " + strconv.FormatInt(a.Size, 10) + " B apart, so"
	}
	pass.ReportKernelf(kernel, a.Node,
		"shared-memory %s %s has a %d-way bank conflict: %s %d lanes on different words of the same bank and the request is replayed %d times; %s",
		verb, pass.File.Text(a.Node), deg, why, deg, deg, fix)
}

// geometricDegree is the bank-conflict degree of an access whose index
// scales the thread by the counter of a geometric loop around it
// (for (s = 1; s < blockDim.x; s *= 2) ... sdata[2 * s * tid]): the mean of
// the degrees at the counter's values (its trips when constant, else the
// first tripcount.LogTrips), the worst and its stride. ok is false
// when no such loop makes the index concrete.
func geometricDegree(df *dataflow.Result, f *kernels.Function, a *dataflow.Access, index affine.Form, blockX int64) (mean float64, worst int, stride int64, ok bool) {
	for _, l := range df.Kernels.Loops(f).Enclosing(a.Node) {
		start, sok := l.Start.Int()
		if l.GeoOp != "*" || l.Factor < 2 || !sok || start < 1 || l.Var == "" || !index.Mentions(l.Var) {
			continue
		}
		n := int64(tripcount.LogTrips)
		if l.Kind == tripcount.Constant {
			n = l.Trips
		}
		sum, steps := 0, 0
		v := start
		for t := int64(0); t < n && v < 1<<20; t++ {
			d, st, ok := Degree(index.Subst(map[string]affine.Form{l.Var: affine.Const(v)}), a.Size, blockX)
			if !ok {
				return 0, 0, 0, false
			}
			sum += d
			steps++
			if d > worst {
				worst, stride = d, st
			}
			v *= l.Factor
		}
		if steps == 0 || worst == 0 {
			return 0, 0, 0, false
		}
		return float64(sum) / float64(steps), worst, stride, true
	}
	return 0, 0, 0, false
}
