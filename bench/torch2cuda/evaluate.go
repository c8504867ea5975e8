package torch2cuda

import (
	"context"
	"crypto/rand"
	_ "embed"
	"encoding/binary"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/cudaperf/cudaperf/analysis/device"
	"github.com/cudaperf/cudaperf/bench"
	"github.com/cudaperf/cudaperf/bench/nvcc"
	"github.com/cudaperf/cudaperf/bench/runner"
	"github.com/cudaperf/cudaperf/bench/verdict"
)

//go:embed runner.py
var runnerPy []byte

// RunnerSource is runner.py, the Python side (embedded).
func RunnerSource() []byte { return runnerPy }

// CompileArch is what a torch2cuda result's Compile.Arch says: torch's
// load_inline chose the architecture (TORCH_CUDA_ARCH_LIST, else the GPU's).
const CompileArch = "torch load_inline"

// EnvPython names the interpreter that runs runner.py (default python3;
// it needs torch, and nvcc for load_inline's builds).
const EnvPython = "CUDAPERF_PYTHON"

// Options configure an Evaluator.
type Options struct {
	Python     string        // interpreter; "": $CUDAPERF_PYTHON, else python3
	CacheDir   string        // "": nvcc.DefaultCacheDir(); extensions build under <dir>/torch-extensions
	Jobs       int           // parallel builds; <= 0: one per CPU
	Seeds      int           // correctness seeds (>= MinSeeds; 0: MinSeeds)
	Warmup     int           // untimed calls (0: 3)
	Repeats    int           // timed calls (0: 20)
	BuildLimit time.Duration // wall time of one build (0: 10 min)
	RunLimit   time.Duration // wall time of one run after its build (0: 5 min)
	NoCompile  bool          // skip the torch.compile baseline
	CheckOnly  bool          // correctness and anti-cheat checks only, no timing
	Tolerances map[string]Tolerance
}

// Evaluator builds and runs torch2cuda candidates: builds in parallel
// (each a python3 process importing the candidate, whose load_inline
// compiles into the shared extensions folder, cached by source), runs one
// at a time (the GPU is timed).
type Evaluator struct {
	opt    Options
	dir    string // extensions and the runner
	runner string
	builds chan struct{}
	gpu    sync.Mutex

	mu    sync.Mutex
	built map[string]bench.Compile // by the candidate's path and content: a second Build of it costs nothing

	machineOnce sync.Once
	noTorch     error // the Python cannot import torch
	noCUDA      error // torch sees no CUDA device (wraps device.ErrNoGPU)
}

// machine checks once what every job needs of this machine: a Python that
// imports torch and, unless the job only builds, a CUDA device torch can
// use. Without them each candidate would fail for the machine's sake and
// be judged for it (a missing torch read as every candidate's compile
// error, a reward of -1 for all in RL).
func (e *Evaluator) machine(buildOnly bool) error {
	e.machineOnce.Do(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
		defer cancel()
		cmd := exec.CommandContext(ctx, e.opt.Python, "-c",
			"import sys, torch; sys.stdout.write('cuda' if torch.cuda.is_available() else 'nocuda')")
		cmd.Env = e.env()
		out, err := cmd.CombinedOutput()
		lines := strings.Split(strings.TrimSpace(string(out)), "\n")
		last := lines[len(lines)-1]
		switch {
		case err != nil:
			e.noTorch = fmt.Errorf("torch2cuda: %s cannot import torch (%s): install torch for it (pip install torch) or point $%s at a Python that has it", e.opt.Python, last, EnvPython)
		case last != "cuda":
			e.noCUDA = fmt.Errorf("%w: torch2cuda: torch in %s sees no CUDA device (torch.cuda.is_available() is false)", device.ErrNoGPU, e.opt.Python)
		}
	})
	if e.noTorch != nil {
		return e.noTorch
	}
	if !buildOnly {
		return e.noCUDA
	}
	return nil
}

// New prepares an evaluator; nothing is started.
func New(opt Options) (*Evaluator, error) {
	if opt.Python == "" {
		opt.Python = os.Getenv(EnvPython)
	}
	if opt.Python == "" {
		opt.Python = "python3"
	}
	if _, err := exec.LookPath(opt.Python); err != nil {
		return nil, fmt.Errorf("torch2cuda: no Python interpreter %q: install python3 with torch, or set $%s", opt.Python, EnvPython)
	}
	if opt.CacheDir == "" {
		opt.CacheDir = nvcc.DefaultCacheDir()
	}
	if opt.Jobs <= 0 {
		opt.Jobs = runtime.NumCPU()
	}
	if opt.Seeds == 0 {
		opt.Seeds = MinSeeds
	}
	if opt.Seeds < MinSeeds {
		return nil, fmt.Errorf("torch2cuda: %d seeds: correctness needs at least %d", opt.Seeds, MinSeeds)
	}
	if opt.Warmup <= 0 {
		opt.Warmup = 3
	}
	if opt.Repeats <= 0 {
		opt.Repeats = 20
	}
	if opt.BuildLimit <= 0 {
		opt.BuildLimit = 10 * time.Minute
	}
	if opt.RunLimit <= 0 {
		opt.RunLimit = 5 * time.Minute
	}
	if opt.Tolerances == nil {
		switch v := os.Getenv(EnvTolerance); v {
		case "", "kernelbench":
			opt.Tolerances, _ = Tolerances(v == "kernelbench", nil)
		default:
			return nil, fmt.Errorf("torch2cuda: $%s=%q: want kernelbench or nothing", EnvTolerance, v)
		}
	}
	dir := filepath.Join(opt.CacheDir, "torch2cuda")
	if err := os.MkdirAll(filepath.Join(dir, "extensions"), 0o755); err != nil {
		return nil, fmt.Errorf("torch2cuda: cache: %w (set $XDG_CACHE_HOME to a writable folder)", err)
	}
	e := &Evaluator{opt: opt, dir: dir, runner: filepath.Join(dir, "runner.py"), builds: make(chan struct{}, opt.Jobs),
		built: map[string]bench.Compile{}}
	if err := writeIfChanged(e.runner, runnerPy); err != nil {
		return nil, fmt.Errorf("torch2cuda: %w", err)
	}
	return e, nil
}

func writeIfChanged(path string, data []byte) error {
	if old, err := os.ReadFile(path); err == nil && string(old) == string(data) {
		return nil
	}
	tmp := fmt.Sprintf("%s.%d.tmp", path, os.Getpid())
	if err := os.WriteFile(tmp, data, 0o644); err != nil {
		return err
	}
	return os.Rename(tmp, path)
}

// Job is one candidate of one problem.
type Job struct {
	Problem   string   // the problem file
	Candidate string   // the candidate file
	Suite     string   // recorded in the result
	Task      string   // recorded in the result (default: the problem's base name)
	Name      string   // candidate name (default: the file's base name)
	Kind      string   // bench.KindVariant, KindCheat or KindCandidate (default)
	Expect    string   // cheats: the reason id that must reject it
	Seeds     []uint64 // input seeds; empty: fresh random ones
	Warmup    int      // 0: the evaluator's
	Repeats   int      // 0: the evaluator's
	NoCompile bool     // skip the torch.compile baseline
	BuildOnly bool     // build, do not run
}

func (e *Evaluator) env() []string {
	return append(os.Environ(), "TORCH_EXTENSIONS_DIR="+filepath.Join(e.dir, "extensions"),
		"MAX_JOBS="+strconv.Itoa(max(1, runtime.NumCPU()/e.opt.Jobs)), "PYTHONDONTWRITEBYTECODE=1")
}

// Validate runs the runner's import-time format check of a problem (and a
// candidate, when not ""); it needs torch but no GPU.
func (e *Evaluator) Validate(ctx context.Context, problem, candidate string) error {
	args := []string{"validate", "--problem", problem}
	if candidate != "" {
		args = append(args, "--candidate", candidate)
	}
	recs, out, err := e.python(ctx, args, e.opt.BuildLimit)
	if err != nil {
		return err
	}
	for _, r := range recs {
		if r.Type == "validate" {
			if r.OK {
				return nil
			}
			return fmt.Errorf("%s", strings.Join(r.Errors, "\n"))
		}
	}
	return fmt.Errorf("torch2cuda: the runner wrote no validate record (%s):\n%s", out.Describe(), out.Output)
}

// python runs runner.py with args and a records file, and parses it.
func (e *Evaluator) python(ctx context.Context, args []string, limit time.Duration) ([]Record, *runner.Outcome, error) {
	f, err := os.CreateTemp(e.dir, "records-*.jsonl")
	if err != nil {
		return nil, nil, fmt.Errorf("torch2cuda: %w", err)
	}
	f.Close()
	defer os.Remove(f.Name())
	out, err := runner.Run(ctx, runner.Cmd{Path: e.opt.Python, Args: append([]string{e.runner, "--records", f.Name()}, args...),
		Env: e.env(), Timeout: limit})
	if err != nil {
		return nil, out, fmt.Errorf("torch2cuda: %w", err)
	}
	data, err := os.ReadFile(f.Name())
	if err != nil {
		return nil, out, fmt.Errorf("torch2cuda: %w", err)
	}
	recs, err := ParseRecords(f.Name(), data)
	return recs, out, err
}

// Build builds a candidate's extension (cached by torch under the
// extensions folder); up to Jobs builds run at once.
// A candidate built before by this evaluator (same path, same bytes) is
// answered from memory: torch's cache would make the build a no-op, but
// still cost a python3 start and an import of torch.
func (e *Evaluator) Build(ctx context.Context, candidate string) bench.Compile {
	key := candidate
	if data, err := os.ReadFile(candidate); err == nil {
		key += "\x00" + string(data)
	}
	e.mu.Lock()
	c, ok := e.built[key]
	e.mu.Unlock()
	if ok {
		c.Cached = true
		return c
	}
	c = e.build(ctx, candidate)
	if c.OK || ctx.Err() == nil {
		e.mu.Lock()
		e.built[key] = c
		e.mu.Unlock()
	}
	return c
}

func (e *Evaluator) build(ctx context.Context, candidate string) bench.Compile {
	e.builds <- struct{}{}
	defer func() { <-e.builds }()
	start := time.Now()
	recs, out, err := e.python(ctx, []string{"build", "--candidate", candidate}, e.opt.BuildLimit)
	c := bench.Compile{Seconds: time.Since(start).Seconds(), Arch: CompileArch}
	if err != nil {
		c.Log = err.Error()
		return c
	}
	for _, r := range recs {
		if r.Type == "build" {
			c.OK = r.OK
			c.Log = strings.TrimSpace(r.Error + "\n" + r.Traceback)
			return c
		}
	}
	c.Log = fmt.Sprintf("the build %s before it reported:\n%s", out.Describe(), out.Output)
	return c
}

// Evaluate builds, checks, times and judges one candidate. A failure of
// the candidate is its verdict; Result.Error is a run that could not judge
// it (the problem is malformed, no GPU, the runner missing).
func (e *Evaluator) Evaluate(ctx context.Context, j Job) *bench.Result {
	start := time.Now()
	r := &bench.Result{Time: start.UTC().Format(time.RFC3339), Suite: j.Suite, Task: j.Task, Candidate: j.Name,
		Kind: j.Kind, Path: j.Candidate, Expect: j.Expect}
	if r.Task == "" {
		r.Task = strings.TrimSuffix(filepath.Base(j.Problem), ".py")
	}
	if r.Candidate == "" && j.Candidate != "" {
		r.Candidate = strings.TrimSuffix(filepath.Base(j.Candidate), ".py")
	}
	if r.Kind == "" {
		r.Kind = bench.KindCandidate
	}
	defer func() {
		r.Caught = r.Verdict.Caught(r.Expect)
	}()
	if err := ValidateProblem(j.Problem); err != nil {
		r.Error = err.Error()
		return r
	}
	tol, err := e.problemTolerances(j.Problem)
	if err != nil {
		r.Error = err.Error()
		return r
	}
	if j.Candidate == "" {
		e.baseline(ctx, j, r)
		return r
	}
	var cand *Candidate
	src, err := os.ReadFile(j.Candidate)
	if err == nil {
		r.SourceHash = SourceHash(src)
		cand, err = ParseCandidate(j.Candidate, src)
	} else {
		err = fmt.Errorf("torch2cuda: candidate: %w", err)
	}
	if err != nil {
		r.Compile = bench.Compile{Log: err.Error()}
		r.Verdict = verdictOf(verdict.InvalidCandidate, err.Error())
		return r
	}
	r.Compile = e.Build(ctx, j.Candidate)
	if !r.Compile.OK {
		r.Verdict = verdictOf(verdict.CompileError, firstLines(r.Compile.Log, 40))
		return r
	}
	if j.BuildOnly {
		return r
	}
	warmup, repeats := e.opt.Warmup, e.opt.Repeats
	if j.Warmup > 0 {
		warmup = j.Warmup
	}
	if j.Repeats > 0 {
		repeats = j.Repeats
	}
	seeds := j.Seeds
	for len(seeds) < e.opt.Seeds {
		seeds = append(seeds, randomSeed())
	}
	var ss []string
	for _, s := range seeds {
		ss = append(ss, strconv.FormatUint(s, 10))
	}
	args := []string{"run", "--problem", j.Problem, "--candidate", j.Candidate, "--seeds", strings.Join(ss, ","),
		"--tolerance", runnerArg(tol), "--warmup", strconv.Itoa(warmup), "--repeats", strconv.Itoa(repeats)}
	if e.opt.NoCompile || j.NoCompile {
		args = append(args, "--no-compile")
	}
	if e.opt.CheckOnly {
		args = append(args, "--check-only")
	}
	e.gpu.Lock()
	recs, out, err := e.python(ctx, args, e.opt.RunLimit)
	e.gpu.Unlock()
	if out != nil {
		r.RunWall = out.Wall.Seconds()
		r.RunLog = out.Output
	}
	if err != nil {
		r.Error = err.Error()
		return r
	}
	r.Ran = true
	r.Seeds = [2]uint64{seeds[0], seeds[1]}
	jo := JudgeOptions{Seeds: len(seeds), Tolerances: tol, OwnKernels: cand.Kernels, TimedOut: out.TimedOut}
	if !out.OK() {
		jo.ExitError = out.Describe()
	}
	v, err := Judge(recs, jo)
	if err != nil {
		r.Error = err.Error()
		return r
	}
	r.Verdict = v
	if v.Accepted {
		r.RunLog = "" // python's warnings; kept only to explain a failure
	}
	return r
}

// randomSeed is a fresh seed (torch.manual_seed takes any uint64).
func randomSeed() uint64 {
	var b [8]byte
	_, _ = rand.Read(b[:])
	return binary.LittleEndian.Uint64(b[:])
}

// baseline times the problem's eager Model and torch.compile(Model).
func (e *Evaluator) baseline(ctx context.Context, j Job, r *bench.Result) {
	r.Kind, r.Candidate = KindReference, "pytorch"
	warmup, repeats := e.opt.Warmup, e.opt.Repeats
	if j.Warmup > 0 {
		warmup = j.Warmup
	}
	if j.Repeats > 0 {
		repeats = j.Repeats
	}
	args := []string{"run", "--problem", j.Problem, "--seeds", strconv.FormatUint(randomSeed(), 10),
		"--warmup", strconv.Itoa(warmup), "--repeats", strconv.Itoa(repeats)}
	if e.opt.NoCompile || j.NoCompile {
		args = append(args, "--no-compile")
	}
	e.gpu.Lock()
	recs, out, err := e.python(ctx, args, e.opt.RunLimit)
	e.gpu.Unlock()
	if out != nil {
		r.RunWall, r.RunLog = out.Wall.Seconds(), out.Output
	}
	if err == nil {
		r.Verdict, err = JudgeBaseline(recs)
	}
	if err != nil {
		r.Error = err.Error()
		return
	}
	r.Ran = true
}

// problemTolerances is the run's table with the problem file's own
// tolerance lines applied (ProblemTolerances).
func (e *Evaluator) problemTolerances(problem string) (map[string]Tolerance, error) {
	src, err := os.ReadFile(problem)
	if err != nil {
		return nil, fmt.Errorf("torch2cuda: problem: %w", err)
	}
	return ProblemTolerances(e.opt.Tolerances, problem, src)
}
