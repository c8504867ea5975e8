package lint

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cudaperf/cudaperf/host/config"
	pluginv1 "github.com/cudaperf/cudaperf/plugins/proto/cudaperf/plugin/v1"
)

// fakeAnalyzer answers from a function; real plugins are tested end to end
// in the plugin host's tests.
type fakeAnalyzer struct {
	name string
	fn   func(*pluginv1.AnalyzeRequest) (*pluginv1.AnalyzeResponse, error)
}

func (f fakeAnalyzer) Name() string { return f.name }
func (f fakeAnalyzer) Analyze(_ context.Context, r *pluginv1.AnalyzeRequest) (*pluginv1.AnalyzeResponse, error) {
	return f.fn(r)
}

func diag(check string, line int32) *pluginv1.Diagnostic {
	return &pluginv1.Diagnostic{Check: check, Severity: pluginv1.Severity_SEVERITY_WARNING, Message: check + " here",
		Range: &pluginv1.Range{StartLine: line, StartColumn: 3, EndLine: line, EndColumn: 9}}
}

const src = "__global__ void k(float *a) {\n  a[threadIdx.x * 4] = 0; // cudaperf:ignore coalescing demo\n  a[0] = 1;\n}\n__global__ void k2() {}\n"

func TestRunMergesPluginsAndSurvivesAFailure(t *testing.T) {
	builtin := fakeAnalyzer{name: "builtin", fn: func(r *pluginv1.AnalyzeRequest) (*pluginv1.AnalyzeResponse, error) {
		if got := r.Options["coalescing.min-ratio"]; got != "2" {
			t.Errorf("settings not passed to plugin: options %v", r.Options)
		}
		fr := &pluginv1.FileResult{Path: r.Files[0].Path,
			Diagnostics: []*pluginv1.Diagnostic{diag("coalescing", 2), diag("gmem", 3), diag("tpb", 3)},
			Features: []*pluginv1.Feature{
				{Kernel: "k", Name: "coal", Value: 4}, {Kernel: "k2", Name: "coal", Value: 1},
				{Kernel: "k", Name: "div", Unknown: true},
				{Name: "kernels", Value: 2},
			}}
		return &pluginv1.AnalyzeResponse{Files: []*pluginv1.FileResult{fr}}, nil
	}}
	third := fakeAnalyzer{name: "extra", fn: func(r *pluginv1.AnalyzeRequest) (*pluginv1.AnalyzeResponse, error) {
		fr := &pluginv1.FileResult{Path: r.Files[0].Path, Features: []*pluginv1.Feature{{Kernel: "k", Name: "coal", Value: 9}, {Kernel: "k", Name: "mine", Value: 7}}}
		return &pluginv1.AnalyzeResponse{Files: []*pluginv1.FileResult{fr}}, nil
	}}
	broken := fakeAnalyzer{name: "broken", fn: func(*pluginv1.AnalyzeRequest) (*pluginv1.AnalyzeResponse, error) {
		return nil, errors.New("plugin exited: signal: killed")
	}}
	cfg, err := config.Parse("c.yaml", []byte("version: 1\nlint:\n  disable: [tpb]\n  settings:\n    coalescing: {min-ratio: \"2\"}\n"))
	if err != nil {
		t.Fatal(err)
	}
	res := Run(context.Background(), []Input{{Path: "k.cu", Content: []byte(src)}}, []Analyzer{third, broken, builtin}, Options{Config: cfg})

	if len(res.PluginErrors) != 1 || res.PluginErrors[0].Plugin != "broken" || !strings.Contains(res.PluginErrors[0].Error(), `"broken"`) {
		t.Errorf("plugin errors = %v, want one naming \"broken\"", res.PluginErrors)
	}
	// coalescing is suppressed inline, tpb disabled by config: only gmem stays.
	if len(res.Diagnostics) != 1 || res.Diagnostics[0].Check != "gmem" || res.Diagnostics[0].Plugin != "builtin" || res.Diagnostics[0].File != "k.cu" {
		t.Fatalf("diagnostics = %+v, want only gmem from builtin", res.Diagnostics)
	}
	if len(res.Features) != 2 {
		t.Fatalf("feature rows = %+v, want 2 kernels", res.Features)
	}
	k := res.Features[0].Features
	if k["coal"] != 4 || k["kernels"] != 2 || k["extra.coal"] != 9 || k["mine"] != 7 {
		t.Errorf("kernel k features = %v", k)
	}
	if _, ok := k["div"]; ok {
		t.Errorf("an unknown feature must be left out, not reported as a value: %v", k)
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
