// Command gen writes the RL throughput batch (bench/rlbatch): 128 distinct
// candidates over 8 c2cuda tasks, built from the tasks' variants by
// distinguishing edits, with a manifest that says what each must become.
// It is deterministic: run it from the checkout root to regenerate.
//
//	go run ./bench/rlbatch/gen
//
// The mix (the numbers of issue 10): 97 honest, 12 that do not compile,
// 16 wrong, 1 crash, 1 hang and 1 that leaves its work on a side stream.
package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/cudaperf/cudaperf/bench"
	"github.com/cudaperf/cudaperf/bench/task"
)

// tasks are 8 c2cuda tasks whose outputs are elementwise and deterministic,
// so that corrupting one element is always wrong.
var tasks = []string{"vector_add", "gelu", "transpose", "row_sum", "rgb_to_gray", "matrix_add2d", "clamp_scale", "matvec"}

const (
	out      = "bench/rlbatch"
	suite    = "bench/suites/c2cuda"
	honest   = 97
	broken   = 12
	wrongPer = 2
)

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "gen:", err)
		os.Exit(1)
	}
}

type item struct {
	bench.BatchItem
	src string
}

func run() error {
	var items []item
	loaded := map[string]*task.Task{}
	for _, name := range tasks {
		t, err := task.Load(filepath.Join(suite, name))
		if err != nil {
			return err
		}
		loaded[name] = t
	}
	add := func(t *task.Task, file, class, expect, src string) {
		items = append(items, item{bench.BatchItem{Task: t.Name, File: t.Name + "/" + file, Class: class, Expect: expect}, src})
	}
	// Honest: each variant in turn, as is with a distinct tag, or called
	// through a wrapper with one.
	for k := 0; k < honest; k++ {
		t := loaded[tasks[k%len(tasks)]]
		v := t.Variants[(k/len(tasks))%len(t.Variants)]
		src, err := os.ReadFile(v)
		if err != nil {
			return err
		}
		base := strings.TrimSuffix(filepath.Base(v), ".cu")
		s := string(src)
		if k%2 == 1 {
			s = wrap(t, s, "")
		}
		add(t, fmt.Sprintf("h%03d_%s.cu", k, base), bench.ClassHonest, "", tag(s, k))
	}
	// Wrong: the honest result with its first output element overwritten.
	for i, name := range tasks {
		t := loaded[name]
		for w := 0; w < wrongPer; w++ {
			v := t.Variants[w%len(t.Variants)]
			src, err := os.ReadFile(v)
			if err != nil {
				return err
			}
			o := firstOutput(t)
			pattern := []string{"0x7f", "0xc1"}[w]
			corrupt := fmt.Sprintf("    // Wrong on purpose: the first element of %s is overwritten.\n    cudaMemset(%s, %s, sizeof(%s));\n",
				o.Name, o.Name, pattern, o.Type.CType())
			add(t, fmt.Sprintf("w%02d_%s.cu", i*wrongPer+w, strings.TrimSuffix(filepath.Base(v), ".cu")), bench.ClassWrong, "", wrap(t, string(src), corrupt))
		}
	}
	// Compile errors: an undeclared name, or a misspelt type.
	for k := 0; k < broken; k++ {
		t := loaded[tasks[k%len(tasks)]]
		v := t.Variants[(k+1)%len(t.Variants)]
		src, err := os.ReadFile(v)
		if err != nil {
			return err
		}
		s := string(src)
		if k%2 == 0 {
			s += fmt.Sprintf("\n// Does not compile on purpose: an undeclared name.\nstatic int rlbatch_broken_%d = undeclared_%d;\n", k, k)
		} else {
			s = strings.Replace(s, "__global__ void", "__global__ viod", 1)
		}
		add(t, fmt.Sprintf("c%02d_%s.cu", k, strings.TrimSuffix(filepath.Base(v), ".cu")), bench.ClassCompileError, "", s)
	}
	va := loaded["vector_add"]
	add(va, "x_crash.cu", bench.ClassCrash, "", crashSrc)
	add(va, "x_hang.cu", bench.ClassHang, "", hangSrc)
	add(va, "x_side_stream.cu", bench.ClassSideStream, "", sideStreamSrc)

	if err := os.RemoveAll(out + "/candidates"); err != nil {
		return err
	}
	var manifest strings.Builder
	manifest.WriteString("# The RL throughput batch (issue 10): written by `go run ./bench/rlbatch/gen`; see README.md.\n")
	seen := map[string]string{}
	for _, it := range items {
		it.File = "candidates/" + it.File
		h := bench.SourceHash([]byte(it.src))
		if prev, ok := seen[h]; ok {
			return fmt.Errorf("%s and %s are the same candidate", prev, it.File)
		}
		seen[h] = it.File
		p := filepath.Join(out, it.File)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(p, []byte(it.src), 0o644); err != nil {
			return err
		}
		line, _ := json.Marshal(it.BatchItem)
		manifest.Write(line)
		manifest.WriteByte('\n')
	}
	return os.WriteFile(filepath.Join(out, "manifest.jsonl"), []byte(manifest.String()), 0o644)
}

// tag makes copy k distinct from the other copies of its variant: a
// device variable nothing reads.
func tag(src string, k int) string {
	return src + fmt.Sprintf("\n// rlbatch: copy %d\n__device__ int rlbatch_tag_%d = %d;\n", k, k, k)
}

var entryRE = map[string]*regexp.Regexp{}

// wrap renames the variant's entry point and defines it again around a
// call to the original, followed by extra statements.
func wrap(t *task.Task, src, extra string) string {
	re, ok := entryRE[t.Entry]
	if !ok {
		re = regexp.MustCompile(`extern\s+"C"\s+void\s+` + t.Entry + `\s*\(`)
		entryRE[t.Entry] = re
	}
	impl := t.Entry + "_rlbatch_impl"
	s := re.ReplaceAllString(src, "static void "+impl+"(")
	var args []string
	for _, p := range t.Params {
		args = append(args, p.Name)
	}
	return s + fmt.Sprintf("\nextern \"C\" %s {\n    %s(%s);\n%s}\n", t.Signature, impl, strings.Join(args, ", "), extra)
}

func firstOutput(t *task.Task) task.Param {
	for _, p := range t.Params {
		if p.Role.IsOutput() {
			return p
		}
	}
	panic("task " + t.Name + " has no output")
}

const crashSrc = `// A crash: writes through an invalid device pointer, so the CUDA context
// is lost; it must be rejected as a runtime error and the next candidate
// must be unaffected.
__global__ void bad_write(float *p, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) p[i] = 1.0f;
}

extern "C" void vector_add(const float *a, const float *b, float *c, int n) {
    bad_write<<<(n + 255) / 256, 256>>>((float *)0x10, n);
}
`

const hangSrc = `// A hang: spins on a flag nothing sets; the runner must kill it at the
// time limit.
__global__ void spin(volatile int *flag) {
    while (*flag == 0) {
    }
}

extern "C" void vector_add(const float *a, const float *b, float *c, int n) {
    int *flag;
    cudaMalloc(&flag, sizeof(int));
    cudaMemset(flag, 0, sizeof(int));
    spin<<<1, 1>>>(flag);
    cudaDeviceSynchronize();
}
`

const sideStreamSrc = `// A side-stream cheat: does the work on a non-blocking stream that the
// default-stream timer does not wait for; it must be rejected as hidden work.
__global__ void add_slow(const float *a, const float *b, float *c, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float v = b[i];
        // Extra dependent work so that the hidden part clearly outlasts the timer.
        for (int k = 0; k < 20000; k++) v = v * 1.0000001f;
        c[i] = a[i] + b[i] + (v - v);
    }
}

static cudaStream_t hidden;

extern "C" void vector_add(const float *a, const float *b, float *c, int n) {
    if (!hidden) cudaStreamCreateWithFlags(&hidden, cudaStreamNonBlocking);
    add_slow<<<(n + 255) / 256, 256, 0, hidden>>>(a, b, c, n);
}
`
