package driver

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/cudaperf/cudaperf/analysis"
	"github.com/cudaperf/cudaperf/analysis/passes/kernels"
)

// Test analyzers: a counter that reports one diagnostic per kernel and a
// feature, one that panics, one that fails, and one that requires the
// failing one.
var (
	counter = &analysis.Analyzer{
		Name: "counter", Doc: "counts kernels", Requires: []*analysis.Analyzer{kernels.Analyzer},
		Features: []analysis.FeatureDef{{Name: "nkernels", Unit: "count", Doc: "d", Level: analysis.LevelFile},
			{Name: "params", Unit: "count", Doc: "d", Level: analysis.LevelKernel}},
		ResultType: reflect.TypeOf(0),
		Run: func(p *analysis.Pass) (any, error) {
			r := p.ResultOf[kernels.Analyzer].(*kernels.Result)
			for _, k := range r.Kernels {
				p.ReportKernelf(k.Name, k.NameNode, "kernel %s", k.Name)
				p.ReportKernelFeature(k.Name, "params", float64(len(k.Params)))
			}
			p.ReportFileFeature("nkernels", float64(len(r.Kernels)))
			return len(r.Kernels), nil
		},
	}
	panicker = &analysis.Analyzer{Name: "panicker", Doc: "panics", Run: func(p *analysis.Pass) (any, error) {
		var s []byte
		return s[len(p.File.Src)], nil // a real runtime panic: index out of range
	}}
	failer    = &analysis.Analyzer{Name: "failer", Doc: "fails", Run: func(*analysis.Pass) (any, error) { return nil, errors.New("cannot cope") }}
	dependent = &analysis.Analyzer{Name: "dependent", Doc: "needs failer", Requires: []*analysis.Analyzer{failer},
		Run: func(p *analysis.Pass) (any, error) { p.Reportf(p.File.Root(), "ran"); return nil, nil }}
	sloppy = &analysis.Analyzer{Name: "sloppy", Doc: "reports bad features",
		Features: []analysis.FeatureDef{{Name: "perk", Unit: "u", Doc: "d", Level: analysis.LevelKernel}},
		Run: func(p *analysis.Pass) (any, error) {
			p.ReportFileFeature("undeclared", 1)
			p.ReportFileFeature("perk", 1) // kernel-level without a kernel
			return nil, nil
		}}
)

func newDriver(t *testing.T, as ...*analysis.Analyzer) *Driver {
	t.Helper()
	d, err := New(as, Options{})
	if err != nil {
		t.Fatal(err)
	}
	return d
}

func messages(fr *FileResult) []string {
	var out []string
	for _, d := range fr.Diagnostics {
		out = append(out, d.Check+": "+d.Message)
	}
	return out
}

func TestOrderAndResults(t *testing.T) {
	d := newDriver(t, counter)
	var names []string
	for _, a := range d.Analyzers() {
		names = append(names, a.Name)
	}
	if !reflect.DeepEqual(names, []string{"kernels", "counter"}) {
		t.Errorf("order = %v", names)
	}
	fr := d.RunFile(context.Background(), "testdata/good.cu")
	if !fr.Analyzed || len(fr.Errors) != 0 {
		t.Fatalf("errors: %v", fr.Errors)
	}
	// Only the requested analyzer's findings: not the kernels feature.
	want := []analysis.Feature{{Name: "params", Kernel: "scale", Value: 3, Unit: "count"}, {Name: "nkernels", Value: 1, Unit: "count"}}
	if !reflect.DeepEqual(fr.Features, want) {
		t.Errorf("features = %+v", fr.Features)
	}
	if len(fr.Diagnostics) != 1 || fr.Diagnostics[0].Check != "counter" || fr.Diagnostics[0].Kernel != "scale" ||
		fr.Diagnostics[0].Range.StartLine != 1 || fr.Diagnostics[0].Range.StartCol != 17 || fr.Diagnostics[0].Severity != analysis.Warning {
		t.Errorf("diagnostics = %+v", fr.Diagnostics)
	}
	// Asking for kernels too reports its loop-weighted launch count.
	fr = newDriver(t, counter, kernels.Analyzer).RunFile(context.Background(), "testdata/good.cu")
	found := false
	for _, f := range fr.Features {
		if f.Name == "launches" {
			found = true
			if f.Value != 4 {
				t.Errorf("launches = %v, want 4 (one launch in a 4-trip loop)", f.Value)
			}
		}
	}
	if !found {
		t.Error("launches feature missing")
	}
}

func TestFailuresStayLocal(t *testing.T) {
	d := newDriver(t, panicker, counter, dependent, sloppy)
	fr := d.RunFile(context.Background(), "testdata/good.cu")
	got := strings.Join(messages(fr), "\n")
	for _, want := range []string{
		"internal: analyzer panicker panicked: runtime error: index out of range",
		"internal: analyzer failer: cannot cope",
		"internal: analyzer dependent skipped: it requires failer, which failed",
		`internal: analyzer sloppy reported feature "undeclared", which it does not declare`,
		`internal: analyzer sloppy reported kernel-level feature "perk" without a kernel`,
		"counter: kernel scale",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("missing %q in:\n%s", want, got)
		}
	}
	if strings.Contains(got, "dependent: ran") {
		t.Error("dependent ran although its requirement failed")
	}
	// The panic's stack is kept for logs, not put in the message.
	stack := false
	for _, e := range fr.Errors {
		if strings.Contains(e.Error(), "goroutine") && strings.Contains(e.Error(), "testdata/good.cu: analyzer panicker") {
			stack = true
		}
	}
	if !stack {
		t.Errorf("no stack in errors: %v", fr.Errors)
	}
}

func TestBadInput(t *testing.T) {
	dir := t.TempDir()
	big := filepath.Join(dir, "big.cu")
	if err := os.WriteFile(big, []byte(strings.Repeat("// padding line\n", DefaultMaxFileSize/16+1)), 0o644); err != nil {
		t.Fatal(err)
	}
	d := newDriver(t, counter)
	paths := []string{"testdata/good.cu", "testdata/missing.cu", "testdata/binary.cu", big, "testdata", "testdata/latin1.cu", "testdata/syntax.cu", "testdata/partial.cu"}
	res := d.RunFiles(context.Background(), paths)
	if len(res) != len(paths) {
		t.Fatalf("%d results for %d paths", len(res), len(paths))
	}
	for i, want := range []struct {
		analyzed bool
		msg      string
	}{
		{true, "counter: kernel scale"},
		{false, "input: no such file; check the path"},
		{false, "input: binary file (it contains NUL bytes), not CUDA source"},
		{false, "input: 10.0 MB is over the 10 MB limit"},
		{false, "input: is a directory"},
		{true, "input: not valid UTF-8 (byte 0xe9)"},
		// Balanced brackets: maybe a construct the grammar does not
		// know, so a note; an unmatched bracket fails nvcc too.
		{true, "syntax: '(' is not closed (a '}' comes first); the compiler rejects this file too"},
		{true, "syntax: partial parse: the grammar could not read 1 place of this file, the first near"},
	} {
		fr := res[i]
		if fr.Path != paths[i] || fr.Analyzed != want.analyzed {
			t.Errorf("%s: path %s analyzed %v", paths[i], fr.Path, fr.Analyzed)
		}
		if got := strings.Join(messages(fr), "\n"); !strings.Contains(got, want.msg) {
			t.Errorf("%s: missing %q in:\n%s", paths[i], want.msg, got)
		}
	}
	// The Latin-1 file is still analysed; its bad byte is located.
	lat := res[5]
	if n := countPrefix(messages(lat), "counter: kernel"); n != 2 {
		t.Errorf("latin1: %d kernels found, want 2", n)
	}
	if r := lat.Diagnostics[0].Range; lat.Diagnostics[0].Check == CheckInput && (r.StartLine != 2 || r.StartCol != 7) {
		t.Errorf("latin1 position = %+v", r)
	}
	// nvcc compiles it: a warning, not an error that fails lint.
	if d := lat.Diagnostics[0]; d.Check == CheckInput && d.Severity != analysis.Warning {
		t.Errorf("latin1 severity = %v, want warning", d.Severity)
	}
	// The file with a syntax error: the error is located and the kernels
	// before and after it are still found.
	syn := res[6]
	t.Logf("syntax.cu: %q", messages(syn))
	for _, k := range []string{"kernel ok", "kernel after"} {
		if countPrefix(messages(syn), "counter: "+k) != 1 {
			t.Errorf("syntax.cu: %q not found in %v", k, messages(syn))
		}
	}
	for i, want := range []analysis.Severity{analysis.Error, analysis.Info} {
		n := 0
		for _, dg := range res[6+i].Diagnostics {
			if dg.Check != CheckSyntax {
				continue
			}
			n++
			if dg.Range.StartLine != 4 || dg.Severity != want {
				t.Errorf("%s: syntax finding at line %d severity %v, want line 4 %v: %+v", paths[6+i], dg.Range.StartLine, dg.Severity, want, dg)
			}
		}
		if n != 1 {
			t.Errorf("%s: %d syntax findings, want 1 per file", paths[6+i], n)
		}
	}
}

func countPrefix(list []string, p string) int {
	n := 0
	for _, s := range list {
		if strings.HasPrefix(s, p) {
			n++
		}
	}
	return n
}

func TestCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	fr := newDriver(t, counter).RunFile(ctx, "testdata/good.cu")
	if fr.Analyzed || !strings.Contains(strings.Join(messages(fr), ""), "context canceled") {
		t.Errorf("cancelled: %v", messages(fr))
	}
}

func TestNewValidates(t *testing.T) {
	if _, err := New([]*analysis.Analyzer{{Name: "Bad"}}, Options{}); err == nil {
		t.Error("invalid analyzer accepted")
	}
}

func TestCollect(t *testing.T) {
	dir := t.TempDir()
	for _, p := range []string{"a.cu", "sub/b.cuh", "sub/c.txt", ".hidden/d.cu"} {
		os.MkdirAll(filepath.Join(dir, filepath.Dir(p)), 0o755)
		os.WriteFile(filepath.Join(dir, p), nil, 0o644)
	}
	got := Collect([]string{dir, "nope.cu", filepath.Join(dir, "a.cu")})
	want := []string{filepath.Join(dir, "a.cu"), filepath.Join(dir, "sub/b.cuh"), "nope.cu"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Collect = %v, want %v", got, want)
	}
}

// An analyzer that declares NoChecks and reports anyway is a bug in it:
// the driver reports an internal error instead of a finding no config can
// name.
func TestNoChecksAnalyzerCannotReport(t *testing.T) {
	bad := &analysis.Analyzer{Name: "infra", Doc: "infra: an infrastructure pass\n\nIt computes results.", NoChecks: true,
		Run: func(p *analysis.Pass) (any, error) {
			p.Report(analysis.Diagnostic{Message: "should not be"})
			return nil, nil
		}}
	d, err := New([]*analysis.Analyzer{bad}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	res := d.RunSource(context.Background(), "x.cu", []byte("__global__ void k() {}\n"))
	if len(res.Diagnostics) != 1 || res.Diagnostics[0].Check != CheckInternal || !strings.Contains(res.Diagnostics[0].Message, "declares NoChecks") {
		t.Errorf("diagnostics = %+v", res.Diagnostics)
	}
}
