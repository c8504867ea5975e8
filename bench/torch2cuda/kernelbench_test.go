package torch2cuda

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestKernelBenchLevel(t *testing.T) {
	root := t.TempDir()
	lv := filepath.Join(root, "KernelBench", "level1")
	if err := os.MkdirAll(lv, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"10_Matmul.py", "2_Relu.py", "1_Square_matrix_multiplication_.py", "__init__.py", "notes.txt"} {
		os.WriteFile(filepath.Join(lv, f), []byte("x = 1\n"), 0o644)
	}
	for _, dir := range []string{root, filepath.Join(root, "KernelBench")} {
		got, err := KernelBenchLevel(dir, 1)
		if err != nil {
			t.Fatal(err)
		}
		var names []string
		for _, g := range got {
			names = append(names, filepath.Base(g))
		}
		if strings.Join(names, " ") != "1_Square_matrix_multiplication_.py 2_Relu.py 10_Matmul.py" {
			t.Fatalf("%s: %v", dir, names)
		}
	}
	_, err := KernelBenchLevel(root, 2)
	if err == nil || !strings.Contains(err.Error(), "no KernelBench level 2") || !strings.Contains(err.Error(), "git clone") {
		t.Fatalf("missing level: %v", err)
	}
}

// TestEnvTolerance: `cudaperf bench --kernelbench` hands KernelBench's
// bound to the plugin's evaluator through the environment.
func TestEnvTolerance(t *testing.T) {
	t.Setenv(EnvTolerance, "kernelbench")
	e, err := New(Options{Python: "sh", CacheDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	if e.opt.Tolerances["float32"] != KernelBenchTolerance || e.opt.Tolerances["int64"] != (Tolerance{}) {
		t.Fatalf("tolerances %v", e.opt.Tolerances)
	}
	t.Setenv(EnvTolerance, "loose")
	if _, err := New(Options{Python: "sh", CacheDir: t.TempDir()}); err == nil || !strings.Contains(err.Error(), "want kernelbench") {
		t.Fatalf("bad value: %v", err)
	}
}
