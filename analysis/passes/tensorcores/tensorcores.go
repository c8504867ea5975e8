package tensorcores

import (
	_ "embed"
	"strings"

	"github.com/cudaperf/cudaperf/analysis"
	"github.com/cudaperf/cudaperf/analysis/passes/dataflow"
	"github.com/cudaperf/cudaperf/analysis/passes/kernels"
	"github.com/cudaperf/cudaperf/analysis/syntax"
)

//go:embed doc.go
var doc string

// Analyzer reports the tensor_cores and tensor_core_loads features.
var Analyzer = &analysis.Analyzer{
	Name:     "tensorcores",
	NoChecks: true, // infrastructure: results and features only
	Doc:      analysis.MustExtractDoc(doc, "tensorcores"),
	URL:      "https://cudaperf.dev/checks/tensorcores",
	Requires: []*analysis.Analyzer{dataflow.Analyzer},
	Run:      run,
	Features: []analysis.FeatureDef{
		{Name: "tensor_cores", Unit: "operations", Doc: "tensor-core matrix operations (wmma::mma_sync, mma.sync, wgmma, tcgen05.mma) per thread, loop-weighted", Range: "[0, +inf)", Level: analysis.LevelKernel},
		{Name: "tensor_core_loads", Unit: "operations", Doc: "tensor-core fragment loads and stores (load_matrix_sync, store_matrix_sync, ldmatrix) per thread, loop-weighted", Range: "[0, +inf)", Level: analysis.LevelKernel},
	},
	Severity: analysis.Info,
}

// Classify says whether a call or inline-PTX node is a tensor-core matrix
// operation (mma) or fragment load/store (load).
func Classify(n *syntax.Node, src []byte) (mma, load bool) {
	switch n.Type() {
	case "call_expression":
		fn := n.ChildByFieldName("function")
		if fn == nil {
			return false, false
		}
		name := fn.Content(src)
		if i := strings.LastIndex(name, "::"); i >= 0 {
			name = name[i+2:]
		}
		switch {
		case name == "mma_sync" || name == "bmma_sync" || name == "__hmma_m16n16k16_mma_f32f32":
			return true, false
		case name == "load_matrix_sync" || name == "store_matrix_sync":
			return false, true
		}
	case "gnu_asm_expression":
		code := ""
		if c := n.ChildByFieldName("assembly_code"); c != nil {
			code = c.Content(src)
		}
		switch {
		case strings.Contains(code, "mma.sync") || strings.Contains(code, "wgmma.mma_async") || strings.Contains(code, "tcgen05.mma"):
			return true, false
		case strings.Contains(code, "ldmatrix") || strings.Contains(code, "stmatrix"):
			return false, true
		}
	}
	return false, false
}

func run(pass *analysis.Pass) (any, error) {
	df := pass.ResultOf[dataflow.Analyzer].(*dataflow.Result)
	for _, k := range df.Kernels.Kernels {
		mmas, loads := 0.0, 0.0
		for _, c := range df.Reach(k) {
			loops := df.Kernels.Loops(c.Func)
			for _, st := range c.Func.Sites {
				if st.Kind != kernels.CallSite && st.Kind != kernels.AsmSite {
					continue
				}
				n := st.Node
				mma, load := Classify(n, pass.File.Src)
				if !mma && !load {
					continue // the loop weight walks up the tree: only for hits
				}
				w := c.Weight * loops.Weight(n)
				if mma {
					mmas += w
				}
				if load {
					loads += w
				}
			}
		}
		pass.ReportKernelFeatureStatus(k.Name, "tensor_cores", mmas, df.Kernels.WeightStatus(k))
		pass.ReportKernelFeatureStatus(k.Name, "tensor_core_loads", loads, df.Kernels.WeightStatus(k))
	}
	return nil, nil
}
