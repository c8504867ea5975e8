package bench

import (
	"context"
	"encoding/binary"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/cudaperf/cudaperf/bench/harness"
	"github.com/cudaperf/cudaperf/bench/runner"
	"github.com/cudaperf/cudaperf/bench/sandbox"
	"github.com/cudaperf/cudaperf/bench/task"
	"github.com/cudaperf/cudaperf/bench/verdict"
)

// envFakeDriver makes the test binary act as a saxpy driver (see
// fakeDriver), so the run, records and judging plumbing is tested without
// a GPU. Its value is the behaviour: "honest", "nothing", "inputs" (the
// driver finds x changed after the calls), "escape" (writes outside its
// folder and runs a shell) or "stall" (hangs in the second configuration).
// It runs under the sandbox like any candidate.
const envFakeDriver = "CUDAPERF_TEST_FAKE_DRIVER"

func TestMain(m *testing.M) {
	if mode := os.Getenv(envFakeDriver); mode != "" {
		os.Exit(fakeDriver(mode, os.Args[1:]))
	}
	os.Exit(m.Run())
}

// fakeDriver follows the generated driver's interface for the selftest
// saxpy task (INDIR OUTDIR RECORDS WARMUP REPEATS [gate:FD]
// [staging:arena|staging:mapped]): it reads the inputs, writes z = alpha*x
// + y ("honest") or the NaN poison ("nothing"), and records made-up
// timings, and the arrays as mapped when told staging:mapped; with a gate
// it asks for the GPU as the driver does (shared, and exclusive around
// each configuration's timing).
func fakeDriver(mode string, args []string) int {
	if len(args) < 5 || len(args) > 7 {
		return 2
	}
	gate := func(op byte) bool { return true }
	staging := ""
	for _, a := range args[5:] {
		if v, ok := strings.CutPrefix(a, "staging:"); ok {
			if v != "arena" && v != "mapped" {
				return 2 // as the driver does
			}
			staging = v
			continue
		}
		fd, ok := strings.CutPrefix(a, "gate:")
		n, err := strconv.Atoi(fd)
		if !ok || err != nil {
			return 2
		}
		g := os.NewFile(uintptr(n), "gate")
		gate = func(op byte) bool {
			b := []byte{op}
			if _, err := g.Write(b); err != nil {
				return false
			}
			_, err := g.Read(b)
			return err == nil && b[0] == 'g'
		}
	}
	if !gate('S') {
		return 4
	}
	in, out, records := args[0], args[1], args[2]
	alphas := []float32{2.5, -1.5, 0.75, 3, 1.25}
	var rec *os.File
	if fd, ok := strings.CutPrefix(records, "fd:"); ok {
		// The sandbox's pipe; like the real driver, never closed.
		n, _ := strconv.Atoi(fd)
		rec = os.NewFile(uintptr(n), "records")
	} else {
		f, err := os.Create(records)
		if err != nil {
			return 2
		}
		defer f.Close()
		rec = f
	}
	if mode == "escape" {
		os.WriteFile(filepath.Join(in, "..", "escaped.txt"), []byte("pwned"), 0o644)
		exec.Command("/bin/sh", "-c", "id > id.txt").Run()
	}
	fmt.Fprintln(rec, `{"config":-1,"device":"fake","cc":"9.0","sms":132,"l2_bytes":1}`)
	for c, alpha := range alphas {
		if mode == "stall" && c == 1 {
			time.Sleep(time.Hour)
		}
		if !gate('X') || !gate('S') { // the timed calls (made up here)
			return 4
		}
		for _, tag := range harness.Tags {
			x, err1 := os.ReadFile(harness.InputPath(in, c, tag, 0))
			y, err2 := os.ReadFile(harness.InputPath(in, c, tag, 1))
			if err1 != nil || err2 != nil {
				return 3
			}
			z := make([]byte, len(x))
			for i := 0; i < len(x); i += 4 {
				v := math.Float32frombits(0xFFFFFFFF)
				if mode == "honest" || mode == "stall" {
					xv := math.Float32frombits(binary.LittleEndian.Uint32(x[i:]))
					yv := math.Float32frombits(binary.LittleEndian.Uint32(y[i:]))
					v = alpha*xv + yv
				}
				binary.LittleEndian.PutUint32(z[i:], math.Float32bits(v))
			}
			if os.WriteFile(harness.OutputPath(out, c, tag, 2), z, 0o644) != nil {
				return 3
			}
			modified := ""
			if mode == "inputs" && c == 4 {
				modified = "0"
			}
			mapped := 0
			if staging == "mapped" { // the driver's mapped staging: x, y and z mapped
				mapped = 3
			}
			fmt.Fprintf(rec, `{"config":%d,"seed":"%c","leak_bytes":0,"inputs_modified":[%s],"mapped":%d,"ms":[0.5,0.4,0.6],"tail_ms":[0.002,0.002,0.002],"host_ms":[0.6,0.5,0.7]}`+"\n", c, tag, modified, mapped)
		}
	}
	return 0
}

// fakeSession is a prepared saxpy session whose candidates are this test
// binary acting as the driver (fakeDriver), and that binary's path.
func fakeSession(t *testing.T, opt Options) (*Session, string) {
	t.Helper()
	opt.Seeds = [2]uint64{7, 8}
	s := session(t, "saxpy", opt)
	if err := s.prepare(context.Background()); err != nil {
		t.Fatal(err)
	}
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	// t.TempDir is private; the candidate's user (uid 65534 when root runs
	// the test) must reach the session's inputs.
	for d := filepath.Dir(s.dir); d != os.TempDir() && d != "/"; d = filepath.Dir(d) {
		os.Chmod(d, 0o711)
	}
	return s, self
}

func TestRunPlumbing(t *testing.T) {
	ctx := context.Background()
	s, self := fakeSession(t, Options{})
	for _, c := range []struct {
		mode   string
		accept bool
		reason string
	}{{"honest", true, ""}, {"mapped", true, ""}, {"nothing", false, verdict.PoisonSurvived}, {"inputs", false, verdict.InputModified},
		{"escape", false, verdict.SandboxViolation}} {
		if c.mode == "escape" && (!sandbox.Enabled() || !sandboxFull()) {
			continue
		}
		// "mapped": an honest driver told to map (the report profile's
		// default is the arena).
		s.opt.Staging = StagingArena
		t.Setenv(envFakeDriver, c.mode)
		if c.mode == "mapped" {
			s.opt.Staging = StagingMapped
			t.Setenv(envFakeDriver, "honest")
		}
		r := &Result{Candidate: c.mode, exe: self, Expect: c.reason}
		s.Run(ctx, r, nil)
		if r.Error != "" || !r.Ran || r.Verdict == nil {
			t.Fatalf("%s: error %q ran %v verdict %v\n%s", c.mode, r.Error, r.Ran, r.Verdict, r.RunLog)
		}
		v := r.Verdict
		if v.Accepted != c.accept || (c.reason != "" && (!v.Has(c.reason) || !r.Caught)) {
			t.Errorf("%s: accepted %v reasons %v caught %v", c.mode, v.Accepted, v.Reasons, r.Caught)
		}
		if len(v.Configs) != 5 || v.Configs[4].Time == nil || v.Configs[4].Time.Median != 0.5 || r.DriverSMs != 132 {
			t.Errorf("%s: configs %+v sms %d", c.mode, v.Configs, r.DriverSMs)
		}
		if r.Sandbox == nil || (sandboxFull() && os.Geteuid() == 0 && !r.Sandbox.Sandboxed) {
			t.Errorf("%s: sandbox report %v, want sandboxed (root, Landlock and seccomp here)", c.mode, r.Sandbox.Missing())
		}
		if c.mode == "escape" {
			if _, err := os.Stat(filepath.Join(s.dir, "escaped.txt")); err == nil {
				t.Errorf("escape: wrote outside its folder")
			}
			if !strings.Contains(v.Reasons[0].Detail, "escaped.txt") || !strings.Contains(v.Reasons[0].Detail, "fork") {
				t.Errorf("escape: reason %q, want the write and the shell's fork named", v.Reasons[0].Detail)
			}
		}
		// Arrays staged through mapped files are counted over every
		// configuration and seed: 3 arrays x 5 configurations x 2 seeds.
		if want := map[bool]int{true: 30}[c.mode == "mapped"]; r.HostMapped != want {
			t.Errorf("%s: host_mapped %d, want %d", c.mode, r.HostMapped, want)
		}
		if c.accept && !(v.Speedup > 0) {
			t.Errorf("honest: speedup %v", v.Speedup)
		}
		if r.Seeds != [2]uint64{7, 8} {
			t.Errorf("seeds %v", r.Seeds)
		}
		// The report profile: 5 s start-up and 30 s per configuration.
		if r.TimeLimit != 155 {
			t.Errorf("time limit %v s, want 155 s", r.TimeLimit)
		}
	}
	// Outputs are removed once judged.
	if m, _ := filepath.Glob(filepath.Join(s.dir, "out-*")); len(m) != 0 {
		t.Errorf("output folders left: %v", m)
	}
}

// TestRLTimeLimit checks the RL profile's stated limit: 5 s start-up plus,
// per configuration, max(1 s, 20 x the reference's time for one call).
func TestRLTimeLimit(t *testing.T) {
	tk := &task.Task{Configs: []task.Config{{Name: "small"}, {Name: "big"}}}
	opt := Options{Profile: ProfileRL}
	opt.defaults()
	if opt.Warmup != 1 || opt.Repeats != 5 || opt.TimeLimit != 0 {
		t.Fatalf("rl defaults %+v", opt)
	}
	// small: 0.5 ms x 20 = 10 ms -> 1 s; big: 300 ms x 20 = 6 s.
	s := &Session{Task: tk, opt: opt, refMs: map[int][]float64{0: {0.4, 0.5, 0.6}, 1: {300, 240, 360}}}
	if got := s.ProcessLimit(); got != 12*time.Second {
		t.Errorf("ProcessLimit = %v, want 12s", got)
	}
	// The timed calls' hold: small 10 ms -> 0.25 s (a hang stalls the
	// GPU's other candidates only that long), big 6 s as its limit.
	if a, b := s.holdLimit(0), s.holdLimit(1); a != RLMinHoldLimit || b != 6*time.Second || RLMinHoldLimit >= RLMinTimeLimit {
		t.Errorf("hold limits %v and %v, want %v and 6s", a, b, RLMinHoldLimit)
	}
	w := newStageWatch(s, nil, func() time.Duration { return RLMinHoldLimit + 100*time.Millisecond })
	if !w.over() || !strings.Contains(w.reason(), "held the GPU alone for its timed calls longer than its 250ms limit") {
		t.Errorf("a hold past 250 ms in the small configuration: stopped %v (%q)", w.over(), w.reason())
	}
	opt.TimeLimit = 3 * time.Second
	s.opt = opt
	if got := s.ProcessLimit(); got != 11*time.Second {
		t.Errorf("ProcessLimit with 3 s per configuration = %v, want 11s", got)
	}
	if got := s.holdLimit(0); got != 3*time.Second {
		t.Errorf("hold limit with 3 s per configuration = %v, want 3s", got)
	}
}

// sandboxFull reports whether this kernel has Landlock and seccomp user
// notification (the sandbox package's own tests say which is missing).
func sandboxFull() bool {
	return sandbox.KernelHas(sandbox.Landlock) && sandbox.KernelHas(sandbox.Seccomp)
}

// TestRunSharedGPU runs the fake driver with a worker's gate, as the RL
// profile (and a report profile with ShareGPU) does: the run speaks the
// gate protocol through the sandbox, waits while another candidate holds
// the GPU for its timing, is not charged for that wait, and says it was
// timed sharing the GPU.
func TestRunSharedGPU(t *testing.T) {
	ctx := context.Background()
	s, self := fakeSession(t, Options{ShareGPU: true})
	t.Setenv(envFakeDriver, "honest")
	if err := s.runReference(ctx); err != nil { // before the clock below starts
		t.Fatal(err)
	}
	w := &Worker{Index: -1, Gate: &Gate{}}
	release := w.Gate.Exclusive() // another candidate is timing
	go func() { time.Sleep(2 * time.Second); release() }()
	r := &Result{Candidate: "shared", exe: self}
	s.Run(ctx, r, w)
	if r.Error != "" || r.Verdict == nil || !r.Verdict.Accepted {
		t.Fatalf("error %q, verdict %+v\n%s", r.Error, r.Verdict, r.RunLog)
	}
	// The driver starts in well under 2 s, then waits for the rest.
	if !r.GPUShared || r.GateWait < 0.2 {
		t.Errorf("gpu_shared %v, gate wait %.3f s; want true and most of 2 s", r.GPUShared, r.GateWait)
	}
	// Without ShareGPU, the report profile has the GPU alone: no gate.
	s2, _ := fakeSession(t, Options{})
	r2 := &Result{Candidate: "alone", exe: self}
	s2.Run(ctx, r2, w)
	if r2.Verdict == nil || !r2.Verdict.Accepted || r2.GPUShared || r2.GateWait != 0 {
		t.Errorf("report profile alone: verdict %+v, gpu_shared %v, wait %v\n%s", r2.Verdict, r2.GPUShared, r2.GateWait, r2.RunLog)
	}
}

// TestEdges splits a process's wall time at the driver's main and last
// record: 100 ms before main, 200 ms after the last record.
func TestEdges(t *testing.T) {
	ms := func(v float64) time.Duration { return time.Duration(v * float64(time.Millisecond)) }
	recs := []record{{Config: -1, AtMs: 300, MainMonoMs: 1000}, {Config: 0, Seed: "a", AtMs: 700}, {Config: 0, Seed: "b", AtMs: 800}}
	o := &runner.Outcome{StartMono: ms(900), EndMono: ms(2000)}
	start, exit := edges(recs, o)
	if math.Abs(start-0.1) > 1e-9 || math.Abs(exit-0.2) > 1e-9 {
		t.Errorf("edges = %g s before main, %g s after the last record; want 0.1 and 0.2", start, exit)
	}
	// A driver that died before its first record, or a runner without the
	// clock: nothing is made up.
	if s, e := edges(recs[1:], o); s != 0 || e != 0 {
		t.Errorf("without the device record: %g, %g", s, e)
	}
	if s, e := edges(recs, &runner.Outcome{}); s != 0 || e != 0 {
		t.Errorf("without the runner's clock: %g, %g", s, e)
	}
}

// TestConfigLimit: a driver that hangs in its second configuration is
// stopped after that configuration's limit and the start-up allowance
// (3 + 5 s here), not after the process's (5 s start-up + 5 x 3 s); the
// first configuration's results stand and the verdict names the timeout.
func TestConfigLimit(t *testing.T) {
	s, self := fakeSession(t, Options{TimeLimit: 3 * time.Second})
	t.Setenv(envFakeDriver, "stall")
	if err := s.runReference(context.Background()); err != nil { // not timed here
		t.Fatal(err)
	}
	r := &Result{Candidate: "stall", exe: self}
	start := time.Now()
	s.Run(context.Background(), r, nil)
	wall := time.Since(start)
	t.Logf("stopped after %s (limit of the second configuration: 3 + 5 s)", wall.Round(time.Millisecond))
	if r.TimeLimit != 20 {
		t.Errorf("process limit %v s, want 20 s", r.TimeLimit)
	}
	if wall > 15*time.Second {
		t.Errorf("the stalled driver ran %s: it was not stopped at its configuration's limit", wall.Round(time.Millisecond))
	}
	if r.Verdict == nil || r.Verdict.Accepted || !r.Verdict.Has(verdict.Timeout) {
		t.Fatalf("verdict %+v, want a rejection for timeout\n%s", r.Verdict, r.RunLog)
	}
	if cs := r.Verdict.Configs; len(cs) < 2 || !cs[0].Pass || cs[1].Pass {
		t.Errorf("configurations %+v: want the first passed and the second not", cs)
	} else if want := "timed out: configuration warp_m1 did not finish within its 8s"; !strings.HasPrefix(cs[1].Error, want) {
		t.Errorf("the second configuration's error %q does not say %q", cs[1].Error, want)
	}
}

// TestStageWatchHoldLimit: a configuration whose timed calls keep the GPU
// to itself past the configuration's limit is stopped then, without the
// start-up allowance that the rest of its run gets (a hang in the timed
// calls stalls every candidate on the GPU).
func TestStageWatchHoldLimit(t *testing.T) {
	s := session(t, "saxpy", Options{TimeLimit: time.Second})
	var hold time.Duration
	w := newStageWatch(s, nil, func() time.Duration { return hold })
	hold = 900 * time.Millisecond
	if w.over() {
		t.Fatalf("stopped at a 0.9 s hold under a 1 s limit: %s", w.reason())
	}
	hold = 1100 * time.Millisecond
	if !w.over() || !strings.Contains(w.reason(), "held the GPU alone for its timed calls longer than its 1s limit") {
		t.Errorf("not stopped at a 1.1 s hold, or why %q", w.reason())
	}
	// Without a gate (the report profile's exclusive run) nothing holds.
	if w := newStageWatch(s, nil, nil); w.over() {
		t.Errorf("a watch without a gate stopped: %s", w.reason())
	}
}

// TestStageWatchFinished: the watch says the driver's GPU work is over at
// the last configuration's seed-B record, once, and not before (the
// evaluator then frees the GPU slot while the process exits).
func TestStageWatchFinished(t *testing.T) {
	s := session(t, "saxpy", Options{})
	n := len(s.Task.Configs)
	if n < 2 {
		t.Fatalf("saxpy has %d configurations, want at least 2", n)
	}
	calls := 0
	w := newStageWatch(s, nil, nil)
	w.finished = func() { calls++ }
	w.record([]byte(`{"config":-1,"device":"H200"}`))
	for c := range n {
		w.record([]byte(fmt.Sprintf(`{"config":%d,"seed":"a"}`, c)))
		if c == n-1 && calls != 0 {
			t.Fatalf("finished at the last configuration's seed-A record")
		}
		w.record([]byte(fmt.Sprintf(`{"config":%d,"seed":"b"}`, c)))
		if want := map[bool]int{true: 1, false: 0}[c == n-1]; calls != want {
			t.Fatalf("after configuration %d of %d: finished called %d times, want %d", c, n, calls, want)
		}
	}
	w.record([]byte(fmt.Sprintf(`{"config":%d,"seed":"b"}`, n-1))) // a repeated record
	if calls != 1 {
		t.Errorf("finished called %d times, want once", calls)
	}
}
