package analysis

import (
	"bytes"
	"context"
	"errors"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/cudaperf/cudaperf/analysis/options"
)

func okRun(*Pass) (any, error) { return nil, nil }

func TestValidate(t *testing.T) {
	a := &Analyzer{Name: "a", Doc: "first analyzer\n\nmore", Run: okRun,
		Features: []FeatureDef{{Name: "fa", Unit: "count", Doc: "d", Level: LevelKernel}}}
	b := &Analyzer{Name: "b", Doc: "second", Run: okRun, Requires: []*Analyzer{a}}
	if err := Validate([]*Analyzer{a, b}); err != nil {
		t.Fatalf("valid set: %v", err)
	}

	cyc1 := &Analyzer{Name: "c1", Doc: "c", Run: okRun}
	cyc2 := &Analyzer{Name: "c2", Doc: "c", Run: okRun, Requires: []*Analyzer{cyc1}}
	cyc1.Requires = []*Analyzer{cyc2}

	tests := []struct {
		name string
		set  []*Analyzer
		want string
	}{
		{"bad name", []*Analyzer{{Name: "Bad-Name", Doc: "x", Run: okRun}}, "name must be lower-case"},
		{"duplicate name", []*Analyzer{a, {Name: "a", Doc: "x", Run: okRun}}, "name used by two analyzers"},
		{"no doc", []*Analyzer{{Name: "n", Run: okRun}}, "Doc is empty"},
		{"capital title", []*Analyzer{{Name: "n", Doc: "Counts things", Run: okRun}}, "should start lower-case"},
		{"no run", []*Analyzer{{Name: "n", Doc: "x"}}, "Run is nil"},
		{"cycle", []*Analyzer{cyc1}, "cycle in Requires: c1 -> c2 -> c1"},
		{"feature twice", []*Analyzer{a, {Name: "z", Doc: "x", Run: okRun,
			Features: []FeatureDef{{Name: "fa", Unit: "u", Doc: "d", Level: LevelFile}}}}, `feature "fa" is also reported by analyzer "a"`},
		{"feature level", []*Analyzer{{Name: "z", Doc: "x", Run: okRun,
			Features: []FeatureDef{{Name: "f", Unit: "u", Doc: "d", Level: "warp"}}}}, `Level "warp" must be`},
		{"nil require", []*Analyzer{{Name: "z", Doc: "x", Run: okRun, Requires: []*Analyzer{nil}}}, "nil analyzer required by z"},
		{"default out of bounds", []*Analyzer{{Name: "z", Doc: "x", Run: okRun,
			Options: []options.Def{{Name: "k", Type: options.Int, Default: "0", Min: "1"}}}}, `option "k": its Default: 0 is below the option's minimum, 1`},
		{"bad bound", []*Analyzer{{Name: "z", Doc: "x", Run: okRun,
			Options: []options.Def{{Name: "k", Type: options.Float, Default: "2", Max: "two"}}}}, `declares the bound "two"`},
	}
	for _, tc := range tests {
		err := Validate(tc.set)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: Validate = %v, want error containing %q", tc.name, err, tc.want)
		}
	}
	// An acronym may start a title.
	if err := Validate([]*Analyzer{{Name: "n", Doc: "CUDA kernel discovery", Run: okRun}}); err != nil {
		t.Errorf("acronym title rejected: %v", err)
	}
}

func TestExtractDoc(t *testing.T) {
	src := "// Package p defines the x analyzer.\n//\n// # Analyzer x\n//\n// x counts things\n//\n// Longer text.\n//\n// # Other\n//\n// ignored\npackage p\n"
	doc, err := ExtractDoc(src, "x")
	if err != nil {
		t.Fatal(err)
	}
	if doc != "x counts things\n\nLonger text." {
		t.Errorf("doc = %q", doc)
	}
	if _, err := ExtractDoc(src, "y"); err == nil || !strings.Contains(err.Error(), `"# Analyzer y"`) {
		t.Errorf("missing section: err = %v", err)
	}
}

func TestReportfRange(t *testing.T) {
	src := []byte("int main() {\n  int x = 1;\n}\n")
	f, err := ParseFile(context.Background(), "a.cu", src)
	if err != nil {
		t.Fatal(err)
	}
	var got []Diagnostic
	var feats []Feature
	a := &Analyzer{Name: "n", Doc: "d", Run: okRun, Severity: Error,
		Features: []FeatureDef{{Name: "f", Unit: "count", Doc: "d", Level: LevelFile}}}
	p := &Pass{Analyzer: a, File: f, Report: func(d Diagnostic) { got = append(got, d) },
		ReportFeature: func(x Feature) { feats = append(feats, x) }}
	// Find the declaration "int x = 1;".
	body := f.Root().NamedChild(0).ChildByFieldName("body")
	decl := body.NamedChild(0)
	if f.Text(decl) != "int x = 1;" {
		t.Fatalf("decl text %q", f.Text(decl))
	}
	p.Reportf(decl, "bad %d", 1)
	p.ReportFileFeature("f", 2)
	want := Diagnostic{Check: "n", Severity: Error, Message: "bad 1",
		Range: Range{StartByte: 15, EndByte: 25, StartLine: 2, StartCol: 3, EndLine: 2, EndCol: 13}}
	if len(got) != 1 || !reflect.DeepEqual(got[0], want) {
		t.Errorf("diagnostic = %+v, want %+v", got, want)
	}
	if len(feats) != 1 || feats[0] != (Feature{Name: "f", Value: 2, Unit: "count"}) {
		t.Errorf("feature = %+v", feats)
	}
}

func TestSeverityText(t *testing.T) {
	for _, s := range []Severity{Info, Warning, Error} {
		b, _ := s.MarshalText()
		var back Severity
		if err := back.UnmarshalText(b); err != nil || back != s {
			t.Errorf("round trip %v: %v %v", s, back, err)
		}
	}
	if _, err := ParseSeverity("fatal"); err == nil {
		t.Error("ParseSeverity(fatal) succeeded")
	}
}

func TestFileRange(t *testing.T) {
	f := &File{Src: []byte("ab\ncd\n\nefg")}
	for _, tc := range []struct {
		s, e uint32
		want Range
	}{
		{0, 2, Range{0, 2, 1, 1, 1, 3}},
		{3, 5, Range{3, 5, 2, 1, 2, 3}},
		{2, 7, Range{2, 7, 1, 3, 4, 1}},
		{8, 99, Range{8, 10, 4, 2, 4, 4}},
		{50, 40, Range{10, 10, 4, 4, 4, 4}},
	} {
		if got := f.Range(tc.s, tc.e); got != tc.want {
			t.Errorf("Range(%d, %d) = %+v, want %+v", tc.s, tc.e, got, tc.want)
		}
	}
}

func TestFileSyntax(t *testing.T) {
	src := []byte("__global__ void k(float *x) { x[threadIdx.x] = 1.0f; }\n")
	f, err := ParseFile(context.Background(), "k.cu", src)
	if err != nil {
		t.Fatal(err)
	}
	st, err := f.Syntax()
	if err != nil {
		t.Fatal(err)
	}
	again, _ := f.Syntax()
	if st != again || st.Root().String() != f.Root().String() {
		t.Errorf("Syntax copy differs or is rebuilt:\n%s\n%s", st.Root(), f.Root())
	}
}

// TestParseReusesParsers checks the parser pool: a parse cut short by its
// context fails with the context's error, and the parses after it, by
// reused or new parsers, give the same trees as the first.
func TestParseReusesParsers(t *testing.T) {
	src := []byte("__global__ void k(float* x) { x[threadIdx.x] = 1.0f; }\n")
	first, err := ParseFile(context.Background(), "k.cu", src)
	if err != nil {
		t.Fatal(err)
	}
	want := first.Root().String()
	first.Tree.Close()

	// A long file and a context that ends while it is parsed.
	long := bytes.Repeat([]byte("__global__ void k(float* x) { for (int i = 0; i < 8; i++) x[i] += x[i + 1] * 2.0f; }\n"), 20000)
	ctx, cancel := context.WithTimeout(context.Background(), time.Millisecond)
	defer cancel()
	if f, err := ParseFile(ctx, "long.cu", long); err == nil {
		f.Tree.Close()
		t.Log("the parse finished before the deadline; the cancelled path was not exercised")
	} else if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("cancelled parse: got %v, want the context's error", err)
	}

	for i := 0; i < 4; i++ {
		f, err := ParseFile(context.Background(), "k.cu", src)
		if err != nil {
			t.Fatalf("parse %d after a cancelled one: %v", i, err)
		}
		if got := f.Root().String(); got != want {
			t.Fatalf("parse %d: tree %s, want %s", i, got, want)
		}
		f.Tree.Close()
	}
}
