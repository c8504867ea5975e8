package spills

import (
	_ "embed"
	"strconv"

	"github.com/cudaperf/cudaperf/analysis"
	"github.com/cudaperf/cudaperf/analysis/passes/kernels"
)

//go:embed doc.go
var doc string

// Analyzer reports spill_bytes and local_bytes from the ptxas report.
var Analyzer = &analysis.Analyzer{
	Name:     "spills",
	Doc:      analysis.MustExtractDoc(doc, "spills"),
	URL:      "https://cudaperf.dev/checks/spills",
	Requires: []*analysis.Analyzer{kernels.Analyzer},
	Run:      run,
	Features: []analysis.FeatureDef{
		{Name: "spill_bytes", Unit: "bytes", Doc: "register spill stores plus spill loads per thread, from ptxas -v (absent without a report)", Range: "[0, +inf)", Level: analysis.LevelKernel},
		{Name: "local_bytes", Unit: "bytes", Doc: "local memory (stack frame) per thread, from ptxas -v (absent without a report)", Range: "[0, +inf)", Level: analysis.LevelKernel},
	},
	Severity: analysis.Warning,
}

func run(pass *analysis.Pass) (any, error) {
	if pass.Ptxas == nil {
		return nil, nil
	}
	kr := pass.ResultOf[kernels.Analyzer].(*kernels.Result)
	arch := pass.Device.Arch()
	for _, k := range kr.Kernels {
		f := pass.Ptxas.Kernel(k.Qualified, arch)
		if f == nil {
			f = pass.Ptxas.Kernel(k.Qualified, "")
		}
		if f == nil {
			continue
		}
		spill := f.SpillStores + f.SpillLoads
		local := f.StackFrame
		if f.LocalBytes > local {
			local = f.LocalBytes
		}
		pass.ReportKernelFeature(k.Name, "spill_bytes", float64(spill))
		pass.ReportKernelFeature(k.Name, "local_bytes", float64(local))
		at := k.NameNode
		if at == nil {
			at = k.Node
		}
		switch {
		case spill > 0:
			pass.ReportKernelf(k.Name, at, "ptxas spills registers in %s for %s: %d bytes of spill stores and %d bytes of spill loads per thread (%d registers); keep fewer values live (smaller tiles, less unrolling) or allow more registers (fewer threads in __launch_bounds__, no -maxrregcount)", k.Name, f.Arch, f.SpillStores, f.SpillLoads, f.Registers)
		case local > 0:
			pass.Report(analysis.Diagnostic{Check: pass.Analyzer.Name, Severity: analysis.Info, Range: analysis.NodeRange(at), Kernel: k.Name,
				Message: "ptxas puts " + strconv.Itoa(local) + " bytes per thread of " + k.Name + " in local memory (" + f.Arch + "): a per-thread array indexed with runtime values cannot live in registers; index it with compile-time constants (unrolled loops) or stage it in shared memory"})
		}
	}
	return nil, nil
}
