package bench

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/cudaperf/cudaperf/analysis/device"
	"github.com/cudaperf/cudaperf/bench/runner"
	"github.com/cudaperf/cudaperf/bench/sandbox"
	"github.com/cudaperf/cudaperf/bench/verdict"
)

// Results' errors as the evaluator wrote them.
const (
	// As reported from the RL evaluation on the H200 machine.
	errInitReported = "no CUDA device found: driver: CUDA initialisation: OS call failed or operation not supported on this OS (cudaErrorOperatingSystem)"
	// As recorded there (bench/h200/2026-12-02-lease8/dataset/control-shared.jsonl).
	errInitRecorded = "no CUDA device found: CUDA initialisation: OS call failed or operation not supported on this OS (cudaErrorOperatingSystem)"
)

func TestCUDAInitFailed(t *testing.T) {
	for _, c := range []struct {
		err  string
		want bool
	}{
		{errInitReported, true},
		{errInitRecorded, true},
		// A machine without a driver (CI): the same stage, another error.
		{"no CUDA device found: CUDA initialisation: CUDA driver version is insufficient for CUDA runtime version (cudaErrorInsufficientDriver)", true},
		{"", false},
		// No GPU at all: GPUError's texts, never the driver's.
		{"no CUDA device found", false},
		{`no CUDA device found (CUDA_VISIBLE_DEVICES="" hides every GPU)`, false},
		// CUDA started; a later stage failed.
		{"driver: cudaGetDeviceProperties: unspecified launch failure (cudaErrorLaunchFailure)", false},
		{"driver: L2 flush buffer: out of memory (cudaErrorMemoryAllocation)", false},
		// The stage's name without the judge's prefix is not the judge's text.
		{"driver: CUDA initialisation: OS call failed or operation not supported on this OS (cudaErrorOperatingSystem)", false},
		{"bench: driver finished config small but wrote no output z: open z: no such file or directory", false},
	} {
		if got := cudaInitFailed(c.err); got != c.want {
			t.Errorf("cudaInitFailed(%q) = %v, want %v", c.err, got, c.want)
		}
	}
}

// fakeProbe counts its calls and answers err.
type fakeProbe struct {
	calls int
	err   error
}

func (p *fakeProbe) run(context.Context, *Worker, Profile) error {
	p.calls++
	return p.err
}

// landlockFailure is what the real probe reports on the H200 machine
// without CUDAPERF_SANDBOX_SKIP=landlock.
var landlockFailure = &probeFailure{cuda: "cudaErrorOperatingSystem: OS call failed or operation not supported on this OS", landlock: true, why: "ABI 7"}

func initFailure() *Result {
	return &Result{Candidate: "c", Ran: true, InitRetries: initRetries, Error: errInitRecorded, Profile: ProfileRL}
}

// TestCheckMachine is the decision: a candidate whose CUDA could not
// initialise is the machine's fault when the probe fails too (sticky, no
// second probe), the candidate's when it passes (the result unchanged);
// any other failure never probes.
func TestCheckMachine(t *testing.T) {
	ctx := context.Background()
	w := &Worker{Index: -1, Visible: "0"}
	t.Run("probe fails", func(t *testing.T) {
		p := &fakeProbe{err: landlockFailure}
		e := &Evaluator{probe: p.run}
		err := e.checkMachine(ctx, initFailure(), w)
		if !errors.Is(err, device.ErrNoGPU) {
			t.Fatalf("error %v, want one wrapping device.ErrNoGPU", err)
		}
		for _, want := range []string{"cannot initialise inside the candidate sandbox", "cudaErrorOperatingSystem", "CUDAPERF_SANDBOX_SKIP=landlock", "sandboxed: false"} {
			if !strings.Contains(err.Error(), want) {
				t.Errorf("error %q does not say %q", err, want)
			}
		}
		// Sticky: later failures, and every later run, get the same error
		// without a probe.
		if err2 := e.checkMachine(ctx, initFailure(), w); err2 != err {
			t.Errorf("second failure: %v, want the same error", err2)
		}
		if got := e.GPUError(); got != err {
			t.Errorf("GPUError after the fault: %v, want the machine's error", got)
		}
		if p.calls != 1 {
			t.Errorf("%d probes, want 1", p.calls)
		}
	})
	t.Run("probe passes", func(t *testing.T) {
		p := &fakeProbe{}
		e := &Evaluator{probe: p.run}
		r := initFailure()
		before := *r
		if err := e.checkMachine(ctx, r, w); err != nil {
			t.Fatalf("error %v, want none (the candidate's doing)", err)
		}
		if !reflect.DeepEqual(*r, before) {
			t.Errorf("result changed: %+v, was %+v", *r, before)
		}
		// The passing probe vouches for the next failures...
		for range 3 {
			if err := e.checkMachine(ctx, initFailure(), w); err != nil {
				t.Fatal(err)
			}
		}
		if p.calls != 1 {
			t.Errorf("%d probes for 4 consecutive failures, want 1", p.calls)
		}
		// ...until a candidate's run initialises CUDA: a failure after
		// that may be the machine breaking.
		ok := &Result{Ran: true, DriverSMs: 132, Verdict: &verdict.Verdict{Accepted: true}}
		if err := e.checkMachine(ctx, ok, w); err != nil {
			t.Fatal(err)
		}
		if p.calls != 1 {
			t.Errorf("a success probed")
		}
		e.checkMachine(ctx, initFailure(), w)
		if p.calls != 2 {
			t.Errorf("%d probes after a success and a failure, want 2", p.calls)
		}
		// ...or until reprobeAfter has passed.
		e.probedAt = time.Now().Add(-reprobeAfter - time.Second)
		e.checkMachine(ctx, initFailure(), w)
		if p.calls != 3 {
			t.Errorf("%d probes after %s, want 3", p.calls, reprobeAfter)
		}
		// The machine breaking later is still found.
		p.err = landlockFailure
		e.probedAt = time.Time{}
		if err := e.checkMachine(ctx, initFailure(), w); !errors.Is(err, device.ErrNoGPU) {
			t.Errorf("a later failing probe: %v, want the machine's error", err)
		}
	})
	t.Run("probe cannot tell", func(t *testing.T) {
		p := &fakeProbe{err: errors.New("bench: CUDA probe does not compile")}
		e := &Evaluator{probe: p.run}
		r := initFailure()
		if err := e.checkMachine(ctx, r, w); err != nil {
			t.Fatalf("error %v, want none: the result stands", err)
		}
		if r.Error != errInitRecorded || !strings.Contains(r.RunLog, "machine check inconclusive") {
			t.Errorf("error %q, log %q: want the error unchanged and the log to say the check could not tell", r.Error, r.RunLog)
		}
	})
	t.Run("other failures", func(t *testing.T) {
		p := &fakeProbe{err: landlockFailure}
		e := &Evaluator{probe: p.run}
		for _, r := range []*Result{
			{Ran: true, Error: "driver: cudaGetDeviceProperties: unspecified launch failure (cudaErrorLaunchFailure)"},
			{Error: "no CUDA device found"},
			{Ran: true, Verdict: verdict.Rejected(verdict.Timeout, "killed after the 12s wall-time limit")},
			{Verdict: verdict.Rejected(verdict.CompileError, "nvcc failed; see the compile log")},
			{Ran: true, DriverSMs: 132, Verdict: &verdict.Verdict{Accepted: true}},
		} {
			if err := e.checkMachine(ctx, r, w); err != nil {
				t.Errorf("%+v: error %v", r, err)
			}
		}
		if p.calls != 0 {
			t.Errorf("%d probes for failures other than CUDA initialisation", p.calls)
		}
	})
}

func TestProbeOutcome(t *testing.T) {
	full := &sandbox.Report{Sandboxed: true, Mechanisms: []sandbox.Mechanism{{Name: sandbox.Landlock, Applied: true, Detail: "ABI 7"}, {Name: sandbox.Seccomp, Applied: true}}}
	skipped := &sandbox.Report{Mechanisms: []sandbox.Mechanism{{Name: sandbox.Landlock, Detail: "skipped by CUDAPERF_SANDBOX_SKIP"}}}
	const line = "cudaErrorOperatingSystem: OS call failed or operation not supported on this OS"
	if err := probeOutcome(&runner.Outcome{}, full); err != nil {
		t.Errorf("exit 0: %v", err)
	}
	err := probeOutcome(&runner.Outcome{ExitCode: 1, Output: line + "\n"}, full)
	var pf *probeFailure
	if !errors.As(err, &pf) || pf.cuda != line || !pf.landlock {
		t.Fatalf("exit 1 under Landlock: %#v", err)
	}
	fault := pf.fault().Error()
	t.Logf("the machine's error: %s", fault)
	if want := "no CUDA device found: CUDA cannot initialise inside the candidate sandbox on this machine (probe: " + line + "); where Landlock is the cause"; !strings.HasPrefix(fault, want) {
		t.Errorf("fault %q, want it to begin %q", fault, want)
	}
	// Run again without Landlock, the probe says whether it is the cause.
	pf.triedWithout = true
	if f := pf.fault().Error(); !strings.Contains(f, "it initialises without Landlock") || !strings.Contains(f, "set CUDAPERF_SANDBOX_SKIP=landlock,") {
		t.Errorf("fault, the probe passing without Landlock: %q", f)
	}
	pf.without = &probeFailure{cuda: "cudaErrorNoDevice: no CUDA-capable device is detected"}
	if f := pf.fault().Error(); !strings.Contains(f, "fails without Landlock too (cudaErrorNoDevice") || strings.Contains(f, sandbox.EnvSkip+"=") {
		t.Errorf("fault, the probe failing without Landlock too: %q", f)
	}
	// Without Landlock, the hint does not blame it.
	err = probeOutcome(&runner.Outcome{ExitCode: 1, Output: "cudaErrorNoDevice: no CUDA-capable device is detected\n"}, skipped)
	if !errors.As(err, &pf) || pf.landlock {
		t.Fatalf("exit 1 without Landlock: %#v", err)
	}
	if f := pf.fault().Error(); strings.Contains(f, sandbox.EnvSkip+"=") || !strings.Contains(f, "skipped by CUDAPERF_SANDBOX_SKIP") {
		t.Errorf("fault without Landlock: %q", f)
	}
	// Anything else could not tell.
	for _, o := range []*runner.Outcome{
		{ExitCode: -1, Signal: "killed"},
		{TimedOut: true, ExitCode: -1},
		{ExitCode: 1, Output: "error while loading shared libraries"},
		{ExitCode: 2, Output: line},
	} {
		if err := probeOutcome(o, full); err == nil || errors.As(err, &pf) {
			t.Errorf("%+v: %v, want an error that is not a probe failure", o, err)
		}
	}
}

// TestProbeCompiles builds the probe with nvcc (compile-only machines
// too: linking needs no GPU).
func TestProbeCompiles(t *testing.T) {
	e := &Evaluator{tc: toolchain(t), arch: device.DefaultArch}
	exe, err := e.probeProgram(context.Background(), t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	if st, err := os.Stat(exe); err != nil || st.Mode()&0o111 == 0 {
		t.Errorf("probe %s: %v, mode %v", exe, err, st.Mode())
	}
}

// machineEvaluator is an evaluator with one worker on GPU 0, whether there
// is one or not, and the given probe (nil: the real one).
func machineEvaluator(t *testing.T, probe func(context.Context, *Worker, Profile) error) *Evaluator {
	t.Helper()
	scratch := t.TempDir()
	// The candidate's user (uid 65534 when root runs the test) must reach
	// the scratch folder.
	for d := scratch; d != os.TempDir() && d != "/"; d = filepath.Dir(d) {
		os.Chmod(d, 0o711)
	}
	e := &Evaluator{opt: EvaluatorOptions{MaxSessions: 8, ScratchDir: scratch}, tc: toolchain(t), arch: device.DefaultArch,
		srcDir: t.TempDir(), sessions: map[string]*entry{}, probe: probe}
	e.workers = []*Worker{{Index: -1, Visible: "0"}}
	e.pool = newPool(e.workers, 1, 0)
	t.Cleanup(e.Close)
	return e
}

// TestRunMachineCheck runs real candidates through Run on a machine where
// CUDA cannot initialise in the sandbox: one without a GPU (the driver's
// CUDA initialisation fails as on the H200 under Landlock, with another
// error), or the H200 without CUDAPERF_SANDBOX_SKIP=landlock. So the
// whole path is tested: retries, judging, the check, Run's error, failing
// fast.
func TestRunMachineCheck(t *testing.T) {
	if !sandbox.Enabled() {
		t.Skip("the sandbox is off (CUDAPERF_SANDBOX=off)")
	}
	ctx := context.Background()
	if DeviceNodesPresent() {
		e := machineEvaluator(t, nil)
		if err := e.runProbe(ctx, e.workers[0], ProfileRL); err == nil {
			t.Skip("CUDA initialises in the sandbox here; this test needs a machine where it does not")
		}
	}
	src, err := os.ReadFile(filepath.Join("suites", "selftest", "saxpy", "variants", "naive.cu"))
	if err != nil {
		t.Fatal(err)
	}
	job := func(source []byte) Job {
		return Job{TaskPath: filepath.Join("suites", "selftest", "saxpy"), Source: source, Filename: "naive.cu",
			Settings: Settings{Profile: ProfileRL, Seeds: [2]uint64{7, 8}}}
	}
	broken := []byte("this is not CUDA\n")

	t.Run("probe fails", func(t *testing.T) {
		p := &fakeProbe{err: landlockFailure}
		e := machineEvaluator(t, p.run)
		r, err := e.Run(ctx, job(src))
		if !errors.Is(err, device.ErrNoGPU) || !strings.Contains(err.Error(), "CUDAPERF_SANDBOX_SKIP=landlock") {
			t.Fatalf("Run: result %+v, error %v; want the machine's error", r, err)
		}
		// Fails fast: a candidate that does not compile gets the same
		// error, so it was not compiled.
		if _, err2 := e.Run(ctx, job(broken)); err2 == nil || err2.Error() != err.Error() {
			t.Errorf("the next Run: %v, want the same error before compiling", err2)
		}
		if p.calls != 1 {
			t.Errorf("%d probes, want 1", p.calls)
		}
	})
	t.Run("probe passes", func(t *testing.T) {
		p := &fakeProbe{}
		e := machineEvaluator(t, p.run)
		for i := range 2 {
			r, err := e.Run(ctx, job(src))
			if err != nil {
				t.Fatalf("Run %d: %v, want the result", i, err)
			}
			if !cudaInitFailed(r.Error) || r.InitRetries != initRetries {
				t.Fatalf("Run %d: error %q after %d retries; want CUDA initialisation's after %d", i, r.Error, r.InitRetries, initRetries)
			}
			t.Logf("result's error: %s", r.Error)
		}
		if p.calls != 1 {
			t.Errorf("%d probes for two failures, want 1", p.calls)
		}
	})
	t.Run("other failure", func(t *testing.T) {
		p := &fakeProbe{err: landlockFailure}
		e := machineEvaluator(t, p.run)
		r, err := e.Run(ctx, job(broken))
		if err != nil || r.Verdict == nil || !r.Verdict.Has(verdict.CompileError) {
			t.Fatalf("Run: result %+v, error %v; want a compile error", r, err)
		}
		if p.calls != 0 {
			t.Errorf("a compile error probed")
		}
	})
	t.Run("real probe", func(t *testing.T) {
		e := machineEvaluator(t, nil)
		_, err := e.Run(ctx, job(src))
		if !errors.Is(err, device.ErrNoGPU) || !strings.Contains(err.Error(), "CUDA cannot initialise") {
			t.Fatalf("Run: %v; want the machine's error", err)
		}
		t.Logf("Run: %v", err)
		if !DeviceNodesPresent() && strings.Contains(err.Error(), "initialises without Landlock") {
			t.Errorf("no GPU here, yet the probe initialised CUDA without Landlock")
		}
		if _, err2 := e.Run(ctx, job(broken)); err2 == nil || err2.Error() != err.Error() {
			t.Errorf("the next Run: %v, want the same error", err2)
		}
	})
}

// TestProbeOnGPU runs the real probe on a GPU machine: it must tell (pass,
// or report CUDA's error), never be inconclusive. On the H200 without
// CUDAPERF_SANDBOX_SKIP=landlock it fails, naming the fix.
func TestProbeOnGPU(t *testing.T) {
	if !DeviceNodesPresent() {
		t.Skip("no GPU here (no /dev/nvidia[0-9]*); TestRunMachineCheck runs the real probe where CUDA cannot initialise")
	}
	e := machineEvaluator(t, nil)
	err := e.runProbe(context.Background(), e.workers[0], ProfileRL)
	var pf *probeFailure
	switch {
	case err == nil:
		t.Logf("the probe initialised CUDA (%s=%q)", sandbox.EnvSkip, os.Getenv(sandbox.EnvSkip))
	case errors.As(err, &pf):
		t.Logf("the probe failed (%s=%q): %v", sandbox.EnvSkip, os.Getenv(sandbox.EnvSkip), pf.fault())
	default:
		t.Errorf("the probe could not tell: %v", err)
	}
}
