package globalmem

import (
	_ "embed"
	"reflect"

	"github.com/cudaperf/cudaperf/analysis"
	"github.com/cudaperf/cudaperf/analysis/passes/dataflow"
	"github.com/cudaperf/cudaperf/analysis/passes/kernels"
	"github.com/cudaperf/cudaperf/analysis/syntax"
	"github.com/cudaperf/cudaperf/analysis/tripcount"
)

//go:embed doc.go
var doc string

// Analyzer reports the gmem and gmem_bytes features and loop-invariant
// global loads; its result is a *Result.
var Analyzer = &analysis.Analyzer{
	Name:       "globalmem",
	Doc:        analysis.MustExtractDoc(doc, "globalmem"),
	URL:        "https://cudaperf.dev/checks/globalmem",
	Requires:   []*analysis.Analyzer{dataflow.Analyzer},
	Run:        run,
	ResultType: reflect.TypeOf((*Result)(nil)),
	Features: []analysis.FeatureDef{
		{Name: "gmem", Unit: "accesses", Doc: "global memory loads and stores per thread, weighted by the trip counts of the loops around them", Range: "[0, +inf)", Level: analysis.LevelKernel, Version: 2},
		{Name: "gmem_bytes", Unit: "bytes", Doc: "bytes moved by the global loads and stores per thread, loop-weighted", Range: "[0, +inf)", Level: analysis.LevelKernel, Version: 2},
	},
	Severity: analysis.Info,
}

// Traffic is a kernel's weighted global traffic per thread.
type Traffic struct {
	Accesses, Bytes float64
}

// Result maps kernels to their traffic.
type Result struct {
	ByKernel map[*kernels.Function]Traffic
}

func run(pass *analysis.Pass) (any, error) {
	df := pass.ResultOf[dataflow.Analyzer].(*dataflow.Result)
	res := &Result{ByKernel: map[*kernels.Function]Traffic{}}
	reported := map[[2]uint32]bool{}
	for _, k := range df.Kernels.Kernels {
		var t Traffic
		for _, c := range df.Reach(k) {
			for _, a := range df.Accesses(c.Func) {
				if a.Space != dataflow.Global {
					continue
				}
				n := 0.0
				if a.Read {
					n++
				}
				if a.Write {
					n++
				}
				w := a.Weight * c.Weight * n
				t.Accesses += w
				t.Bytes += w * float64(a.Size)
				if a.Read && !a.ReadOnly {
					if l := invariantIn(df, a); l != nil {
						key := [2]uint32{a.Node.StartByte(), a.Node.EndByte()}
						if !reported[key] {
							reported[key] = true
							pass.ReportKernelf(k.Name, a.Node, "global load %s does not change inside the loop over %s but is repeated in every iteration; load it into a register before the loop (or mark %s const __restrict__ so the compiler may hoist it)", pass.File.Text(a.Node), l.Var, a.Base)
						}
					}
				}
			}
		}
		res.ByKernel[k] = t
		pass.ReportKernelFeatureStatus(k.Name, "gmem", t.Accesses, df.Kernels.WeightStatus(k))
		pass.ReportKernelFeatureStatus(k.Name, "gmem_bytes", t.Bytes, df.Kernels.WeightStatus(k))
	}
	return res, nil
}

// invariantIn returns the innermost loop around a whose address does not
// change in it, or nil.
func invariantIn(df *dataflow.Result, a *dataflow.Access) *tripcount.Loop {
	loops := df.Kernels.Loops(a.Func).Enclosing(a.Node)
	if len(loops) == 0 || a.Index.Kind != 0 { // only affine indices
		return nil
	}
	l := loops[0]
	if l.Var == "" || l.Kind == tripcount.Unknown {
		return nil
	}
	src := df.Kernels.Affine.Source()
	body := l.Node
	// Symbols assigned in the loop, and stores through the same base.
	assigned := map[string]bool{l.Var: true}
	stores := false
	syntax.Inspect(body, func(n *syntax.Node) bool {
		var target *syntax.Node
		switch n.Type() {
		case "assignment_expression":
			target = n.ChildByFieldName("left")
		case "update_expression":
			target = n.ChildByFieldName("argument")
		case "call_expression":
			// A call may write through any pointer.
			if fn := n.ChildByFieldName("function"); fn != nil {
				name := fn.Content(src)
				if len(name) > 6 && name[:6] == "atomic" {
					stores = true
				}
			}
		}
		for target != nil && (target.Type() == "subscript_expression" || target.Type() == "field_expression" || target.Type() == "parenthesized_expression" || target.Type() == "pointer_expression") {
			next := target.ChildByFieldName("argument")
			if target.Type() == "parenthesized_expression" && target.NamedChildCount() > 0 {
				next = target.NamedChild(0)
			}
			if next != nil && next.Type() == "identifier" && target.Type() != "field_expression" {
				if next.Content(src) == a.Base {
					stores = true
				}
			}
			target = next
		}
		if target != nil && target.Type() == "identifier" {
			assigned[target.Content(src)] = true
		}
		return true
	})
	if stores {
		return nil
	}
	for _, s := range a.Index.Symbols() {
		if assigned[s] {
			return nil
		}
	}
	return l
}
