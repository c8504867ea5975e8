package intensity

import (
	_ "embed"

	"github.com/cudaperf/cudaperf/analysis"
	"github.com/cudaperf/cudaperf/analysis/passes/arith"
	"github.com/cudaperf/cudaperf/analysis/passes/globalmem"
	"github.com/cudaperf/cudaperf/analysis/passes/kernels"
)

//go:embed doc.go
var doc string

// Analyzer reports the ai feature.
var Analyzer = &analysis.Analyzer{
	Name:     "intensity",
	NoChecks: true, // infrastructure: results and features only
	Doc:      analysis.MustExtractDoc(doc, "intensity"),
	URL:      "https://cudaperf.dev/checks/intensity",
	Requires: []*analysis.Analyzer{kernels.Analyzer, arith.Analyzer, globalmem.Analyzer},
	Run:      run,
	Features: []analysis.FeatureDef{
		{Name: "ai", Unit: "FLOP/byte", Doc: "estimated floating-point operations per byte of global memory traffic, loop-weighted", Range: "[0, +inf)", Level: analysis.LevelKernel, Version: 2},
	},
	Severity: analysis.Info,
}

func run(pass *analysis.Pass) (any, error) {
	kr := pass.ResultOf[kernels.Analyzer].(*kernels.Result)
	ops := pass.ResultOf[arith.Analyzer].(*arith.Result)
	mem := pass.ResultOf[globalmem.Analyzer].(*globalmem.Result)
	for _, k := range kr.Kernels {
		flops := ops.ByKernel[k].Flops
		bytes := mem.ByKernel[k].Bytes
		if bytes < 1 {
			bytes = 1
		}
		pass.ReportKernelFeatureStatus(k.Name, "ai", flops/bytes, kr.WeightStatus(k))
	}
	return nil, nil
}
