package tripcount

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
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
// node of every function of the grammar's corpus and the loops testdata,
// asked parents first and, on a fresh Info, children first (Enclosing
// memoizes what it passes on the way up).
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
			var nodes []*syntax.Node
			syntax.Inspect(fn, func(n *syntax.Node) bool {
				nodes = append(nodes, n)
				return true
			})
			for _, order := range []string{"parents first", "children first"} {
				in := Analyze(file.Scope(fn))
				if order == "children first" {
					slices.Reverse(nodes)
				}
				for _, n := range nodes {
					got, want := in.Enclosing(n), enclosingByDefinition(in, n)
					if !slices.Equal(got, want) {
						t.Errorf("%s:%d (%s): Enclosing has %d loops, want %d", path, n.StartPoint().Row+1, order, len(got), len(want))
					}
					if len(want) > 1 {
						nested++
					}
				}
			}
			return false
		})
	}
	if nested == 0 {
		t.Fatal("no node inside nested loops: the test data are not exercising Enclosing")
	}
}

// BenchmarkEnclosingLongSum asks Enclosing for every node of a generated
// 20,000-term sum inside a loop, as the arith pass does. Memoized, the
// answers cost time linear in the nodes: 0.088 s an op against 11.2 s
// when every node walked up to its loop (this VM, 2 CPUs, 2026-12-05:
// `go test -run X -bench EnclosingLongSum -benchtime 3x
// ./analysis/tripcount`); `cudaperf lint` of a 40,000-term sum took 17 s
// before.
func BenchmarkEnclosingLongSum(b *testing.B) {
	var sb strings.Builder
	sb.WriteString("__global__ void k(float *a, const float *x, int n) {\n  for (int i = 0; i < n; i++) a[i] = ")
	for j := 0; j < 20000; j++ {
		if j > 0 {
			sb.WriteString(" + ")
		}
		fmt.Fprintf(&sb, "x[i + %d] * %d.0f", j%7, j)
	}
	sb.WriteString(";\n}\n")
	path := filepath.Join(b.TempDir(), "long.cu")
	if err := os.WriteFile(path, []byte(sb.String()), 0o644); err != nil {
		b.Fatal(err)
	}
	root, src := analysistest.Parse(b, path)
	file := affine.NewFile(root, src)
	var fn *syntax.Node
	syntax.Inspect(root, func(n *syntax.Node) bool {
		if n.Type() == "function_definition" {
			fn = n
			return false
		}
		return true
	})
	var nodes []*syntax.Node
	syntax.Inspect(fn, func(n *syntax.Node) bool {
		nodes = append(nodes, n)
		return true
	})
	b.ResetTimer()
	for b.Loop() {
		in := Analyze(file.Scope(fn))
		for _, n := range nodes {
			in.Enclosing(n)
		}
	}
}
