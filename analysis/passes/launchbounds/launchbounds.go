package launchbounds

import (
	_ "embed"
	"strconv"

	"github.com/cudaperf/cudaperf/analysis"
	"github.com/cudaperf/cudaperf/analysis/passes/kernels"
)

//go:embed doc.go
var doc string

// Analyzer reports the launch_bounds feature and launches exceeding them.
var Analyzer = &analysis.Analyzer{
	Name:     "launchbounds",
	Doc:      analysis.MustExtractDoc(doc, "launchbounds"),
	URL:      "https://cudaperf.dev/checks/launchbounds",
	Requires: []*analysis.Analyzer{kernels.Analyzer},
	Run:      run,
	Features: []analysis.FeatureDef{
		{Name: "launch_bounds", Unit: "flag", Doc: "1 when the kernel declares __launch_bounds__ or __maxnreg__, else 0", Range: "{0, 1}", Level: analysis.LevelKernel},
	},
	Severity: analysis.Error,
}

func run(pass *analysis.Pass) (any, error) {
	kr := pass.ResultOf[kernels.Analyzer].(*kernels.Result)
	dev := pass.Device
	for _, k := range kr.Kernels {
		v := 0.0
		if k.LaunchBounds != nil || k.MaxNReg > 0 {
			v = 1
		}
		pass.ReportKernelFeature(k.Name, "launch_bounds", v)
		lb := k.LaunchBounds
		if lb == nil || lb.MaxThreads <= 0 {
			continue
		}
		switch {
		case lb.MaxThreads > dev.MaxThreadsPerBlock:
			pass.ReportKernelf(k.Name, lb.Node, "__launch_bounds__ maximum of %d threads exceeds the %s limit of %d threads per block; no launch can use it — use at most %d", lb.MaxThreads, dev.Name, dev.MaxThreadsPerBlock, dev.MaxThreadsPerBlock)
		case dev.WarpSize > 0 && lb.MaxThreads%dev.WarpSize != 0:
			pass.Report(analysis.Diagnostic{Check: pass.Analyzer.Name, Severity: analysis.Warning, Range: analysis.NodeRange(lb.Node), Kernel: k.Name,
				Message: "__launch_bounds__ maximum of " + strconv.Itoa(lb.MaxThreads) + " threads is not a multiple of the warp size (" + strconv.Itoa(dev.WarpSize) + "); blocks of that size leave lanes of their last warp idle — use " + strconv.Itoa((lb.MaxThreads/dev.WarpSize+1)*dev.WarpSize)})
		}
		for _, l := range k.LaunchedBy {
			cfg := l.Evaluated()
			if cfg == nil {
				continue
			}
			tpb, ok := cfg.ThreadsPerBlock()
			if !ok || tpb <= int64(lb.MaxThreads) {
				continue
			}
			at := l.Block
			if at == nil {
				at = l.Node
			}
			pass.ReportKernelf(k.Name, at, "launch of %s with %d threads per block exceeds its __launch_bounds__ maximum of %d: the launch fails; launch with at most %d threads per block or raise the bound", k.Name, tpb, lb.MaxThreads, lb.MaxThreads)
		}
	}
	return nil, nil
}
