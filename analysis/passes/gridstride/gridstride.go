package gridstride

import (
	_ "embed"
	"strings"

	"github.com/cudaperf/cudaperf/analysis"
	"github.com/cudaperf/cudaperf/analysis/passes/dataflow"
	"github.com/cudaperf/cudaperf/analysis/tripcount"
)

//go:embed doc.go
var doc string

// Analyzer reports the grid_stride feature and malformed grid-stride loops.
var Analyzer = &analysis.Analyzer{
	Name:     "gridstride",
	Doc:      analysis.MustExtractDoc(doc, "gridstride"),
	URL:      "https://cudaperf.dev/checks/gridstride",
	Requires: []*analysis.Analyzer{dataflow.Analyzer},
	Run:      run,
	Features: []analysis.FeatureDef{
		{Name: "grid_stride", Unit: "loops", Doc: "grid-stride loops (the step contains gridDim) in the kernel and the device functions it calls", Range: "[0, +inf)", Level: analysis.LevelKernel},
	},
	Severity: analysis.Info,
}

func run(pass *analysis.Pass) (any, error) {
	df := pass.ResultOf[dataflow.Analyzer].(*dataflow.Result)
	reported := map[[2]uint32]bool{}
	for _, k := range df.Kernels.Kernels {
		count := 0.0
		for _, c := range df.Reach(k) {
			for _, l := range df.Kernels.Loops(c.Func).Loops() {
				if l.Kind != tripcount.GridStride {
					continue
				}
				count++
				key := [2]uint32{l.Node.StartByte(), l.Node.EndByte()}
				if reported[key] {
					continue
				}
				reported[key] = true
				hasBlock := false
				for _, t := range l.Start.Terms() {
					if strings.Contains(t.Mono, "blockIdx.") {
						hasBlock = true
					}
				}
				startOK := l.Start.Coef("threadIdx.x") != 0 && hasBlock
				stepOK := false
				for _, t := range l.Step.Terms() {
					if strings.Contains(t.Mono, "blockDim.") {
						stepOK = true
					}
				}
				if !startOK || !stepOK {
					what := "its start is not the thread's global index (blockIdx.x * blockDim.x + threadIdx.x)"
					if startOK {
						what = "its step does not include blockDim"
					}
					pass.ReportKernelf(k.Name, l.Node, "grid-stride loop over %s is malformed: %s, so threads repeat or skip elements; start at blockIdx.x * blockDim.x + threadIdx.x and step by blockDim.x * gridDim.x", l.Var, what)
				}
			}
		}
		pass.ReportKernelFeature(k.Name, "grid_stride", count)
	}
	return nil, nil
}
