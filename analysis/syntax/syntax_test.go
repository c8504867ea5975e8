package syntax_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	sitter "github.com/smacker/go-tree-sitter"

	"github.com/cudaperf/cudaperf/analysis/syntax"
	"github.com/cudaperf/cudaperf/grammar"
)

func parse(t testing.TB, src []byte) (*sitter.Tree, *syntax.Tree) {
	t.Helper()
	tree, err := grammar.Parse(context.Background(), src)
	if err != nil {
		t.Fatal(err)
	}
	st, err := syntax.Flatten(tree.RootNode(), grammar.Language(), src)
	if err != nil {
		t.Fatal(err)
	}
	return tree, st
}

// same compares a smacker node with its copy, recursively.
func same(t *testing.T, path string, a *sitter.Node, b *syntax.Node) int {
	t.Helper()
	if a.Type() != b.Type() || a.StartByte() != b.StartByte() || a.EndByte() != b.EndByte() ||
		a.StartPoint() != b.StartPoint() || a.EndPoint() != b.EndPoint() || a.IsNamed() != b.IsNamed() ||
		a.IsMissing() != b.IsMissing() || a.HasError() != b.HasError() || a.IsError() != b.IsError() ||
		a.ChildCount() != b.ChildCount() || a.NamedChildCount() != b.NamedChildCount() {
		t.Fatalf("%s: node differs at %d: smacker %s %d-%d named=%v kids=%d/%d, copy %s %d-%d named=%v kids=%d/%d", path, a.StartByte(),
			a.Type(), a.StartByte(), a.EndByte(), a.IsNamed(), a.ChildCount(), a.NamedChildCount(),
			b.Type(), b.StartByte(), b.EndByte(), b.IsNamed(), b.ChildCount(), b.NamedChildCount())
	}
	n := 1
	for i := 0; i < int(a.ChildCount()); i++ {
		// tree-sitter's ts_node_field_name_for_child gives an extra node
		// (a comment, an ERROR inside a production) the field of the child
		// before it; the copy gives it none, as the tree cursor does.
		if fa, fb := a.FieldNameForChild(i), b.FieldNameForChild(i); fa != fb && !(a.Child(i).IsExtra() && fb == "") {
			t.Fatalf("%s: field of child %d of %s at %d: %q vs %q", path, i, a.Type(), a.StartByte(), fa, fb)
		}
		if f := a.FieldNameForChild(i); f != "" {
			ca, cb := a.ChildByFieldName(f), b.ChildByFieldName(f)
			if ca == nil && cb == nil {
				n += same(t, path, a.Child(i), b.Child(i))
				continue
			}
			if ca == nil || cb == nil {
				t.Fatalf("%s: ChildByFieldName(%q) of %s at %d: smacker %v, copy %v", path, f, a.Type(), a.StartByte(), ca, cb)
			}
			if ca.StartByte() != cb.StartByte() || ca.Type() != cb.Type() {
				t.Fatalf("%s: ChildByFieldName(%q) of %s differs", path, f, a.Type())
			}
		}
		n += same(t, path, a.Child(i), b.Child(i))
	}
	for i := 0; i < int(a.NamedChildCount()); i++ {
		if a.NamedChild(i).StartByte() != b.NamedChild(i).StartByte() || a.NamedChild(i).Type() != b.NamedChild(i).Type() {
			t.Fatalf("%s: named child %d of %s differs", path, i, a.Type())
		}
	}
	return n
}

// TestParity compares every node of the copy with tree-sitter's own answers
// on real CUDA files, and on the corpus files cut short at three points
// (syntax errors: ERROR and MISSING nodes, trees the parser recovered).
func TestParity(t *testing.T) {
	corpus, _ := filepath.Glob("../../grammar/testdata/corpus/*.cu")
	paths := append([]string(nil), corpus...)
	more, _ := filepath.Glob("../driver/testdata/*.cu")
	paths = append(paths, more...)
	_ = filepath.WalkDir("../../bench/suites", func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".cu") {
			paths = append(paths, p)
		}
		return nil
	})
	if len(corpus) < 10 {
		t.Fatalf("only %d corpus files", len(corpus))
	}
	files, total := 0, 0
	check := func(name string, src []byte) {
		tree, st := parse(t, src)
		defer tree.Close()
		if st.Len() < 1 {
			t.Fatalf("%s: empty copy", name)
		}
		total += same(t, name, tree.RootNode(), st.Root())
		if !tree.RootNode().HasError() {
			if a, b := tree.RootNode().String(), st.Root().String(); a != b {
				t.Errorf("%s: String differs:\n%s\n%s", name, a, b)
			}
		}
		files++
	}
	for _, p := range paths {
		src, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		check(p, src)
	}
	for _, p := range corpus {
		src, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		for _, cut := range []int{len(src) / 4, len(src) / 2, len(src) * 5 / 6} {
			check(fmt.Sprintf("%s cut at %d", p, cut), src[:cut])
		}
	}
	t.Logf("%d sources, %d nodes", files, total)
}

func TestNavigation(t *testing.T) {
	src := []byte("int f(int a, int b) { return a + b; }\n")
	_, st := parse(t, src)
	fn := st.Root().NamedChild(0)
	if fn.Type() != "function_definition" || fn.Parent() != st.Root() || st.Root().Parent() != nil {
		t.Fatalf("root = %s", st.Root())
	}
	params := fn.ChildByFieldName("declarator").ChildByFieldName("parameters")
	a, b := params.NamedChild(0), params.NamedChild(1)
	if a.NextNamedSibling() != b || b.PrevNamedSibling() != a || a.NextSibling().Type() != "," || b.NextNamedSibling() != nil {
		t.Error("siblings")
	}
	if a.Content(src) != "int a" || params.NamedChild(5) != nil || params.Child(-1) != nil || fn.ChildByFieldName("nope") != nil {
		t.Error("content / bounds")
	}
	if !a.Equal(params.NamedChild(0)) || a.ID() == b.ID() {
		t.Error("identity")
	}
	var types []string
	syntax.Inspect(fn.ChildByFieldName("body"), func(n *syntax.Node) bool {
		types = append(types, n.Type())
		return n.Type() != "binary_expression"
	})
	if len(types) != 3 || types[2] != "binary_expression" {
		t.Errorf("Inspect = %v", types)
	}
}

func FuzzFlatten(f *testing.F) {
	f.Add([]byte("__global__ void k(float *x) { x[threadIdx.x] = 1; }"))
	f.Add([]byte("int main( { return (1 + ; }"))
	f.Fuzz(func(t *testing.T, src []byte) {
		tree, st := parse(t, src)
		defer tree.Close()
		same(t, "fuzz", tree.RootNode(), st.Root())
	})
}

// inspectRef is Inspect as a recursion over NamedChild: the definition
// the preorder scan must match.
func inspectRef(n *syntax.Node, visit func(*syntax.Node) bool) {
	if !visit(n) {
		return
	}
	for i := 0; i < int(n.NamedChildCount()); i++ {
		inspectRef(n.NamedChild(i), visit)
	}
}

// TestInspect compares Inspect with inspectRef on the corpus, from every
// statement-level start node, with and without skipping subtrees.
func TestInspect(t *testing.T) {
	paths, _ := filepath.Glob("../../grammar/testdata/corpus/*.cu")
	if len(paths) == 0 {
		t.Fatal("no corpus files")
	}
	for _, p := range paths {
		src, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		_, st := parse(t, src)
		var starts []*syntax.Node
		inspectRef(st.Root(), func(n *syntax.Node) bool {
			if n.Parent() == nil || strings.HasSuffix(n.Type(), "statement") || strings.HasSuffix(n.Type(), "definition") {
				starts = append(starts, n)
			}
			return true
		})
		// An anonymous start node (the walk visits it, then only its
		// named descendants).
		if k := st.Root().Child(0); k != nil {
			for k.ChildCount() > 0 {
				k = k.Child(0)
			}
			starts = append(starts, k)
		}
		for _, start := range starts {
			for _, skip := range []func(*syntax.Node) bool{
				func(*syntax.Node) bool { return false },
				func(n *syntax.Node) bool { return n.StartByte()%3 == 0 },
				func(n *syntax.Node) bool { return n.Type() == "compound_statement" || n.Type() == "call_expression" },
			} {
				var want, got []uintptr
				inspectRef(start, func(n *syntax.Node) bool { want = append(want, n.ID()); return !skip(n) })
				syntax.Inspect(start, func(n *syntax.Node) bool { got = append(got, n.ID()); return !skip(n) })
				if !slices.Equal(want, got) {
					t.Fatalf("%s: Inspect from %s at %d visits %d nodes, the recursive walk %d (first difference at %d)",
						p, start.Type(), start.StartByte(), len(got), len(want), firstDiff(want, got))
				}
			}
		}
	}
}

func firstDiff(a, b []uintptr) int {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return i
		}
	}
	return min(len(a), len(b))
}

func BenchmarkWalkSmacker(b *testing.B) {
	trees := benchTrees(b)
	b.ResetTimer()
	defer cpuPerOp(b, cpuTime())
	for i := 0; i < b.N; i++ {
		for _, tr := range trees {
			walkSmacker(tr.sm.RootNode())
		}
	}
}

func BenchmarkWalkCopy(b *testing.B) {
	trees := benchTrees(b)
	b.ResetTimer()
	defer cpuPerOp(b, cpuTime())
	for i := 0; i < b.N; i++ {
		for _, tr := range trees {
			syntax.Inspect(tr.cp.Root(), func(n *syntax.Node) bool { _ = n.Type(); return true })
		}
	}
}

// BenchmarkChildByFieldName looks up ten common fields on every named node
// of the corpus.
func BenchmarkChildByFieldName(b *testing.B) {
	trees := benchTrees(b)
	var nodes []*syntax.Node
	for _, tr := range trees {
		syntax.Inspect(tr.cp.Root(), func(n *syntax.Node) bool { nodes = append(nodes, n); return true })
	}
	names := []string{"body", "function", "arguments", "declarator", "type", "condition", "left", "right", "value", "name"}
	b.ResetTimer()
	defer cpuPerOp(b, cpuTime())
	for i := 0; i < b.N; i++ {
		for _, n := range nodes {
			for _, f := range names {
				_ = n.ChildByFieldName(f)
			}
		}
	}
}

func BenchmarkFlatten(b *testing.B) {
	trees := benchTrees(b)
	b.ResetTimer()
	defer cpuPerOp(b, cpuTime())
	for i := 0; i < b.N; i++ {
		for _, tr := range trees {
			if _, err := syntax.Flatten(tr.sm.RootNode(), grammar.Language(), tr.src); err != nil {
				b.Fatal(err)
			}
		}
	}
}

type benchTree struct {
	src []byte
	sm  *sitter.Tree
	cp  *syntax.Tree
}

func benchTrees(b *testing.B) []benchTree {
	paths, _ := filepath.Glob("../../grammar/testdata/corpus/*.cu")
	if len(paths) == 0 {
		b.Skip("no corpus")
	}
	var out []benchTree
	for _, p := range paths {
		src, _ := os.ReadFile(p)
		sm, cp := parse(b, src)
		out = append(out, benchTree{src, sm, cp})
	}
	return out
}

// walkSmacker is analysis.Inspect's loop on smacker nodes.
func walkSmacker(n *sitter.Node) {
	stack := []*sitter.Node{n}
	for len(stack) > 0 {
		c := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		_ = c.Type()
		for i := int(c.NamedChildCount()) - 1; i >= 0; i-- {
			stack = append(stack, c.NamedChild(i))
		}
	}
}

// cpuTime is the process's CPU time; the development machine is shared, so
// the benchmarks also report CPU ms per op, which the load does not inflate.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func cpuPerOp(b *testing.B, start time.Duration) {
	b.ReportMetric(float64((cpuTime()-start).Milliseconds())/float64(b.N), "cpu-ms/op")
}

// TestFlattenShapes covers trees the corpus does not: no children at all,
// only an extra (a comment), and nesting far deeper than the walk's first
// 64 frames, which it then keeps on the heap.
func TestFlattenShapes(t *testing.T) {
	deep := "int x = " + strings.Repeat("(", 3000) + "1" + strings.Repeat(")", 3000) + ";\n"
	for name, src := range map[string]string{
		"empty":    "",
		"comment":  "// only a comment\n",
		"deep":     deep,
		"deep cut": deep[:len(deep)/2],
	} {
		tree, st := parse(t, []byte(src))
		same(t, name, tree.RootNode(), st.Root())
		// The deepest node of the deep source is the innermost literal: its
		// ancestors are the nesting. (Cut short, the parser keeps it flat.)
		depth := 0
		syntax.Inspect(st.Root(), func(n *syntax.Node) bool {
			if n.NamedChildCount() == 0 {
				d := 0
				for p := n.Parent(); p != nil; p = p.Parent() {
					d++
				}
				depth = max(depth, d)
			}
			return true
		})
		t.Logf("%s: %d nodes, depth %d", name, st.Len(), depth)
		if name == "deep" && depth < 3000 {
			t.Errorf("%s: depth %d, want at least 3000", name, depth)
		}
		tree.Close()
	}
}
