package blocksize

import (
	_ "embed"
	"fmt"

	"github.com/cudaperf/cudaperf/analysis"
	"github.com/cudaperf/cudaperf/analysis/passes/dataflow"
	"github.com/cudaperf/cudaperf/analysis/passes/kernels"
)

//go:embed doc.go
var doc string

// Analyzer reports the tpb feature and invalid or lane-wasting blocks.
var Analyzer = &analysis.Analyzer{
	Name:     "blocksize",
	Doc:      analysis.MustExtractDoc(doc, "blocksize"),
	URL:      "https://cudaperf.dev/checks/blocksize",
	Requires: []*analysis.Analyzer{kernels.Analyzer, dataflow.Analyzer},
	Run:      run,
	Features: []analysis.FeatureDef{
		{Name: "tpb", Unit: "threads", Doc: "threads per block of the kernel's own valid launches (mean over its launch sites; a block size that is not a constant but has an upper bound, such as c / 2 with c at most 1024, counts its bound and makes the value estimated), else its __launch_bounds__ maximum (estimated), else unknown", Range: "[1, 1024]", Level: analysis.LevelKernel},
	},
	Severity: analysis.Warning,
}

// dimLimits are CUDA's per-dimension block limits (x, y, z).
var dimLimits = [3]int64{1024, 1024, 64}

func run(pass *analysis.Pass) (any, error) {
	kr := pass.ResultOf[kernels.Analyzer].(*kernels.Result)
	df := pass.ResultOf[dataflow.Analyzer].(*dataflow.Result)
	dev := pass.Device
	sum := map[*kernels.Function]float64{}
	n := map[*kernels.Function]int{}
	est := map[*kernels.Function]bool{}
	for _, l := range kr.Launches {
		cfg := l.Evaluated()
		if cfg == nil {
			continue
		}
		at := l.Block
		if at == nil {
			at = l.Node
		}
		kernel := l.Callee
		tpb, ok := cfg.ThreadsPerBlock()
		if !ok {
			// The feature still takes an upper bound (c / 2 with c at
			// most 2048); the checks below want the exact value.
			if b, _, ok := cfg.ThreadsPerBlockBound(); ok && l.Kernel != nil && b >= 1 && b <= int64(dev.MaxThreadsPerBlock) {
				sum[l.Kernel] += float64(b)
				n[l.Kernel]++
				est[l.Kernel] = true
			}
			continue
		}
		if l.Kernel != nil {
			kernel = l.Kernel.Name
		}
		bad := ""
		for i, d := range cfg.Block {
			if v, ok := d.Int(); ok && (v > dimLimits[i] || v < 1) {
				bad = fmt.Sprintf("block.%c = %d is outside the limit 1..%d", "xyz"[i], v, dimLimits[i])
			}
		}
		if tpb > int64(dev.MaxThreadsPerBlock) {
			bad = fmt.Sprintf("a block of %d threads exceeds the %s limit of %d threads per block", tpb, dev.Name, dev.MaxThreadsPerBlock)
		}
		if bad != "" {
			pass.Report(analysis.Diagnostic{Check: pass.Analyzer.Name, Severity: analysis.Error, Range: analysis.NodeRange(at), Kernel: kernel,
				Message: bad + ": the launch fails with cudaErrorInvalidConfiguration; use at most " + fmt.Sprint(dev.MaxThreadsPerBlock) + " threads (e.g. 256) and more blocks"})
			continue
		}
		if l.Kernel != nil {
			sum[l.Kernel] += float64(tpb)
			n[l.Kernel]++
		}
		if blocks, ok := cfg.Blocks(); ok && tpb == 1 && blocks == 1 {
			continue // <<<1, 1>>>: serial on purpose, no lanes to fill
		}
		if l.Kernel != nil && !touchesMemory(df, l.Kernel) {
			continue // a printf demo or a delay: its idle lanes cost nothing
		}
		if ws := int64(dev.WarpSize); ws > 0 && tpb%ws != 0 {
			lo, hi := tpb/ws*ws, (tpb/ws+1)*ws
			suggest := fmt.Sprintf("%d", hi)
			if lo > 0 {
				suggest = fmt.Sprintf("%d or %d", lo, hi)
			}
			pass.ReportKernelf(kernel, at, "a block of %d threads is not a multiple of the warp size (%d): the last warp of every block runs with %d of %d lanes idle; use %s threads per block", tpb, ws, hi-tpb, ws, suggest)
		}
	}
	for _, k := range kr.Kernels {
		switch {
		case n[k] > 0:
			st := analysis.Exact
			if est[k] {
				st = analysis.Estimated
			}
			pass.ReportKernelFeatureStatus(k.Name, "tpb", sum[k]/float64(n[k]), st)
		case k.LaunchBounds != nil && k.LaunchBounds.MaxThreads > 0:
			pass.ReportKernelFeatureStatus(k.Name, "tpb", float64(k.LaunchBounds.MaxThreads), analysis.Estimated)
		default:
			pass.ReportKernelUnknown(k.Name, "tpb") // not 0: no block size is known
		}
	}
	return nil, nil
}

// touchesMemory reports whether kernel k (or a function it calls) reads or
// writes memory beyond its own registers and stack: a kernel that does
// not has no data work whose lanes could be filled.
func touchesMemory(df *dataflow.Result, k *kernels.Function) bool {
	for _, c := range df.Reach(k) {
		for _, a := range df.Accesses(c.Func) {
			if a.Space != dataflow.Local {
				return true
			}
		}
	}
	return false
}
