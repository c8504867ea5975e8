package tripcount

import (
	"path/filepath"
	"slices"
	"testing"

	"github.com/cudaperf/cudaperf/analysis/affine"
	"github.com/cudaperf/cudaperf/analysis/analysistest"
	"github.com/cudaperf/cudaperf/analysis/syntax"
)

// enclosingByDefinition is Enclosing as its doc defines it: the loop of
// each ancestor up to the function, innermost first, except the loop whose
// initializer the path comes from.
func enclosingByDefinition(in *Info, n *syntax.Node) []*Loop {
	var out []*Loop
	for c := n; ; c = c.Parent() {
		p := c.Parent()
		if p == nil || p.Type() == "function_definition" {
			return out
		}
		if l := in.Loop(p); l != nil {
			if init := p.ChildByFieldName("initializer"); init == nil || init.StartByte() != c.StartByte() || init.EndByte() != c.EndByte() {
				out = append(out, l)
			}
		}
	}
}

// TestEnclosingEveryNode compares Enclosing with its definition for every
// node of every function of the grammar's corpus and the loops testdata.
func TestEnclosingEveryNode(t *testing.T) {
	paths, _ := filepath.Glob("../../grammar/testdata/corpus/*.cu")
	paths = append(paths, "testdata/loops.cu")
	nested := 0
	for _, path := range paths {
		root, src := analysistest.Parse(t, path)
		file := affine.NewFile(root, src)
		syntax.Inspect(root, func(fn *syntax.Node) bool {
			if fn.Type() != "function_definition" {
				return true
			}
			in := Analyze(file.Scope(fn))
			syntax.Inspect(fn, func(n *syntax.Node) bool {
				got, want := in.Enclosing(n), enclosingByDefinition(in, n)
				if !slices.Equal(got, want) {
					t.Errorf("%s:%d: Enclosing has %d loops, want %d", path, n.StartPoint().Row+1, len(got), len(want))
				}
				if len(want) > 1 {
					nested++
				}
				return true
			})
			return false
		})
	}
	if nested == 0 {
		t.Fatal("no node inside nested loops: the test data are not exercising Enclosing")
	}
}
