package kernels

import (
	_ "embed"
	"fmt"
	"reflect"

	"github.com/cudaperf/cudaperf/analysis"
	"github.com/cudaperf/cudaperf/analysis/affine"
	"github.com/cudaperf/cudaperf/analysis/syntax"
	"github.com/cudaperf/cudaperf/analysis/tripcount"
)

//go:embed doc.go
var doc string

// Analyzer discovers kernels, device functions, launches and __shared__
// declarations; its result is a *Result.
var Analyzer = &analysis.Analyzer{
	Name:       "kernels",
	NoChecks:   true, // infrastructure: results and features only
	Doc:        analysis.MustExtractDoc(doc, "kernels"),
	URL:        "https://cudaperf.dev/checks/kernels",
	Run:        run,
	ResultType: reflect.TypeOf((*Result)(nil)),
	Features: []analysis.FeatureDef{{
		Name:  "kernels",
		Unit:  "kernels",
		Doc:   "distinct kernels the file launches (each counted once however often it is launched); the kernels it defines when it launches none",
		Range: "[0, +inf)",
		Level: analysis.LevelFile,
	}, {
		Name:  "launches",
		Unit:  "launches",
		Doc:   "kernel launch sites in the file, each weighted by the trip counts of the loops around it (estimated when a loop bound is not a constant; launches_per_call gives the count at a problem size)",
		Range: "[0, +inf)",
		Level: analysis.LevelFile,
	}},
	Severity: analysis.Info,
}

func run(pass *analysis.Pass) (any, error) {
	tree, err := pass.File.Syntax()
	if err != nil {
		return nil, fmt.Errorf("kernels: %w", err)
	}
	r := discover(tree.Root(), pass.File.Src, pass.File.Defines)
	total, st := 0.0, analysis.Exact
	distinct := map[string]bool{}
	for _, l := range r.Launches {
		w := 1.0
		if l.Caller != nil {
			loops := r.Loops(l.Caller)
			w = loops.Weight(l.Node)
			for _, lp := range loops.Enclosing(l.Node) {
				if lp.Kind != tripcount.Constant {
					st = analysis.Estimated
				}
			}
		}
		total += w
		name := l.Callee
		if l.Kernel != nil {
			name = l.Kernel.Qualified
		}
		distinct[name] = true
	}
	n := len(distinct)
	if n == 0 {
		n = len(r.Kernels)
	}
	pass.ReportFileFeature("kernels", float64(n))
	pass.ReportFeature(analysis.Feature{Name: "launches", Value: total, Unit: "launches", Status: st})
	return r, nil
}

// Discover builds the Result for a parse tree. It is exported for tests and
// tools that need the discovery without a Pass.
func Discover(root *syntax.Node, src []byte) *Result { return discover(root, src, nil) }

// discover is Discover with the build's macros (analysis.File.Defines).
func discover(root *syntax.Node, src []byte, defines map[string]string) *Result {
	af := affine.NewFile(root, src)
	af.Define(defines)
	r := &Result{
		Affine: af,
		scopes: map[*syntax.Node]*affine.Scope{},
		loops:  map[*syntax.Node]*tripcount.Info{},
		byName: map[string][]*Function{},
	}
	d := &discoverer{r: r, src: src}
	d.walkTop(root)
	d.configs()
	d.resolve()
	qualifyCollidingKernels(r)
	return r
}

// qualifyCollidingKernels names kernels that share a base name with
// another kernel of the file by their qualified name (fp32::scale and
// fp64::scale): findings and feature rows are keyed by kernel name, and
// the two had been merged into one row. Lookups by either name still work
// (byName was filled before). Overloads of one qualified name stay as
// they are.
func qualifyCollidingKernels(r *Result) {
	count := map[string]int{}
	for _, k := range r.Kernels {
		count[k.Name]++
	}
	for _, k := range r.Kernels {
		if count[k.Name] > 1 && k.Qualified != k.Name {
			k.Name = k.Qualified
		}
	}
}
