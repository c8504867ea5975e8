package vectorize

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

// Analyzer reports the vectorized, readonly and restrict features.
var Analyzer = &analysis.Analyzer{
	Name:     "vectorize",
	Doc:      analysis.MustExtractDoc(doc, "vectorize"),
	URL:      "https://cudaperf.dev/checks/vectorize",
	Requires: []*analysis.Analyzer{dataflow.Analyzer},
	Run:      run,
	Features: []analysis.FeatureDef{
		{Name: "vectorized", Unit: "fraction", Doc: "fraction of global bytes moved by vector-type (float2/float4/…) accesses, loop-weighted", Range: "[0, 1]", Level: analysis.LevelKernel, Version: 2},
		{Name: "readonly", Unit: "fraction", Doc: "fraction of global loads through the read-only path (__ldg or const __restrict__), loop-weighted", Range: "[0, 1]", Level: analysis.LevelKernel, Version: 2},
		{Name: "restrict", Unit: "fraction", Doc: "fraction of the kernel's pointer parameters declared __restrict__", Range: "[0, 1]", Level: analysis.LevelKernel},
	},
	Severity: analysis.Info,
}

func run(pass *analysis.Pass) (any, error) {
	df := pass.ResultOf[dataflow.Analyzer].(*dataflow.Result)
	src := pass.File.Src
	for _, k := range df.Kernels.Kernels {
		var bytes, vecBytes, loads, roLoads float64
		for _, c := range df.Reach(k) {
			for _, a := range df.Accesses(c.Func) {
				if a.Space != dataflow.Global {
					continue
				}
				w := a.Weight * c.Weight
				b := w * float64(a.Size)
				bytes += b
				if a.Vector() > 1 {
					vecBytes += b
				}
				if a.Read {
					loads += w
					if a.ReadOnly {
						roLoads += w
					}
				}
			}
		}
		ptrs, restricted := 0, 0
		for _, p := range k.Params {
			if p.Pointer > 0 {
				ptrs++
				if p.Restrict {
					restricted++
				}
			}
		}
		pass.ReportKernelFeatureStatus(k.Name, "vectorized", ratio(vecBytes, bytes), df.Kernels.WeightStatus(k))
		pass.ReportKernelFeatureStatus(k.Name, "readonly", ratio(roLoads, loads), df.Kernels.WeightStatus(k))
		pass.ReportKernelFeature(k.Name, "restrict", ratio(float64(restricted), float64(ptrs)))
		if ptrs >= 2 {
			readOnlyCandidates(pass, df, k, src)
		}
	}
	return nil, nil
}

func ratio(a, b float64) float64 {
	if b == 0 {
		return 0
	}
	return a / b
}

// readOnlyCandidates reports pointer parameters the kernel only reads but
// does not declare const __restrict__.
func readOnlyCandidates(pass *analysis.Pass, df *dataflow.Result, k *kernels.Function, src []byte) {
	read := map[string]bool{}
	written := map[string]bool{}
	for _, a := range df.Accesses(k) {
		if a.Decl == nil || !a.Decl.Param {
			continue
		}
		if a.Read {
			read[a.Base] = true
		}
		if a.Write {
			written[a.Base] = true
		}
	}
	// A pointer handed to a call (a device function, an atomic) may be
	// written there.
	escaped := map[string]bool{}
	k.WalkExprs(func(n *syntax.Node, kind string) bool {
		if kind != "call_expression" {
			return true
		}
		if fn := n.ChildByFieldName("function"); fn != nil {
			name := fn.Content(src)
			// __ldg reads; a cast makes a view the accesses already see.
			if strings.HasPrefix(name, "__ldg") || strings.HasSuffix(name, "_cast") || strings.Contains(name, "_cast<") {
				return false
			}
		}
		if args := n.ChildByFieldName("arguments"); args != nil {
			syntax.Inspect(args, func(a *syntax.Node) bool {
				if a.Type() == "identifier" {
					escaped[a.Content(src)] = true
				}
				return true
			})
		}
		return true
	})
	for _, p := range k.Params {
		if p.Pointer == 0 || p.Name == "" || !read[p.Name] || written[p.Name] || escaped[p.Name] || (p.Const && p.Restrict) {
			continue
		}
		pass.ReportKernelf(k.Name, p.Node, "%s is only read by %s; declare it const %s* __restrict__ so the compiler knows no other pointer writes its data and may keep loads in registers or use the read-only cache", p.Name, k.Name, trimConst(p.Type))
	}
}

func trimConst(t string) string {
	for len(t) > 6 && t[:6] == "const " {
		t = t[6:]
	}
	return t
}
