package tripcount

import (
	"context"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/cudaperf/cudaperf/analysis"
	"github.com/cudaperf/cudaperf/analysis/affine"
	"github.com/cudaperf/cudaperf/analysis/analysistest"
	"github.com/cudaperf/cudaperf/analysis/syntax"
)

// TestLoops checks "// trips: KIND EXPR weight=W" on the line where a loop
// starts and "// weight: W depth=D" on a statement inside loops.
func TestLoops(t *testing.T) {
	src, err := os.ReadFile("testdata/loops.cu")
	if err != nil {
		t.Fatal(err)
	}
	f, err := analysis.ParseFile(context.Background(), "loops.cu", src)
	if err != nil {
		t.Fatal(err)
	}
	file := affine.NewFile(analysistest.SyntaxRoot(t, f), src)
	lines := strings.Split(string(src), "\n")
	checked := 0
	syntax.Inspect(analysistest.SyntaxRoot(t, f), func(fn *syntax.Node) bool {
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
