package gridstride

import (
	_ "embed"
	"strings"

	"github.com/cudaperf/cudaperf/analysis"
	"github.com/cudaperf/cudaperf/analysis/affine"
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
				// The real mistake is a start that ignores the block: every
				// block then repeats the same elements. (A constant block size
				// instead of blockDim, or an offset start, is fine.)
				if l.Start.Kind != affine.Affine || !l.Start.ThreadDependent() {
					continue
				}
				hasBlock := false
				for _, t := range l.Start.Terms() {
					if strings.Contains(t.Mono, "blockIdx.") {
						hasBlock = true
					}
				}
				if !hasBlock {
					pass.ReportKernelf(k.Name, l.Node, "grid-stride loop over %s starts at %s in every block, so all blocks process the same elements; start at the thread's global index (blockIdx.x * blockDim.x + threadIdx.x)", l.Var, l.Start.String())
				}
			}
		}
		pass.ReportKernelFeature(k.Name, "grid_stride", count)
	}
	return nil, nil
}
