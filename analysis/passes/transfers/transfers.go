package transfers

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

// Analyzer reports the xfer feature and transfers inside loops.
var Analyzer = &analysis.Analyzer{
	Name:     "transfers",
	Doc:      analysis.MustExtractDoc(doc, "transfers"),
	URL:      "https://cudaperf.dev/checks/transfers",
	Requires: []*analysis.Analyzer{kernels.Analyzer},
	Run:      run,
	Features: []analysis.FeatureDef{
		{Name: "xfer", Unit: "calls", Doc: "cudaMemcpy-family calls in the file, weighted by the trip counts of the loops around them", Range: "[0, +inf)", Level: analysis.LevelFile},
	},
	Severity: analysis.Warning,
}

// IsTransfer reports whether a function name is a host–device copy.
func IsTransfer(name string) bool {
	if i := strings.LastIndex(name, "::"); i >= 0 {
		name = name[i+2:]
	}
	return strings.HasPrefix(name, "cudaMemcpy") || strings.HasPrefix(name, "cuMemcpy")
}

func run(pass *analysis.Pass) (any, error) {
	kr := pass.ResultOf[kernels.Analyzer].(*kernels.Result)
	src := pass.File.Src
	tree, err := pass.File.Syntax()
	if err != nil {
		return nil, fmt.Errorf("transfers: %w", err)
	}
	total := 0.0
	// Every name IsTransfer accepts contains "Memcpy": without it in the
	// source there is nothing to find, and no need to walk the whole tree.
	if !bytes.Contains(src, []byte("Memcpy")) {
		pass.ReportFileFeature("xfer", total)
		return nil, nil
	}
	syntax.Inspect(tree.Root(), func(n *syntax.Node) bool {
		if n.Type() != "call_expression" {
			return true
		}
		fn := n.ChildByFieldName("function")
		if fn == nil || !IsTransfer(fn.Content(src)) {
			return true
		}
		f := kr.Enclosing(n)
		if f == nil {
			total++
			return true
		}
		loops := kr.Loops(f)
		total += loops.Weight(n)
		if enc := loops.Enclosing(n); len(enc) > 0 {
			l := enc[0]
			what := "the loop"
			if l.Var != "" {
				what = "the loop over " + l.Var
			}
			times := "every iteration"
			if l.Expr != "" && l.Expr != "?" {
				times = fmt.Sprintf("every iteration (%s times)", l.Expr)
			}
			pass.Reportf(n, "%s inside %s repeats a host–device transfer and its fixed latency %s; copy once outside the loop, batch the pieces into one buffer, or overlap with cudaMemcpyAsync on a stream", fn.Content(src), what, times)
		}
		return true
	})
	pass.ReportFileFeature("xfer", total)
	return nil, nil
}
