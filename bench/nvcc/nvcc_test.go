package nvcc

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// toolchain returns a toolchain with a private cache, or skips the test when
// nvcc is not installed (run .ci/setup to install it from PyPI).
func toolchain(t *testing.T) *Toolchain {
	t.Helper()
	cache, err := OpenCache(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	tc, err := New("", 2, cache)
	if errors.Is(err, ErrNotFound) {
		t.Skipf("skipping: %v", err)
	}
	if err != nil {
		t.Fatal(err)
	}
	return tc
}

func TestCompileCUDA(t *testing.T) {
	tc := toolchain(t)
	ctx := context.Background()
	src := "../suites/selftest/saxpy/variants/naive.cu"
	res, err := tc.CompileCUDA(ctx, src, "sm_90")
	if err != nil {
		t.Fatal(err)
	}
	if !res.OK || res.Cached {
		t.Fatalf("first compile: ok=%v cached=%v\n%s", res.OK, res.Cached, res.Log)
	}
	k := res.Resources.Kernel("saxpy_kernel", "sm_90")
	if k == nil || k.Registers <= 0 {
		t.Fatalf("no ptxas resources for saxpy_kernel in:\n%s", res.Log)
	}
	again, err := tc.CompileCUDA(ctx, src, "sm_90")
	if err != nil {
		t.Fatal(err)
	}
	if !again.Cached || again.Output != res.Output || again.Resources.Kernel("saxpy_kernel", "sm_90") == nil {
		t.Errorf("second compile: cached=%v output %s vs %s", again.Cached, again.Output, res.Output)
	}
	// Another architecture is another entry.
	other, err := tc.CompileCUDA(ctx, src, "sm_80")
	if err != nil {
		t.Fatal(err)
	}
	if other.Cached || other.Output == res.Output {
		t.Errorf("sm_80 compile served from the sm_90 entry")
	}
}

func TestCompileError(t *testing.T) {
	tc := toolchain(t)
	res, err := tc.CompileCUDA(context.Background(), "testdata/broken.cu", "sm_90")
	if err != nil {
		t.Fatal(err)
	}
	if res.OK || res.Output != "" || !strings.Contains(res.Log, "undefined_function") {
		t.Fatalf("broken.cu: ok=%v output=%q log:\n%s", res.OK, res.Output, res.Log)
	}
	again, err := tc.CompileCUDA(context.Background(), "testdata/broken.cu", "sm_90")
	if err != nil || !again.Cached || again.OK || again.Log != res.Log {
		t.Errorf("failed compile not cached with its log: %v %+v", err, again)
	}
}

func TestLocalMemory(t *testing.T) {
	tc := toolchain(t)
	res, err := tc.CompileCUDA(context.Background(), "testdata/spill.cu", "sm_90")
	if err != nil || !res.OK {
		t.Fatalf("%v\n%s", err, res.Log)
	}
	k := res.Resources.Kernel("local_array", "sm_90")
	if k == nil || k.StackFrame == 0 {
		t.Fatalf("want a stack frame for local_array:\n%s", res.Log)
	}
}

func TestCompileAndLinkC(t *testing.T) {
	cache, err := OpenCache(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	tc := &Toolchain{Cache: cache, sem: make(chan struct{}, 2), inflight: map[string]*call{}, CC: "gcc", CCVersion: "test"}
	dir := t.TempDir()
	main := filepath.Join(dir, "main.c")
	if err := os.WriteFile(main, []byte("int add(int a, int b);\nint main(void) { return add(2, -2); }\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	lib := filepath.Join(dir, "lib.c")
	if err := os.WriteFile(lib, []byte("int add(int a, int b) { return a + b; }\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	var objs []string
	for _, src := range []string{main, lib} {
		res, err := tc.CompileC(context.Background(), src)
		if err != nil || !res.OK {
			t.Fatalf("%s: %v %+v", src, err, res)
		}
		objs = append(objs, res.Output)
	}
	exe, err := tc.LinkC(context.Background(), objs...)
	if err != nil || !exe.OK {
		t.Fatalf("link: %v %+v", err, exe)
	}
	if st, err := os.Stat(exe.Output); err != nil || st.Mode()&0o111 == 0 {
		t.Fatalf("no executable: %v", err)
	}
}

func TestFindEnv(t *testing.T) {
	t.Setenv(EnvNVCC, "/nonexistent/nvcc")
	if _, err := Find(); err == nil || !strings.Contains(err.Error(), "CUDAPERF_NVCC") {
		t.Errorf("Find with a bad $%s: %v", EnvNVCC, err)
	}
}
