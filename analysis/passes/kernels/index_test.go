package kernels

import (
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/cudaperf/cudaperf/analysis/affine"
	"github.com/cudaperf/cudaperf/analysis/launchcfg"
	"github.com/cudaperf/cudaperf/analysis/syntax"
)

// corpusFiles are realistic CUDA files (the grammar's corpus) plus this
// package's testdata, for the tests that check the discovery's indexes
// against walks of the bodies.
func corpusFiles(t *testing.T) []string {
	t.Helper()
	paths, _ := filepath.Glob("../../../grammar/testdata/corpus/*.cu")
	more, _ := filepath.Glob("testdata/src/*/*.cu")
	paths = append(paths, more...)
	if len(paths) < 10 {
		t.Fatalf("found %d corpus files; the paths are wrong", len(paths))
	}
	return paths
}

// TestSitesAndExprs checks Function.Sites and WalkExprs against
// syntax.Inspect of the body, the walk they stand in for: the same nodes
// in the same order, lambda and inline-assembly flags as the ancestors
// say, and WalkExprs skipping what a visitor declines (lambdas and __ldg
// calls here, as dataflow does).
func TestSitesAndExprs(t *testing.T) {
	exprKinds := map[string]bool{"subscript_expression": true, "pointer_expression": true, "field_expression": true,
		"call_expression": true, "binary_expression": true, "assignment_expression": true, "update_expression": true,
		"unary_expression": true, "lambda_expression": true}
	siteKinds := map[string]SiteKind{"call_expression": CallSite, "gnu_asm_expression": AsmSite, "if_statement": IfSite, "switch_statement": SwitchSite}
	skip := func(n *syntax.Node, kind string, src []byte) bool {
		if kind == "lambda_expression" {
			return true
		}
		if kind == "call_expression" {
			fn := n.ChildByFieldName("function")
			return fn != nil && strings.HasPrefix(fn.Content(src), "__ldg")
		}
		return false
	}
	lambdas, asms := 0, 0
	for _, path := range corpusFiles(t) {
		f, r := discoverFile(t, path)
		for _, fn := range r.Functions {
			type site struct {
				Start    uint32
				Kind     SiteKind
				InLambda bool
				InAsm    bool
			}
			var wantSites, gotSites []site
			var wantExprs, gotExprs, wantWalk, gotWalk []uint32
			syntax.Inspect(fn.Body, func(n *syntax.Node) bool {
				if k, ok := siteKinds[n.Type()]; ok {
					s := site{Start: n.StartByte(), Kind: k}
					for p := n.Parent(); p != fn.Body; p = p.Parent() {
						s.InLambda = s.InLambda || p.Type() == "lambda_expression"
						s.InAsm = s.InAsm || p.Type() == "gnu_asm_expression"
					}
					wantSites = append(wantSites, s)
				}
				if exprKinds[n.Type()] {
					wantExprs = append(wantExprs, n.StartByte())
				}
				return true
			})
			syntax.Inspect(fn.Body, func(n *syntax.Node) bool {
				if !exprKinds[n.Type()] {
					return true
				}
				wantWalk = append(wantWalk, n.StartByte())
				return !skip(n, n.Type(), f.Src)
			})
			for _, s := range fn.Sites {
				gotSites = append(gotSites, site{s.Node.StartByte(), s.Kind, s.InLambda, s.InAsm})
				if s.InLambda {
					lambdas++
				}
				if s.InAsm {
					asms++
				}
			}
			for _, e := range fn.Exprs {
				if e.Kind != e.Node.Type() {
					t.Errorf("%s: %s: Expr kind %q of a %s", path, fn.Name, e.Kind, e.Node.Type())
				}
				gotExprs = append(gotExprs, e.Node.StartByte())
			}
			fn.WalkExprs(func(n *syntax.Node, kind string) bool {
				gotWalk = append(gotWalk, n.StartByte())
				return !skip(n, kind, f.Src)
			})
			if d := cmp.Diff(wantSites, gotSites); d != "" {
				t.Errorf("%s: %s: Sites (-walk +got):\n%s", path, fn.Name, d)
			}
			if d := cmp.Diff(wantExprs, gotExprs); d != "" {
				t.Errorf("%s: %s: Exprs (-walk +got):\n%s", path, fn.Name, d)
			}
			if d := cmp.Diff(wantWalk, gotWalk); d != "" {
				t.Errorf("%s: %s: WalkExprs (-walk +got):\n%s", path, fn.Name, d)
			}
		}
	}
	if lambdas == 0 {
		t.Error("no site inside a lambda in the corpus: the InLambda flag is not being tested")
	}
	_ = asms // inline assembly is rarer; the comparison above covers it where it occurs
}

// TestScopeFromDiscovery checks that the scope Result.Scope builds from the
// discovery's lists (affine.File.ScopeOf) is the one affine.File.Scope
// builds by walking the body: the same variables, writes, loops,
// assignments and inline assembly.
func TestScopeFromDiscovery(t *testing.T) {
	checked := 0
	for _, path := range corpusFiles(t) {
		_, r := discoverFile(t, path)
		for _, fn := range r.Functions {
			got, want := r.Scope(fn), r.Affine.Scope(fn.Node)
			if d := cmp.Diff(describe(want), describe(got)); d != "" {
				t.Errorf("%s: %s: scope (-walk +discovery):\n%s", path, fn.Name, d)
			}
			checked++
		}
	}
	if checked < 100 {
		t.Fatalf("checked %d functions; want the corpus's", checked)
	}
}

// describe renders what a scope knows, node by node.
func describe(s *affine.Scope) []string {
	var out []string
	for i, d := range s.Decls() {
		line := d.Name + "@" + itoa(d.Ident.StartByte()) + " #" + itoa(uint32(i))
		if d.Index() != i {
			line += " index " + itoa(uint32(d.Index()))
		}
		for _, w := range d.Writes() {
			line += " w" + itoa(w.StartByte())
		}
		if d.Loop != nil {
			line += " loop" + itoa(d.Loop.StartByte())
		}
		out = append(out, line)
	}
	for _, group := range []struct {
		name  string
		nodes []*syntax.Node
	}{{"loop", s.Loops()}, {"assign", s.Assignments()}, {"asm", s.InlineAsm()}} {
		for _, n := range group.nodes {
			out = append(out, group.name+"@"+itoa(n.StartByte()))
		}
	}
	return out
}

func itoa(v uint32) string { return strconv.FormatUint(uint64(v), 10) }

// TestEvaluated checks that Launch.Evaluated is what launchcfg.At says of
// the launch, for every launch of the corpus.
func TestEvaluated(t *testing.T) {
	checked := 0
	for _, path := range corpusFiles(t) {
		_, r := discoverFile(t, path)
		for _, l := range r.Launches {
			want := launchcfg.At(r.Scope(l.Caller), l.Node)
			got := l.Evaluated()
			if (got == nil) != (want == nil) {
				t.Errorf("%s: launch of %s: Evaluated() is %v, launchcfg.At %v", path, l.Callee, got, want)
				continue
			}
			if got == nil {
				continue
			}
			render := func(c *launchcfg.Launch) string {
				return fmt.Sprint(c.Kernel, c.Grid, c.Block, c.SharedMem, c.Stream, c.Node == l.Node)
			}
			if render(got) != render(want) {
				t.Errorf("%s: launch of %s: Evaluated() %s, launchcfg.At %s", path, l.Callee, render(got), render(want))
			}
			checked++
		}
	}
	if checked < 50 {
		t.Fatalf("checked %d launches", checked)
	}
}
