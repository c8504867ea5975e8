package gridsize

import (
	"bytes"
	_ "embed"
	"fmt"
	"strings"

	"github.com/cudaperf/cudaperf/analysis"
	"github.com/cudaperf/cudaperf/analysis/passes/kernels"
	"github.com/cudaperf/cudaperf/analysis/syntax"
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
		{Name: "grid_fill", Unit: "fraction", Doc: "min(1, blocks / SMs) of the kernel's largest launch; a grid that is not a constant is sized by the problem and counts as 1 (estimated), so a small constant launch (the last step of a reduction) no longer decides the value", Range: "(0, 1]", Level: analysis.LevelKernel, Version: 2},
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
		if tpb, ok := cfg.ThreadsPerBlock(); ok && tpb == 1 && blocks == 1 {
			continue // <<<1, 1>>>: serial on purpose (a flag, a delay, a last step)
		}
		fill := float64(blocks) / float64(sms)
		if fill > 1 {
			fill = 1
		}
		if l.Kernel != nil && fill > best[l.Kernel] {
			best[l.Kernel] = fill
		}
		// The advice (more blocks) helps only a kernel whose work does not
		// grow with its grid: one that strides over its input by the grid
		// (gridDim). Without that, the grid is the problem's size (one
		// block per tile, a demo, a final single-block step), and a small
		// one says nothing wrong.
		if blocks < sms && l.Kernel != nil && strides(l.Kernel, pass.File.Src, 0) {
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

// strides reports whether f, or a function it calls, has a grid-stride
// loop: a for loop whose step reads gridDim, directly or through a
// variable initialised from it (int stride = blockDim.x * gridDim.x).
func strides(f *kernels.Function, src []byte, depth int) bool {
	if f == nil || depth > 3 {
		return false
	}
	if f.Body != nil && bytes.Contains(src[f.Body.StartByte():f.Body.EndByte()], []byte("gridDim")) {
		names := []string{"gridDim"}
		syntax.Inspect(f.Body, func(n *syntax.Node) bool {
			if n.Type() == "init_declarator" {
				if v, d := n.ChildByFieldName("value"), n.ChildByFieldName("declarator"); v != nil && d != nil && strings.Contains(v.Content(src), "gridDim") {
					names = append(names, d.Content(src))
				}
			}
			return true
		})
		found := false
		syntax.Inspect(f.Body, func(n *syntax.Node) bool {
			if found {
				return false
			}
			if n.Type() == "for_statement" {
				if u := n.ChildByFieldName("update"); u != nil {
					for _, t := range names {
						if containsWord(u.Content(src), t) {
							found = true
						}
					}
				}
			}
			return true
		})
		if found {
			return true
		}
	}
	for _, c := range f.Calls {
		if c != f && strides(c, src, depth+1) {
			return true
		}
	}
	return false
}

// containsWord reports whether w occurs in s as a whole identifier.
func containsWord(s, w string) bool {
	for i := strings.Index(s, w); i >= 0; {
		before := i == 0 || !isIdentByte(s[i-1])
		after := i+len(w) >= len(s) || !isIdentByte(s[i+len(w)])
		if before && after {
			return true
		}
		j := strings.Index(s[i+1:], w)
		if j < 0 {
			return false
		}
		i += 1 + j
	}
	return false
}

func isIdentByte(c byte) bool {
	return c == '_' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9'
}
