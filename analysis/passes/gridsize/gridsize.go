package gridsize

import (
	_ "embed"
	"fmt"

	"github.com/cudaperf/cudaperf/analysis"
	"github.com/cudaperf/cudaperf/analysis/passes/kernels"
)

//go:embed doc.go
var doc string

// Analyzer reports the grid_fill feature and grids that leave SMs idle.
var Analyzer = &analysis.Analyzer{
	Name:     "gridsize",
	Doc:      analysis.MustExtractDoc(doc, "gridsize"),
	URL:      "https://cudaperf.dev/checks/gridsize",
	Requires: []*analysis.Analyzer{kernels.Analyzer},
	Run:      run,
	Features: []analysis.FeatureDef{
		{Name: "grid_fill", Unit: "fraction", Doc: "min(1, blocks / SMs) of the kernel's largest launch; a grid that is not a constant is sized by the problem and counts as 1 (estimated), so a small constant launch (the last step of a reduction) no longer decides the value", Range: "(0, 1]", Level: analysis.LevelKernel},
	},
	Severity: analysis.Warning,
}

var gridLimits = [3]int64{1<<31 - 1, 65535, 65535}

func run(pass *analysis.Pass) (any, error) {
	kr := pass.ResultOf[kernels.Analyzer].(*kernels.Result)
	sms := int64(pass.Device.SMs)
	best := map[*kernels.Function]float64{}
	est := map[*kernels.Function]bool{}
	for _, l := range kr.Launches {
		cfg := l.Evaluated()
		if cfg == nil {
			continue
		}
		at := l.Grid
		if at == nil {
			at = l.Node
		}
		kernel := l.Callee
		if l.Kernel != nil {
			kernel = l.Kernel.Name
		}
		invalid := false
		for i, d := range cfg.Grid {
			if v, ok := d.Int(); ok && (v < 1 || v > gridLimits[i]) {
				invalid = true
				pass.Report(analysis.Diagnostic{Check: pass.Analyzer.Name, Severity: analysis.Error, Range: analysis.NodeRange(at), Kernel: kernel,
					Message: fmt.Sprintf("grid.%c = %d is outside the limit 1..%d: the launch fails with cudaErrorInvalidConfiguration; fold the excess into grid.x or a grid-stride loop", "xyz"[i], v, gridLimits[i])})
			}
		}
		blocks, ok := cfg.Blocks()
		if !ok && !invalid && l.Kernel != nil {
			best[l.Kernel], est[l.Kernel] = 1, true
		}
		if !ok || invalid || sms <= 0 {
			continue
		}
		fill := float64(blocks) / float64(sms)
		if fill > 1 {
			fill = 1
		}
		if l.Kernel != nil && fill > best[l.Kernel] {
			best[l.Kernel] = fill
		}
		if blocks < sms {
			pass.ReportKernelf(kernel, at, "a grid of %d blocks leaves %d of the %d SMs of the %s idle; launch at least %d blocks (smaller blocks or finer work items), or size a grid-stride loop to a multiple of the SM count", blocks, sms-blocks, sms, pass.Device.Name, sms)
		}
	}
	for _, k := range kr.Kernels {
		v, ok := best[k]
		switch {
		case !ok:
			pass.ReportKernelFeatureStatus(k.Name, "grid_fill", 1, analysis.Estimated) // not launched here
		case est[k]:
			pass.ReportKernelFeatureStatus(k.Name, "grid_fill", v, analysis.Estimated)
		default:
			pass.ReportKernelFeature(k.Name, "grid_fill", v)
		}
	}
	return nil, nil
}
