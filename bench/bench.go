package bench

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/cudaperf/cudaperf/analysis/device"
	"github.com/cudaperf/cudaperf/bench/harness"
	"github.com/cudaperf/cudaperf/bench/nvcc"
	"github.com/cudaperf/cudaperf/bench/runner"
	"github.com/cudaperf/cudaperf/bench/sandbox"
	"github.com/cudaperf/cudaperf/bench/task"
	"github.com/cudaperf/cudaperf/bench/verdict"
)

// Candidate kinds.
const (
	KindVariant   = "variant"   // variants/*.cu of a task
	KindCheat     = "cheat"     // cheats/*.cu of a selftest task
	KindCandidate = "candidate" // a file given by the user or a policy
)

// Candidate is one .cu file to evaluate.
type Candidate struct {
	Name   string // file base name without .cu
	Path   string // the file compiled
	Origin string // how the client named the file, recorded as Result.Path (default Path)
	Kind   string
	Expect string   // for cheats: the verdict reason id that must reject it
	Flags  []string // extra nvcc flags
}

func (c Candidate) origin() string {
	if c.Origin != "" {
		return c.Origin
	}
	return c.Path
}

// expectRE reads a cheat's first line, "// expect: <reason id>[|<reason id>...] ...".
var expectRE = regexp.MustCompile(`^//\s*expect:\s*([a-z_]+(?:\|[a-z_]+)*)`)

// Variants returns the task's variants as candidates.
func Variants(t *task.Task) []Candidate {
	var out []Candidate
	for _, p := range t.Variants {
		out = append(out, Candidate{Name: strings.TrimSuffix(filepath.Base(p), ".cu"), Path: p, Kind: KindVariant})
	}
	return out
}

// Cheats returns the task's cheats/*.cu (selftest suites) as candidates.
func Cheats(t *task.Task) []Candidate {
	files, _ := filepath.Glob(filepath.Join(t.Dir, "cheats", "*.cu"))
	sort.Strings(files)
	var out []Candidate
	for _, p := range files {
		c := Candidate{Name: strings.TrimSuffix(filepath.Base(p), ".cu"), Path: p, Kind: KindCheat}
		if src, err := os.ReadFile(p); err == nil {
			first, _, _ := strings.Cut(string(src), "\n")
			if m := expectRE.FindStringSubmatch(first); m != nil {
				c.Expect = m[1]
			}
		}
		out = append(out, c)
	}
	return out
}

// Options configure a Session.
type Options struct {
	Toolchain   *nvcc.Toolchain
	Arch        string        // nvcc architecture, "sm_90" (default device.DefaultArch)
	Profile     Profile       // report (default) or rl: decides the defaults below
	Warmup      int           // untimed calls before the timed ones (default: the profile's)
	Repeats     int           // timed calls per configuration (default: the profile's)
	TimeLimit   time.Duration // wall time per configuration (default: the profile's; see ProcessLimit)
	RefTimeout  time.Duration // limit for the reference program (default 10 min)
	CompileOnly bool
	ScratchDir  string       // inputs and outputs; default /dev/shm when writable, else the temp dir
	Seeds       [2]uint64    // input seeds A and B; zero: fresh random seeds (reproduce a result with its recorded seeds)
	NVML        *device.NVML // samples clocks during runs; nil without NVML
	// ShareGPU: report-profile candidates share the GPU outside their timed
	// calls, as RL-profile ones always do (EvaluatorOptions.ShareGPU).
	ShareGPU bool
	// Staging is how the driver stages a candidate's arrays on the host
	// (StagingArena or StagingMapped; default: the profile's, see
	// DefaultStaging).
	Staging Staging
	// account, if set, sums the CPU of the session's programs and judging
	// by kind (EnvCPUAccount).
	account *cpuAccount
}

func (o *Options) defaults() {
	if o.Profile == "" {
		o.Profile = ProfileReport
	}
	p := profiles[o.Profile]
	if o.Warmup <= 0 {
		o.Warmup = p.warmup
	}
	if o.Repeats <= 0 {
		o.Repeats = p.repeats
	}
	if o.TimeLimit <= 0 {
		o.TimeLimit = p.timeLimit // 0 for rl: derived from the reference's time
	}
	if o.RefTimeout <= 0 {
		o.RefTimeout = 10 * time.Minute
	}
	if o.Arch == "" {
		o.Arch = device.DefaultArch
	}
	if o.Staging == "" {
		o.Staging = DefaultStaging(o.Profile)
	}
}

// Kernel is the ptxas resource usage of one kernel.
type Kernel struct {
	Name        string `json:"name"`
	Mangled     string `json:"mangled"`
	Registers   int    `json:"registers"`
	SharedBytes int    `json:"shared_bytes"`
	LocalBytes  int    `json:"local_bytes"`
	StackFrame  int    `json:"stack_frame"`
	SpillStores int    `json:"spill_stores"`
	SpillLoads  int    `json:"spill_loads"`
}

// Compile is the outcome of compiling a candidate.
type Compile struct {
	OK      bool    `json:"ok"`
	Cached  bool    `json:"cached"`
	Seconds float64 `json:"seconds"`
	// CPUSeconds is the CPU time (user and kernel) of nvcc and the tools
	// it drove; 0 when served from the cache.
	CPUSeconds float64 `json:"cpu_seconds,omitempty"`
	// Idle: the compile ran as the machine's idle work (EnvCompileIdle).
	Idle    bool     `json:"idle,omitempty"`
	Arch    string   `json:"arch"`
	Log     string   `json:"log,omitempty"`
	Kernels []Kernel `json:"kernels,omitempty"`
}

// Result is one candidate's evaluation: one line of results.jsonl.
type Result struct {
	Time      string           `json:"time"`
	Suite     string           `json:"suite"`
	Task      string           `json:"task"`
	Candidate string           `json:"candidate"`
	Kind      string           `json:"kind"`
	Path      string           `json:"path"`
	Expect    string           `json:"expect,omitempty"` // cheats: the reason that must reject it
	Caught    bool             `json:"caught,omitempty"` // cheats: rejected with Expect
	Compile   Compile          `json:"compile"`
	Ran       bool             `json:"ran"`
	Verdict   *verdict.Verdict `json:"verdict,omitempty"`
	Device    *device.Info     `json:"device,omitempty"`
	Clocks    *device.Summary  `json:"clocks,omitempty"`
	DriverSMs int              `json:"sms,omitempty"`
	Seeds     [2]uint64        `json:"seeds,omitempty"` // recorded after the run, for reproduction
	RunWall   float64          `json:"run_seconds,omitempty"`
	GateWait  float64          `json:"gate_wait_seconds,omitempty"` // of run_seconds, waiting for the GPU gate (RL profile)
	// PrestartWait is how long, of run_seconds, the process, started
	// ahead of a free slot (EvaluatorOptions.Prestart), waited with its
	// context made for its turn to work.
	PrestartWait float64 `json:"prestart_wait_seconds,omitempty"`
	// GateExclusive is how long, of run_seconds, the candidate held the
	// GPU alone for its timed calls (RL profile): what candidates running
	// side by side cannot overlap, so their sum bounds the throughput.
	GateExclusive float64 `json:"gate_exclusive_seconds,omitempty"`
	// GateShared is how long it held the gate shared (copies, the seed-B
	// call, reading back), which other candidates' timings wait out.
	GateShared float64 `json:"gate_shared_seconds,omitempty"`
	// ContextSeconds is the time from the driver's start to a ready CUDA
	// context, which candidates starting together pay together.
	ContextSeconds float64 `json:"context_seconds,omitempty"`
	// StartSeconds is the process's time before the driver's main (the
	// sandbox, exec, loading libraries); ExitSeconds its time after the
	// last record (freeing and CUDA's teardown at exit). With the context,
	// the gate wait and the configurations' own time they make up
	// run_seconds.
	StartSeconds float64 `json:"start_seconds,omitempty"`
	ExitSeconds  float64 `json:"exit_seconds,omitempty"`
	// CPUUser and CPUSys are the candidate process's CPU time in user
	// space and in the kernel (its context, pinning, copies, files, exit).
	CPUUser float64 `json:"cpu_user_seconds,omitempty"`
	CPUSys  float64 `json:"cpu_sys_seconds,omitempty"`
	// GPUShared says how the candidate was timed: false, the GPU was its
	// alone for the whole run; true, other candidates' set-up and checks
	// ran beside it, but never during its timed calls (Gate).
	GPUShared bool `json:"gpu_shared,omitempty"`
	// InitRetries counts runs made again because CUDA could not be
	// initialised (see initRetries).
	InitRetries int             `json:"init_retries,omitempty"`
	RunLog      string          `json:"run_log,omitempty"`
	Error       string          `json:"error,omitempty"`   // the harness could not evaluate it
	Sandbox     *sandbox.Report `json:"sandbox,omitempty"` // how the candidate was confined and what it tried

	Profile   Profile `json:"profile,omitempty"`            // the evaluation profile (report or rl)
	TimeLimit float64 `json:"time_limit_seconds,omitempty"` // the candidate process's wall-time limit
	Seconds   float64 `json:"eval_seconds,omitempty"`       // request to result: compile, queue, run and judging
	// Where eval_seconds went before and after the process (run_seconds):
	// building (the compile, its queue, the driver, the link), waiting for
	// the task's reference program, waiting for a GPU slot (and writing
	// the output files ahead meanwhile, Session.prepareOutDir), and judging
	// the outputs. A batch whose latency is mostly slot wait is bound by
	// the GPU's slots; mostly build, by the compiles.
	BuildSeconds  float64 `json:"build_seconds,omitempty"`
	ReferenceWait float64 `json:"reference_wait_seconds,omitempty"`
	SlotWait      float64 `json:"slot_wait_seconds,omitempty"`
	JudgeSeconds  float64 `json:"judge_seconds,omitempty"`
	// HostMapped counts the arrays the driver staged through mapped files
	// (StagingMapped) instead of its host arena, over every
	// configuration and seed: 0 when the arena staged them all.
	HostMapped int  `json:"host_mapped,omitempty"`
	Recorded   bool `json:"recorded,omitempty"` // answered from a measurements file, not measured now (plugins/recorded)
	// SourceHash is SourceHash of the source compiled, so that a recorded
	// answer goes to the source that was measured, not to whatever the
	// file holds later (plugins/recorded).
	SourceHash string `json:"source_hash,omitempty"`

	exe string // the linked driver, set by Build
	// outDir is the folder of the candidate's run made while it waited
	// for a slot (Session.prepareOutDir), "" when none; runOnce takes it.
	outDir string
}

// dropOutDir removes the folder made ahead for a run that did not take it.
func (r *Result) dropOutDir() {
	if r.outDir != "" {
		os.RemoveAll(r.outDir)
		r.outDir = ""
	}
}

// Session evaluates candidates of one task.
type Session struct {
	Task *task.Task
	opt  Options
	dir  string // scratch: src/ and data/
	src  *harness.Sources

	// ctx is the session's own: its driver build and reference run under
	// it, not under the request that happened to start them, so that a
	// cancelled request does not fail them for every later one; Close
	// cancels it.
	ctx    context.Context
	cancel context.CancelFunc

	prep     background // the driver and the reference program
	refBuild background // the reference program alone
	driverO  string
	refExe   string

	ref    background
	seeds  [2]uint64
	refMs  map[int][]float64 // seed A times per config
	refOut map[[3]int][]byte // (config, tag, param) -> bytes
	compMu sync.Mutex
	comps  map[string]*nvcc.Result // by candidate path

	ahead []aheadFile // the outputs prepareOutDir writes (outputsAhead)
}

// NewSession prepares the scratch folder and generates the programs.
func NewSession(t *task.Task, opt Options) (*Session, error) {
	opt.defaults()
	if opt.Toolchain == nil {
		return nil, errors.New("bench: no toolchain")
	}
	if _, err := ParseStaging(string(opt.Staging)); err != nil {
		return nil, err // the driver would refuse it for every candidate
	}
	root := opt.ScratchDir
	if root == "" {
		root = defaultScratch()
	}
	// The pid in the name lets CleanStale remove folders of killed processes.
	dir, err := os.MkdirTemp(root, fmt.Sprintf("cudaperf-%d-%s-", os.Getpid(), t.Name))
	if err != nil {
		return nil, fmt.Errorf("bench: scratch folder: %w", err)
	}
	src, err := harness.Generate(t)
	if err != nil {
		os.RemoveAll(dir)
		return nil, err
	}
	for _, sub := range []string{"src", "data"} {
		if err := os.MkdirAll(filepath.Join(dir, sub), 0o755); err != nil {
			os.RemoveAll(dir)
			return nil, fmt.Errorf("bench: %w", err)
		}
	}
	for name, text := range src.Files() {
		if err := os.WriteFile(filepath.Join(dir, "src", name), []byte(text), 0o644); err != nil {
			os.RemoveAll(dir)
			return nil, fmt.Errorf("bench: %w", err)
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	return &Session{Task: t, opt: opt, dir: dir, src: src, comps: map[string]*nvcc.Result{}, ctx: ctx, cancel: cancel,
		ahead: outputsAhead(t)}, nil
}

// background is work done once, in a goroutine of its own, that callers
// wait for as long as their own context lets them.
type background struct {
	once    sync.Once
	done    chan struct{}
	err     error
	started atomic.Bool // set after done, so that running may read it
}

// start begins f unless it has begun.
func (b *background) start(f func() error) {
	b.once.Do(func() {
		b.done = make(chan struct{})
		b.started.Store(true)
		go func() {
			defer close(b.done)
			b.err = f()
		}()
	})
}

// running reports whether the work has begun and not ended.
func (b *background) running() bool {
	if !b.started.Load() {
		return false
	}
	select {
	case <-b.done:
		return false
	default:
		return true
	}
}

// settle waits for work that has begun; work that has not can no longer
// begin, and its waiters get err.
func (b *background) settle(err error) {
	b.once.Do(func() {
		b.done = make(chan struct{})
		b.err = err
		close(b.done)
		b.started.Store(true)
	})
	<-b.done
}

// wait starts f unless it has begun and waits for its error, or for ctx.
func (b *background) wait(ctx context.Context, f func() error) error {
	b.start(f)
	select {
	case <-b.done:
		return b.err
	case <-ctx.Done():
		return ctx.Err()
	}
}

// EnvScratch overrides where inputs and outputs are staged.
const EnvScratch = "CUDAPERF_SCRATCH"

// minShmFree is the free space /dev/shm needs to be used: containers often
// mount a 64 MB /dev/shm, which one large configuration would overflow.
const minShmFree = 8 << 30

// defaultScratch prefers memory-backed /dev/shm when it is large enough:
// inputs of large configurations are hundreds of megabytes written and read
// per run.
func defaultScratch() string {
	if d := os.Getenv(EnvScratch); d != "" {
		return d
	}
	var st syscall.Statfs_t
	if syscall.Statfs("/dev/shm", &st) == nil && int64(st.Bavail)*int64(st.Bsize) >= minShmFree {
		if f, err := os.CreateTemp("/dev/shm", "cudaperf-probe-"); err == nil {
			f.Close()
			os.Remove(f.Name())
			return "/dev/shm"
		}
	}
	return os.TempDir()
}

// CleanStale removes scratch folders that processes which no longer exist
// left in root (default: the default scratch folder), for example a plugin
// the host killed. It returns how many it removed.
func CleanStale(root string) int {
	if root == "" {
		root = defaultScratch()
	}
	dirs, _ := filepath.Glob(filepath.Join(root, "cudaperf-*-*"))
	n := 0
	for _, d := range dirs {
		f := strings.SplitN(filepath.Base(d), "-", 3)
		pid, err := strconv.Atoi(f[1])
		if err != nil || pid <= 0 || pid == os.Getpid() {
			continue
		}
		// Signal 0 checks existence; EPERM means it exists under another user.
		if err := syscall.Kill(pid, 0); err == nil || errors.Is(err, syscall.EPERM) {
			continue
		}
		if os.RemoveAll(d) == nil {
			n++
		}
	}
	return n
}

// Close stops the session's background work and removes the scratch
// folder, once the reference program (killed by the cancel) has exited:
// it writes its inputs into that folder (the RL profile starts it with
// the session, so a session can be closed while it runs).
func (s *Session) Close() error {
	s.cancel()
	s.ref.settle(errors.New("bench: " + s.Task.Name + ": the session was closed"))
	return os.RemoveAll(s.dir)
}

// Prepare compiles the generated driver and the reference program (once);
// the error says which failed, with the compiler's log.
func (s *Session) Prepare(ctx context.Context) error { return s.prepare(ctx) }

// prepare compiles the driver and the reference program (once), or waits
// for the build under way.
func (s *Session) prepare(ctx context.Context) error {
	return s.prep.wait(ctx, s.prepareJob)
}

// prepareJob is the build, under the session's context.
func (s *Session) prepareJob() error { return s.doPrepare(s.ctx) }

// Warm starts building the driver and the reference program in the
// background, so that they are ready when the first candidate has
// compiled instead of starting then (in a cold batch of 8 tasks, every
// task's first candidates waited for both after their own compile).
func (s *Session) Warm() { s.prep.start(s.prepareJob) }

// doPrepare builds the reference program (refBuild, which the reference
// run waits for alone) and, beside it, the driver.
func (s *Session) doPrepare(ctx context.Context) error {
	s.refBuild.start(s.refBuildJob)
	// Every candidate of the task waits for this build.
	ctx = nvcc.Urgent(ctx)
	srcDir := filepath.Join(s.dir, "src")
	drv, err := s.opt.Toolchain.CompileCUDA(ctx, filepath.Join(srcDir, harness.DriverFile), s.opt.Arch, filepath.Join(srcDir, harness.HeaderFile))
	refErr := s.refBuild.wait(ctx, s.refBuildJob)
	if err != nil {
		return errors.Join(err, refErr)
	}
	if !drv.OK {
		return errors.Join(fmt.Errorf("bench: %s: generated driver does not compile (a harness bug; please report):\n%s", s.Task.Name, drv.Log), refErr)
	}
	if refErr != nil {
		return refErr
	}
	s.driverO = drv.Output
	return nil
}

// refBuildJob compiles and links the reference program, under the
// session's context. It does not wait for the driver's nvcc compile (about
// as long as a candidate's), so that an early reference run (the RL
// profile's, see Evaluator.session) starts after two gcc compiles.
func (s *Session) refBuildJob() error {
	ctx := nvcc.Urgent(s.ctx)
	tc := s.opt.Toolchain
	srcDir := filepath.Join(s.dir, "src")
	var ref, refMain *nvcc.Result
	var errs [2]error
	var wg sync.WaitGroup
	wg.Add(2)
	go func() { defer wg.Done(); ref, errs[0] = tc.CompileC(ctx, s.Task.Reference) }()
	go func() {
		defer wg.Done()
		refMain, errs[1] = tc.CompileC(ctx, filepath.Join(srcDir, harness.RefMainFile), filepath.Join(srcDir, harness.HeaderFile))
	}()
	wg.Wait()
	if err := errors.Join(errs[:]...); err != nil {
		return err
	}
	if !ref.OK {
		return fmt.Errorf("bench: %s: reference.c does not compile with gcc -O2:\n%s", s.Task.Name, ref.Log)
	}
	if !refMain.OK {
		return fmt.Errorf("bench: %s: generated reference program does not compile:\n%s", s.Task.Name, refMain.Log)
	}
	exe, err := tc.LinkC(ctx, refMain.Output, ref.Output)
	if err != nil {
		return err
	}
	if !exe.OK {
		return fmt.Errorf("bench: %s: reference does not link (does reference.c define %s%s?):\n%s", s.Task.Name, s.Task.Entry, genNote(s.Task), exe.Log)
	}
	s.refExe = exe.Output
	return nil
}

func genNote(t *task.Task) string {
	if t.Generator != "" {
		return " and " + t.Generator
	}
	return ""
}

// CompileAll compiles candidates in parallel (and the harness), returning
// results in order; compile errors are results, not errors.
func (s *Session) CompileAll(ctx context.Context, cands []Candidate) []*Result {
	out := make([]*Result, len(cands))
	var wg sync.WaitGroup
	wg.Add(1)
	go func() { defer wg.Done(); _ = s.prepare(ctx) }()
	for i, c := range cands {
		wg.Add(1)
		go func() {
			defer wg.Done()
			out[i] = s.compile(ctx, c)
		}()
	}
	wg.Wait()
	return out
}

func (s *Session) newResult(c Candidate) *Result {
	return &Result{
		Time: time.Now().UTC().Format(time.RFC3339), Suite: s.Task.Suite, Task: s.Task.Name,
		Candidate: c.Name, Kind: c.Kind, Path: c.origin(), Expect: c.Expect, Profile: s.opt.Profile,
	}
}

func (s *Session) compile(ctx context.Context, c Candidate) *Result {
	r := s.newResult(c)
	if src, err := os.ReadFile(c.Path); err == nil {
		r.SourceHash = SourceHash(src)
	}
	res, err := s.opt.Toolchain.CompileCUDAFlags(ctx, c.Path, s.opt.Arch, c.Flags)
	if err != nil {
		r.Error = err.Error()
		return r
	}
	s.compMu.Lock()
	s.comps[c.Path] = res
	s.compMu.Unlock()
	r.Compile = compileRecord(res, s.opt.Arch)
	if !res.OK {
		r.Verdict = verdict.Rejected(verdict.CompileError, "nvcc failed; see the compile log")
	}
	return r
}

// compileRecord is the one conversion of an nvcc result into a record.
func compileRecord(res *nvcc.Result, arch string) Compile {
	c := Compile{OK: res.OK, Cached: res.Cached, Seconds: res.Duration.Seconds(), Idle: res.Idle, Arch: arch, Log: res.Log}
	if !res.Cached {
		c.CPUSeconds = res.CPU.Seconds()
	}
	if res.Resources != nil {
		for _, f := range res.Resources.Functions {
			if !f.Entry {
				continue
			}
			c.Kernels = append(c.Kernels, Kernel{
				Name: f.Name, Mangled: f.Mangled, Registers: f.Registers, SharedBytes: f.SharedBytes,
				LocalBytes: f.LocalBytes, StackFrame: f.StackFrame, SpillStores: f.SpillStores, SpillLoads: f.SpillLoads,
			})
		}
	}
	return c
}

// Build compiles the candidate (through the cache) and, unless the session
// is compile-only, links it with the driver. Builds may run concurrently
// with each other and with Run.
func (s *Session) Build(ctx context.Context, c Candidate) (r *Result) {
	r = s.compile(ctx, c)
	// A cheat expected not to build is judged here: it never runs.
	defer r.settle()
	if r.Error != "" || !r.Compile.OK || s.opt.CompileOnly {
		return r
	}
	s.startReference()
	if err := s.prepare(ctx); err != nil {
		r.Error = err.Error()
		return r
	}
	s.compMu.Lock()
	obj := s.comps[c.Path].Output
	s.compMu.Unlock()
	exe, err := s.opt.Toolchain.LinkCUDA(ctx, s.opt.Arch, nvcc.DeviceLink(c.Flags), s.driverO, obj)
	if err != nil {
		r.Error = err.Error()
		return r
	}
	if !exe.OK {
		r.Compile.OK = false
		r.Compile.Log += "\n" + exe.Log
		r.Verdict = verdict.Rejected(verdict.CompileError, "link failed (does the file define extern \"C\" "+s.Task.GenerateSignature()+"?)")
		return r
	}
	r.exe = exe.Output
	return r
}

// Run runs a built candidate on worker w's GPU (nil: whatever the process
// sees) and judges it; it does nothing for a result that did not build.
func (s *Session) Run(ctx context.Context, r *Result, w *Worker) {
	if judge := s.Start(ctx, r, w, nil); judge != nil {
		judge()
	}
}

// Start runs a built candidate's process on worker w's GPU and returns
// once it has exited, with the function that judges it (reading and
// comparing outputs), or nil when there is nothing to judge. So the worker
// can take the next candidate while this one is judged. gpuDone, when not
// nil, is called as the driver writes its last record: its GPU work is
// over, and what is left is the process's exit (CUDA's teardown, 0.18 s
// of a 1.3 s RL run on the H200), which the next candidate's start can
// overlap. It is called at most once, and not at all for a driver that
// stops before its last record: the caller frees what it guards when
// Start returns, as before.
func (s *Session) Start(ctx context.Context, r *Result, w *Worker, gpuDone func()) (judge func()) {
	if r.exe == "" || r.Error != "" {
		return nil
	}
	if err := s.runReference(ctx); err != nil {
		r.Error = err.Error()
		return nil
	}
	j := s.run(ctx, r, r.exe, w, gpuDone)
	return func() {
		j()
		r.settle()
	}
}

// settle says whether an expected rejection (r.Expect) happened, once the
// verdict is final.
func (r *Result) settle() {
	if r.Expect != "" && r.Verdict != nil {
		r.Caught = r.Verdict.Caught(r.Expect)
	}
}

// runReference runs the reference program once per session, loads its
// outputs and removes them from disk before any candidate runs.
func (s *Session) runReference(ctx context.Context) error {
	return s.ref.wait(ctx, s.referenceJob)
}

// startReference starts the reference program in the background: Build
// does once the first candidate has compiled, so that its link and its
// wait for a GPU slot overlap the reference instead of following it (not
// before in the report profile: a task none of whose candidates compiles
// needs no reference, and there the reference is timed with the compiles
// stopped), and the evaluator at once for the RL profile.
func (s *Session) startReference() { s.ref.start(s.referenceJob) }

func (s *Session) referenceJob() error {
	// The RL profile's reference waits for its own build alone; the
	// report profile's for the driver too, as no candidate can run
	// without it and the reference is timed with every compile stopped.
	build := func() error { return s.refBuild.wait(s.ctx, s.refBuildJob) }
	if s.opt.Profile != ProfileRL {
		build = func() error { return s.prepare(s.ctx) }
	}
	if err := build(); err != nil {
		return err
	}
	return s.doRunReference(s.ctx)
}

func randomSeed() uint64 {
	var b [8]byte
	if _, err := rand.Read(b[:]); err != nil {
		return uint64(time.Now().UnixNano())
	}
	return binary.LittleEndian.Uint64(b[:]) >> 1 // fits strtoull and JSON consumers
}

func (s *Session) doRunReference(ctx context.Context) error {
	s.seeds = s.opt.Seeds
	if s.seeds == [2]uint64{} {
		s.seeds = [2]uint64{randomSeed(), randomSeed()}
	}
	data := filepath.Join(s.dir, "data")
	records := filepath.Join(s.dir, "ref.jsonl")
	var o *runner.Outcome
	var err error
	run := func() {
		o, err = runner.Run(ctx, runner.Cmd{
			Path: s.refExe, Args: []string{data, records, strconv.FormatUint(s.seeds[0], 10), strconv.FormatUint(s.seeds[1], 10)},
			Timeout: s.opt.RefTimeout,
		})
	}
	if s.opt.Profile == ProfileRL {
		// RL runs references beside compiles and each other: held
		// exclusive, the 8 tasks' references of a batch ran one after
		// another for 6 s with every compile stopped (H200). A noisier
		// reference time moves every candidate of its task alike, and
		// GRPO compares candidates within a task's group.
		run()
	} else {
		// The reference is timed on the CPU: keep compiles off the cores meanwhile.
		s.opt.Toolchain.Exclusive(run)
	}
	if err != nil {
		return err
	}
	s.opt.account.add(CPUReference, o.UserCPU+o.SysCPU)
	if !o.OK() {
		return fmt.Errorf("bench: %s: reference program %s:\n%s", s.Task.Name, o.Describe(), o.Output)
	}
	recs, err := readRecords(records)
	if err != nil {
		return err
	}
	s.refMs = map[int][]float64{}
	for _, rec := range recs {
		if rec.Seed == "a" {
			s.refMs[rec.Config] = rec.Ms
		}
	}
	s.refOut = map[[3]int][]byte{}
	for c := range s.Task.Configs {
		for k, tag := range harness.Tags {
			for p, prm := range s.Task.Params {
				if !prm.Role.IsOutput() {
					continue
				}
				path := harness.RefOutputPath(data, c, tag, p)
				b, err := os.ReadFile(path)
				if err != nil {
					return fmt.Errorf("bench: %s: reference output missing: %w", s.Task.Name, err)
				}
				s.refOut[[3]int{c, k, p}] = b
				// The candidate's process must not find the answers.
				os.Remove(path)
			}
		}
	}
	return nil
}

// record is one line of the driver's or the reference's records file.
type record struct {
	Config int       `json:"config"`
	Seed   string    `json:"seed"`
	Error  string    `json:"error"`
	Ms     []float64 `json:"ms"`
	TailMs []float64 `json:"tail_ms"`
	HostMs []float64 `json:"host_ms"`
	Leak   int64     `json:"leak_bytes"`
	// InputsModified are the indices of input parameters the calls changed.
	InputsModified []int `json:"inputs_modified"`
	// Mapped is how many arrays of the seed were staged through mapped
	// files (StagingMapped) instead of the host arena.
	Mapped int `json:"mapped"`
	// AtMs is when the record was written, in ms since the driver's main
	// began (for the device record: once the CUDA context was made).
	AtMs float64 `json:"at_ms"`
	// MainMonoMs is CLOCK_MONOTONIC when main began (device record only).
	MainMonoMs float64 `json:"main_mono_ms"`
	Device     string  `json:"device"`
	CC         string  `json:"cc"`
	SMs        int     `json:"sms"`
}

func readRecords(path string) ([]record, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return nil, nil
		}
		return nil, fmt.Errorf("bench: %w", err)
	}
	var out []record
	for i, line := range bytes.Split(data, []byte("\n")) {
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		var r record
		if err := json.Unmarshal(line, &r); err != nil {
			// A process killed mid-line leaves a torn last line.
			return out, fmt.Errorf("bench: %s:%d: %w", path, i+1, err)
		}
		out = append(out, r)
	}
	return out, nil
}

// ProcessLimit is the wall-time limit of one candidate process: a start-up
// allowance (CUDA context creation) plus, per configuration, the session's
// TimeLimit, or in the RL profile without one, max(1 s, 20 x the C
// reference's time for one call), for all of that configuration's calls:
// a candidate more than about 3x slower than the single-threaded C
// reference times out there. The limit is kept that tight because a hang
// holds the GPU's timing gate until it is killed (measured on the H200:
// with 20 x the time of all the calls, one hang cost 42 s). Each
// configuration is also held to its own share plus the start-up allowance
// as it runs (stageWatch), so a hang is stopped after that, not after the
// sum over every configuration, and its timed calls to holdLimit while
// they hold the GPU alone.
func (s *Session) ProcessLimit() time.Duration {
	total := StartupAllowance
	for c := range s.Task.Configs {
		total += s.configLimit(c)
	}
	return total
}

// configLimit is configuration c's share of ProcessLimit.
func (s *Session) configLimit(c int) time.Duration {
	if s.opt.TimeLimit > 0 {
		return s.opt.TimeLimit
	}
	return max(RLMinTimeLimit, s.refLimit(c))
}

// holdLimit is how long configuration c's timed calls may hold the GPU
// alone: its configLimit, or in the RL profile without a time limit,
// max(RLMinHoldLimit, RLTimeFactor x the C reference's time for one call).
func (s *Session) holdLimit(c int) time.Duration {
	if s.opt.TimeLimit > 0 {
		return s.opt.TimeLimit
	}
	return max(RLMinHoldLimit, s.refLimit(c))
}

// refLimit is RLTimeFactor x the C reference's median time for one call of
// configuration c.
func (s *Session) refLimit(c int) time.Duration {
	return time.Duration(RLTimeFactor * median(s.refMs[c]) * float64(time.Millisecond))
}

// stageWatch holds each configuration of a running driver to its own
// limit plus StartupAllowance, and its timed calls alone to its hold limit
// (Session.holdLimit; see holding): the driver writes seed B's record last for
// each configuration, so a configuration runs from the previous one's
// seed-B record (the first from the process's start) to its own. The
// allowance is slack for every configuration, not only the first: under
// contention (8 candidates on a GPU) reading inputs and copying them cost
// more than the calls of a fast configuration, and before this watch the
// limit was pooled over the configurations. Time waiting for the GPU gate
// is not charged. Exceeding it closes stop, which kills the process as a
// timeout.
type stageWatch struct {
	limits []time.Duration // per configuration, the start-up allowance included
	holds  []time.Duration // per configuration, Session.holdLimit
	// holding is how long the current exclusive hold of the GPU gate has
	// lasted; it may last the configuration's hold limit, without the
	// allowance: the timed calls are all that runs under it, and while
	// they run every other candidate on the GPU waits. A hang in its timed
	// calls held the H200 for the whole allowance, 5.6 s of a 34 s RL
	// batch (lease 8).
	holding func() time.Duration
	names   []string
	paused  func() time.Duration
	stop    chan struct{}
	// finished, when not nil, is called when the last configuration's
	// record arrives (Session.Start's gpuDone).
	finished func()

	mu          sync.Mutex
	stage       int // the configuration running
	since       time.Time
	pausedSince time.Duration
	why         string // once stopped: which limit
}

func newStageWatch(s *Session, paused, holding func() time.Duration) *stageWatch {
	w := &stageWatch{paused: paused, holding: holding, stop: make(chan struct{}), since: time.Now()}
	for c, cfg := range s.Task.Configs {
		w.limits = append(w.limits, s.configLimit(c)+StartupAllowance)
		w.holds = append(w.holds, s.holdLimit(c))
		w.names = append(w.names, cfg.Name)
	}
	zero := func() time.Duration { return 0 }
	if w.paused == nil {
		w.paused = zero
	}
	if w.holding == nil {
		w.holding = zero
	}
	return w
}

// record follows one records line (sandbox.Policy.OnRecord).
func (w *stageWatch) record(line []byte) {
	var r struct {
		Config int    `json:"config"`
		Seed   string `json:"seed"`
	}
	if json.Unmarshal(line, &r) != nil || r.Seed != "b" {
		return
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	if r.Config+1 > w.stage {
		w.stage, w.since, w.pausedSince = r.Config+1, time.Now(), w.paused()
		if w.stage == len(w.limits) && w.finished != nil {
			w.finished()
		}
	}
}

// over reports whether the running configuration has used up its limit,
// and then says so in w.why.
func (w *stageWatch) over() bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.stage >= len(w.limits) {
		return false // every configuration recorded: the process is ending
	}
	if hold := w.holds[w.stage]; w.holding() > hold {
		w.why = fmt.Sprintf("configuration %s held the GPU alone for its timed calls longer than its %s limit",
			w.names[w.stage], hold.Round(time.Millisecond))
		return true
	}
	waited := w.paused() - w.pausedSince
	if time.Since(w.since)-waited <= w.limits[w.stage] {
		return false
	}
	w.why = fmt.Sprintf("configuration %s did not finish within its %s (its limit and the %s start-up allowance)",
		w.names[w.stage], w.limits[w.stage].Round(time.Millisecond), StartupAllowance)
	if waited > 0 {
		w.why += fmt.Sprintf(", not counting %s waiting for the GPU", waited.Round(time.Millisecond))
	}
	return true
}

// reason is why the watch stopped the process (runner.Cmd.StopWhy).
func (w *stageWatch) reason() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.why
}

// run checks every tick until done is closed or a limit is exceeded.
func (w *stageWatch) run(done <-chan struct{}) {
	t := time.NewTicker(50 * time.Millisecond)
	defer t.Stop()
	for {
		select {
		case <-done:
			return
		case <-t.C:
			if w.over() {
				close(w.stop)
				return
			}
		}
	}
}

func median(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	return s[len(s)/2]
}

// initRetries is how many times a candidate whose process could not create
// a CUDA context is run again: on the H200 machine context creation under
// the sandbox failed now and then (cudaErrorOperatingSystem) for a
// candidate that ran fine the next time; the harness initialises CUDA, so
// this is the machine's doing, not the candidate's.
const initRetries = 4

// run executes the driver on worker w and returns the function that judges
// its outputs, which lie in a folder of their own until judged.
func (s *Session) run(ctx context.Context, r *Result, exe string, w *Worker, gpuDone func()) (judge func()) {
	for attempt := 0; ; attempt++ {
		judge, outDir, records := s.runOnce(ctx, r, exe, w, gpuDone)
		if outDir == "" || attempt == initRetries || !initFailed(records) {
			return judge
		}
		os.RemoveAll(outDir)
		os.Remove(records)
		r.InitRetries++
	}
}

// initFailed reports whether the driver's records say that CUDA could not
// be initialised (its first record, written before any candidate code but
// static constructors ran).
func initFailed(records string) bool {
	recs, _ := readRecords(records)
	return len(recs) > 0 && recs[0].Config < 0 && strings.Contains(recs[0].Error, "CUDA initialisation")
}

// outputsAheadMin is the smallest output file prepareOutDir writes: below
// it, allocating the file's pages in the candidate's process costs less
// than a millisecond.
const outputsAheadMin = 1 << 20

// zeros is what prepareOutDir writes, a buffer at a time.
var zeros = make([]byte, 1<<20)

// aheadReserve is the free space prepareOutDir leaves on the scratch file
// system: the files it writes add to what the running processes' outputs
// and the tasks' inputs hold there (a round of slots' worth more), and a
// run that finds the scratch full fails.
const aheadReserve = 4 << 30

// scratchFree is the space free to this process on dir's file system (a
// variable for tests); -1 when it cannot be told.
var scratchFree = func(dir string) int64 {
	var st syscall.Statfs_t
	if syscall.Statfs(dir, &st) != nil {
		return -1
	}
	return int64(st.Bavail) * int64(st.Bsize)
}

// aheadFile is an output file prepareOutDir writes: of configuration
// config, seed tag and parameter param, n bytes.
type aheadFile struct {
	config, param int
	tag           byte
	n             int64
}

// outputsAhead lists t's output files of outputsAheadMin bytes or more.
func outputsAhead(t *task.Task) []aheadFile {
	var out []aheadFile
	for c := range t.Configs {
		res, err := t.Resolve(c)
		if err != nil {
			continue // the driver says what is wrong with it
		}
		for p, prm := range t.Params {
			n := res.Len[prm.Name] * int64(prm.Type.Size())
			if !prm.Role.IsOutput() || n < outputsAheadMin {
				continue
			}
			for _, tag := range harness.Tags {
				out = append(out, aheadFile{c, p, tag, n})
			}
		}
	}
	return out
}

// WritesAhead reports whether this session's runs write their output
// files ahead (prepareOutDir): where the driver maps its outputs
// (StagingMapped), on a GPU, and the task has outputs large enough.
func (s *Session) WritesAhead() bool {
	return s.opt.Staging == StagingMapped && !s.opt.CompileOnly && len(s.ahead) > 0
}

// prepareOutDir makes the folder of a candidate's run and writes each
// output file of outputsAheadMin bytes or more full of zeros, at the size
// the driver maps it (cp_map_file keeps such a file as it is; the GPU's
// copy overwrites every byte). The pages of a file on tmpfs are allocated
// and cleared when first written: in the candidate's process, whose GPU
// slot waited meanwhile, that was the largest part of its kernel CPU after
// the CUDA context (about 0.8 ms per MB of output against 0.1 for an
// input, on an H100 machine of 2026-12-06, bench/RESULTS.md). Written
// here, while the candidate waits for a slot, it costs the slot nothing.
// Nothing is written where that would leave less than aheadReserve free
// (the driver then allocates its outputs as it would have); a file that
// cannot be written is removed and left to the driver, which then says
// what went wrong. "" when the folder cannot be made.
func (s *Session) prepareOutDir() string {
	dir, err := os.MkdirTemp(s.dir, "out-")
	if err != nil {
		return ""
	}
	var need int64
	for _, f := range s.ahead {
		need += f.n
	}
	if len(s.ahead) == 0 || scratchFree(dir) < need+aheadReserve {
		return dir
	}
	s.opt.account.measure(CPUOutputsAhead, func() {
		for _, f := range s.ahead {
			if path := harness.OutputPath(dir, f.config, f.tag, f.param); writeZeros(path, f.n) != nil {
				os.Remove(path)
				return
			}
		}
	})
	return dir
}

// writeZeros creates path with n zero bytes.
func writeZeros(path string, n int64) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return err
	}
	for n > 0 && err == nil {
		k := min(n, int64(len(zeros)))
		_, err = f.Write(zeros[:k])
		n -= k
	}
	return errors.Join(err, f.Close())
}

// runOnce is one attempt of run; outDir and records are "" when nothing ran.
func (s *Session) runOnce(ctx context.Context, r *Result, exe string, w *Worker, gpuDone func()) (judge func(), outDir, records string) {
	data := filepath.Join(s.dir, "data")
	var err error
	outDir, r.outDir = r.outDir, ""
	if outDir == "" {
		if outDir, err = os.MkdirTemp(s.dir, "out-"); err != nil {
			r.Error = fmt.Sprintf("bench: %v", err)
			return func() {}, "", ""
		}
	}
	// The records arrive through the sandbox's pipe and are kept outside
	// the candidate's folder.
	records = outDir + ".jsonl"
	var sampler *device.Sampler
	if w != nil && w.Info != nil {
		r.Device = w.Info
		if s.opt.NVML != nil {
			if info, err := s.opt.NVML.Info(w.Index); err == nil {
				r.Device = info
			}
		}
	}
	limit := s.ProcessLimit()
	r.TimeLimit = limit.Seconds()
	args := []string{data, outDir, sandbox.RecordsArg, strconv.Itoa(s.opt.Warmup), strconv.Itoa(s.opt.Repeats), "staging:" + string(s.opt.Staging)}
	policy := s.sandboxPolicy(outDir, records)
	cmd := runner.Cmd{Path: exe, Env: candidateEnv(w, s.opt.Profile), Timeout: limit}
	var gc *gateConn
	if w != nil && w.Gate != nil {
		if s.opt.Profile == ProfileRL || s.opt.ShareGPU {
			// Shared with other candidates but for the timed calls.
			var child *os.File
			if gc, child, err = w.Gate.attach(); err != nil {
				os.RemoveAll(outDir)
				r.Error = err.Error()
				return func() {}, "", ""
			}
			// The process's end is closed here too (sandbox.Run closes it
			// once the process started, but not when it fails before), so
			// that the gate always sees the end of the process.
			defer func() {
				gc.wait() // serve has released what the process held: the hold time is final
				if x := gc.Exclusive(); x > 0 {
					r.GateExclusive = x.Seconds()
				}
				if x := gc.Shared(); x > 0 {
					r.GateShared = x.Seconds()
				}
			}()
			defer child.Close()
			policy.Gate, cmd.Paused = child, gc.Paused
			args = append(args, sandbox.GateArg)
		} else {
			// The report profile's rigour: the GPU is this candidate's alone.
			defer w.Gate.Exclusive()()
		}
	}
	cmd.Args = args
	var holding func() time.Duration
	if gc != nil {
		holding = gc.Holding
	}
	watch := newStageWatch(s, cmd.Paused, holding)
	watch.finished = gpuDone
	if gc != nil {
		watch.finished = func() {
			gc.freeWork()
			if gpuDone != nil {
				gpuDone()
			}
		}
	}
	policy.OnRecord, cmd.Stop, cmd.StopWhy = watch.record, watch.stop, watch.reason
	watchDone := make(chan struct{})
	go watch.run(watchDone)
	defer close(watchDone)
	if w != nil && w.Info != nil && s.opt.NVML != nil {
		// One reader per device serves every candidate on it
		// (device.NVML.Sample); NVML calls contend with CUDA's for the
		// driver, so it reads no more often than throttling needs.
		sampler = s.opt.NVML.Sample(w.Index, 50*time.Millisecond)
	}
	o, rep, err := sandbox.Run(ctx, cmd, policy)
	if o != nil {
		s.opt.account.add(CPUCandidate, o.UserCPU+o.SysCPU)
	}
	r.Sandbox = rep
	if sampler != nil {
		sum := sampler.Stop()
		r.Clocks = &sum
	}
	if err != nil {
		os.RemoveAll(outDir)
		os.Remove(records)
		r.Error = err.Error()
		return func() {}, "", ""
	}
	r.Ran, r.RunWall, r.Seeds, r.GPUShared = true, o.Wall.Seconds(), s.seeds, gc != nil
	var ahead time.Duration
	if gc != nil {
		ahead = gc.WorkWait()
	}
	if p := o.Paused - ahead; p > 0 {
		r.GateWait = p.Seconds()
	}
	if ahead > 0 {
		r.PrestartWait = ahead.Seconds()
	}
	return func() {
		defer s.opt.account.measure(CPUScratch, func() {
			os.RemoveAll(outDir)
			os.Remove(records)
		})
		s.opt.account.measure(CPUJudge, func() { s.judge(r, o, records, outDir) })
	}, outDir, records
}

// edges splits off the time a process spent before the driver's main and
// after its last record, from the records' clock and the runner's (both
// CLOCK_MONOTONIC); zero when either is missing.
func edges(recs []record, o *runner.Outcome) (start, exit float64) {
	if len(recs) == 0 || recs[0].Config >= 0 || recs[0].MainMonoMs <= 0 || o.StartMono <= 0 {
		return 0, 0
	}
	main := time.Duration(recs[0].MainMonoMs * float64(time.Millisecond))
	last := recs[0].AtMs
	for _, rec := range recs {
		last = max(last, rec.AtMs)
	}
	end := main + time.Duration(last*float64(time.Millisecond))
	return max(0, (main - o.StartMono).Seconds()), max(0, (o.EndMono - end).Seconds())
}

// judge reads the driver's records and outputs and fills r.Verdict.
func (s *Session) judge(r *Result, o *runner.Outcome, records, outDir string) {
	// Also when the driver failed: a candidate that tried to escape is
	// rejected for that.
	defer func() { r.Verdict = judgeSandbox(r.Sandbox, o, r.Verdict) }()
	recs, recErr := readRecords(records)
	if !o.OK() || recErr != nil {
		r.RunLog = o.Output
	}
	byKey := map[[2]int]record{}
	for _, rec := range recs {
		if rec.Config < 0 {
			r.DriverSMs, r.ContextSeconds = rec.SMs, rec.AtMs/1000
			if rec.Error != "" {
				r.Error = "driver: " + rec.Error
				if strings.Contains(rec.Error, "CUDA initialisation") {
					r.Error = device.ErrNoGPU.Error() + ": " + rec.Error
				}
				return
			}
			continue
		}
		k := 0
		if rec.Seed == "b" {
			k = 1
		}
		byKey[[2]int{rec.Config, k}] = rec
		r.HostMapped += rec.Mapped
	}
	r.StartSeconds, r.ExitSeconds = edges(recs, o)
	r.CPUUser, r.CPUSys = o.UserCPU.Seconds(), o.SysCPU.Seconds()
	var runs []verdict.ConfigRun
	stopped := false
	for c := range s.Task.Configs {
		res, _ := s.Task.Resolve(c)
		cr := verdict.ConfigRun{Name: res.Name, Primary: res.Primary, Bytes: res.Bytes, RefMs: s.refMs[c]}
		a, okA := byKey[[2]int{c, 0}]
		b, okB := byKey[[2]int{c, 1}]
		switch {
		case stopped:
			cr.NotRun = true
		case okA && a.Error != "":
			cr.Error, stopped = a.Error, true
		case okB && b.Error != "":
			cr.Error, stopped = b.Error, true
		case !okA || !okB:
			cr.Error, stopped = "driver stopped: "+o.Describe(), true
			if o.TimedOut {
				cr.Error = fmt.Sprintf("timed out: %s", o.Describe())
			}
		default:
			cr.Ms, cr.TailMs, cr.Leak = a.Ms, a.TailMs, max(a.Leak, b.Leak)
			cr.ModifiedInputs = s.modifiedInputs(a, b)
			for p, prm := range s.Task.Params {
				if !prm.Role.IsOutput() {
					continue
				}
				out := verdict.Output{Name: prm.Name, Type: prm.Type, Tol: s.Task.Tol(prm.Type), Poison: harness.PoisonByteInt}
				if prm.Type.IsFloat() {
					out.Poison = harness.PoisonByteFlt
				}
				for k, tag := range harness.Tags {
					out.Ref[k] = s.refOut[[3]int{c, k, p}]
					got, unmap, err := mapFile(harness.OutputPath(outDir, c, tag, p))
					if err == nil {
						defer unmap()
					}
					if err != nil {
						r.Error = fmt.Sprintf("bench: driver finished config %s but wrote no output %s: %v", res.Name, prm.Name, err)
						return
					}
					out.Got[k] = got
				}
				cr.Outputs = append(cr.Outputs, out)
			}
		}
		runs = append(runs, cr)
	}
	opt := verdict.Options{SharedGPU: r.GPUShared, Parallel: s.opt.account.parallel(CPUJudge)}
	if r.Device != nil {
		opt.PeakBandwidth = r.Device.PeakBandwidth()
	}
	v, err := verdict.Judge(runs, opt)
	if err != nil {
		r.Error = err.Error()
		return
	}
	if o.TimedOut {
		v.Accepted = false
		v.Reasons = append([]verdict.Reason{{ID: verdict.Timeout, Detail: o.Describe()}}, v.Reasons...)
	}
	if r.Clocks != nil && len(r.Clocks.Throttled) > 0 {
		v.Warnings = append(v.Warnings, verdict.Reason{ID: verdict.ClocksThrottled,
			Detail: fmt.Sprintf("clocks were throttled during the measurement (%s; SM clock %d-%d MHz); timings may be slow",
				strings.Join(r.Clocks.Throttled, ", "), r.Clocks.MinSMClockMHz, r.Clocks.MaxSMClockMHz)})
	}
	r.Verdict = v
}

// NotRecorded starts the Error of a result that a benchmarker answering
// from recorded measurements (plugins/recorded) has no record for.
const NotRecorded = "not recorded"

// GeomeanSpeedup is the geometric mean of the speedups of the passing
// configurations (a wrong answer has none); 0 when there are none.
func (r *Result) GeomeanSpeedup() float64 {
	if r.Verdict == nil {
		return 0
	}
	var sum float64
	n := 0
	for _, c := range r.Verdict.Configs {
		if c.Pass && c.Speedup > 0 {
			sum += math.Log(c.Speedup)
			n++
		}
	}
	if n == 0 {
		return 0
	}
	return math.Exp(sum / float64(n))
}
