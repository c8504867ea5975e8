package lint

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/cudaperf/cudaperf/host/config"
	"github.com/cudaperf/cudaperf/host/pluginhost"
	pluginv1 "github.com/cudaperf/cudaperf/plugins/proto/cudaperf/plugin/v1"
)

func diag(check string, line int32) *pluginv1.Diagnostic {
	return &pluginv1.Diagnostic{Check: check, Severity: pluginv1.Severity_SEVERITY_WARNING, Message: check + " here",
		Range: &pluginv1.Range{StartLine: line, StartColumn: 3, EndLine: line, EndColumn: 9}}
}

const src = "__global__ void k(float *a) {\n  a[threadIdx.x * 4] = 0; // cudaperf:ignore coalescing demo\n  a[0] = 1;\n}\n__global__ void k2() {}\n"

const builtin = pluginhost.BuiltinAnalyzer

func TestMergeAppliesConfigSuppressionsAndFeatureOwnership(t *testing.T) {
	cfg, err := config.Parse("c.yaml", []byte("version: 1\nlint:\n  disable: [tpb]\n  settings:\n    coalescing: {min-ratio: \"2\"}\n"))
	if err != nil {
		t.Fatal(err)
	}
	inputs := []Input{{Path: "k.cu", Content: []byte(src)}}
	req := Request(inputs, Options{Config: cfg})
	if req.Options["coalescing.min-ratio"] != "2" || string(req.Files[0].Content) != src {
		t.Fatalf("request does not carry settings and content: %v", req)
	}
	feat := func(plugin, kernel, name string, v float64, unknown bool) pluginhost.Feature {
		return pluginhost.Feature{Plugin: plugin, Feature: &pluginv1.Feature{Kernel: kernel, Name: name, Value: v, Unknown: unknown}}
	}
	a := &pluginhost.Analysis{
		Failures: []error{errors.New(`plugin "broken": exited: signal: killed`)},
		Files: []*pluginhost.FileAnalysis{{
			Path: "k.cu",
			Diagnostics: []pluginhost.Diagnostic{
				{Plugin: builtin, Diagnostic: diag("coalescing", 2)},
				{Plugin: builtin, Diagnostic: diag("gmem", 3)},
				{Plugin: builtin, Diagnostic: diag("tpb", 3)},
			},
			Features: []pluginhost.Feature{
				feat(builtin, "k", "coal", 4, false), feat("zextra", "k", "coal", 9, false),
				feat("zextra", "k", "mine", 7, false), feat(builtin, "k", "div", 0, true),
				feat(builtin, "k2", "coal", 1, false), feat(builtin, "", "kernels", 2, false),
				feat("aaa", "k", "kernels", 5, false),
				{Plugin: builtin, Feature: &pluginv1.Feature{Kernel: "k", Name: "occ", Value: 0.5, Estimated: true}},
			},
		}},
	}
	res := Merge(inputs, a, cfg)
	if len(res.PluginErrors) != 1 || len(res.Failures) != 1 || res.Failures[0].File != "" || !strings.Contains(res.Failures[0].Message, "broken") {
		t.Errorf("plugin errors = %v, failures %v, want the broken plugin's", res.PluginErrors, res.Failures)
	}
	// coalescing is suppressed inline, tpb disabled by config: only gmem stays.
	if len(res.Diagnostics) != 1 || res.Diagnostics[0].Check != "gmem" || res.Diagnostics[0].Plugin != builtin || res.Diagnostics[0].File != "k.cu" {
		t.Fatalf("diagnostics = %+v, want only gmem from builtin", res.Diagnostics)
	}
	if len(res.Features) != 2 {
		t.Fatalf("feature rows = %+v, want 2 kernels", res.Features)
	}
	k := res.Features[0].Features
	// The built-in analyzer's names are plain; every other plugin's are
	// prefixed, even a feature no other plugin has ("zextra.mine"), and
	// never merge into a built-in one ("aaa.kernels" sorts first by name).
	if k["coal"] != 4 || k["kernels"] != 2 || k["zextra.coal"] != 9 || k["zextra.mine"] != 7 || k["aaa.kernels"] != 5 {
		t.Errorf("kernel k features = %v", k)
	}
	if _, ok := k["div"]; ok {
		t.Errorf("an unknown feature must be left out, not reported as a value: %v", k)
	}
	if st := res.Features[0].Status; st["div"] != "unknown" || st["coal"] != "exact" || st["occ"] != "estimated" || st["kernels"] != "exact" {
		t.Errorf("kernel k status = %v, want div unknown, coal and kernels exact, occ estimated", st)
	}
	if k2 := res.Features[1].Features; k2["kernels"] != 2 || k2["coal"] != 1 {
		t.Errorf("file-level features must repeat on every kernel: k2 = %v", k2)
	}
}

func TestCollect(t *testing.T) {
	dir := t.TempDir()
	write := func(rel, body string) string {
		p := filepath.Join(dir, rel)
		_ = os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	write("a.cu", "x")
	write("sub/b.cuh", "y")
	write("sub/c.cpp", "z")
	write(".hidden/d.cu", "w")
	write("third_party/e.cu", "v")
	big := write("big.cu", strings.Repeat("x", MaxFileSize+1))
	write("empty/readme.txt", "")
	cfgPath := write(config.FileName, "version: 1\nlint:\n  exclude: [\"third_party/**\", \"big.cu\"]\n")
	cfg, err := config.Load(cfgPath)
	if err != nil {
		t.Fatal(err)
	}
	inputs, errs := Collect([]string{dir, filepath.Join(dir, "missing.cu"), big, filepath.Join(dir, "empty")}, cfg)
	var got []string
	for _, in := range inputs {
		rel, _ := filepath.Rel(dir, in.Path)
		got = append(got, rel)
	}
	if strings.Join(got, ",") != "a.cu,sub/b.cuh" {
		t.Errorf("collected %v, want a.cu and sub/b.cuh", got)
	}
	var msgs []string
	for _, e := range errs {
		msgs = append(msgs, e.Error())
	}
	all := strings.Join(msgs, "\n")
	for _, want := range []string{"missing.cu: no such file or directory", "big.cu: file is 10 MB, over the 10 MB limit", "empty: directory holds no .cu"} {
		if !strings.Contains(all, want) {
			t.Errorf("input errors %q lack %q", all, want)
		}
	}
}

// TestCollectSkipsAPipeInAFolder: a named pipe called *.cu inside a linted
// folder hung lint (reading it waits for a writer); it is named and
// skipped, while a pipe named on the command line (bash's <(...)) is read.
func TestCollectSkipsAPipeInAFolder(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "a.cu"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	fifo := filepath.Join(dir, "p.cu")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skipf("no named pipes here: %v", err)
	}
	done := make(chan struct{})
	var inputs []Input
	var errs []*InputError
	go func() { inputs, errs = Collect([]string{dir}, nil); close(done) }()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("Collect hangs on a named pipe in a folder")
	}
	if len(inputs) != 1 || len(errs) != 1 || !strings.Contains(errs[0].Error(), "p.cu: not a regular file") {
		t.Errorf("Collect = %d inputs, errors %v; want a.cu and p.cu named as skipped", len(inputs), errs)
	}
	go func() {
		if f, err := os.OpenFile(fifo, os.O_WRONLY, 0); err == nil {
			_, _ = f.WriteString("__global__ void k() {}\n")
			f.Close()
		}
	}()
	inputs, errs = Collect([]string{fifo}, nil)
	if len(inputs) != 1 || len(errs) != 0 || !strings.Contains(string(inputs[0].Content), "__global__") {
		t.Errorf("a pipe named on the command line: %d inputs, errors %v; want it read", len(inputs), errs)
	}
}
