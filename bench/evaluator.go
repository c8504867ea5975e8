package bench

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/cudaperf/cudaperf/analysis/device"
	"github.com/cudaperf/cudaperf/bench/nvcc"
	"github.com/cudaperf/cudaperf/bench/task"
)

// Settings are one request's evaluation settings; zero fields take the
// profile's defaults.
type Settings struct {
	Profile     Profile
	Configs     []string      // configuration names; empty: the profile's (all, or the RL ones)
	Seeds       [2]uint64     // input seeds; zero: fresh random ones (recorded in the result)
	Warmup      int           // untimed calls per configuration
	Repeats     int           // timed calls per configuration
	TimeLimit   time.Duration // wall time per configuration
	Arch        string        // nvcc architecture; "": the first GPU's, else device.DefaultArch
	CompileOnly bool          // compile (and check the task's programs build), do not run
}

// EnvJobs sets the parallel compiles of an evaluator whose options leave
// them at 0 (`cudaperf bench --jobs` sets it for the plugin it starts).
const EnvJobs = "CUDAPERF_JOBS"

// EnvCompileNice overrides DefaultCompileNice.
const EnvCompileNice = "CUDAPERF_COMPILE_NICE"

// DefaultCompileNice is the niceness of candidate compiles on an evaluator
// with a GPU (nvcc.Toolchain.Nice): the candidate processes and reference
// programs get the CPUs first and the compiles what is left. On the H200
// machine of 2026-12-05's second lease, 3 interleaved rounds of the RL
// batch: 389.9, 372.9, 366.5 candidates/min at nice 10 against 349.5,
// 349.6, 345.1 at 0, every run of it faster; it had led in each of lease
// 11's four pairings too (bench/RESULTS.md). 0 gives the old behaviour.
// It applies to the compiles that do not run as idle work (EnvCompileIdle).
const DefaultCompileNice = 10

// EnvCompileIdle chooses when candidate compiles on an evaluator with a
// GPU run as the machine's idle work (nvcc.Toolchain.Background, Linux's
// SCHED_IDLE) instead of at their niceness (EnvCompileNice): "always" (the
// default), "backlog" (only while every slot of the GPUs has a built
// candidate waiting for it) or "never". As idle work a compile takes only
// the CPUs that candidate processes, references and judging leave, and a
// candidate process waking from the GPU driver preempts it at once. On a
// machine whose CPUs other work keeps busy, idle compiles wait for it: an
// idle compile that reaches the compile limit is compiled again as
// ordinary work (with no limit, EnvCompileLimit=0, it waits), and "never"
// gives the niceness alone.
const EnvCompileIdle = "CUDAPERF_COMPILE_IDLE"

// CompileIdle values (EnvCompileIdle).
const (
	CompileIdleNever   = "never"
	CompileIdleBacklog = "backlog"
	CompileIdleAlways  = "always"
)

// DefaultCompileIdle is EnvCompileIdle's default. On an H100 machine of
// 2026-12-06 (lease 16), 7 interleaved rounds of the RL batch: always
// beat never (compiles at nice 10) in all 7, by 8.2 to 52.2
// candidates/min, medians 490.0 against 462.6; the candidate processes
// that ran while compiles did ended at 6.4-8.0 a second against 4.9-6.7
// (process p50 0.87-0.96 s against 1.04-1.12). Backlog beat never in 3
// of 3 by less (bench/RESULTS.md).
const DefaultCompileIdle = CompileIdleAlways

// EnvCompileLimit overrides nvcc.DefaultLimit, one compile's wall-time
// limit, as a Go duration ("10m"; "0" for none).
const EnvCompileLimit = "CUDAPERF_COMPILE_LIMIT"

// EnvLink chooses how candidates' executables are linked: "host" (the
// default where nvcc's static runtime is found: the host C++ compiler with
// it, nvcc.Toolchain.CUDARTDir) or "nvcc".
const EnvLink = "CUDAPERF_LINK"

// EvaluatorOptions configure an Evaluator.
type EvaluatorOptions struct {
	NVCC        string        // nvcc path; "": nvcc.Find
	Jobs        int           // parallel compiles; <= 0: one per CPU
	CacheDir    string        // compile cache; "": nvcc.DefaultCacheDir
	ScratchDir  string        // inputs and outputs; "": /dev/shm when large enough, else the temp dir
	RefTimeout  time.Duration // limit for a task's reference program (default 10 min)
	MaxSessions int           // tasks kept warm (default 8)
	NoGPU       bool          // do not look for GPUs (compile-only use)
	// Slots is how many candidate processes run on one GPU at once (<= 0:
	// $CUDAPERF_GPU_SLOTS, else DefaultSlots). In the RL profile they
	// overlap all but their timed calls; a report-profile candidate has
	// the GPU to itself.
	Slots int
	// Prestart is how many candidate processes per GPU may start ahead of
	// a free slot (0: $CUDAPERF_GPU_PRESTART, else DefaultPrestart; < 0:
	// none): in the RL profile, each makes its CUDA context and host
	// buffers while the Slots working ones run, and starts work when one
	// of them is done (Gate). The report profile runs one candidate at a
	// time.
	Prestart int
	// ShareGPU lets report-profile candidates share the GPU as the RL
	// profile's do: their timed calls still have it alone (the gate), but
	// their set-up and checks overlap other candidates'. For trusted
	// candidates only (a task's own variants, a dataset sweep): a
	// candidate's host code could keep GPU work running past its turn.
	// False: $CUDAPERF_SHARE_GPU=1 turns it on.
	ShareGPU bool
	// Staging overrides the profiles' host staging (DefaultStaging) for
	// every candidate; "": $CUDAPERF_STAGING, else each profile's default.
	Staging Staging
}

// EnvShareGPU turns EvaluatorOptions.ShareGPU on for an evaluator started
// without it (the benchmarker plugin).
const EnvShareGPU = "CUDAPERF_SHARE_GPU"

// Evaluator is the one evaluation path: `cudaperf bench` reaches it through
// the built-in benchmarker plugin, which serves it, and so does the RL loop.
// It owns the compile toolchain and cache, the GPUs (one worker per visible
// device) and a warm session per task and settings (whose reference ran
// once). Evaluate is safe for concurrent use: compiles run in parallel up to
// the toolchain's job count, runs are spread over the workers, each GPU
// running up to Slots candidates at a time (their timed calls one at a
// time, see Gate), each candidate in its own process.
type Evaluator struct {
	opt     EvaluatorOptions
	tc      *nvcc.Toolchain
	gpu     *device.NVML // nil without NVML
	gpuErr  error        // why there is no worker
	arch    string
	pool    *pool
	workers []*Worker
	srcDir  string      // candidate sources by content hash
	acct    *cpuAccount // EnvCPUAccount's, or nil

	mu       sync.Mutex
	sessions map[string]*entry

	// The machine check (probe.go). probe is the check's probe (nil:
	// runProbe, tests replace it); probeMu runs one probe at a time and
	// guards probeExe. Under mu: machineErr, once a probe failed, is every
	// later run's error; probedAt is when a probe last passed (or could not
	// tell); initOK says that a candidate initialised CUDA since.
	probe      func(ctx context.Context, w *Worker, p Profile) error
	probeMu    sync.Mutex
	probeExe   string
	machineErr error
	probedAt   time.Time
	initOK     bool
}

type entry struct {
	sess  *Session
	used  time.Time
	users int
}

// NewEvaluator finds nvcc, opens the compile cache and discovers the GPUs.
// A machine without a GPU gets an evaluator that compiles; its runs fail
// with device.ErrNoGPU.
func NewEvaluator(opt EvaluatorOptions) (*Evaluator, error) {
	if opt.MaxSessions <= 0 {
		opt.MaxSessions = 8
	}
	// The environment's settings are read before anything is opened, so a
	// malformed one is an error that says what to give, not a default
	// silently taken.
	nice, err := settingsFromEnv(&opt)
	if err != nil {
		return nil, err
	}
	idle, err := compileIdleFromEnv()
	if err != nil {
		return nil, err
	}
	opt.ShareGPU = opt.ShareGPU || os.Getenv(EnvShareGPU) == "1"
	if opt.Staging == "" {
		st, err := ParseStaging(os.Getenv(EnvStaging))
		if err != nil {
			return nil, fmt.Errorf("%s: %w", EnvStaging, err)
		}
		opt.Staging = st
	} else if _, err := ParseStaging(string(opt.Staging)); err != nil {
		return nil, err
	}
	cache, err := nvcc.OpenCache(opt.CacheDir)
	if err != nil {
		return nil, err
	}
	tc, err := nvcc.New(opt.NVCC, opt.Jobs, cache)
	if err != nil {
		return nil, fmt.Errorf("bench: %w", err)
	}
	if v := os.Getenv(EnvCompileLimit); v != "" {
		d, err := time.ParseDuration(v)
		if err != nil || d < 0 {
			return nil, fmt.Errorf("bench: %s=%q: give a duration such as 10m (0: no limit)", EnvCompileLimit, v)
		}
		tc.Limit = d
	}
	switch v := os.Getenv(EnvLink); v {
	case "":
	case "host":
		if tc.CUDARTDir == "" || tc.CXX == "" {
			return nil, fmt.Errorf("bench: %s=host: no g++ ($CXX) or no libcudart_static.a beside %s to link with; unset it to link with nvcc", EnvLink, tc.NVCC)
		}
	case "nvcc":
		tc.CUDARTDir = ""
	default:
		return nil, fmt.Errorf("bench: %s=%q: give host (the host compiler with nvcc's static runtime) or nvcc", EnvLink, v)
	}
	e := &Evaluator{opt: opt, tc: tc, arch: device.DefaultArch, srcDir: filepath.Join(cache.Dir, "sources"), sessions: map[string]*entry{},
		acct: newCPUAccount()}
	if e.acct != nil {
		tc.OnRun = func(cuda bool, product string, cpu time.Duration) { e.acct.add(toolKind(cuda, product), cpu) }
	}
	CleanStale(opt.ScratchDir)
	var workers []*Worker
	if !opt.NoGPU {
		workers, err = e.discover()
		if err != nil {
			return nil, err
		}
	}
	e.pool, e.workers = newPool(workers, opt.Slots, opt.Prestart), workers
	if len(workers) > 0 {
		// It runs what it compiles: the runs may go first (nvcc.Toolchain.Nice).
		tc.Nice = nice
		tc.Background = compileBackground(idle, e.pool)
	}
	if len(workers) > 0 && workers[0].Info != nil && !workers[0].Info.CC.IsZero() {
		e.arch = workers[0].Info.Arch()
	}
	return e, nil
}

// settingsFromEnv fills the integer options that opt leaves at 0 from the
// environment, else from their defaults, and returns the niceness of
// candidate compiles. A setting that is not a number in its range is an
// error naming it.
func settingsFromEnv(opt *EvaluatorOptions) (nice int, err error) {
	for _, s := range []struct {
		opt    *int
		name   string
		lo, hi int
		def    int
		want   string
	}{
		{&opt.Jobs, EnvJobs, 1, 1 << 12, 0, "how many compiles run at once, 1 or more (unset: one per CPU)"},
		{&opt.Slots, EnvSlots, 1, 1 << 10, DefaultSlots, "how many candidate processes run on one GPU at a time, 1 or more"},
		{&opt.Prestart, EnvPrestart, 0, 1 << 10, DefaultPrestart, "how many candidate processes per GPU to start ahead of a free slot (0: none)"},
		{&nice, EnvCompileNice, 0, 19, DefaultCompileNice, "a niceness from 0 (the evaluator's own) to 19"},
	} {
		if *s.opt > 0 {
			continue
		}
		n, err := envInt(s.name, s.lo, s.hi, s.want)
		switch {
		case err != nil:
			return 0, err
		case n >= 0:
			*s.opt = n
		default:
			*s.opt = s.def
		}
	}
	return nice, nil
}

// compileIdleFromEnv reads EnvCompileIdle: its default when unset, an
// error that says what to give when it is none of its values.
func compileIdleFromEnv() (string, error) {
	switch v := os.Getenv(EnvCompileIdle); v {
	case "":
		return DefaultCompileIdle, nil
	case CompileIdleNever, CompileIdleBacklog, CompileIdleAlways:
		return v, nil
	default:
		return "", fmt.Errorf("bench: %s=%q: give %s (compiles as idle work while the GPUs have a round of built candidates waiting), %s or %s",
			EnvCompileIdle, v, CompileIdleBacklog, CompileIdleAlways, CompileIdleNever)
	}
}

// compileBackground is nvcc.Toolchain.Background for EnvCompileIdle's
// value idle on an evaluator whose GPU slots are p.
func compileBackground(idle string, p *pool) func() bool {
	switch idle {
	case CompileIdleAlways:
		return func() bool { return true }
	case CompileIdleBacklog:
		return p.backlogged
	}
	return nil
}

// envInt reads the integer setting name in [lo, hi]: -1 when it is unset,
// an error that says what to give when it is not such a number.
func envInt(name string, lo, hi int, want string) (int, error) {
	v := os.Getenv(name)
	if v == "" {
		return -1, nil
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < lo || n > hi {
		return -1, fmt.Errorf("bench: %s=%q: give %s", name, v, want)
	}
	return n, nil
}

// discover opens NVML and picks the visible GPUs. Some sandboxes expose a
// GPU to CUDA but not to NVML: with the driver's device nodes present, the
// visible GPUs are run without device information or clock sampling.
func (e *Evaluator) discover() ([]*Worker, error) {
	var gpus []*device.Info
	g, err := device.Open()
	if err == nil {
		e.gpu = g
		for i := 0; i < g.Count(); i++ {
			if info, err := g.Info(i); err == nil {
				gpus = append(gpus, info)
			}
		}
	} else {
		e.gpuErr = err
		if !DeviceNodesPresent() {
			return nil, nil
		}
	}
	visible, set := os.LookupEnv(EnvVisibleDevices)
	if e.gpu == nil && !set {
		visible, set = "0", true // CUDA sees a GPU that NVML does not: run on the first
	}
	ws, err := VisibleWorkers(gpus, visible, set)
	if err != nil {
		return nil, err
	}
	if len(ws) == 0 && e.gpuErr == nil {
		e.gpuErr = fmt.Errorf("%w (%s=%q hides every GPU)", device.ErrNoGPU, EnvVisibleDevices, visible)
	}
	return ws, nil
}

// DeviceNodesPresent reports whether the NVIDIA driver's device nodes
// (/dev/nvidia0, ...) exist.
func DeviceNodesPresent() bool {
	m, _ := filepath.Glob("/dev/nvidia[0-9]*")
	return len(m) > 0
}

// Close ends every session (removing its scratch folder) and NVML.
func (e *Evaluator) Close() {
	e.mu.Lock()
	defer e.mu.Unlock()
	for k, en := range e.sessions {
		en.sess.Close()
		delete(e.sessions, k)
	}
	if e.gpu != nil {
		e.gpu.Close()
		e.gpu = nil
	}
}

// Toolchain is the evaluator's nvcc and host compiler.
func (e *Evaluator) Toolchain() *nvcc.Toolchain { return e.tc }

// DefaultArch is the architecture of a request without one: the first
// visible GPU's, else device.DefaultArch.
func (e *Evaluator) DefaultArch() string { return e.arch }

// Workers lists the GPUs candidates run on (empty without a GPU).
func (e *Evaluator) Workers() []*Worker { return slices.Clone(e.workers) }

// GPUError says why there is no GPU to run on (nil when there is one):
// also a GPU on which CUDA was found not to initialise inside the
// candidate sandbox (checkMachine), for the evaluator's lifetime.
func (e *Evaluator) GPUError() error {
	if err := e.machineFault(); err != nil {
		return err
	}
	if e.pool.size() > 0 {
		return nil
	}
	if e.gpuErr != nil {
		return e.gpuErr
	}
	return device.ErrNoGPU
}

var (
	safeName   = regexp.MustCompile(`[^A-Za-z0-9_.-]`)
	artifactRE = regexp.MustCompile(`^[0-9a-f]{32}$`)
)

// StoreSource keeps a candidate's source under the cache, by content hash,
// for a client that sends bytes rather than a path. It returns the hash
// (a handle for SourcePath) and the file.
func (e *Evaluator) StoreSource(src []byte, filename string) (id, path string, err error) {
	name := safeName.ReplaceAllString(filepath.Base(filename), "_")
	if name == "" || name == "." || name == "_" {
		name = "candidate.cu"
	}
	if !strings.HasSuffix(name, ".cu") {
		name += ".cu"
	}
	h := sha256.Sum256(append(append([]byte(name), 0), src...))
	id = hex.EncodeToString(h[:16])
	dir := filepath.Join(e.srcDir, id)
	path = filepath.Join(dir, name)
	if _, err := os.Stat(path); err == nil {
		return id, path, nil
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", "", fmt.Errorf("bench: store source: %w", err)
	}
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, src, 0o644); err != nil {
		return "", "", fmt.Errorf("bench: store source: %w", err)
	}
	if err := os.Rename(tmp, path); err != nil {
		return "", "", fmt.Errorf("bench: store source: %w", err)
	}
	return id, path, nil
}

// SourcePath finds the source a StoreSource handle names.
func (e *Evaluator) SourcePath(id string) (string, error) {
	if !artifactRE.MatchString(id) {
		return "", fmt.Errorf("bench: artifact %q is not a handle this benchmarker returned", id)
	}
	m, _ := filepath.Glob(filepath.Join(e.srcDir, id, "*.cu"))
	if len(m) != 1 {
		return "", fmt.Errorf("bench: artifact %s is unknown here (the cache was cleared?); send the source instead", id)
	}
	return m[0], nil
}

// Compile compiles one candidate without a task; a compile error is the
// record's OK false, an error is a candidate nvcc could not be run on.
func (e *Evaluator) Compile(ctx context.Context, c Candidate, arch string) (Compile, error) {
	if arch == "" {
		arch = e.arch
	}
	res, err := e.tc.CompileCUDAFlags(ctx, c.Path, arch, c.Flags)
	if err != nil {
		return Compile{}, err
	}
	return compileRecord(res, arch), nil
}

// Evaluate compiles, runs and judges one candidate of task t. Failures of
// the candidate (compile error, crash, hang, wrong answer) are its verdict;
// r.Error says when it could not be evaluated (the task's reference fails,
// no GPU, or one on which CUDA cannot initialise in the sandbox:
// device.ErrNoGPU's text).
func (e *Evaluator) Evaluate(ctx context.Context, t *task.Task, c Candidate, s Settings) *Result {
	r, err := e.evaluateTask(ctx, t, c, s)
	if err != nil {
		r.Error = err.Error()
	}
	return r
}

// evaluateTask is Evaluate with the machine's fault (see evaluate) as an
// error, for Run to return.
func (e *Evaluator) evaluateTask(ctx context.Context, t *task.Task, c Candidate, s Settings) (*Result, error) {
	start := time.Now()
	sess, release, err := e.session(t, s)
	if err != nil {
		r := &Result{Time: start.UTC().Format(time.RFC3339), Suite: t.Suite, Task: t.Name, Candidate: c.Name,
			Kind: c.Kind, Path: c.origin(), Expect: c.Expect, Profile: s.Profile, Error: err.Error()}
		r.Seconds = time.Since(start).Seconds()
		return r, nil
	}
	defer release()
	r, err := e.evaluate(ctx, sess, c, s.CompileOnly)
	r.Seconds = time.Since(start).Seconds()
	e.acct.write()
	return r, err
}

// evaluate builds, runs and judges c in sess. The error, which wraps
// device.ErrNoGPU, is the machine's fault: no GPU, or CUDA not
// initialising in the sandbox (checkMachine); r is then not the
// candidate's doing.
func (e *Evaluator) evaluate(ctx context.Context, sess *Session, c Candidate, compileOnly bool) (*Result, error) {
	if compileOnly {
		r := sess.compile(ctx, c)
		if err := sess.prepare(ctx); err != nil && r.Error == "" {
			r.Error = err.Error()
		}
		return r, nil
	}
	if err := e.GPUError(); err != nil {
		return sess.newResult(c), err
	}
	t := time.Now()
	lap := func() float64 {
		now := time.Now()
		d := now.Sub(t).Seconds()
		t = now
		return d
	}
	r := sess.Build(ctx, c)
	r.BuildSeconds = lap()
	if r.exe == "" || r.Error != "" {
		return r, nil
	}
	// The reference runs before a worker is taken: it is timed on the CPU.
	err := sess.runReference(ctx)
	r.ReferenceWait = lap()
	if err != nil {
		r.Error = err.Error()
		return r, nil
	}
	var ahead func()
	if sess.WritesAhead() {
		ahead = func() { r.outDir = sess.prepareOutDir() }
	}
	w, err := e.pool.acquire(ctx, ahead)
	r.SlotWait = lap()
	// A folder made ahead that no run took (the run failed before it).
	defer r.dropOutDir()
	if err != nil {
		r.Error = "bench: " + err.Error()
		return r, nil
	}
	// The slot is free once the driver's GPU work is over (its last
	// record), before its process has finished exiting.
	var freed sync.Once
	free := func() { freed.Do(func() { e.pool.release(w) }) }
	judge := sess.Start(ctx, r, w, free)
	free()
	if judge != nil {
		lap()
		judge()
		r.JudgeSeconds = lap()
	}
	return r, e.checkMachine(ctx, r, w)
}

// session returns the warm session of task t and settings s, and the
// function that hands it back. Sessions in use are never closed; the least
// recently used idle one goes when there are more than MaxSessions.
func (e *Evaluator) session(t *task.Task, s Settings) (*Session, func(), error) {
	prof, err := ParseProfile(string(s.Profile))
	if err != nil {
		return nil, nil, err
	}
	t, err = SelectConfigs(t, prof, s.Configs)
	if err != nil {
		return nil, nil, err
	}
	opt := Options{Toolchain: e.tc, Arch: s.Arch, Profile: prof, Warmup: s.Warmup, Repeats: s.Repeats,
		TimeLimit: s.TimeLimit, RefTimeout: e.opt.RefTimeout, CompileOnly: s.CompileOnly,
		ScratchDir: e.opt.ScratchDir, Seeds: s.Seeds, NVML: e.gpu, ShareGPU: e.opt.ShareGPU, Staging: e.opt.Staging, account: e.acct}
	if opt.Arch == "" {
		opt.Arch = e.arch
	}
	opt.defaults()
	var names []string
	for _, c := range t.Configs {
		names = append(names, c.Name)
	}
	// The profile and staging too: explicit calls and limits equal to the
	// other profile's must not hand out a session of that profile.
	key := fmt.Sprintf("%s|%v|%s|%d|%d|%v|%v|%v|%s|%s", t.Dir, names, opt.Arch, opt.Warmup, opt.Repeats,
		opt.TimeLimit, opt.Seeds, opt.CompileOnly, opt.Profile, opt.Staging)
	e.mu.Lock()
	defer e.mu.Unlock()
	en, ok := e.sessions[key]
	if !ok {
		sess, err := NewSession(t, opt)
		if err != nil {
			return nil, nil, err
		}
		en = &entry{sess: sess}
		e.sessions[key] = en
		if s.CompileOnly || e.pool.size() > 0 { // a run on no GPU fails before it builds
			sess.Warm()
		}
		if !s.CompileOnly && e.pool.size() > 0 && prof == ProfileRL {
			// The RL profile runs the reference at once, beside the first
			// compiles, instead of after the task's first candidate has
			// compiled: every candidate of the task waits for it, and in a
			// cold batch the GPU's slots sat idle for the first 1.4 s (an
			// H100 machine) to 2-3 s (an H200 machine) while the first
			// references ran. Measured (bench/RESULTS.md, lease 14): the
			// candidates' waits for references fell by half, the batch's
			// rate not beyond its spread (390 against 380/min; those
			// first seconds are bound by the CPUs); kept, as it costs
			// nothing measured. A session is warm for a whole RL run
			// (and not evicted while its reference runs), so a task none
			// of whose candidates ever compiles costs one reference run
			// (about 2 CPU-s) a session.
			sess.startReference()
		}
	}
	// In use before evict runs: a new entry is otherwise idle and the
	// least recently used (its zero time), and was closed, its folder
	// removed, as it was handed out (every candidate of a ninth task
	// failed to build on the H200, 2026-12-02).
	en.users++
	en.used = time.Now()
	e.evict()
	return en.sess, func() {
		e.mu.Lock()
		en.users--
		e.mu.Unlock()
	}, nil
}

// evict closes idle sessions (no request holds them, no reference runs),
// least recently used first, down to MaxSessions; e.mu is held.
func (e *Evaluator) evict() {
	for len(e.sessions) > e.opt.MaxSessions {
		oldKey := ""
		var oldest time.Time
		for k, en := range e.sessions {
			// A session whose reference runs is not idle: closing it
			// would waste the run (the RL profile starts it with the
			// session, before any candidate of it compiled).
			if en.users == 0 && !en.sess.ref.running() && (oldKey == "" || en.used.Before(oldest)) {
				oldKey, oldest = k, en.used
			}
		}
		if oldKey == "" {
			return // all busy: close them when they are idle and another comes
		}
		e.sessions[oldKey].sess.Close()
		delete(e.sessions, oldKey)
	}
}

// SelectConfigs returns t with only the configurations to run: the named
// ones, else the profile's (the task the evaluator generates its programs
// for; bench/harness/gen writes them).
func SelectConfigs(t *task.Task, prof Profile, names []string) (*task.Task, error) {
	var keep []task.Config
	switch {
	case len(names) > 0:
		for _, name := range names {
			i := slices.IndexFunc(t.Configs, func(c task.Config) bool { return c.Name == name })
			if i < 0 {
				var have []string
				for _, c := range t.Configs {
					have = append(have, c.Name)
				}
				return nil, fmt.Errorf("bench: task %s has no configuration %q (it has %s)", t.Name, name, strings.Join(have, ", "))
			}
			keep = append(keep, t.Configs[i])
		}
	case prof == ProfileRL:
		for _, i := range t.RLConfigs() {
			keep = append(keep, t.Configs[i])
		}
	default:
		return t, nil
	}
	// The primary stays the primary when it is kept.
	p := t.Configs[t.Primary()].Name
	c := *t
	c.Configs = slices.Clone(keep)
	for i := range c.Configs {
		c.Configs[i].Primary = c.Configs[i].Name == p
	}
	return &c, nil
}
