package main

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cudaperf/cudaperf/bench/nvcc"
	"github.com/cudaperf/cudaperf/bench/nvml"
)

const selftestRoot = "../../bench/suites"

func TestBenchCompileOnly(t *testing.T) {
	if _, err := nvcc.Find(); err != nil {
		t.Skipf("skipping: %v", err)
	}
	runs := t.TempDir()
	stdout, stderr, code := runCudaperf(t, "", "bench", "--suites", selftestRoot, "--suite", "selftest", "--task", "saxpy",
		"--compile-only", "--format", "json", "--runs-dir", runs)
	if code != 0 {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	var names []string
	sc := bufio.NewScanner(strings.NewReader(stdout))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var r struct {
			Candidate string
			Compile   struct {
				OK      bool
				Kernels []struct{ Registers int }
			}
		}
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			t.Fatalf("stdout line is not JSON: %v\n%s", err, sc.Text())
		}
		if !r.Compile.OK || len(r.Compile.Kernels) == 0 || r.Compile.Kernels[0].Registers == 0 {
			t.Errorf("%s: %+v", r.Candidate, r.Compile)
		}
		names = append(names, r.Candidate)
	}
	if strings.Join(names, ",") != "grid_stride,naive" {
		t.Errorf("candidates %v, want grid_stride,naive", names)
	}
	files, _ := filepath.Glob(filepath.Join(runs, "bench-*", "results.jsonl"))
	if len(files) != 1 {
		t.Fatalf("results files %v", files)
	}
	data, _ := os.ReadFile(files[0])
	if n := strings.Count(string(data), "\n"); n != 2 {
		t.Errorf("results.jsonl has %d lines, want 2", n)
	}
}

// TestBenchNoDevice: without a GPU a run must say so and exit 3.
func TestBenchNoDevice(t *testing.T) {
	if s, err := nvml.Open(); err == nil {
		s.Close()
		t.Skip("a GPU is present")
	}
	_, stderr, code := runCudaperf(t, "", "bench", "--suites", selftestRoot, "--suite", "selftest", "--task", "saxpy", "--runs-dir", t.TempDir())
	if code != 3 || !strings.Contains(stderr, "no CUDA device found") {
		t.Errorf("exit %d, stderr:\n%s", code, stderr)
	}
}

func TestBenchUsage(t *testing.T) {
	bad := t.TempDir()
	task := filepath.Join(bad, "mine", "broken")
	if err := os.MkdirAll(task, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(task, "task.yaml"), []byte("name: broken\nentry: 3x\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--format", "xml"}, `--format "xml"`},
		{[]string{"--seeds", "5"}, `--seeds "5"`},
		{[]string{"--candidate", "x.cu"}, "needs exactly one --task"},
		{[]string{"--suites", selftestRoot, "--task", "nope", "--compile-only"}, `no task "nope"`},
		{[]string{"--suites", selftestRoot, "--suite", "nope", "--compile-only"}, `no suite "nope"`},
		{[]string{"--suites", bad, "--compile-only"}, "task.yaml: entry: \"3x\" is not a C identifier"},
	} {
		_, stderr, code := runCudaperf(t, "", append([]string{"bench"}, c.args...)...)
		if code != 2 || !strings.Contains(stderr, c.want) {
			t.Errorf("bench %v: exit %d, stderr:\n%s\nwant exit 2 and %q", c.args, code, stderr, c.want)
		}
	}
}
