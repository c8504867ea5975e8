package nvcc

import (
	"bytes"
	"context"
	"crypto/sha256"
	_ "embed"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/cudaperf/cudaperf/analysis/ptxas"
)

// EnvNVCC names the environment variable that overrides the nvcc search.
const EnvNVCC = "CUDAPERF_NVCC"

// ErrNotFound is returned (wrapped) by Find when no nvcc is installed.
var ErrNotFound = errors.New("nvcc not found")

// Find returns the path of nvcc (see the package doc for the search order).
func Find() (string, error) {
	if p := os.Getenv(EnvNVCC); p != "" {
		if isExecutable(p) {
			return p, nil
		}
		return "", fmt.Errorf("nvcc: $%s=%s is not an executable file; point it at nvcc or unset it", EnvNVCC, p)
	}
	if p, err := exec.LookPath("nvcc"); err == nil {
		return p, nil
	}
	if p := "/usr/local/cuda/bin/nvcc"; isExecutable(p) {
		return p, nil
	}
	if p := findVenvNVCC(); p != "" {
		return p, nil
	}
	return "", fmt.Errorf("%w: set $%s, put nvcc on PATH, or run .ci/setup to install it from PyPI into .venv", ErrNotFound, EnvNVCC)
}

// findVenvNVCC looks for .venv's PyPI nvcc in the working directory and its
// parents, then in the executable's folder and its parents (a plugin under
// bin/plugins/ runs in another working directory), so that commands run
// from anywhere in or below the checkout find it.
func findVenvNVCC() string {
	var starts []string
	if wd, err := os.Getwd(); err == nil {
		starts = append(starts, wd)
	}
	if exe, err := os.Executable(); err == nil {
		starts = append(starts, filepath.Dir(exe))
	}
	for _, dir := range starts {
		if p := venvNVCCAbove(dir); p != "" {
			return p
		}
	}
	return ""
}

func venvNVCCAbove(dir string) string {
	for {
		m, _ := filepath.Glob(filepath.Join(dir, ".venv", "lib", "python3*", "site-packages", "nvidia", "cu13", "bin", "nvcc"))
		for _, p := range m {
			if isExecutable(p) {
				return p
			}
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return ""
		}
		dir = parent
	}
}

func isExecutable(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.Mode().IsRegular() && st.Mode()&0o111 != 0
}

// Toolchain compiles with one nvcc and one host C compiler through a cache.
type Toolchain struct {
	NVCC        string // path of nvcc
	NVCCVersion string // last line of nvcc --version, e.g. "Build cuda_13.0.r13.0/compiler.36424714_0"
	CC          string // host C compiler for references, gcc by default
	CCVersion   string
	// CXX links CUDA executables when CUDARTDir is set: the host C++
	// compiler, g++ by default ($CXX), the one nvcc itself links with.
	CXX        string
	CXXVersion string
	// CUDARTDir is the folder of this nvcc's static CUDA runtime
	// (libcudart_static.a), found by New beside nvcc. With it and CXX,
	// LinkCUDA links with the host compiler alone; "" links with nvcc.
	// nvcc's link also device-links (nvlink, fatbinary and a host compile
	// of a registration stub) even objects compiled whole-program (no
	// -rdc, the harness's default), which leave nothing to device-link:
	// that is most of its cost (bench/RESULTS.md, "host link").
	CUDARTDir string
	Cache     *Cache
	// Limit is one compile's wall-time limit (<= 0: none; New sets
	// DefaultLimit). A compile stopped by it is a failed compile whose log
	// says so, and is not cached.
	Limit time.Duration
	// Nice is the scheduling niceness of ordinary compiles (not the urgent
	// ones, see Urgent; 0: the caller's). On a machine that evaluates
	// what it compiles, candidate processes and reference programs then
	// could get the CPUs first and the compiles take what is left: on the
	// H200 machine the candidate processes ended at 3.1-3.5 a second while
	// a batch's compiles ran beside them and 5.6-7.2 after (bench/RESULTS.md).
	Nice int
	// Background, if set, is asked as each ordinary compile starts whether
	// it may run as the machine's idle work (Linux's SCHED_IDLE: on CPUs
	// nothing else wants, preempted at once by any other task that wakes)
	// instead of at Nice alone, so that compiles never slow the candidate
	// processes an evaluator runs beside them (bench.EnvCompileIdle says
	// when it answers yes). An idle compile that reaches Limit is compiled
	// again as ordinary work; with no Limit it waits for CPUs.
	Background func() bool
	// OnRun, if set, is told the CPU time of every tool run (compiles and
	// links, not answers from the cache): whether it was a CUDA compile or
	// link (by nvcc or, for links, the host compiler), the
	// product ("obj.o" or "a.out") and the CPU of the tool and what it ran.
	OnRun func(cuda bool, product string, cpu time.Duration)

	slots    *slots
	quiet    sync.RWMutex // compiles hold it shared; Exclusive holds it alone
	mu       sync.Mutex
	inflight map[string]*call
}

type call struct {
	done chan struct{}
	res  *Result
	err  error
}

// DefaultLimit is how long one compile may run. Honest kernels compile in
// seconds (a gelu candidate: 0.7 CPU-s on the 2-core VM, 1.1 s on the H200
// under load); a candidate's templates or constexpr loops can keep the
// front end busy for hours, and without a limit `cudaperf bench` (whose
// report profile has no per-candidate limit) waited on it for good.
const DefaultLimit = 5 * time.Minute

// New prepares a toolchain. nvccPath "" runs Find; jobs <= 0 uses one job
// per CPU; jobs bounds the compiles running at once across all callers.
func New(nvccPath string, jobs int, cache *Cache) (*Toolchain, error) {
	if jobs <= 0 {
		jobs = runtime.NumCPU()
	}
	tc := &Toolchain{Cache: cache, Limit: DefaultLimit, slots: newSlots(jobs), inflight: map[string]*call{}}
	if nvccPath == "" {
		p, err := Find()
		if err != nil {
			return nil, err
		}
		nvccPath = p
	}
	v, err := versionLine(nvccPath, "--version")
	if err != nil {
		return nil, fmt.Errorf("nvcc: %s --version: %w", nvccPath, err)
	}
	tc.NVCC, tc.NVCCVersion = nvccPath, v
	cc := os.Getenv("CC")
	if cc == "" {
		cc = "gcc"
	}
	if p, err := exec.LookPath(cc); err == nil {
		tc.CC = p
		tc.CCVersion, _ = versionLine(p, "--version")
	}
	cxx := os.Getenv("CXX")
	if cxx == "" {
		cxx = "g++"
	}
	if p, err := exec.LookPath(cxx); err == nil {
		if v, err := versionLine(p, "--version"); err == nil {
			tc.CXX, tc.CXXVersion = p, v
			tc.CUDARTDir = CUDARTDir(nvccPath)
		}
	}
	return tc, nil
}

// CUDARTDir returns the folder of the static CUDA runtime that belongs to
// the nvcc at nvccPath ("" when there is none): lib64, lib,
// targets/<arch>-linux/lib or lib/<arch>-linux-gnu of its installation, as
// NVIDIA's toolkit and its packages, the PyPI wheels and Debian's
// nvidia-cuda-toolkit (nvcc in /usr/bin) lay it out.
func CUDARTDir(nvccPath string) string {
	if p, err := filepath.EvalSymlinks(nvccPath); err == nil {
		nvccPath = p
	}
	top := filepath.Dir(filepath.Dir(nvccPath))
	for _, d := range []string{"lib64", "lib", "targets/x86_64-linux/lib", "targets/sbsa-linux/lib", "lib/x86_64-linux-gnu", "lib/aarch64-linux-gnu"} {
		dir := filepath.Join(top, d)
		if _, err := os.Stat(filepath.Join(dir, "libcudart_static.a")); err == nil {
			return dir
		}
	}
	return ""
}

// versionLine runs tool with arg and returns the line that names the
// version: the last non-empty line for nvcc ("Build ..."), the first for gcc.
func versionLine(tool, arg string) (string, error) {
	out, err := exec.Command(tool, arg).CombinedOutput()
	if err != nil {
		return "", fmt.Errorf("%w: %s", err, strings.TrimSpace(string(out)))
	}
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	if strings.Contains(filepath.Base(tool), "nvcc") {
		return strings.TrimSpace(lines[len(lines)-1]), nil
	}
	return strings.TrimSpace(lines[0]), nil
}

// Result is the outcome of one compile or link.
type Result struct {
	OK        bool          // the tool exited 0
	Output    string        // the product in the cache (object or executable); "" when !OK
	Log       string        // everything the tool printed
	Cached    bool          // served from the cache
	Duration  time.Duration // time the tool ran (0 when cached)
	CPU       time.Duration // CPU time, user and kernel, of the tool and what it drove (0 when cached)
	Command   string        // the command line, for logs
	Resources *ptxas.Report // per-kernel registers, shared memory and spills (CUDA compiles)
	Idle      bool          // the tool ran in the idle scheduling class (Toolchain.Background)
}

// DeviceFlags are the flags of every device compile besides -arch.
var DeviceFlags = []string{"-O3", "-Xptxas", "-v"}

// LeanFlags are added to every CUDA compile: they leave out of the host
// headers that nvcc includes in each one (cuda_runtime.h, through <cmath>)
// the C++17 mathematical special functions of libstdc++ (std::beta,
// std::cyl_bessel_j, ...) and, with them, <limits> and the algorithm
// basics (std::min, std::max, std::swap) that they pull in. Parsing those
// templates in each of nvcc's three front ends (cudafe++, cicc, the host
// compiler) was about a third of a candidate's compile: 0.832 against
// 0.559 CPU-s a source over 286 sources (1.074 against 0.727 in an
// earlier run on a busier VM), with the same objects, nvcc 13.0 with
// GCC 12 (bench/lean-parity.sh and its .out). The
// macro is the include guard of <bits/specfun.h>; other C++ libraries do
// not know it and are unaffected. A source that uses what it leaves out
// without including it itself (std::numeric_limits with no #include
// <limits>) fails the lean compile naming it (leanMissed), and is compiled
// again with the full headers, so the verdict is the same either way.
var LeanFlags = []string{"-D_GLIBCXX_BITS_SPECFUN_H"}

// leanHeader is LeanInclude's header: it leaves <utility> (and with it
// <type_traits>) out of what cuda_runtime.h includes, declaring the one
// name of it that cuda_runtime.h uses (lean.h says how): about 4,000 of
// the 24,000-28,000 lines each front end parsed. On the 2-CPU VM, 40 RL
// batch sources compiled in 16.48 against 18.86 CPU-s with LeanFlags
// alone (13 % less), each to the same verdict; bench/lean-parity.sh, the
// lean compile against the full headers: 286 sources 0.386 against 0.658
// CPU-s a source (0.559 against 0.832 with LeanFlags alone), 285 to the
// same objects byte for byte and one compiled again with the full
// headers; 240 sources an RL policy wrote 0.140 against 0.274 (0.212
// against 0.361), all 240 the same (bench/lean-parity*.out).
//
//go:embed lean.h
var leanHeader string

// LeanInclude is added to every lean compile after LeanFlags: nvcc hands
// -Xcompiler's -include to its two preprocessing passes ahead of its own
// -include of cuda_runtime.h, and to the host compile. "{lean}" is the
// path of leanHeader, written into the compile's folder (runUncached);
// the key hashes the header's text, not the path.
var LeanInclude = []string{"-Xcompiler", "-include,{lean}"}

// leanPlaceholder is what LeanInclude names leanHeader's path by.
const leanPlaceholder = "{lean}"

// shellUnsafe are the characters a path nvcc is given through its
// environment or -Xcompiler must not have: nvcc hands both on to a shell
// unquoted, -Xcompiler splits its value at commas, and fatbinary splits
// its --image3 there (attempt, runUncached).
const shellUnsafe = ", \t\n\"'`$\\"

// leanRE matches a compile error that may come from LeanFlags (or
// LeanInclude) leaving a name of namespace std out: a name of namespace
// std missing, one of the names the lean headers leave out (those of
// <limits> and the algorithm basics, and those of <utility> and
// <type_traits> that sources use most), quoted in an error as nvcc's
// front ends and the host compiler quote names ("numeric_limits", 'max'), or
// what the front end says of max<int>(a, b) when max is no template
// ("type name is not allowed"). In the files compiled, only one that names
// std can meet those (a qualified name, a using directive or declaration):
// unqualified min and max are CUDA's own overloads either way, and
// ambiguous between them the same way (leanMissed).
var leanRE = regexp.MustCompile(`namespace "std" has no member|'std::|type name is not allowed|["'](?:std::)?(?:numeric_limits|min|max|minmax|swap|iter_swap|fill|fill_n|copy|copy_n|copy_backward|move_backward|equal|lexicographical_compare|mismatch|lower_bound|upper_bound|distance|advance|next|prev|iterator_traits|reverse_iterator|move_iterator|__niter_base|float_round_style|float_denorm_style|round_to_nearest|pair|make_pair|forward|move|remove_reference|declval|exchange|as_const|index_sequence|make_index_sequence|integer_sequence|make_integer_sequence|index_sequence_for|tuple_size|tuple_element|get|in_place|piecewise_construct|rel_ops|is_same|enable_if|enable_if_t|conditional|conditional_t|decay|decay_t|remove_cv|remove_const|is_integral|is_floating_point|is_arithmetic|is_signed|is_unsigned|is_pointer|remove_pointer|integral_constant|true_type|false_type|common_type|underlying_type|invoke_result)\b`)

// leanSpecRE matches an error naming one of the special functions that
// LeanFlags leave out, which <math.h> also puts in the global namespace
// (C++17), so that a source need not name std to use them.
var leanSpecRE = regexp.MustCompile(`["'](?:std::)?(?:assoc_laguerre[fl]?|assoc_legendre[fl]?|beta[fl]?|comp_ellint_[123][fl]?|cyl_bessel_[ijk][fl]?|cyl_neumann[fl]?|ellint_[123][fl]?|expint[fl]?|hermite[fl]?|laguerre[fl]?|legendre[fl]?|riemann_zeta[fl]?|sph_bessel[fl]?|sph_legendre[fl]?|sph_neumann[fl]?)\b`)

// errorAt matches the first line of a compile error and names its file,
// as nvcc's front ends write it ("a.cu(12): error: ...") and as the host
// compiler does ("a.cu:12:3: error: ...").
var errorAt = regexp.MustCompile(`(?m)^(.+?)(?:\(\d+\)|:\d+:\d+): (?:catastrophic )?error`)

var namesStd = regexp.MustCompile(`\bstd\b`)

// leanMissed says whether a failed lean compile may be LeanFlags' doing,
// so that the full headers must answer. own are the base names of the
// files the caller compiled (the source and the includes it named), text
// their text. An error of leanRE's kind counts when it lies in a file not
// among own (a header, which may rely on what the lean headers leave out)
// or when own's text names std; one of leanSpecRE's kind always. Of 240
// sources an RL policy wrote (bench/lean-parity-rollouts.out), 207 fail
// both ways, and 10 of those, with an ambiguous call of CUDA's own min or
// max in their own code, were compiled twice for nothing before.
func leanMissed(log string, own []string, text []byte) bool {
	if leanSpecRE.MatchString(log) {
		return true
	}
	if !leanRE.MatchString(log) {
		return false
	}
	if namesStd.Match(text) {
		return true
	}
	// Each error runs from its first line to the next error's.
	at := errorAt.FindAllStringSubmatchIndex(log, -1)
	for i, m := range at {
		end := len(log)
		if i+1 < len(at) {
			end = at[i+1][0]
		}
		if leanRE.MatchString(log[m[0]:end]) && !slices.Contains(own, filepath.Base(log[m[2]:m[3]])) {
			return true
		}
	}
	// A match before the first error line (or with no error line) has no
	// file to blame: the full headers answer.
	return len(at) == 0 || leanRE.MatchString(log[:at[0][0]])
}

// readSources is the text of files, together; a file that cannot be read
// adds nothing (the compile that just read it would have said so).
func readSources(files []string) []byte {
	var all []byte
	for _, f := range files {
		b, _ := os.ReadFile(f)
		all = append(append(all, b...), '\n')
	}
	return all
}

// baseNames are the base names of files.
func baseNames(files []string) []string {
	out := make([]string, len(files))
	for i, f := range files {
		out[i] = filepath.Base(f)
	}
	return out
}

// CompileCUDA compiles src (a .cu file) to an object for arch ("sm_90").
// deps are other files src includes, hashed into the cache key.
func (tc *Toolchain) CompileCUDA(ctx context.Context, src, arch string, deps ...string) (*Result, error) {
	return tc.CompileCUDAFlags(ctx, src, arch, nil, deps...)
}

// CompileCUDAFlags is CompileCUDA with extra nvcc flags (after the default
// ones, so they can override them), which enter the cache key.
func (tc *Toolchain) CompileCUDAFlags(ctx context.Context, src, arch string, flags []string, deps ...string) (*Result, error) {
	if err := checkArch(arch); err != nil {
		return nil, err
	}
	for _, f := range flags {
		if f == "-o" || f == "-c" || strings.HasPrefix(f, "-o") && len(f) > 2 && !strings.HasPrefix(f, "-opt") {
			return nil, fmt.Errorf("nvcc: flag %q is not allowed: the harness chooses the output", f)
		}
	}
	compile := func(lean bool) (*Result, error) {
		args := append([]string{"-arch=" + arch}, DeviceFlags...)
		if lean {
			args = append(args, LeanFlags...)
			args = append(args, LeanInclude...)
		}
		args = append(args, flags...)
		args = append(args, "-I", ".", "-c", filepath.Base(src), "-o", "{out}")
		return tc.run(ctx, job{tool: tc.NVCC, toolID: tc.NVCCVersion, dir: filepath.Dir(src), args: args, inputs: append([]string{src}, deps...), product: "obj.o", cuda: true})
	}
	res, err := compile(true)
	if own := append([]string{src}, deps...); err == nil && !res.OK && leanMissed(res.Log, baseNames(own), readSources(own)) {
		// The source may use what the lean headers leave out: the answer
		// is the full headers' (both attempts' time is counted).
		first := res
		if res, err = compile(false); err == nil {
			res.Duration += first.Duration
			res.CPU += first.CPU
		}
	}
	if err != nil {
		return nil, err
	}
	if res.OK {
		if rep, perr := ptxas.ParseBytes([]byte(res.Log)); perr == nil {
			res.Resources = rep
		}
	}
	return res, nil
}

// LinkCUDA links objects of CUDA compiles into an executable with the
// static CUDA runtime and libm. Objects compiled whole-program (no -rdc:
// the harness's default) link with the host C++ compiler where the
// runtime was found (CUDARTDir), as nvcc would link them; deviceLink
// (DeviceLink of a compile's flags) or no runtime found links with nvcc,
// which device-links first.
func (tc *Toolchain) LinkCUDA(ctx context.Context, arch string, deviceLink bool, objs ...string) (*Result, error) {
	if err := checkArch(arch); err != nil {
		return nil, err
	}
	if !deviceLink && tc.CUDARTDir != "" && tc.CXX != "" {
		rt := filepath.Join(tc.CUDARTDir, "libcudart_static.a")
		args := append([]string{"-o", "{out}"}, objs...)
		args = append(args, "-L"+tc.CUDARTDir, "-lcudart_static", "-lrt", "-lpthread", "-ldl", "-lm")
		// The runtime is an input: its wheel (nvidia-cuda-runtime) is
		// upgraded apart from nvcc's.
		return tc.run(ctx, job{tool: tc.CXX, toolID: tc.CXXVersion + "\n" + tc.NVCCVersion, args: args, inputs: append(append([]string{}, objs...), rt), product: "a.out", cuda: true})
	}
	args := append([]string{"-arch=" + arch, "-o", "{out}"}, objs...)
	args = append(args, "-lm")
	return tc.run(ctx, job{tool: tc.NVCC, toolID: tc.NVCCVersion, args: args, inputs: objs, product: "a.out", cuda: true})
}

// DeviceLink reports whether nvcc flags make relocatable device code
// (-rdc=true, -dc and their long forms), whose objects need nvcc's device
// link.
func DeviceLink(flags []string) bool {
	for i, f := range flags {
		name, val, hasVal := strings.Cut(f, "=")
		switch name {
		case "-dc", "--device-c", "-dlink", "--device-link":
			return true
		case "-rdc", "--relocatable-device-code":
			if !hasVal && i+1 < len(flags) {
				val = flags[i+1]
			}
			if val == "true" {
				return true
			}
		}
	}
	return false
}

// HostFlags are the flags of the C reference compile, as the task format says.
var HostFlags = []string{"-O2"}

// CompileC compiles a C file to an object with the host compiler; deps as
// for CompileCUDA.
func (tc *Toolchain) CompileC(ctx context.Context, src string, deps ...string) (*Result, error) {
	if tc.CC == "" {
		return nil, errors.New("nvcc: no host C compiler: install gcc or set $CC")
	}
	args := append(append([]string{}, HostFlags...), "-I", ".", "-c", filepath.Base(src), "-o", "{out}")
	return tc.run(ctx, job{tool: tc.CC, toolID: tc.CCVersion, dir: filepath.Dir(src), args: args, inputs: append([]string{src}, deps...), product: "obj.o"})
}

// LinkC links C objects into an executable with the host compiler.
func (tc *Toolchain) LinkC(ctx context.Context, objs ...string) (*Result, error) {
	if tc.CC == "" {
		return nil, errors.New("nvcc: no host C compiler: install gcc or set $CC")
	}
	args := append([]string{"-o", "{out}"}, objs...)
	// -pthread: the reference program draws large inputs with threads
	// (bench/harness, cp_fill_par).
	args = append(args, "-lm", "-pthread")
	return tc.run(ctx, job{tool: tc.CC, toolID: tc.CCVersion, args: args, inputs: objs, product: "a.out"})
}

func checkArch(arch string) error {
	if !strings.HasPrefix(arch, "sm_") || len(arch) < 5 {
		return fmt.Errorf("nvcc: bad architecture %q: want sm_<major><minor>, e.g. sm_90", arch)
	}
	return nil
}

type job struct {
	tool, toolID string
	dir          string   // working directory: sources are named relative to it, so logs and keys do not depend on where they lie
	args         []string // "{out}" is replaced by the product path
	inputs       []string // files whose content decides the product
	product      string   // file name of the product inside the entry
	cuda         bool     // a CUDA compile or link (for OnRun), whichever tool runs it
}

// key hashes everything that decides the product. Input paths enter the key
// by content only, except the name, which appears in logs and #line
// information; the arguments enter verbatim.
func (j *job) key() (string, error) {
	h := sha256.New()
	fmt.Fprintf(h, "tool %s\n%s\n", j.tool, j.toolID)
	for _, a := range j.args {
		fmt.Fprintf(h, "arg %s\n", a)
		if strings.Contains(a, leanPlaceholder) {
			fmt.Fprintf(h, "lean %s\n", leanHeader)
		}
	}
	for _, in := range j.inputs {
		f, err := os.Open(in)
		if err != nil {
			return "", fmt.Errorf("nvcc: %w", err)
		}
		fmt.Fprintf(h, "input %s\n", filepath.Base(in))
		_, err = io.Copy(h, f)
		f.Close()
		if err != nil {
			return "", fmt.Errorf("nvcc: read %s: %w", in, err)
		}
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// run performs j through the cache, at most one identical job at a time.
func (tc *Toolchain) run(ctx context.Context, j job) (*Result, error) {
	if j.tool == "" {
		return nil, fmt.Errorf("nvcc: %w", ErrNotFound)
	}
	key, err := j.key()
	if err != nil {
		return nil, err
	}
	tc.mu.Lock()
	if c, ok := tc.inflight[key]; ok {
		tc.mu.Unlock()
		select {
		case <-c.done:
			return c.res, c.err
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
	c := &call{done: make(chan struct{})}
	tc.inflight[key] = c
	tc.mu.Unlock()
	c.res, c.err = tc.runUncached(ctx, j, key)
	close(c.done)
	tc.mu.Lock()
	delete(tc.inflight, key)
	tc.mu.Unlock()
	return c.res, c.err
}

func (tc *Toolchain) runUncached(ctx context.Context, j job, key string) (*Result, error) {
	if res, ok := tc.Cache.lookup(key, j.product); ok {
		return res, nil
	}
	urgent := j.product == "a.out" || isUrgent(ctx)
	if err := tc.slots.acquire(ctx, urgent); err != nil {
		return nil, err
	}
	defer tc.slots.release()
	tc.quiet.RLock()
	defer tc.quiet.RUnlock()

	tmp, err := tc.Cache.tempDir()
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(tmp)
	out := filepath.Join(tmp, j.product)
	args := make([]string, len(j.args))
	for i, a := range j.args {
		a = strings.ReplaceAll(a, "{out}", out)
		if strings.Contains(a, leanPlaceholder) {
			// -Xcompiler splits its value at commas and nvcc hands it on
			// through a shell: in a folder whose path has one of those
			// characters (a cache the user placed so) the header is left
			// out, and the compile is the full headers' (the same object).
			lean := filepath.Join(tmp, "lean.h")
			if strings.ContainsAny(lean, shellUnsafe) {
				lean = os.DevNull
			} else if err := os.WriteFile(lean, []byte(leanHeader), 0o644); err != nil {
				return nil, fmt.Errorf("nvcc: %w", err)
			}
			a = strings.ReplaceAll(a, leanPlaceholder, lean)
		}
		args[i] = a
	}
	res, runErr, limited := tc.attempt(ctx, j, args, tmp, urgent, !urgent && tc.Background != nil && tc.Background())
	if limited && res.Idle && ctx.Err() == nil {
		// Idle work waits for CPUs that nothing else wants: on a machine
		// kept busy it may have had none, so the limit says nothing of the
		// source. The verdict is an ordinary compile's (both attempts'
		// time is counted), made in the same folder emptied of the killed
		// attempt's intermediates, which must not be cached with it.
		if err := emptyDir(tmp); err != nil {
			return nil, err
		}
		first := res
		res, runErr, limited = tc.attempt(ctx, j, args, tmp, urgent, false)
		res.Duration += first.Duration
		res.CPU += first.CPU
		res.Log += fmt.Sprintf("\ncudaperf: compiled as ordinary work after %s as idle work, the compile limit, with little CPU to run on\n", tc.Limit)
	}
	if ctx.Err() != nil {
		return nil, ctx.Err()
	}
	if limited {
		// The limit's doing, not the source's verdict alone: a loaded
		// machine could have finished it another time, so it is not cached.
		res.OK = false
		res.Log += fmt.Sprintf("\ncudaperf: %s was stopped after %s, the compile limit: the source keeps the compiler busy too long (deep template recursion, huge unrolled or constexpr loops); simplify it\n",
			filepath.Base(j.tool), tc.Limit)
		return res, nil
	}
	var exitErr *exec.ExitError
	switch {
	case runErr == nil:
		res.OK = true
	case errors.As(runErr, &exitErr):
		if why := notTheSource(exitErr, res.Log, j.tool); why != "" {
			return nil, fmt.Errorf("nvcc: %s failed but not because of its input (%s); nothing was cached: run it again", filepath.Base(j.tool), why)
		}
		res.OK = false // a compile error is a result, and is cached
	default:
		return nil, fmt.Errorf("nvcc: run %s: %w", j.tool, runErr)
	}
	return tc.Cache.store(key, tmp, j.product, res)
}

// attempt runs job j's tool once with args in the compile folder tmp,
// within the compile limit, at the caller's priority if urgent, else at
// Nice and as idle work if idle (Toolchain.Background). limited: the
// limit stopped it.
func (tc *Toolchain) attempt(ctx context.Context, j job, args []string, tmp string, urgent, idle bool) (res *Result, runErr error, limited bool) {
	rctx := ctx
	if tc.Limit > 0 {
		var cancel context.CancelFunc
		rctx, cancel = context.WithTimeout(ctx, tc.Limit)
		defer cancel()
	}
	cmd := exec.CommandContext(rctx, j.tool, args...)
	cmd.Dir = j.dir
	// nvcc's intermediates (tmpxft_*, megabytes each) go in the compile's
	// own folder, removed below also when the limit or a cancel kills it
	// (in $TMPDIR, a killed nvcc left them behind for good). nvcc hands
	// TMPDIR to a shell unquoted, so a folder name with a quote, $, ` or \
	// would break it, and the failure would pass for the source's: such a
	// cache keeps $TMPDIR. So would a comma, which ends a path in
	// fatbinary's --image3=kind=elf,sm=90,file=PATH ("not in
	// 'keyword=value' format"; TestLeanIncludeOddFolder).
	if !strings.ContainsAny(tmp, shellUnsafe) {
		cmd.Env = append(os.Environ(), "TMPDIR="+tmp)
	}
	// nvcc drives cicc, ptxas and gcc as its children: stopping nvcc alone
	// would leave them running. Its own process group goes as a whole.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.WaitDelay = 5 * time.Second
	var log bytes.Buffer
	cmd.Stdout, cmd.Stderr = &log, &log
	start := time.Now()
	runErr = cmd.Start()
	if runErr == nil {
		if !urgent && tc.Nice > 0 {
			// The whole group: what nvcc has started so far; what it starts
			// later inherits nvcc's priority.
			_ = syscall.Setpriority(syscall.PRIO_PGRP, cmd.Process.Pid, tc.Nice)
		}
		idle = idle && setIdle(cmd.Process.Pid)
		runErr = cmd.Wait()
	} else {
		idle = false
	}
	res = &Result{Log: log.String(), Duration: time.Since(start), Command: j.tool + " " + strings.Join(j.args, " "), Idle: idle}
	if cmd.ProcessState != nil {
		res.CPU = cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
		if tc.OnRun != nil {
			tc.OnRun(j.cuda, j.product, res.CPU)
		}
	}
	return res, runErr, ctx.Err() == nil && rctx.Err() != nil
}

// emptyDir removes what folder dir holds.
func emptyDir(dir string) error {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return fmt.Errorf("nvcc: %w", err)
	}
	for _, e := range entries {
		if err := os.RemoveAll(filepath.Join(dir, e.Name())); err != nil {
			return fmt.Errorf("nvcc: %w", err)
		}
	}
	return nil
}

// killedRE matches what nvcc and gcc print when a process they drive was
// killed by a signal.
var killedRE = regexp.MustCompile(`(?m)^(nvcc|gcc|cc|g\+\+)?:? ?(Terminated|Killed)$|terminated by signal|Killed signal terminated program`)

// notTheSource says why a failed compile is not the input's fault, or "":
// the compiler (or a tool it drove) was killed from outside, or the
// toolchain vanished while it ran (its binary deleted, e.g. a virtual
// environment removed). Such failures are errors, never cached: a cached
// one would fail every later compile of the same file (a CI run killed
// mid-compile once poisoned the suite test this way).
func notTheSource(exitErr *exec.ExitError, log, tool string) string {
	if ws, ok := exitErr.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		return "killed by " + ws.Signal().String()
	}
	if killedRE.MatchString(log) {
		return "a compiler process was killed"
	}
	if _, err := os.Stat(tool); err != nil {
		return "the compiler is gone: " + err.Error()
	}
	return ""
}

// Exclusive runs f while no compile runs: it waits for the running
// compiles to finish and holds new ones back until f returns (queued
// compiles do not go first). Use it around CPU timing.
func (tc *Toolchain) Exclusive(f func()) {
	tc.quiet.Lock()
	defer tc.quiet.Unlock()
	f()
}
