package nvcc

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
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
	// nvcc's CPU time includes the tools it drove (cicc, ptxas, gcc).
	if res.CPU <= 0 {
		t.Errorf("compile CPU time %v, want > 0", res.CPU)
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
	tc := &Toolchain{Cache: cache, slots: newSlots(2), inflight: map[string]*call{}, CC: "gcc", CCVersion: "test"}
	// OnRun hears of every tool run, not of answers from the cache.
	var runs []string
	var mu sync.Mutex
	tc.OnRun = func(nvcc bool, product string, cpu time.Duration) {
		mu.Lock()
		defer mu.Unlock()
		runs = append(runs, fmt.Sprintf("%v %s %v", nvcc, product, cpu > 0))
	}
	defer func() {
		if want := []string{"false obj.o true", "false obj.o true", "false a.out true"}; !slices.Equal(runs, want) {
			t.Errorf("OnRun heard %q, want %q (two compiles, one link, none cached)", runs, want)
		}
	}()
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
	if again, err := tc.LinkC(context.Background(), objs...); err != nil || !again.Cached {
		t.Fatalf("link again: %v %+v, want it from the cache", err, again)
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

// TestKilledCompileIsNotCached: a compile killed from outside (nvcc says
// "nvcc: Terminated" when its cicc or ptxas is killed), killed itself, or
// whose compiler vanished is an error, and nothing is cached, so the next
// run compiles again instead of failing the same file for ever.
// fakeToolchain is a Toolchain whose nvcc is a shell script at path that
// answers --version like nvcc 13.0 and runs body for a compile; the script
// is written again after New, for a body that deletes it.
func fakeToolchain(t *testing.T, path, body string) (*Toolchain, *Cache) {
	t.Helper()
	script := "#!/bin/sh\ncase \"$1\" in --version) echo 'Cuda compilation tools, release 13.0, V13.0.88'; exit 0;; esac\n" + body + "\n"
	if err := os.WriteFile(path, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	cache, err := OpenCache(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	tc, err := New(path, 1, cache)
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(path, []byte(script), 0o755)
	return tc, cache
}

func TestKilledCompileIsNotCached(t *testing.T) {
	dir := t.TempDir()
	fake := filepath.Join(dir, "nvcc")
	for _, c := range []struct{ name, body, want string }{
		{"child killed", `echo "nvcc: Terminated" >&2; echo "Compilation terminated." >&2; exit 255`, "a compiler process was killed"},
		{"self killed", `kill -9 $$`, "killed by killed"},
		{"toolchain removed", `rm -f "$0"; echo "fatal error: cuda_runtime.h: No such file or directory" >&2; exit 1`, "the compiler is gone"},
	} {
		t.Run(c.name, func(t *testing.T) {
			tc, cache := fakeToolchain(t, fake, c.body)
			res, err := tc.CompileCUDA(context.Background(), "testdata/broken.cu", "sm_90")
			if err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), "nothing was cached") {
				t.Fatalf("got %+v, %v; want an error saying %q", res, err, c.want)
			}
			entries, _ := filepath.Glob(filepath.Join(cache.Dir, "compile", "*", "*"))
			if len(entries) != 0 {
				t.Errorf("cache holds %v after a failure that was not the source's", entries)
			}
		})
	}
}

// A compile that runs past the limit is stopped with the tools it drove,
// fails with a log that says why, and is not cached.
func TestCompileLimit(t *testing.T) {
	dir := t.TempDir()
	fake := filepath.Join(dir, "nvcc")
	pidFile := filepath.Join(dir, "child.pid")
	// Like nvcc, it works through a child (cicc, ptxas): here one that never ends.
	tmpdir := t.TempDir()
	t.Setenv("TMPDIR", tmpdir)
	tc, cache := fakeToolchain(t, fake, "touch \"$TMPDIR/tmpxft_fake.cpp\"\nsleep 600 &\necho $! > "+pidFile+"\nwait")
	if tc.Limit != DefaultLimit {
		t.Errorf("New's limit %v, want DefaultLimit", tc.Limit)
	}
	tc.Limit = 500 * time.Millisecond
	start := time.Now()
	res, err := tc.CompileCUDA(context.Background(), "testdata/broken.cu", "sm_90")
	if err != nil {
		t.Fatal(err)
	}
	if res.OK || !strings.Contains(res.Log, "was stopped after 500ms, the compile limit") {
		t.Errorf("result %+v: want a failed compile whose log names the limit", res)
	}
	if d := time.Since(start); d > 4*time.Second {
		t.Errorf("returned after %v: the limit did not stop it (or waited on its child's output)", d)
	}
	b, _ := os.ReadFile(pidFile)
	pid, _ := strconv.Atoi(strings.TrimSpace(string(b)))
	if pid <= 0 {
		t.Fatalf("the fake compiler did not start its child (%q)", b)
	}
	deadline := time.Now().Add(2 * time.Second)
	for syscall.Kill(pid, 0) == nil && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	if syscall.Kill(pid, 0) == nil {
		syscall.Kill(pid, syscall.SIGKILL)
		t.Error("the compiler's child outlived the limit")
	}
	if entries, _ := filepath.Glob(filepath.Join(cache.Dir, "compile", "*", "*")); len(entries) != 0 {
		t.Errorf("cache holds %v after a compile the limit stopped", entries)
	}
	// Its intermediates went with its folder, not into $TMPDIR for good.
	if left, _ := filepath.Glob(filepath.Join(tmpdir, "tmpxft_*")); len(left) != 0 {
		t.Errorf("a compile the limit stopped left %v in $TMPDIR", left)
	}
}

// TestLeanHeaders: every compile is first made with LeanFlags; a source
// that needs what they leave out compiles all the same (a second compile
// with the full headers), and one broken for another reason is not
// compiled twice.
func TestLeanHeaders(t *testing.T) {
	tc := toolchain(t)
	ctx := context.Background()
	lean := strings.Join(LeanFlags, " ")
	for _, c := range []struct {
		src      string
		ok, full bool // compiles; its answer came from the full headers
	}{
		{"../suites/selftest/saxpy/variants/naive.cu", true, false},
		{"testdata/lean_limits.cu", true, true},
		{"testdata/lean_using_std.cu", true, true},
		{"testdata/broken.cu", false, false},
		{"testdata/lean_ambiguous_max.cu", false, false},
		{"testdata/lean_via_header.cu", true, true},
		{"testdata/lean_utility.cu", true, true},
		{"testdata/lean_launch_ex.cu", true, true},
		{"testdata/lean_std_headers.cu", true, false},
	} {
		res, err := tc.CompileCUDA(ctx, c.src, "sm_90")
		if err != nil {
			t.Fatal(err)
		}
		if res.OK != c.ok {
			t.Errorf("%s: ok=%v, want %v:\n%s", c.src, res.OK, c.ok, res.Log)
		}
		if full := !strings.Contains(res.Command, lean); full != c.full {
			t.Errorf("%s: answered by the full headers %v, want %v (command %s)", c.src, full, c.full, res.Command)
		}
	}
}

// TestLeanIncludeOddFolder: in a cache whose path nvcc cannot pass on (a
// comma: -Xcompiler splits its value there, fatbinary its --image3) the
// lean header is left out and $TMPDIR kept instead of breaking the
// compile, and the source's verdict is the same: std::pair through
// <utility> compiles at once.
func TestLeanIncludeOddFolder(t *testing.T) {
	toolchain(t) // skips without nvcc
	cache, err := OpenCache(filepath.Join(t.TempDir(), "a,b"))
	if err != nil {
		t.Fatal(err)
	}
	tc, err := New("", 2, cache)
	if err != nil {
		t.Fatal(err)
	}
	res, err := tc.CompileCUDA(context.Background(), "testdata/lean_utility.cu", "sm_90")
	if err != nil {
		t.Fatal(err)
	}
	if !res.OK || !strings.Contains(res.Command, strings.Join(LeanFlags, " ")) {
		t.Errorf("in a folder with a comma: ok=%v, command %s; want the lean compile to succeed without the header:\n%s", res.OK, res.Command, res.Log)
	}
}

// leanCases are failed lean compiles of a.cu, with the text of what was
// compiled, and whether the full headers must answer (leanMissed).
var leanCases = func() []struct {
	log  string
	text []byte
	want bool
} {
	withStd := []byte("#include <limits>\nusing namespace std;\n")
	// Code that never names std meets CUDA's own min and max either way
	// (seen in RL policy output: an ambiguous call, failing both ways); the
	// special functions are global too, so they still count, and so does
	// an error inside a header, which may lean on what the flags leave out.
	noStd := []byte("__global__ void k(float *x, int n) { x[0] = max(0.0f, max(n, 1)); }\n")
	type c = struct {
		log  string
		text []byte
		want bool
	}
	return []c{
		{`a.cu(5): error: namespace "std" has no member "numeric_limits"`, withStd, true},
		{`a.cu(11): error: identifier "max" is undefined`, withStd, true},
		{`a.cu(3): error: max is not a template` + "\n" + `a.cu(3): error: "max" ...`, withStd, true},
		{`a.cu(2): error: identifier "undefined_function" is undefined`, withStd, false},
		{`a.cu(7): error: expected a ";"`, withStd, false},
		{`a.cpp:4:12: error: 'numeric_limits' is not a member of 'std'`, withStd, true},
		{`a.cu(9): error: identifier "maximum" is undefined`, withStd, false},
		{`a.cu(9): error: no instance of overloaded function "std::cyl_bessel_jf" matches`, withStd, true},
		{`a.cu(11): error: type name is not allowed`, withStd, true},
		{`a.cu(1): error: more than one instance of overloaded function "max" matches the argument list:` + "\n" +
			`            function "max(int, int)" (declared at line 1186 of /cuda/include/crt/math_functions.hpp)`, noStd, false},
		{`a.cu(1): error: identifier "beta" is undefined`, noStd, true},
		{`a.cu(1): error: expected a ";"` + "\n" + `/cuda/include/cub/util.cuh(40): error: namespace "std" has no member "min"`, noStd, true},
		{`/usr/include/thrust/x.h:4:12: error: 'numeric_limits' is not a member of 'std'`, noStd, true},
		{`nvcc fatal   : "max" went wrong`, noStd, true}, // no file to blame: the full headers answer
		// What lean.h leaves out: <utility>'s names in a source that
		// names std, and std::forward inside cuda_runtime.h.
		{`a.cu(4): error: identifier "make_pair" is undefined`, withStd, true},
		{`/cuda/include/cuda_runtime.h(289): error: no instance of function template "std::forward" matches the argument list`, noStd, true},
		{`a.cu(6): error: identifier "get_value" is undefined`, withStd, false},
	}
}()

func TestLeanMissed(t *testing.T) {
	for _, c := range leanCases {
		if got := leanMissed(c.log, []string{"a.cu"}, c.text); got != c.want {
			t.Errorf("leanMissed(%q, text %q) = %v, want %v", c.log, c.text, got, c.want)
		}
	}
}

// TestLeanRetryScript holds bench/lean-parity.sh's copy of the rule
// (lean_retry.py) to leanMissed on the same cases.
func TestLeanRetryScript(t *testing.T) {
	py, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("skipping: no python3 on PATH")
	}
	dir := t.TempDir()
	src, log := filepath.Join(dir, "a.cu"), filepath.Join(dir, "a.log")
	for _, c := range leanCases {
		if err := os.WriteFile(src, c.text, 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(log, []byte(c.log), 0o644); err != nil {
			t.Fatal(err)
		}
		err := exec.Command(py, "lean_retry.py", "nvcc.go", src, log).Run()
		var exit *exec.ExitError
		if err != nil && (!errors.As(err, &exit) || exit.ExitCode() != 1) {
			t.Fatalf("lean_retry.py: %v", err)
		}
		if got := err == nil; got != c.want {
			t.Errorf("lean_retry.py on %q (text %q): retried %v, leanMissed says %v", c.log, c.text, got, c.want)
		}
	}
}

// TestNice: ordinary compiles run at the toolchain's niceness, what nvcc
// starts included; urgent ones (and links) at the caller's.
func TestNice(t *testing.T) {
	niceOf := func(stat string) int {
		// pid (comm) state ppid pgrp session tty tpgid flags minflt
		// cminflt majflt cmajflt utime stime cutime cstime priority nice
		i := strings.LastIndex(stat, ")")
		f := strings.Fields(stat[i+1:])
		if len(f) < 17 {
			t.Fatalf("no stat line in %q", stat)
		}
		n, err := strconv.Atoi(f[16])
		if err != nil {
			t.Fatal(err)
		}
		return n
	}
	self, err := os.ReadFile("/proc/self/stat")
	if err != nil {
		t.Skipf("skipping: no /proc: %v", err)
	}
	base := niceOf(string(self))
	dir := t.TempDir()
	// A child started after nvcc began, as cicc and ptxas are, reports its
	// niceness; the compile then fails, so that its log is the result.
	tc, _ := fakeToolchain(t, filepath.Join(dir, "nvcc"), "sleep 0.3\ncat /proc/self/stat\nexit 1")
	tc.Nice = 7
	for _, c := range []struct {
		name string
		ctx  context.Context
		want int
	}{
		{"ordinary", context.Background(), max(base, 7)},
		{"urgent", Urgent(context.Background()), base},
	} {
		src := filepath.Join(dir, c.name+".cu") // another source: not served from the cache
		if err := os.WriteFile(src, []byte("// "+c.name+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		res, err := tc.CompileCUDA(c.ctx, src, "sm_90")
		if err != nil {
			t.Fatal(err)
		}
		if got := niceOf(res.Log); got != c.want {
			t.Errorf("%s compile: a child of nvcc ran at niceness %d, want %d", c.name, got, c.want)
		}
	}
}

func TestCUDARTDir(t *testing.T) {
	for _, layout := range []string{"lib64", "lib", "targets/x86_64-linux/lib"} {
		top := t.TempDir()
		for _, f := range []string{"bin/nvcc", layout + "/libcudart_static.a"} {
			if err := os.MkdirAll(filepath.Dir(filepath.Join(top, f)), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(top, f), nil, 0o755); err != nil {
				t.Fatal(err)
			}
		}
		if got, want := CUDARTDir(filepath.Join(top, "bin/nvcc")), filepath.Join(top, layout); got != want {
			t.Errorf("layout %s: CUDARTDir = %q, want %q", layout, got, want)
		}
		// nvcc reached through a link (a PATH folder of links, say) is
		// the installation's.
		link := filepath.Join(t.TempDir(), "nvcc")
		if err := os.Symlink(filepath.Join(top, "bin/nvcc"), link); err != nil {
			t.Fatal(err)
		}
		if got, want := CUDARTDir(link), filepath.Join(top, layout); got != want {
			t.Errorf("layout %s through a link: CUDARTDir = %q, want %q", layout, got, want)
		}
	}
	if got := CUDARTDir(filepath.Join(t.TempDir(), "bin/nvcc")); got != "" {
		t.Errorf("no runtime: CUDARTDir = %q, want \"\" (link with nvcc)", got)
	}
}

// hostLinkToolchain is toolchain for tests of the host compiler's link: it
// skips where nvcc's static runtime or g++ is missing.
func hostLinkToolchain(t *testing.T) *Toolchain {
	t.Helper()
	tc := toolchain(t)
	if tc.CUDARTDir == "" || tc.CXX == "" {
		t.Skipf("skipping: no static CUDA runtime beside %s or no g++: LinkCUDA links with nvcc", tc.NVCC)
	}
	return tc
}

// compileProg writes prog to a file and compiles it for sm_90 with flags.
func compileProg(t *testing.T, tc *Toolchain, prog string, flags ...string) *Result {
	t.Helper()
	src := filepath.Join(t.TempDir(), "prog.cu")
	if err := os.WriteFile(src, []byte(prog), 0o644); err != nil {
		t.Fatal(err)
	}
	obj, err := tc.CompileCUDAFlags(context.Background(), src, "sm_90", flags)
	if err != nil || !obj.OK {
		t.Fatalf("compile: %v %+v", err, obj)
	}
	return obj
}

// The host compiler's link and nvcc's make executables that behave alike:
// both start the static runtime and register the kernel (a machine without
// a GPU answers the runtime's first call with an error, the same for both).
func TestLinkCUDAHost(t *testing.T) {
	tc := hostLinkToolchain(t)
	var runs []string
	var mu sync.Mutex
	tc.OnRun = func(cuda bool, product string, cpu time.Duration) {
		mu.Lock()
		defer mu.Unlock()
		runs = append(runs, fmt.Sprintf("%v %s", cuda, product))
	}
	prog := `#include <cstdio>
#include <vector>
__global__ void k(int *p) { p[threadIdx.x] = threadIdx.x; }
int main() {
  std::vector<int> v(32);
  int n = -1;
  cudaError_t e = cudaGetDeviceCount(&n);
  printf("%d %s %zu\n", (int)e, cudaGetErrorName(e), v.size());
  return 0;
}
`
	obj := compileProg(t, tc, prog)
	ctx := context.Background()
	host, err := tc.LinkCUDA(ctx, "sm_90", false, obj.Output)
	if err != nil || !host.OK {
		t.Fatalf("host link: %v %+v", err, host)
	}
	if !strings.HasPrefix(host.Command, tc.CXX+" ") || !strings.Contains(host.Command, "-lcudart_static") {
		t.Errorf("host link ran %q, want %s with the static runtime", host.Command, tc.CXX)
	}
	viaNVCC, err := tc.LinkCUDA(ctx, "sm_90", true, obj.Output)
	if err != nil || !viaNVCC.OK {
		t.Fatalf("nvcc link: %v %+v", err, viaNVCC)
	}
	if viaNVCC.Cached || viaNVCC.Output == host.Output {
		t.Errorf("the nvcc link was served from the host link's entry")
	}
	if !strings.HasPrefix(viaNVCC.Command, tc.NVCC+" ") {
		t.Errorf("a device link ran %q, want nvcc", viaNVCC.Command)
	}
	if want := []string{"true obj.o", "true a.out", "true a.out"}; !slices.Equal(runs, want) {
		t.Errorf("OnRun heard %q, want %q (links of CUDA objects are CUDA work, whichever tool runs them)", runs, want)
	}
	var outs []string
	for _, exe := range []string{host.Output, viaNVCC.Output} {
		out, err := exec.Command(exe).CombinedOutput()
		if err != nil {
			t.Fatalf("%s: %v\n%s", exe, err, out)
		}
		outs = append(outs, string(out))
	}
	if outs[0] != outs[1] || !strings.HasSuffix(outs[0], " 32\n") {
		t.Errorf("host-linked program printed %q, nvcc-linked %q: want the same line", outs[0], outs[1])
	}
}

// Relocatable device code needs nvcc's device link: the host compiler's
// link leaves its registration undefined.
func TestLinkCUDARelocatable(t *testing.T) {
	tc := hostLinkToolchain(t)
	flags := []string{"-rdc=true"}
	obj := compileProg(t, tc, "__global__ void k(int *p) { *p = 1; }\nint main() { int *p; cudaMalloc(&p, 4); k<<<1, 1>>>(p); return 0; }\n", flags...)
	ctx := context.Background()
	if !DeviceLink(flags) {
		t.Fatalf("DeviceLink(%q) = false", flags)
	}
	if exe, err := tc.LinkCUDA(ctx, "sm_90", DeviceLink(flags), obj.Output); err != nil || !exe.OK {
		t.Errorf("device link: %v %+v", err, exe)
	}
	if exe, err := tc.LinkCUDA(ctx, "sm_90", false, obj.Output); err != nil || exe.OK {
		t.Errorf("the host compiler linked relocatable device code (%v): DeviceLink is not needed, or the test no longer shows why", err)
	}
}

func TestDeviceLink(t *testing.T) {
	for _, c := range []struct {
		flags []string
		want  bool
	}{
		{nil, false},
		{[]string{"-O3", "-lineinfo"}, false},
		{[]string{"-rdc=true"}, true},
		{[]string{"-rdc", "true"}, true},
		{[]string{"-rdc=false"}, false},
		{[]string{"-rdc", "false"}, false},
		{[]string{"--relocatable-device-code=true"}, true},
		{[]string{"-dc"}, true},
		{[]string{"--device-c"}, true},
		{[]string{"-dlink"}, true},
	} {
		if got := DeviceLink(c.flags); got != c.want {
			t.Errorf("DeviceLink(%q) = %v, want %v", c.flags, got, c.want)
		}
	}
}

// The static runtime is part of a host link's key: its wheel is upgraded
// apart from nvcc's.
func TestLinkCUDAKeysTheRuntime(t *testing.T) {
	tc := hostLinkToolchain(t)
	rt, err := os.ReadFile(filepath.Join(tc.CUDARTDir, "libcudart_static.a"))
	if err != nil {
		t.Fatal(err)
	}
	tc.CUDARTDir = t.TempDir()
	lib := filepath.Join(tc.CUDARTDir, "libcudart_static.a")
	if err := os.WriteFile(lib, rt, 0o644); err != nil {
		t.Fatal(err)
	}
	obj := compileProg(t, tc, "int main() { int n; return cudaGetDeviceCount(&n) == cudaSuccess ? 0 : 0; }\n")
	ctx := context.Background()
	first, err := tc.LinkCUDA(ctx, "sm_90", false, obj.Output)
	if err != nil || !first.OK {
		t.Fatalf("link: %v %+v", err, first)
	}
	// Another runtime (here: the same archive with a member appended).
	if err := os.WriteFile(lib, append(rt, []byte("extra.o/        0           0     0     644     2         `\n\n\n")...), 0o644); err != nil {
		t.Fatal(err)
	}
	again, err := tc.LinkCUDA(ctx, "sm_90", false, obj.Output)
	if err != nil {
		t.Fatal(err)
	}
	if again.Cached {
		t.Errorf("after the runtime changed, the link came from the cache")
	}
}

// TestCacheEntryMissingProduct: an entry whose product was removed from
// the cache while it was in use (a user cleaning it, a test harness) is a
// miss, and the compile made then replaces it instead of answering with
// the missing file.
func TestCacheEntryMissingProduct(t *testing.T) {
	tc := toolchain(t)
	if tc.CC == "" {
		t.Skip("no host C compiler")
	}
	src := filepath.Join(t.TempDir(), "a.c")
	if err := os.WriteFile(src, []byte("int twice(int x) { return 2 * x; }\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	first, err := tc.CompileC(ctx, src)
	if err != nil || !first.OK {
		t.Fatalf("compile: %v, %+v", err, first)
	}
	if err := os.Remove(first.Output); err != nil {
		t.Fatal(err)
	}
	again, err := tc.CompileC(ctx, src)
	if err != nil || !again.OK || again.Cached {
		t.Fatalf("compile after the product was removed: %v, ok=%v cached=%v; want a fresh compile", err, again != nil && again.OK, again != nil && again.Cached)
	}
	if _, err := os.Stat(again.Output); err != nil {
		t.Errorf("the compile answered with %s, which is missing: %v", again.Output, err)
	}
	if third, err := tc.CompileC(ctx, src); err != nil || !third.Cached {
		t.Errorf("the replaced entry is not served from the cache: %v, %+v", err, third)
	}
}
