package grpo

import (
	"context"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/cudaperf/cudaperf/bench/task"
	"github.com/cudaperf/cudaperf/host/pluginhost"
	"github.com/cudaperf/cudaperf/host/pluginhost/plugintest"
	"github.com/cudaperf/cudaperf/host/report"
	"github.com/cudaperf/cudaperf/plugins/sdk"
)

// The real analyzer plugin gives the feedback its features and diagnostics;
// the ranker's function gets each file's kernel rows.
func TestAnalyzerScorer(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the analyzer plugin")
	}
	dir := t.TempDir()
	plugintest.InstallGo(t, "plugins/analyzer", dir)
	h, err := pluginhost.New(pluginhost.Options{Dirs: []string{dir}})
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	d := testDataset(t)
	task := d.Task("dot_product")
	var kernels []int
	s := &AnalyzerScorer{Analyzers: h, Rank: func(rows []report.KernelFeatures) (float64, bool) {
		kernels = append(kernels, len(rows))
		return float64(len(rows)), len(rows) > 0
	}}
	// A known variant, and a source with a barrier under a thread-dependent
	// branch (a bug the analyzers report).
	bad := "__global__ void k(float *x) {\n  if (threadIdx.x < 16) {\n    __syncthreads();\n  }\n  x[threadIdx.x] = 0;\n}\n" +
		"extern \"C\" void dot_product(const float *a, const float *b, float *out, int n) { k<<<1, 32>>>(out); }\n"
	st, err := s.Structure(context.Background(), task, []string{task.Variants[0].Source, bad})
	if err != nil {
		t.Fatal(err)
	}
	if len(st) != 2 || len(st[0].Features) == 0 || math.IsNaN(st[0].Str) || st[0].Str < 1 {
		t.Fatalf("structure of a known variant: %+v", st)
	}
	if len(st[1].Diagnostics) == 0 || !strings.Contains(strings.Join(st[1].Diagnostics, "\n"), "line 3") {
		t.Errorf("diagnostics of the buggy source: %q", st[1].Diagnostics)
	}
	j := Judged{Task: task, HasCode: true, Eval: &pluginhost.Evaluation{Compiled: true}, Structure: st[1]}
	if fb := j.Feedback(); !strings.Contains(fb, "Diagnostics:") || !strings.Contains(fb, "Structural features:") {
		t.Errorf("feedback lacks features or diagnostics:\n%s", fb)
	}

	// A torch2cuda candidate is Python: the analyzers see the CUDA in its
	// load_inline strings (not the Python as CUDA), and its diagnostics
	// are at the Python file's lines; one without CUDA gets no Rstr.
	relu, err := LoadTask("../../bench/suites/torch2cuda/relu")
	if err != nil {
		t.Fatal(err)
	}
	naive, err := os.ReadFile("../../bench/suites/torch2cuda/relu/variants/naive.py")
	if err != nil {
		t.Fatal(err)
	}
	py := "import torch\nfrom torch.utils.cpp_extension import load_inline\n\nsrc = \"\"\"\n" +
		"__global__ void k(float *x) {\n  if (threadIdx.x < 16) {\n    __syncthreads();\n  }\n  x[threadIdx.x] = 0;\n}\n\"\"\"\n" +
		"mod = load_inline(name=\"m\", cpp_sources=\"\", cuda_sources=src)\n"
	kernels = nil
	st, err = s.Structure(context.Background(), relu, []string{string(naive), py, "class ModelNew: pass\n"})
	if err != nil {
		t.Fatal(err)
	}
	if len(st) != 3 || len(st[0].Features) == 0 || math.IsNaN(st[0].Str) || st[0].Str < 1 {
		t.Fatalf("structure of a torch2cuda variant: %+v", st[0])
	}
	if d := strings.Join(st[1].Diagnostics, "\n"); !strings.Contains(d, "line 7") {
		t.Errorf("diagnostics of the Python candidate should be at its line 7 (the barrier), got %q", d)
	}
	if len(st[2].Features) != 0 || !math.IsNaN(st[2].Str) {
		t.Errorf("a Python candidate without CUDA: %+v, want no features and no Rstr", st[2])
	}
}

// TestStructureSurvivesAHangingAnalyzer: an analyzer that never answers
// for one candidate (the real one did, lease 7) is stopped
// at the scorer's timeout and restarted; that candidate goes without
// features and Rstr, the others keep theirs, and the batch is not an
// error (a step goes on).
func TestStructureSurvivesAHangingAnalyzer(t *testing.T) {
	h := misbehavingAnalyzer(t, "hangon", time.Hour)
	s := &AnalyzerScorer{Analyzers: h, Timeout: time.Second, Rank: func(rows []report.KernelFeatures) (float64, bool) {
		return 1, len(rows) > 0
	}}
	tk := &Task{Task: &task.Task{Name: "t"}}
	srcs := []string{"__global__ void a(float *x) {}\n", "// hang-me\n__global__ void b(float *x) {}\n", "__global__ void c(float *x) {}\n"}
	st, err := s.Structure(context.Background(), tk, srcs)
	if err != nil {
		t.Fatalf("a hanging analyzer failed the batch: %v", err)
	}
	for _, i := range []int{0, 2} {
		if len(st[i].Features) == 0 || st[i].Str != 1 {
			t.Errorf("candidate %d: features %v, Rstr %v; want its own (the analyzer answered it)", i, st[i].Features, st[i].Str)
		}
	}
	if len(st[1].Features) != 0 || !math.IsNaN(st[1].Str) {
		t.Errorf("the candidate the analyzer hung on: features %v, Rstr %v; want none", st[1].Features, st[1].Str)
	}
}

// TestStructureBrokenAnalyzer: an analyzer that fails every request fails
// the batch only when the ranker reads it (Need); otherwise, and in
// reward mode ver (no ranker), the step goes on without its feedback.
func TestStructureBrokenAnalyzer(t *testing.T) {
	h := misbehavingAnalyzer(t, "crash", time.Minute)
	rank := func(rows []report.KernelFeatures) (float64, bool) { return 1, len(rows) > 0 }
	tk := &Task{Task: &task.Task{Name: "t"}}
	srcs := []string{"__global__ void a(float *x) {}\n"}
	for _, c := range []struct {
		name    string
		s       *AnalyzerScorer
		wantErr bool
	}{
		{"ranker reads it", &AnalyzerScorer{Analyzers: h, Rank: rank, Need: []string{"crash"}}, true},
		{"ranker reads another", &AnalyzerScorer{Analyzers: h, Rank: rank, Need: []string{"cudaperf-analyzer"}}, false},
		{"no ranker (mode ver)", &AnalyzerScorer{Analyzers: h}, false},
	} {
		st, err := c.s.Structure(context.Background(), tk, srcs)
		if (err != nil) != c.wantErr {
			t.Errorf("%s: error %v, want error %v", c.name, err, c.wantErr)
		}
		if err == nil && (len(st) != 1 || !math.IsNaN(st[0].Str)) {
			t.Errorf("%s: %+v, want one candidate without Rstr", c.name, st)
		}
	}
}

// misbehavingAnalyzer is a host with one analyzer plugin, named mode, that
// misbehaves as host/pluginhost/testdata/misbehave does in that mode.
func misbehavingAnalyzer(t *testing.T, mode string, timeout time.Duration) *pluginhost.Host {
	t.Helper()
	if testing.Short() {
		t.Skip("builds a test plugin")
	}
	dir := t.TempDir()
	bin := plugintest.BuildGo(t, "host/pluginhost/testdata/misbehave", t.TempDir())
	plugintest.WriteManifest(t, filepath.Join(dir, mode), pluginhost.Manifest{
		Name: mode, Kind: sdk.KindAnalyzer, Language: "go", Protocol: 1, Command: bin, Args: []string{mode},
	})
	h, err := pluginhost.New(pluginhost.Options{Dirs: []string{dir}, RequestTimeout: timeout})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(h.Close)
	return h
}
