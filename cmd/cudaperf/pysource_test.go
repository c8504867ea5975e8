package main

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
)

// TestLintPythonLoadInline lints a KernelBench-style model_new.py: the
// findings in its load_inline CUDA come back at the Python file's lines.
func TestLintPythonLoadInline(t *testing.T) {
	py, _ := filepath.Abs("../../analysis/pysource/testdata/model_new.py")
	stdout, stderr, code := runIn(t, t.TempDir(), nil, "lint", "--format", "json", "--fail-on", "never", py)
	if code != 0 {
		t.Fatalf("exit %d\n%s", code, stderr)
	}
	var ds []struct {
		File         string
		Line, Column int
		Check        string
	}
	if err := json.Unmarshal([]byte(stdout), &ds); err != nil {
		t.Fatalf("%v\n%s", err, stdout)
	}
	found := false
	for _, d := range ds {
		if d.File != py {
			t.Errorf("finding in %s, want every finding in the .py file", d.File)
		}
		if d.Check == "coalescing" && d.Line == 13 && d.Column == 9 {
			found = true // out[idx * 2] = ... in the triple-quoted cuda_sources
		}
	}
	if !found {
		t.Errorf("no coalescing finding at model_new.py:13:9 (the strided store):\n%s", stdout)
	}

	plain := writeFile(t, t.TempDir(), "plain.py", "import torch\nprint(torch.ones(3))\n")
	_, stderr, code = runIn(t, t.TempDir(), nil, "lint", plain)
	if code != 2 || !strings.Contains(stderr, "no CUDA found") || !strings.Contains(stderr, "load_inline") {
		t.Errorf("a .py without CUDA: exit %d\n%s", code, stderr)
	}
}
