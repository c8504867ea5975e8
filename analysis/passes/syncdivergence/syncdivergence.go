package syncdivergence

import (
	_ "embed"
	"strings"

	"github.com/cudaperf/cudaperf/analysis"
	"github.com/cudaperf/cudaperf/analysis/passes/dataflow"
	"github.com/cudaperf/cudaperf/analysis/passes/kernels"
	"github.com/cudaperf/cudaperf/analysis/passes/sync"
	"github.com/cudaperf/cudaperf/analysis/taint"
)

//go:embed doc.go
var doc string

// Analyzer reports barriers under thread-dependent control flow.
var Analyzer = &analysis.Analyzer{
	Name:     "syncdivergence",
	Doc:      analysis.MustExtractDoc(doc, "syncdivergence"),
	URL:      "https://cudaperf.dev/checks/syncdivergence",
	Requires: []*analysis.Analyzer{dataflow.Analyzer},
	Run:      run,
	Features: []analysis.FeatureDef{
		{Name: "sync_divergent", Unit: "barriers", Doc: "block barriers that are reached only by the threads for which a thread-dependent condition holds (a bug)", Range: "[0, +inf)", Level: analysis.LevelKernel},
	},
	Severity: analysis.Error,
}

func run(pass *analysis.Pass) (any, error) {
	df := pass.ResultOf[dataflow.Analyzer].(*dataflow.Result)
	src := pass.File.Src
	reported := map[[2]uint32]bool{}
	for _, k := range df.Kernels.Kernels {
		count := 0
		for _, c := range df.Reach(k) {
			for _, st := range c.Func.Sites {
				n := st.Node
				if st.Kind != kernels.CallSite || !sync.IsBarrier(n, src) {
					continue
				}
				cond, lvl := df.CallTaint(c).ControlCond(n)
				if c.Control > lvl {
					cond, lvl = c.Cond, c.Control // the call site is conditional
				}
				if lvl == taint.Uniform || cond == nil {
					continue
				}
				count++
				key := [2]uint32{n.StartByte(), n.EndByte()}
				if reported[key] {
					continue
				}
				reported[key] = true
				how := "differs between threads"
				if lvl == taint.WarpUniform {
					how = "differs between the warps of a block"
				}
				text := strings.Join(strings.Fields(pass.File.Text(cond)), " ")
				pass.ReportKernelf(k.Name, n, "%s is reached only by the threads for which %s holds, and that condition %s: the others never arrive, which is undefined behaviour (hangs or wrong results); move the barrier out of the conditional code so every thread of the block reaches it", pass.File.Text(n), text, how)
			}
		}
		pass.ReportKernelFeature(k.Name, "sync_divergent", float64(count))
	}
	return nil, nil
}
