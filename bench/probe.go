package bench

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/cudaperf/cudaperf/analysis/device"
	"github.com/cudaperf/cudaperf/bench/runner"
	"github.com/cudaperf/cudaperf/bench/sandbox"
)

// The machine check tells a machine on which CUDA cannot initialise inside
// the candidate sandbox from a candidate that broke its own start.
//
// Why: on the H200 machine's kernel CUDA fails inside any Landlock domain
// (cudaErrorOperatingSystem; docs/sandbox.md), and the workaround is
// CUDAPERF_SANDBOX_SKIP=landlock. An RL evaluation started without it got,
// for every candidate that compiled, a result saying "no CUDA device found:
// CUDA initialisation: ..." after the retries (initRetries), and the RL host
// scored those as the candidates' own failures: a whole evaluation silently
// invalid. The driver's record cannot say whose fault it is (a candidate's
// static constructors run before the driver's main), so the evaluator asks
// a probe: a program that only initialises CUDA, run on the same worker in
// the same kind of sandbox (and, when it fails under Landlock, once more
// without it, so that the error can say whether Landlock is the cause).
// If the probe fails too, the machine is at fault: the evaluator keeps that
// error for its lifetime and every later run fails with it (Run returns it;
// the benchmarker plugin's caller stops). If the probe passes, the result
// stands as the candidate's.
//
// When to probe: at the first such failure; after a probe passed, again only
// if a later failure comes after a candidate's run initialised CUDA (the
// machine worked in between, so the failure may be the machine breaking) or
// after reprobeAfter. Consecutive failures with no success between them are
// not probed each: the probe that passed vouches for them. Probes run one at
// a time; failures waiting for one take its outcome.

// probeSource initialises CUDA and nothing else; on failure it prints the
// error's name and string to stderr and exits 1.
const probeSource = `// cudaperf's machine check (bench/probe.go): initialise CUDA, nothing else.
#include <cstdio>
#include <cuda_runtime.h>

int main() {
    cudaError_t e = cudaFree(0);
    if (e != cudaSuccess) {
        fprintf(stderr, "%s: %s\n", cudaGetErrorName(e), cudaGetErrorString(e));
        return 1;
    }
    return 0;
}
`

// reprobeAfter is how long a passing probe vouches for CUDA initialisation
// failures when no candidate has initialised CUDA since.
const reprobeAfter = 5 * time.Minute

// probeTimeout is the probe's wall-time and CPU-time limit: context creation
// takes about 1 s with 8 candidates starting at once on the H200.
const probeTimeout = 30 * time.Second

// cudaInitFailed reports whether a result's error says the candidate's
// driver could not initialise CUDA: the judge's text, device.ErrNoGPU's text
// followed by the driver's record, whose stage the harness names "CUDA
// initialisation".
func cudaInitFailed(errText string) bool {
	return strings.HasPrefix(errText, device.ErrNoGPU.Error()) && strings.Contains(errText, "CUDA initialisation")
}

// checkMachine decides whose fault r is when its driver could not
// initialise CUDA on worker w (see the comment at the top of this file): it
// returns the evaluator's machine error, which wraps device.ErrNoGPU, when
// the machine is at fault, and nil when r stands as the candidate's result.
// A result that failed otherwise never starts a probe.
func (e *Evaluator) checkMachine(ctx context.Context, r *Result, w *Worker) error {
	if !cudaInitFailed(r.Error) {
		if r.DriverSMs > 0 { // the driver's device record: CUDA initialised
			e.mu.Lock()
			e.initOK = true
			e.mu.Unlock()
		}
		return nil
	}
	e.probeMu.Lock()
	defer e.probeMu.Unlock()
	e.mu.Lock()
	fault := e.machineErr
	vouched := !e.probedAt.IsZero() && !e.initOK && time.Since(e.probedAt) < reprobeAfter
	e.mu.Unlock()
	if fault != nil || vouched {
		return fault
	}
	probe := e.probe
	if probe == nil {
		probe = e.runProbe
	}
	err := probe(ctx, w, r.Profile)
	e.mu.Lock()
	defer e.mu.Unlock()
	var pf *probeFailure
	switch {
	case errors.As(err, &pf):
		e.machineErr = pf.fault()
		return e.machineErr
	case err != nil && ctx.Err() != nil:
		return nil // cancelled: nothing learnt
	case err != nil:
		// The probe could not tell (it did not build, or did not run to
		// its end): the result stands, as it did before the check.
		r.RunLog = strings.TrimSpace(r.RunLog + "\nbench: machine check inconclusive: " + err.Error())
	}
	e.probedAt, e.initOK = time.Now(), false
	return nil
}

// machineFault is the error checkMachine kept, or nil.
func (e *Evaluator) machineFault() error {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.machineErr
}

// probeFailure is a probe that ran and could not initialise CUDA.
type probeFailure struct {
	cuda     string   // the probe's line: "cudaErrorOperatingSystem: OS call failed ..."
	landlock bool     // Landlock confined the probe
	why      string   // else why not (the sandbox report's detail)
	refused  []string // what the sandbox refused it, if anything
	// Under Landlock the probe runs again without it, to say whether
	// Landlock is the cause: triedWithout, and without is that run's
	// outcome (nil: CUDA initialised).
	triedWithout bool
	without      error
}

func (p *probeFailure) Error() string { return "CUDA initialisation: " + p.cuda }

// fault is the machine error: what failed, and what to do.
func (p *probeFailure) fault() error {
	what := fmt.Sprintf("CUDA cannot initialise inside the candidate sandbox on this machine (probe: %s", p.cuda)
	if len(p.refused) > 0 {
		what += "; the sandbox refused it: " + strings.Join(p.refused, "; ")
	}
	what += ")"
	skip := sandbox.EnvSkip + "=" + sandbox.Landlock
	var notLandlock *probeFailure
	switch {
	case !p.landlock:
		return fmt.Errorf("%w: %s; Landlock did not confine the probe (%s), so it is not the cause: check the GPU and its driver (nvidia-smi) and the sandbox's other mechanisms (docs/sandbox.md)",
			device.ErrNoGPU, what, p.why)
	case p.triedWithout && p.without == nil:
		return fmt.Errorf("%w: %s; it initialises without Landlock, which breaks CUDA on some kernels (the H200 machine's: docs/sandbox.md): set %s, after which results say sandboxed: false",
			device.ErrNoGPU, what, skip)
	case p.triedWithout && errors.As(p.without, &notLandlock):
		return fmt.Errorf("%w: %s; it fails without Landlock too (%s), so Landlock is not the cause: check the GPU and its driver (nvidia-smi)",
			device.ErrNoGPU, what, notLandlock.cuda)
	}
	return fmt.Errorf("%w: %s; where Landlock is the cause (it is on some kernels, the H200 machine's among them: docs/sandbox.md), set %s: results then say sandboxed: false",
		device.ErrNoGPU, what, skip)
}

// probeOutcome reads a probe's run: nil when CUDA initialised, a
// *probeFailure when the probe reported a CUDA error, another error when it
// ended otherwise (killed, timed out, no error line): it could not tell.
func probeOutcome(o *runner.Outcome, rep *sandbox.Report) error {
	if o.OK() {
		return nil
	}
	if o.ExitCode == 1 && !o.TimedOut {
		for _, line := range strings.Split(o.Output, "\n") {
			if l := strings.TrimSpace(line); strings.HasPrefix(l, "cudaError") {
				pf := &probeFailure{cuda: l, why: "no sandbox report"}
				if rep != nil {
					pf.why = "not in the sandbox report"
					for _, m := range rep.Mechanisms {
						if m.Name == sandbox.Landlock {
							pf.landlock, pf.why = m.Applied, m.Detail
						} else if m.Name == "all" && !m.Applied {
							pf.why = m.Detail // unconfined (CUDAPERF_SANDBOX=off)
						}
					}
					for _, v := range rep.Violations {
						pf.refused = append(pf.refused, v.String())
					}
				}
				return pf
			}
		}
	}
	return fmt.Errorf("bench: the CUDA probe %s: %s", o.Describe(), strings.TrimSpace(o.Output))
}

// runProbe is the real probe: it builds the probe program (once per
// evaluator, through the toolchain's cache) and runs it on worker w as a
// candidate of profile p runs: the same environment, in the sandbox, with
// a fresh folder under the scratch folder as its output and records. It
// takes no slot and not the gate: like the driver's context creation, it
// runs nothing on the GPU that a timing could see. When it fails under
// Landlock, it runs once more without Landlock, to say whether that is
// the cause.
func (e *Evaluator) runProbe(ctx context.Context, w *Worker, p Profile) error {
	root := e.opt.ScratchDir
	if root == "" {
		root = defaultScratch()
	}
	// Named as sessions' folders are, so that CleanStale finds it and the
	// sandbox lets the candidate's user through it.
	dir, err := os.MkdirTemp(root, fmt.Sprintf("cudaperf-%d-probe-", os.Getpid()))
	if err != nil {
		return fmt.Errorf("bench: CUDA probe: %w", err)
	}
	defer os.RemoveAll(dir)
	exe, err := e.probeProgram(ctx, dir)
	if err != nil {
		return err
	}
	run := func(skip []string) error {
		out, err := os.MkdirTemp(dir, "out-")
		if err != nil {
			return fmt.Errorf("bench: CUDA probe: %w", err)
		}
		policy := sandbox.Policy{OutDir: out, Records: out + ".jsonl", CPUTime: probeTimeout, Skip: skip}
		o, rep, err := sandbox.Run(ctx, runner.Cmd{Path: exe, Env: candidateEnv(w, p), Timeout: probeTimeout}, policy)
		if o != nil {
			e.acct.add(CPUProbe, o.UserCPU+o.SysCPU)
		}
		if err != nil {
			return fmt.Errorf("bench: CUDA probe: %w", err)
		}
		return probeOutcome(o, rep)
	}
	err = run(nil)
	var pf *probeFailure
	if errors.As(err, &pf) && pf.landlock {
		pf.triedWithout, pf.without = true, run([]string{sandbox.Landlock})
	}
	return err
}

// probeProgram returns the probe's executable, building it in dir the
// first time; e.probeMu is held.
func (e *Evaluator) probeProgram(ctx context.Context, dir string) (string, error) {
	if e.probeExe != "" {
		if _, err := os.Stat(e.probeExe); err == nil {
			return e.probeExe, nil
		}
	}
	src := filepath.Join(dir, "cudaperf_probe.cu")
	if err := os.WriteFile(src, []byte(probeSource), 0o644); err != nil {
		return "", fmt.Errorf("bench: CUDA probe: %w", err)
	}
	obj, err := e.tc.CompileCUDA(ctx, src, e.arch)
	if err != nil {
		return "", fmt.Errorf("bench: CUDA probe: %w", err)
	}
	if !obj.OK {
		return "", fmt.Errorf("bench: CUDA probe does not compile:\n%s", obj.Log)
	}
	exe, err := e.tc.LinkCUDA(ctx, e.arch, false, obj.Output)
	if err != nil {
		return "", fmt.Errorf("bench: CUDA probe: %w", err)
	}
	if !exe.OK {
		return "", fmt.Errorf("bench: CUDA probe does not link:\n%s", exe.Log)
	}
	e.probeExe = exe.Output
	return e.probeExe, nil
}
