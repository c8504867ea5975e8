package affine

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/cudaperf/cudaperf/analysis/syntax"
)

// corpusForms evaluates every initializer and assignment in the forms
// testdata and the grammar's corpus: realistic forms (atoms, products of
// symbols, non-affine and unknown values) for the tests below.
func corpusForms(t *testing.T) []Form {
	t.Helper()
	paths, _ := filepath.Glob("../../grammar/testdata/corpus/*.cu")
	paths = append(paths, "testdata/forms.cu")
	var out []Form
	for _, path := range paths {
		root, src := parse(t, path)
		file := NewFile(root, src)
		syntax.Inspect(root, func(fn *syntax.Node) bool {
			if fn.Type() != "function_definition" {
				return true
			}
			s := file.Scope(fn)
			for _, d := range s.Decls() {
				if d.Value != nil {
					out = append(out, s.Eval(d.Value))
				}
			}
			for _, n := range s.Assignments() {
				out = append(out, s.Eval(n.ChildByFieldName("right")))
			}
			return false
		})
	}
	if len(out) < 500 {
		t.Fatalf("only %d forms from the corpus", len(out))
	}
	return out
}

// mulBySums is Mul as the sum of its product terms, added one at a time:
// the definition the one-sort Mul must agree with.
func mulBySums(f, g Form) Form {
	if f.Kind != Affine || g.Kind != Affine {
		return f.Mul(g) // not the part under test
	}
	out := Const(f.Const * g.Const)
	for _, t := range f.terms {
		out = out.Add(Form{terms: []Term{{Mono: t.Mono, Coef: t.Coef * g.Const}}})
		for _, u := range g.terms {
			out = out.Add(Form{terms: []Term{{Mono: mulMono(t.Mono, u.Mono), Coef: t.Coef * u.Coef}}})
		}
	}
	for _, u := range g.terms {
		out = out.Add(Form{terms: []Term{{Mono: u.Mono, Coef: u.Coef * f.Const}}})
	}
	out.terms = dropZero(out.terms)
	return out
}

func TestMulIsSumOfProducts(t *testing.T) {
	forms := corpusForms(t)
	var affine []Form
	for _, f := range forms {
		if f.Kind == Affine {
			affine = append(affine, f)
		}
	}
	// Neighbours and a shifted copy: products of unrelated forms, of a form
	// with itself, and with its negation (terms that cancel).
	checked := 0
	for i, f := range affine {
		for _, g := range []Form{affine[(i+1)%len(affine)], affine[(i*7+3)%len(affine)], f, f.Scale(-1), Sym("threadIdx.x").Sub(f)} {
			got, want := f.Mul(g), mulBySums(f, g)
			if !got.Equal(want) || got.String() != want.String() {
				t.Errorf("(%s) * (%s) = %s, want %s", f, g, got, want)
			}
			checked++
		}
	}
	if checked < 1000 {
		t.Fatalf("checked %d products", checked)
	}
}

// TestAddShares checks that adding a constant (which shares the terms)
// gives what merging the terms gives, and leaves the operand as it was.
func TestAddShares(t *testing.T) {
	for _, f := range corpusForms(t) {
		before := f.String()
		got := f.Add(Const(5)).Sub(Const(2))
		want := Form{Kind: f.Kind, Const: f.Const + 3, terms: mergeTerms(f.terms, nil, 1), deps: f.deps}
		if f.Kind != Affine {
			want = join(f, Const(5))
		}
		if got.String() != want.String() {
			t.Errorf("%s + 5 - 2 = %s, want %s", before, got, want)
		}
		if f.String() != before {
			t.Errorf("adding to %s changed it to %s", before, f)
		}
	}
}

func TestSqueezed(t *testing.T) {
	src := []byte("unsigned  int|\tconst float *|float|  x y  |a\nb|é  é|")
	start := 0
	for i, c := range src {
		if c != '|' {
			continue
		}
		text := string(src[start:i])
		want := strings.Join(strings.Fields(text), " ")
		if got := squeezedBytes(src[start:i]); got != want {
			t.Errorf("Squeezed(%q) = %q, want %q", text, got, want)
		}
		start = i + 1
	}
}

func TestSizeOfWithoutSplitting(t *testing.T) {
	for _, typ := range []string{"float", "const float", "unsigned  int", " volatile int ", "std::size_t", "__restrict__ double2",
		"const   unsigned long long", "float4 const", "T", "", "struct S", "unsigned\tchar", "const\u00a0float"} {
		fields := strings.Fields(typ)
		kept := fields[:0]
		for _, f := range fields {
			if f != "const" && f != "volatile" && f != "__restrict__" {
				kept = append(kept, strings.TrimPrefix(f, "std::"))
			}
		}
		wantN, wantOK := sizes[strings.Join(kept, " ")]
		if n, ok := SizeOf(typ); n != wantN || ok != wantOK {
			t.Errorf("SizeOf(%q) = %d, %v; want %d, %v", typ, n, ok, wantN, wantOK)
		}
	}
}
