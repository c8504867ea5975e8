package taint

import (
	"context"
	"os"
	"strings"
	"testing"

	"github.com/cudaperf/cudaperf/analysis"
	"github.com/cudaperf/cudaperf/analysis/affine"
	"github.com/cudaperf/cudaperf/analysis/analysistest"
	"github.com/cudaperf/cudaperf/analysis/syntax"
)

// TestLevels checks the "// var: LEVEL", "// cond: LEVEL" and
// "// control: LEVEL" markers of testdata/levels.cu: the level of the
// variable declared on the line, of the condition of the branch or loop
// that starts on the line, and of the control context of the statement on
// the line.
func TestLevels(t *testing.T) {
	src, err := os.ReadFile("testdata/levels.cu")
	if err != nil {
		t.Fatal(err)
	}
	f, err := analysis.ParseFile(context.Background(), "levels.cu", src)
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
		info := Analyze(file.Scope(fn), Options{})
		done := map[uint32]bool{} // one check per marked line
		syntax.Inspect(fn.ChildByFieldName("body"), func(n *syntax.Node) bool {
			row := n.StartPoint().Row
			if done[row] {
				return true
			}
			line := lines[row]
			i := strings.Index(line, "// ")
			if i < 0 {
				return true
			}
			kind, want, ok := strings.Cut(line[i+3:], ": ")
			if !ok {
				return true
			}
			want = strings.TrimSpace(want)
			var got Level
			switch {
			case kind == "var" && n.Type() == "declaration":
				for _, d := range file.Scope(fn).Decls() {
					if d.Ident.StartPoint().Row == row && !d.Param {
						got = info.Var(lookup(info, d))
					}
				}
			case kind == "cond" && CondOf(n) != nil:
				got = info.Cond(n)
			case kind == "control" && n.Type() == "expression_statement":
				got = info.Control(n)
			default:
				return true
			}
			done[row] = true
			checked++
			if got.String() != want {
				t.Errorf("line %d (%s): %s is %s, want %s", row+1, strings.TrimSpace(line[:i]), kind, got, want)
			}
			return true
		})
		return false
	})
	if want := strings.Count(string(src), "// var:") + strings.Count(string(src), "// cond:") + strings.Count(string(src), "// control:"); checked != want {
		t.Fatalf("checked %d markers, want %d", checked, want)
	}
}

// lookup maps a declaration from a fresh scope to the analysed one.
func lookup(in *Info, d *affine.Decl) *affine.Decl {
	return in.scope.Lookup(d.Name, d.Ident.EndByte())
}

func TestControlCond(t *testing.T) {
	src := []byte(`__global__ void k(float* a, int n) {
  if (n > 0) {
    if (threadIdx.x / 32 == 1) {
      if (threadIdx.x % 2) {
        if (n > 1) {
          __syncthreads();
        }
      }
    }
  }
}`)
	f, err := analysis.ParseFile(context.Background(), "k.cu", src)
	if err != nil {
		t.Fatal(err)
	}
	file := affine.NewFile(analysistest.SyntaxRoot(t, f), src)
	var call *syntax.Node
	var fn *syntax.Node
	syntax.Inspect(analysistest.SyntaxRoot(t, f), func(n *syntax.Node) bool {
		switch n.Type() {
		case "function_definition":
			fn = n
		case "call_expression":
			call = n
		}
		return true
	})
	cond, lvl := Analyze(file.Scope(fn), Options{}).ControlCond(call)
	if lvl != Varying || cond == nil || cond.Content(src) != "(threadIdx.x % 2)" {
		t.Fatalf("ControlCond = %v %v, want (threadIdx.x %% 2) varying", cond, lvl)
	}
}
