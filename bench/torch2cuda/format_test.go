package torch2cuda

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/cudaperf/cudaperf/bench"
	"github.com/cudaperf/cudaperf/bench/dataset"
	"github.com/cudaperf/cudaperf/bench/verdict"
)

// TestValidateProblem names every missing definition and the fix.
func TestValidateProblem(t *testing.T) {
	if err := ValidateProblem("../suites/torch2cuda/relu/problem.py"); err != nil {
		t.Fatal(err)
	}
	err := ValidateProblem(filepath.Join("testdata", "format", "no_inputs.py"))
	if err == nil {
		t.Fatal("a problem without get_inputs passed")
	}
	for _, want := range []string{"no_inputs.py: defines no top-level `def get_inputs()`", "get_init_inputs()", "([] when none)"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q lacks %q", err, want)
		}
	}
	if strings.Contains(err.Error(), "class Model") {
		t.Errorf("Model is defined, but the error says it is not: %v", err)
	}
	if err := ValidateProblem(filepath.Join("testdata", "format", "missing.py")); err == nil || !strings.Contains(err.Error(), "missing.py") {
		t.Errorf("missing file: %v", err)
	}
}

func TestValidateCandidate(t *testing.T) {
	c, err := ValidateCandidate("../suites/torch2cuda/relu/variants/naive.py")
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(c.Kernels, []string{"relu_naive_kernel"}) {
		t.Fatalf("kernels %v", c.Kernels)
	}
	for file, want := range map[string]string{
		"no_model_new.py": "defines no top-level `class ModelNew(nn.Module)`",
		"no_kernel.py":    "declare no __global__ kernel",
	} {
		_, err := ValidateCandidate(filepath.Join("testdata", "format", file))
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: error %v, want %q", file, err, want)
		}
	}
}

func TestKernels(t *testing.T) {
	py := []byte("src = r'''\n__global__ void __launch_bounds__(256) a_k(float *x) {}\n" +
		"template <int N> __global__ void b_k(float *x) {}\n__global__ static void c_k() {}\n'''\n" +
		"ext = load_inline(name='x', cpp_sources='', cuda_sources=[src])\n")
	if got := Kernels(py); !slices.Equal(got, []string{"a_k", "b_k", "c_k"}) {
		t.Fatalf("Kernels = %v", got)
	}
	if got := Kernels([]byte("x = 1\n")); len(got) != 0 {
		t.Fatalf("no CUDA: %v", got)
	}
}

// TestSuiteSplit: split.yaml puts every torch2cuda task on exactly one side.
func TestSuiteSplit(t *testing.T) {
	root := filepath.Join("..", "suites", "torch2cuda")
	s, err := dataset.LoadSplit(filepath.Join(root, "split.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	problems, _ := filepath.Glob(filepath.Join(root, "*", ProblemFile))
	var tasks []string
	for _, p := range problems {
		tasks = append(tasks, filepath.Base(filepath.Dir(p)))
	}
	if len(tasks) < 30 {
		t.Errorf("%d tasks; the suite has at least 30", len(tasks))
	}
	if err := s.Check(tasks); err != nil {
		t.Fatal(err)
	}
}

// TestSourceHash: Python's floor division is not a comment (bench's C
// normalization hashed `n // 2` and `n // 4` alike); line ends and
// trailing blanks do not count; anything else does.
func TestSourceHash(t *testing.T) {
	a := SourceHash([]byte("BLOCK = 1024 // 2\n"))
	if a == SourceHash([]byte("BLOCK = 1024 // 4\n")) {
		t.Error("n // 2 and n // 4 hash alike")
	}
	if a != SourceHash([]byte("BLOCK = 1024 // 2  \r\n")) || a != SourceHash([]byte("BLOCK = 1024 // 2")) {
		t.Error("line ends or trailing blanks changed the hash")
	}
	if a == SourceHash([]byte("  BLOCK = 1024 // 2\n")) {
		t.Error("indentation (syntax in Python) did not change the hash")
	}
}

// TestResultCarriesSourceHash: a torch2cuda result names the source it
// judged by its hash, also when the static check refuses it (no torch
// needed then: the stub Python fails if it runs).
func TestResultCarriesSourceHash(t *testing.T) {
	task := filepath.Join("..", "suites", "torch2cuda-selftest", "relu")
	py := filepath.Join(t.TempDir(), "python")
	if err := os.WriteFile(py, []byte("#!/bin/sh\necho python ran >&2; exit 1\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	e, err := New(Options{Python: py, CacheDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	src := []byte("import torch\n\nclass NotModelNew:\n    pass\n")
	r, err := e.Run(context.Background(), bench.Job{TaskPath: task, Source: src, Filename: "bad.py"})
	if err != nil {
		t.Fatal(err)
	}
	if r.SourceHash != SourceHash(src) || r.Verdict == nil || !r.Verdict.Has(verdict.InvalidCandidate) {
		t.Errorf("source_hash %q verdict %+v; want %q and invalid_candidate", r.SourceHash, r.Verdict, SourceHash(src))
	}
}
