package torch2cuda

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cudaperf/cudaperf/analysis/device"
	"github.com/cudaperf/cudaperf/bench"
)

// TestMachineBeforeCandidates: without torch, or with torch but no CUDA
// device, a job fails as the machine's fault before any candidate is built
// (a missing torch was judged every candidate's compile error); a
// build-only job needs torch alone.
func TestMachineBeforeCandidates(t *testing.T) {
	task := filepath.Join("..", "suites", "torch2cuda-selftest", "relu")
	src, err := os.ReadFile(filepath.Join(task, "variants", "naive.py"))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name, script string
		buildOnly    bool
		want         string
		noGPU        bool
	}{
		{"no torch", "echo \"ModuleNotFoundError: No module named 'torch'\" >&2; exit 1", false, "cannot import torch (ModuleNotFoundError: No module named 'torch'): install torch", false},
		{"no CUDA", "printf nocuda", false, "torch in", true},
		{"no CUDA, build only", "printf nocuda", true, "", false},
	} {
		t.Run(c.name, func(t *testing.T) {
			py := filepath.Join(t.TempDir(), "python")
			if err := os.WriteFile(py, []byte("#!/bin/sh\n"+c.script+"\n"), 0o755); err != nil {
				t.Fatal(err)
			}
			e, err := New(Options{Python: py, CacheDir: t.TempDir()})
			if err != nil {
				t.Fatal(err)
			}
			r, err := e.Run(context.Background(), bench.Job{TaskPath: task, Source: src, Filename: "naive.py", Settings: bench.Settings{CompileOnly: c.buildOnly}})
			if c.want == "" {
				if err != nil {
					t.Errorf("Run = %v; a build-only job needs no GPU", err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), c.want) || errors.Is(err, device.ErrNoGPU) != c.noGPU {
				t.Errorf("Run = %v, %v; want an error with %q (no GPU: %v)", r, err, c.want, c.noGPU)
			}
		})
	}
}
