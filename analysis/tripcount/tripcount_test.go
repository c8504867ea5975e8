package tripcount

import (
	"fmt"
	"strings"
	"testing"

	"github.com/cudaperf/cudaperf/analysis/affine"
	"github.com/cudaperf/cudaperf/analysis/analysistest"
	"github.com/cudaperf/cudaperf/analysis/syntax"
)

// TestLoops checks "// trips: KIND EXPR weight=W" on the line where a loop
// starts and "// weight: W depth=D" on a statement inside loops.
func TestLoops(t *testing.T) {
	root, src := analysistest.Parse(t, "testdata/loops.cu")
	file := affine.NewFile(root, src)
	lines := strings.Split(string(src), "\n")
	checked := 0
	syntax.Inspect(root, func(fn *syntax.Node) bool {
		if fn.Type() != "function_definition" {
			return true
		}
		info := Analyze(file.Scope(fn))
		for _, l := range info.Loops() {
			row := l.Node.StartPoint().Row
			_, want, ok := strings.Cut(lines[row], "// trips: ")
			if !ok {
				t.Errorf("line %d: loop without a trips marker", row+1)
				continue
			}
			got := fmt.Sprintf("%s %s weight=%g", l.Kind, l.Expr, l.Weight)
			if got != strings.TrimSpace(want) {
				t.Errorf("line %d: got %q, want %q", row+1, got, strings.TrimSpace(want))
			}
			checked++
		}
		syntax.Inspect(fn.ChildByFieldName("body"), func(n *syntax.Node) bool {
			if n.Type() != "expression_statement" {
				return true
			}
			row := n.StartPoint().Row
			_, want, ok := strings.Cut(lines[row], "// weight: ")
			if !ok {
				return true
			}
			got := fmt.Sprintf("%g depth=%d", info.Weight(n), info.Depth(n))
			if got != strings.TrimSpace(want) {
				t.Errorf("line %d: weight %q, want %q", row+1, got, strings.TrimSpace(want))
			}
			checked++
			return true
		})
		return false
	})
	if want := strings.Count(string(src), "// trips:") + strings.Count(string(src), "// weight:"); checked != want {
		t.Fatalf("checked %d markers, want %d", checked, want)
	}
}
