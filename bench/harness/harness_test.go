package harness

import (
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/cudaperf/cudaperf/bench/task"
	"github.com/google/go-cmp/cmp"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// TestGolden compares the generated programs of three selftest tasks (one
// with an inout array and float scalars, one with a generator, one with
// float16, bfloat16 and float64 arrays) with testdata.
func TestGolden(t *testing.T) {
	for _, name := range []string{"gemm", "gather", "halfmix"} {
		tk, err := task.Load(filepath.Join("..", "suites", "selftest", name))
		if err != nil {
			t.Fatal(err)
		}
		src, err := Generate(tk)
		if err != nil {
			t.Fatal(err)
		}
		for file, got := range src.Files() {
			golden := filepath.Join("testdata", name, file+".golden")
			if *update {
				if err := os.MkdirAll(filepath.Dir(golden), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
				continue
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run go test -update to create it)", err)
			}
			if d := cmp.Diff(string(want), got); d != "" {
				t.Errorf("%s differs from %s (-want +got; go test -update rewrites it):\n%s", file, golden, d)
			}
		}
	}
}

// headerIn writes the generated header of the task in taskDir into a new
// folder, for a C test program there to include.
func headerIn(t *testing.T, taskDir string) string {
	t.Helper()
	tk, err := task.Load(taskDir)
	if err != nil {
		t.Fatal(err)
	}
	src, err := Generate(tk)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, HeaderFile), []byte(src.Header), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

// TestFillInRanges: the reference program draws a large input in ranges,
// with threads (cp_fill_par); every range count must give the bytes of one
// pass, and one pass the bytes it gave before ranges existed
// (testdata/fills/sums.golden: recorded seeds must keep reproducing the
// inputs they measured). Compiled with gcc, as the reference is.
func TestFillInRanges(t *testing.T) {
	cc, err := exec.LookPath("gcc")
	if err != nil {
		t.Skip("no gcc: the reference program's fill cannot be built here (install gcc)")
	}
	dir := headerIn(t, filepath.Join("testdata", "fills"))
	check, err := os.ReadFile(filepath.Join("testdata", "fills", "check.c"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "check.c"), check, 0o644); err != nil {
		t.Fatal(err)
	}
	exe := filepath.Join(dir, "check")
	if out, err := exec.Command(cc, "-O2", "-Wall", "-Werror", "-I", dir, filepath.Join(dir, "check.c"), "-o", exe, "-lm", "-pthread").CombinedOutput(); err != nil {
		t.Fatalf("gcc: %v\n%s", err, out)
	}
	out, err := exec.Command(exe).CombinedOutput()
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	want, err := os.ReadFile(filepath.Join("testdata", "fills", "sums.golden"))
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(string(want), string(out)); d != "" {
		t.Errorf("the inputs' hashes changed (-want +got): the streams must stay what recorded seeds drew:\n%s", d)
	}
}

// TestHalfConversions checks the header's float -> float16 and bfloat16
// rounding, which draws every 16-bit input, against gcc's _Float16 (IEEE
// round to nearest even) and against the bfloat16 rule, over every float16
// value, the midpoints between neighbours, subnormals, overflow and NaN.
func TestHalfConversions(t *testing.T) {
	cc, err := exec.LookPath("gcc")
	if err != nil {
		t.Skip("no gcc on PATH")
	}
	dir := headerIn(t, filepath.Join("..", "suites", "selftest", "halfmix"))
	prog := `#include "harness.h"
int main(void) {
    long bad = 0;
    for (unsigned int i = 0; i < 0x10000u; i++) {
        unsigned short h = (unsigned short)i;
        _Float16 v;
        memcpy(&v, &h, 2);
        float f = (float)v, below, above;
        /* f itself, and the points just around f and halfway to its neighbour */
        unsigned int fb;
        memcpy(&fb, &f, 4);
        float probes[4] = {f, 0, 0, f * 1.00048828125f};
        fb += 1; memcpy(&above, &fb, 4); fb -= 2; memcpy(&below, &fb, 4);
        probes[1] = above; probes[2] = below;
        for (int k = 0; k < 4; k++) {
            _Float16 want = (_Float16)probes[k];
            unsigned short wb, got = cp_f2h(probes[k]);
            memcpy(&wb, &want, 2);
            if (want != want) { if ((got & 0x7C00u) != 0x7C00u || !(got & 0x3FFu)) bad++; continue; }
            if (got != wb) { if (bad < 5) printf("f2h(%a) = %04x, want %04x\n", probes[k], got, wb); bad++; }
        }
        unsigned int x = i << 16 | 0x8000u; /* exactly halfway: ties to even */
        float g;
        memcpy(&g, &x, 4);
        unsigned short even = (unsigned short)(i + (i & 1u));
        if ((i & 0x7F80u) != 0x7F80u && cp_f2bf(g) != even) { if (bad < 5) printf("f2bf(%a) = %04x, want %04x\n", g, cp_f2bf(g), even); bad++; }
    }
    printf("%ld bad\n", bad);
    return bad != 0;
}
`
	if err := os.WriteFile(filepath.Join(dir, "t.c"), []byte(prog), 0o644); err != nil {
		t.Fatal(err)
	}
	exe := filepath.Join(dir, "t")
	if out, err := exec.Command(cc, "-O2", "-o", exe, filepath.Join(dir, "t.c"), "-lm").CombinedOutput(); err != nil {
		if strings.Contains(string(out), "_Float16") {
			t.Skipf("%s has no _Float16: %s", cc, out)
		}
		t.Fatalf("%v\n%s", err, out)
	}
	if out, err := exec.Command(exe).CombinedOutput(); err != nil {
		t.Fatalf("conversions differ: %v\n%s", err, out)
	}
}

// mixedTask has arrays of five element types and every array role, and
// configurations whose largest arena is not the last.
const mixedTask = `
name: mixed
description: arena sizes
category: elementwise
entry: mixed
signature: "void mixed(const unsigned char *u, const __half *h, const double *w, int *o, float *io, int n, int m)"
params:
  - {name: u, type: uint8, role: in, size: "n"}
  - {name: h, type: float16, role: in, size: "n"}
  - {name: w, type: float64, role: in, size: "m"}
  - {name: o, type: int32, role: out, size: "n*m"}
  - {name: io, type: float32, role: inout, size: "m"}
  - {name: n, type: int32, role: scalar}
  - {name: m, type: int32, role: scalar}
configs:
  - {name: a, values: {n: 1, m: 1}}
  - {name: b, values: {n: 1000, m: 3}}
  - {name: c, values: {n: 17, m: 500}}
  - {name: d, values: {n: 256, m: 32}}
  - {name: e, values: {n: 33, m: 7}}
bytes: "n"
`

// TestArenaBytes checks the driver's host arena against sizes worked out
// by hand: each array's bytes rounded up to 256, summed; the arena
// allocated is the largest configuration's (c, not the last).
func TestArenaBytes(t *testing.T) {
	tk, err := task.Parse("mixed/task.yaml", []byte(mixedTask))
	if err != nil {
		t.Fatal(err)
	}
	if err := tk.Validate("mixed/task.yaml", "mixed"); err != nil {
		t.Fatal(err)
	}
	want := []int64{
		// u 1, h 2, w 8, o 4, io 4 bytes: each rounds up to 256.
		5 * 256,
		// u 1000 -> 1024, h 2000 -> 2048, w 24 -> 256, o 12000 -> 12032, io 12 -> 256.
		1024 + 2048 + 256 + 12032 + 256,
		// u 17 -> 256, h 34 -> 256, w 4000 -> 4096, o 34000 -> 34048, io 2000 -> 2048.
		256 + 256 + 4096 + 34048 + 2048,
		// u 256, h 512, w 256, o 32768: multiples already; io 128 -> 256.
		256 + 512 + 256 + 32768 + 256,
		// u 33, h 66, w 56 -> 256 each, o 924 -> 1024, io 28 -> 256.
		3*256 + 1024 + 256,
	}
	var got []int64
	for i := range tk.Configs {
		r, err := tk.Resolve(i)
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, arenaBytes(tk, r))
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("arena bytes per configuration (-want +got):\n%s", d)
	}
	src, err := Generate(tk)
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range []string{
		"#define CP_ARENA_MAX 40704ULL\n",
		"cp_arena_bytes[NCONFIGS] = {1280ULL, 15616ULL, 40704ULL, 34048ULL, 2048ULL};\n",
	} {
		if !strings.Contains(src.Driver, line) {
			t.Errorf("driver.cu lacks %q", line)
		}
	}
}

// TestDriverChecksInputs checks, for every task of the c2cuda and selftest
// suites, that the generated driver compares every in array with its
// pristine device copy (the role table marks each one R_IN, and the driver
// copies and compares R_IN arrays), does not compare inputs on the host,
// and pins one host arena of the size arenaBytes gives.
func TestDriverChecksInputs(t *testing.T) {
	dirs, err := filepath.Glob(filepath.Join("..", "suites", "*", "*", task.File))
	if err != nil || len(dirs) == 0 {
		t.Fatalf("no tasks: %v", err)
	}
	need := []string{
		inputCheckSrc,
		"if (cp_param_role[i] == R_IN) cp_check(cudaMemcpy(pristine[i], d[i], cp_bytes(c, i), cudaMemcpyDeviceToDevice)",
		"if (cp_param_role[i] != R_IN || cp_bytes(c, i) == 0) continue;\n                cp_inputs_differ<<<",
		"cp_check(cudaMemcpy(modified_flag, differs, sizeof(int) * NPARAMS, cudaMemcpyDeviceToHost)",
		"if (cp_param_role[i] == R_IN && modified_flag[i])",
	}
	var n int
	for _, f := range dirs {
		tk, err := task.Load(filepath.Dir(f))
		if err != nil || (tk.Suite != "c2cuda" && tk.Suite != "selftest") {
			continue
		}
		n++
		src, err := Generate(tk)
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range need {
			if !strings.Contains(src.Driver, s) {
				t.Errorf("%s: driver.cu lacks %q", tk.Name, s)
			}
		}
		for _, s := range []string{"memcmp(", "cudaFreeHost"} {
			if strings.Contains(src.Driver, s) {
				t.Errorf("%s: driver.cu has %s", tk.Name, s)
			}
		}
		if k := strings.Count(src.Driver, "cudaMallocHost("); k != 1 {
			t.Errorf("%s: driver.cu calls cudaMallocHost %d times, want once (the arena)", tk.Name, k)
		}
		roles := make([]string, len(tk.Params))
		arena, most := make([]string, len(tk.Configs)), int64(1)
		for i, p := range tk.Params {
			roles[i] = roleEnum[p.Role]
		}
		for c := range tk.Configs {
			r, err := tk.Resolve(c)
			if err != nil {
				t.Fatal(err)
			}
			b := arenaBytes(tk, r)
			arena[c], most = strconv.FormatInt(b, 10)+"ULL", max(most, b)
		}
		for _, w := range []struct{ file, text, want string }{
			{HeaderFile, src.Header, "cp_param_role[NPARAMS] = {" + strings.Join(roles, ", ") + "};"},
			{DriverFile, src.Driver, "cp_arena_bytes[NCONFIGS] = {" + strings.Join(arena, ", ") + "};"},
			{DriverFile, src.Driver, "#define CP_ARENA_MAX " + strconv.FormatInt(most, 10) + "ULL\n"},
		} {
			if !strings.Contains(w.text, w.want) {
				t.Errorf("%s: %s lacks %q", tk.Name, w.file, w.want)
			}
		}
	}
	if n < 10 {
		t.Errorf("only %d tasks checked", n)
	}
}

// TestInputCheck compiles the driver's input check (cp_inputs_differ and
// its grid) for the host, running every thread of the grid in turn, and
// compares its answer with memcmp's for every length up to 300 bytes with
// no byte changed and with each byte changed, and for lengths past what
// one grid covers (so threads stride) with bytes changed at word edges, in
// the tail and at random.
func TestInputCheck(t *testing.T) {
	prog := `#include <stdio.h>
#include <stdlib.h>
#include <string.h>
typedef struct { unsigned int x, y, z, w; } uint4;
typedef struct { unsigned int x, y, z; } dim3;
static dim3 blockIdx, threadIdx, gridDim, blockDim;
#define __global__
` + inputCheckSrc + `
static int differs(const unsigned char *a, const unsigned char *b, size_t n, int sms) {
    int flag = 0;
    gridDim.x = cp_check_blocks(n, sms);
    blockDim.x = CP_CHECK_THREADS;
    for (blockIdx.x = 0; blockIdx.x < gridDim.x; blockIdx.x++)
        for (threadIdx.x = 0; threadIdx.x < blockDim.x; threadIdx.x++)
            cp_inputs_differ((const uint4 *)a, (const uint4 *)b, n, &flag);
    return flag;
}

static long bad, checked;

/* check compares a with b changed at byte pos (none when pos == n). */
static void check(unsigned char *a, unsigned char *b, size_t n, size_t pos, int sms) {
    memcpy(b, a, n);
    if (pos < n) b[pos] ^= (unsigned char)(1 + rand() % 255);
    int want = memcmp(a, b, n) != 0, got = differs(a, b, n, sms);
    checked++;
    if (got != want && bad++ < 5) printf("n=%zu pos=%zu sms=%d: got %d, want %d\n", n, pos, sms, got, want);
}

int main(void) {
    size_t big = 16 * CP_CHECK_THREADS * 8 * 3 + 7; /* 3 grid strides with 1 SM, and a tail */
    unsigned char *a = aligned_alloc(256, big + 256), *b = aligned_alloc(256, big + 256);
    srand(1);
    for (size_t i = 0; i < big; i++) a[i] = (unsigned char)rand();
    for (size_t n = 0; n <= 300; n++)
        for (size_t pos = 0; pos <= n; pos++) check(a, b, n, pos, 132);
    size_t lens[] = {big, big - 7, 16 * CP_CHECK_THREADS + 1};
    for (int l = 0; l < 3; l++)
        for (int sms = 1; sms <= 2; sms++) {
            size_t n = lens[l];
            check(a, b, n, n, sms);
            for (size_t pos = 0; pos < n; pos += 16 * 97) check(a, b, n, pos, sms);
            for (size_t pos = n - n % 16 - 16; pos < n; pos++) check(a, b, n, pos, sms);
            for (int r = 0; r < 50; r++) check(a, b, n, (size_t)rand() % n, sms);
        }
    printf("%ld checked, %ld bad\n", checked, bad);
    return bad != 0;
}
`
	exe, _ := buildC(t, prog, "-fno-strict-aliasing")
	out, err := exec.Command(exe).CombinedOutput()
	if err != nil {
		t.Fatalf("the input check differs from memcmp: %v\n%s", err, out)
	}
	t.Logf("%s", strings.TrimSpace(string(out)))
}

// TestMapFile compiles the driver's mapped staging (mapFileSrc) for the
// host, with CUDA's registration calls stood in for, and checks what the
// driver relies on: an input is mapped only at its exact size and
// registered read-only; an output file is created at its size and holds
// what was copied into its mapping once unmapped; an empty array, mapping
// off, or a registration CUDA refuses gives NULL (the arena answers), and
// nothing stays registered.
func TestMapFile(t *testing.T) {
	prog := `#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
typedef int cudaError_t;
enum { cudaSuccess = 0, cudaHostRegisterDefault = 0, cudaHostRegisterReadOnly = 8 };
static int refuse, registered, last_flags;
static cudaError_t cudaHostRegister(void *p, size_t n, unsigned flags) {
    (void)p, (void)n;
    if (refuse) return 1;
    registered++, last_flags = (int)flags;
    return cudaSuccess;
}
static cudaError_t cudaHostUnregister(void *p) { (void)p; registered--; return cudaSuccess; }
static cudaError_t cudaGetLastError(void) { return cudaSuccess; }
` + mapFileSrc + `
static int bad;
#define CHECK(cond) do { if (!(cond)) { printf("line %d: %s\n", __LINE__, #cond); bad++; } } while (0)

int main(int argc, char **argv) {
    char in[4096], out[4096], missing[4096];
    snprintf(in, sizeof in, "%s/in.bin", argv[1]);
    snprintf(out, sizeof out, "%s/out.bin", argv[1]);
    snprintf(missing, sizeof missing, "%s/none.bin", argv[1]);
    unsigned char data[64];
    for (int i = 0; i < 64; i++) data[i] = (unsigned char)(3 * i + 1);
    FILE *f = fopen(in, "wb");
    fwrite(data, 1, 64, f);
    fclose(f);

    CHECK(cp_map_file(in, 64, 0) == NULL); /* mapping off */
    cp_map = 1;
    void *p = cp_map_file(in, 64, 0);
    CHECK(p != NULL && memcmp(p, data, 64) == 0 && last_flags == cudaHostRegisterReadOnly && cp_mapped == 1);
    if (p) cp_unmap_file(p, 64);
    CHECK(cp_map_file(in, 60, 0) == NULL);      /* not the file's size */
    CHECK(cp_map_file(in, 0, 0) == NULL);       /* an empty array */
    CHECK(cp_map_file(missing, 64, 0) == NULL); /* no such input */

    p = cp_map_file(out, 100, 1);
    CHECK(p != NULL && last_flags == cudaHostRegisterDefault);
    if (p) {
        memset(p, 0x5A, 100); /* what the GPU copies in */
        cp_unmap_file(p, 100);
    }
    struct stat st;
    unsigned char back[100] = {0};
    f = fopen(out, "rb");
    CHECK(stat(out, &st) == 0 && st.st_size == 100 && f && fread(back, 1, 100, f) == 100 && back[0] == 0x5A && back[99] == 0x5A);
    if (f) fclose(f);

    /* An output written ahead at its size is kept (the GPU's copy
       overwrites it); one of another size is resized. */
    p = cp_map_file(out, 100, 1);
    CHECK(p != NULL && ((unsigned char *)p)[0] == 0x5A && ((unsigned char *)p)[99] == 0x5A);
    if (p) cp_unmap_file(p, 100);
    p = cp_map_file(out, 40, 1);
    CHECK(p != NULL && stat(out, &st) == 0 && st.st_size == 40);
    if (p) cp_unmap_file(p, 40);
    p = cp_map_file(out, 200, 1);
    CHECK(p != NULL && stat(out, &st) == 0 && st.st_size == 200 && ((unsigned char *)p)[0] == 0x5A && ((unsigned char *)p)[199] == 0);
    if (p) cp_unmap_file(p, 200);

    refuse = 1;
    CHECK(cp_map_file(in, 64, 0) == NULL);
    CHECK(cp_map_file(out, 100, 1) == NULL);
    CHECK(registered == 0 && cp_mapped == 5);
    printf("%d bad\n", bad);
    return bad != 0;
}
`
	exe, dir := buildC(t, prog, "-Wall", "-Werror")
	if out, err := exec.Command(exe, dir).CombinedOutput(); err != nil {
		t.Fatalf("the driver's mapped staging: %v\n%s", err, out)
	}
}

// TestDriverOptions: the driver's optional arguments come once each, and
// the gate's descriptor is a number above 2 (atoi read "gate:x" as 0, the
// driver's standard input; a second gate: or staging: silently won).
func TestDriverOptions(t *testing.T) {
	prog := `#include <stdio.h>
#include <stdlib.h>
#include <string.h>
` + driverOptionsSrc + `
int main(int argc, char **argv) {
    int gate = -1, map = 0;
    int rc = cp_driver_options(argc - 1, argv + 1, &gate, &map);
    printf("rc=%d gate=%d map=%d\n", rc, gate, map);
    return 0;
}
`
	exe, _ := buildC(t, prog, "-Wall", "-Werror")
	for _, c := range []struct {
		args []string
		want string // standard output
		err  string // in standard error
	}{
		{nil, "rc=0 gate=-1 map=0", ""},
		{[]string{"gate:7", "staging:mapped"}, "rc=0 gate=7 map=1", ""},
		{[]string{"staging:arena", "gate:12"}, "rc=0 gate=12 map=0", ""},
		{[]string{"gate:7", "gate:8"}, "rc=2", "gate:8 (the gate is given twice)"},
		{[]string{"staging:mapped", "staging:arena"}, "rc=2", "staging:arena (the staging is given twice)"},
		{[]string{"gate:x"}, "rc=2", "gate:x (want gate:FD"},
		{[]string{"gate:"}, "rc=2", "gate: (want gate:FD"},
		{[]string{"gate:0"}, "rc=2", "gate:0 (want gate:FD"},
		{[]string{"gate:9z"}, "rc=2", "gate:9z (want gate:FD"},
		{[]string{"staging:pinned"}, "rc=2", "bad argument staging:pinned (want gate:FD, staging:arena or staging:mapped)"},
	} {
		cmd := exec.Command(exe, c.args...)
		var stderr strings.Builder
		cmd.Stderr = &stderr
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("%v: %v", c.args, err)
		}
		if got := strings.TrimSpace(string(out)); !strings.HasPrefix(got, c.want) {
			t.Errorf("%v: %s, want %s", c.args, got, c.want)
		}
		if !strings.Contains(stderr.String(), c.err) || (c.err == "") != (stderr.Len() == 0) {
			t.Errorf("%v: standard error %q, want %q", c.args, stderr.String(), c.err)
		}
	}
}

// buildC compiles prog, a C11 host program, with gcc at -O1 and the extra
// flags; it returns the executable and its folder, and skips the test
// without gcc.
func buildC(t *testing.T, prog string, flags ...string) (exe, dir string) {
	t.Helper()
	cc, err := exec.LookPath("gcc")
	if err != nil {
		t.Skip("no gcc on PATH")
	}
	dir = t.TempDir()
	src := filepath.Join(dir, "t.c")
	if err := os.WriteFile(src, []byte(prog), 0o644); err != nil {
		t.Fatal(err)
	}
	exe = filepath.Join(dir, "t")
	args := append(append([]string{"-std=c11", "-O1"}, flags...), "-o", exe, src)
	if out, err := exec.Command(cc, args...).CombinedOutput(); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	return exe, dir
}
