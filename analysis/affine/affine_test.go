package affine

import (
	"strings"
	"testing"

	"github.com/cudaperf/cudaperf/analysis/analysistest"
	"github.com/cudaperf/cudaperf/analysis/syntax"
)

func parse(t *testing.T, path string) (*syntax.Node, []byte) {
	t.Helper()
	return analysistest.Parse(t, path)
}

// TestForms evaluates the initializer of every declaration that carries a
// "// form: WANT" comment and compares the rendered form.
func TestForms(t *testing.T) {
	root, src := parse(t, "testdata/forms.cu")
	file := NewFile(root, src)
	checked := 0
	syntax.Inspect(root, func(fn *syntax.Node) bool {
		if fn.Type() != "function_definition" {
			return true
		}
		scope := file.Scope(fn)
		syntax.Inspect(fn, func(n *syntax.Node) bool {
			if n.Type() != "declaration" {
				return true
			}
			cm := n.NextSibling()
			if cm == nil || cm.Type() != "comment" || cm.StartPoint().Row != n.EndPoint().Row {
				return true
			}
			text := cm.Content(src)
			want, ok := strings.CutPrefix(text, "// form: ")
			if !ok {
				return true
			}
			ds := declsOf(n, src, true)
			if len(ds) != 1 || ds[0].Value == nil {
				t.Fatalf("line %d: want one initialized declaration", n.StartPoint().Row+1)
			}
			got := scope.Eval(ds[0].Value).String()
			if got != strings.TrimSpace(want) {
				t.Errorf("line %d: %s = %s, want %s", n.StartPoint().Row+1, ds[0].Name, got, want)
			}
			checked++
			return false
		})
		return false
	})
	if checked != 44 {
		t.Fatalf("checked only %d forms; the testdata markers are not being found", checked)
	}
}

// TestDecls checks what the scope records about declarations: type,
// pointer levels, evaluated array dimensions and qualifiers.
func TestDecls(t *testing.T) {
	root, src := parse(t, "testdata/decls.cu")
	file := NewFile(root, src)
	var got []string
	syntax.Inspect(root, func(fn *syntax.Node) bool {
		if fn.Type() != "function_definition" {
			return true
		}
		s := file.Scope(fn)
		for _, d := range append([]*Decl{file.Global("coeffs")}, s.Decls()...) {
			var dims []string
			for _, dim := range d.Dims {
				if dim == nil {
					dims = append(dims, "[]")
					continue
				}
				dims = append(dims, "["+s.Eval(dim).String()+"]")
			}
			line := d.Name + " " + d.Type + strings.Repeat("*", d.Pointer) + strings.Join(dims, "") + " {" + strings.Join(d.Qualifiers, " ") + "}"
			if d.Param {
				line += " param"
			}
			if d.Global {
				line += " global"
			}
			if d.Value != nil {
				line += " = " + d.Value.Content(src)
			}
			got = append(got, line)
		}
		return false
	})
	want := []string{
		"coeffs float[16] {__constant__} global",
		"a float* {const __restrict__} param",
		"b float4* {} param",
		"n int {} param",
		"tile float[32][33] {__shared__}",
		"dyn double[] {extern __shared__}",
		"acc float[4] {}",
		"i int {} = 3",
		"j int {}",
		"blk dim3 {} = (TILE, 8)",
	}
	if diff := strings.Join(got, "\n"); diff != strings.Join(want, "\n") {
		t.Errorf("declarations:\n%s\nwant:\n%s", diff, strings.Join(want, "\n"))
	}
}

func TestSubst(t *testing.T) {
	// p[3*i] in a device function called as at(in, blockIdx.x*blockDim.x + threadIdx.x).
	idx := Sym("i").Scale(3).Add(Sym("off"))
	arg := Sym("blockIdx.x").Mul(Sym("blockDim.x")).Add(Sym("threadIdx.x"))
	got := idx.Subst(map[string]Form{"i": arg}).String()
	if want := "3*blockDim.x*blockIdx.x + off + 3*threadIdx.x"; got != want {
		t.Errorf("Subst = %s, want %s", got, want)
	}
	un := Opaque(NonAffine, "i").Subst(map[string]Form{"i": Sym("threadIdx.x")})
	if un.Kind != NonAffine || !un.ThreadDependent() {
		t.Errorf("Subst of a non-affine form = %s, want non-affine(threadIdx.x)", un)
	}
}

// TestLaneValue evaluates forms with atoms lane by lane: the 2-D
// decomposition of a 1-D block recombines to the thread index.
func TestLaneValue(t *testing.T) {
	tid := Sym("threadIdx.x")
	tx, ty := tid.Rem(Const(16)), tid.Div(Const(16))
	back := ty.Scale(16).Add(tx)
	if back.Kind != Affine || !back.HasAtoms(true) || !back.ThreadDependent() {
		t.Fatalf("16*(tid/16) + tid%%16 = %s: want an affine form over atoms", back)
	}
	for lane := int64(0); lane < 64; lane++ {
		v, ok := back.LaneValue(func(s string) (int64, bool) {
			if s == "threadIdx.x" {
				return lane, true
			}
			return 0, false
		})
		if !ok || v != lane {
			t.Fatalf("lane %d: value %d (ok %v)", lane, v, ok)
		}
	}
	if _, ok := back.LaneValue(func(string) (int64, bool) { return 0, false }); ok {
		t.Error("LaneValue succeeded without a value for threadIdx.x")
	}
}

func TestAtomFactors(t *testing.T) {
	gid := Sym("blockIdx.x").Mul(Sym("blockDim.x")).Add(Sym("threadIdx.x"))
	f := gid.Rem(Const(4096)).Mul(Sym("cols")).Add(gid.Div(Const(4096)))
	lanes, sym, ok := f.WarpFrom(0)
	if !ok || len(sym) != 1 || sym[0] != "cols" {
		t.Fatalf("WarpFrom(%s) = %v %v %v", f, lanes, sym, ok)
	}
	for l := 1; l < 32; l++ {
		if lanes[l] <= lanes[l-1] {
			t.Fatalf("lanes of %s not increasing: %v", f, lanes)
		}
	}
}

// TestStructLayout: members at their natural alignment, arrays, typedef
// names, __align__ and a member of unknown size.
func TestStructLayout(t *testing.T) {
	root, b := parse(t, "testdata/structs.cu")
	f := NewFile(root, b)
	for _, c := range []struct {
		name  string
		size  int64
		field string
		off   int64
	}{
		{"P", 24, "d", 8}, {"P", 24, "s", 16}, {"P", 24, "x", 4},
		{"V", 16, "e", 0}, {"const F3", 16, "w", 12}, {"const struct P", 24, "d", 8},
	} {
		l, ok := f.StructLayout(c.name)
		if !ok || l.Size != c.size || l.Fields[c.field].Offset != c.off {
			t.Errorf("%s: layout %+v (%v), want size %d and %s at %d", c.name, l, ok, c.size, c.field, c.off)
		}
	}
	if l, ok := f.StructLayout("V"); !ok || l.Fields["e"].Count != 3 {
		t.Errorf("V.e: %+v", l)
	}
	if _, ok := f.StructLayout("U"); ok {
		t.Error("U has a member of unknown size: no layout")
	}
}
