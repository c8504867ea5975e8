package bench

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/cudaperf/cudaperf/bench/harness"
	"github.com/cudaperf/cudaperf/bench/nvcc"
	"github.com/cudaperf/cudaperf/bench/task"
)

// sessionsOnly is an evaluator that keeps at most max sessions and has
// no compiler and no GPU: for compile-only sessions that compile nothing.
func sessionsOnly(t *testing.T, max int) *Evaluator {
	cache, err := nvcc.OpenCache(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	e := &Evaluator{opt: EvaluatorOptions{MaxSessions: max, ScratchDir: t.TempDir()},
		tc: &nvcc.Toolchain{Cache: cache}, arch: "sm_90", sessions: map[string]*entry{}}
	t.Cleanup(e.Close)
	return e
}

// TestSessionsBeyondMax: with more tasks than MaxSessions, the session
// handed out is never the one evicted, and the least recently used idle
// one is closed instead.
func TestSessionsBeyondMax(t *testing.T) {
	e := sessionsOnly(t, 2)
	var dirs []string
	for _, name := range []string{"saxpy", "histogram", "gemm", "gather"} {
		tk, err := task.Load(filepath.Join("suites", "selftest", name))
		if err != nil {
			t.Fatal(err)
		}
		s, done, err := e.session(tk, Settings{Profile: ProfileRL, CompileOnly: true})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := os.Stat(filepath.Join(s.dir, "src")); err != nil {
			t.Fatalf("%s: the session handed out has no sources (closed at once?): %v", name, err)
		}
		dirs = append(dirs, s.dir)
		done()
	}
	if len(e.sessions) != 2 {
		t.Errorf("%d sessions kept, want MaxSessions = 2", len(e.sessions))
	}
	for i, d := range dirs {
		_, err := os.Stat(d)
		if kept := i >= 2; kept != (err == nil) {
			t.Errorf("session %d (%s): exists %v, want %v (the two least recently used are closed)", i, d, err == nil, kept)
		}
	}
}

// CUDAPERF_COMPILE_LIMIT sets the toolchain's compile limit, and a value
// that is not a duration is refused with the fix.
func TestCompileLimitEnv(t *testing.T) {
	if _, err := nvcc.Find(); err != nil {
		t.Skipf("skipping: %v", err)
	}
	t.Setenv(EnvCompileLimit, "10m")
	e, err := NewEvaluator(EvaluatorOptions{CacheDir: t.TempDir(), NoGPU: true})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	if e.Toolchain().Limit != 10*time.Minute {
		t.Errorf("limit %v, want 10m", e.Toolchain().Limit)
	}
	t.Setenv(EnvCompileLimit, "ten minutes")
	if _, err := NewEvaluator(EvaluatorOptions{CacheDir: t.TempDir(), NoGPU: true}); err == nil || !strings.Contains(err.Error(), "give a duration such as 10m") {
		t.Errorf("a bad limit: %v", err)
	}
}

// CUDAPERF_LINK=nvcc links candidates with nvcc; host (or unset) with the
// host compiler where nvcc's static runtime is found; anything else is
// refused with the choices.
func TestLinkEnv(t *testing.T) {
	if _, err := nvcc.Find(); err != nil {
		t.Skipf("skipping: %v", err)
	}
	for _, c := range []struct{ env, want string }{{"", "found"}, {"host", "found"}, {"nvcc", ""}} {
		t.Setenv(EnvLink, c.env)
		e, err := NewEvaluator(EvaluatorOptions{CacheDir: t.TempDir(), NoGPU: true})
		if c.env == "host" && err != nil && strings.Contains(err.Error(), "unset it to link with nvcc") {
			continue // no g++ or runtime here: refused, as below
		}
		if err != nil {
			t.Fatal(err)
		}
		tc := e.Toolchain()
		want := c.want
		if want == "found" {
			want = nvcc.CUDARTDir(tc.NVCC)
			if tc.CXX == "" {
				want = ""
			}
		}
		if tc.CUDARTDir != want {
			t.Errorf("%s=%q: CUDARTDir %q, want %q", EnvLink, c.env, tc.CUDARTDir, want)
		}
		e.Close()
	}
	// Asked for, but there is no host compiler to link with.
	t.Setenv(EnvLink, "host")
	t.Setenv("CXX", "no-such-compiler")
	if _, err := NewEvaluator(EvaluatorOptions{CacheDir: t.TempDir(), NoGPU: true}); err == nil || !strings.Contains(err.Error(), "unset it to link with nvcc") {
		t.Errorf("host link asked for without g++: %v", err)
	}
	t.Setenv(EnvLink, "gold")
	if _, err := NewEvaluator(EvaluatorOptions{CacheDir: t.TempDir(), NoGPU: true}); err == nil || !strings.Contains(err.Error(), "give host") {
		t.Errorf("a bad link setting: %v", err)
	}
}

// saxpyEvaluator is an evaluator without a GPU or compiler (sessions are
// compile-only and compile nothing) and the selftest saxpy task.
func saxpyEvaluator(t *testing.T, staging Staging) (*Evaluator, *task.Task) {
	t.Helper()
	cache, err := nvcc.OpenCache(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	tk, err := task.Load(filepath.Join("suites", "selftest", "saxpy"))
	if err != nil {
		t.Fatal(err)
	}
	e := &Evaluator{opt: EvaluatorOptions{ScratchDir: t.TempDir(), Staging: staging},
		tc: &nvcc.Toolchain{Cache: cache}, arch: "sm_90", sessions: map[string]*entry{}}
	t.Cleanup(e.Close)
	return e, tk
}

// TestStaging: the RL profile's sessions map their arrays, the report
// profile's use the arena, $CUDAPERF_STAGING overrides both, and a name
// that is neither is refused with the two choices.
func TestStaging(t *testing.T) {
	staging := func(override Staging, p Profile) Staging {
		e, tk := saxpyEvaluator(t, override)
		s, done, err := e.session(tk, Settings{Profile: p, CompileOnly: true})
		if err != nil {
			t.Fatal(err)
		}
		defer done()
		return s.opt.Staging
	}
	for _, c := range []struct {
		override Staging
		p        Profile
		want     Staging
	}{{"", ProfileRL, StagingMapped}, {"", ProfileReport, StagingArena},
		{StagingArena, ProfileRL, StagingArena}, {StagingMapped, ProfileReport, StagingMapped}} {
		if got := staging(c.override, c.p); got != c.want {
			t.Errorf("override %q, profile %s: staging %q, want %q", c.override, c.p, got, c.want)
		}
	}
	if _, err := nvcc.Find(); err != nil {
		t.Skipf("skipping the environment's override: %v", err)
	}
	t.Setenv(EnvStaging, "pinned")
	if _, err := NewEvaluator(EvaluatorOptions{CacheDir: t.TempDir(), NoGPU: true}); err == nil || !strings.Contains(err.Error(), `CUDAPERF_STAGING: bench: staging "pinned" is unknown: use "arena"`) {
		t.Errorf("a bad staging: %v", err)
	}
	t.Setenv(EnvStaging, "arena")
	e, err := NewEvaluator(EvaluatorOptions{CacheDir: t.TempDir(), NoGPU: true})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	if e.opt.Staging != StagingArena {
		t.Errorf("$%s=arena: evaluator staging %q", EnvStaging, e.opt.Staging)
	}
}

// TestStagingInCodeIsChecked: a staging set in code, not only one from the
// environment, is refused when it is neither arena nor mapped (the driver
// would exit 2 for every candidate, which would pass for their fault).
func TestStagingInCodeIsChecked(t *testing.T) {
	e, tk := saxpyEvaluator(t, "")
	_, err := NewSession(tk, Options{Toolchain: e.tc, ScratchDir: t.TempDir(), Staging: "Mapped"})
	if err == nil || !strings.Contains(err.Error(), `staging "Mapped" is unknown`) {
		t.Errorf("NewSession with staging Mapped: %v", err)
	}
	if _, err := nvcc.Find(); err != nil {
		t.Skipf("skipping the evaluator's check: %v", err)
	}
	if _, err := NewEvaluator(EvaluatorOptions{CacheDir: t.TempDir(), NoGPU: true, Staging: "pinned"}); err == nil || !strings.Contains(err.Error(), `staging "pinned" is unknown`) {
		t.Errorf("NewEvaluator with staging pinned: %v", err)
	}
}

// TestSessionPerProfile: requests of the two profiles with the same
// explicit configurations, calls and limit get sessions of their own profile (and so their
// own staging), not one another's.
func TestSessionPerProfile(t *testing.T) {
	e, tk := saxpyEvaluator(t, "")
	for _, p := range []Profile{ProfileReport, ProfileRL} {
		s, done, err := e.session(tk, Settings{Profile: p, Configs: []string{"npot", "large"}, Warmup: 2, Repeats: 7, TimeLimit: 9 * time.Second, CompileOnly: true})
		if err != nil {
			t.Fatal(err)
		}
		if s.opt.Profile != p || s.opt.Staging != DefaultStaging(p) {
			t.Errorf("asked for %s: got a session of profile %s, staging %s", p, s.opt.Profile, s.opt.Staging)
		}
		done()
	}
}

// TestReferenceEarlyRL: with a GPU to run on, an RL session runs its
// reference at once, before any candidate has compiled; a report session
// runs none until a candidate has compiled, and neither does a
// compile-only RL session or an RL session with no GPU to run on.
func TestReferenceEarlyRL(t *testing.T) {
	tc := toolchain(t)
	tk, err := task.Load(filepath.Join("suites", "selftest", "saxpy"))
	if err != nil {
		t.Fatal(err)
	}
	e := &Evaluator{opt: EvaluatorOptions{MaxSessions: 4, ScratchDir: t.TempDir()}, tc: tc, arch: "sm_90",
		sessions: map[string]*entry{}, pool: newPool([]*Worker{{Index: -1}}, 1, 0)}
	defer e.Close()
	noGPU := &Evaluator{opt: EvaluatorOptions{MaxSessions: 4, ScratchDir: t.TempDir()}, tc: tc, arch: "sm_90",
		sessions: map[string]*entry{}, pool: newPool(nil, 1, 0)}
	defer noGPU.Close()
	for _, c := range []struct {
		name string
		e    *Evaluator
		s    Settings
	}{{"compile-only", e, Settings{Profile: ProfileRL, CompileOnly: true}}, {"no GPU", noGPU, Settings{Profile: ProfileRL}}} {
		s, done, err := c.e.session(tk, c.s)
		if err != nil {
			t.Fatal(err)
		}
		if s.ref.started.Load() {
			t.Errorf("RL profile, %s: the reference started with the session", c.name)
		}
		done()
	}
	for _, prof := range []Profile{ProfileRL, ProfileReport} {
		s, done, err := e.session(tk, Settings{Profile: prof, Seeds: [2]uint64{1, 2}})
		if err != nil {
			t.Fatal(err)
		}
		defer done()
		if prof == ProfileReport {
			if err := s.prepare(context.Background()); err != nil {
				t.Fatal(err)
			}
			if s.ref.started.Load() {
				t.Error("report profile: the reference started before any candidate compiled")
			}
			continue
		}
		if !s.ref.started.Load() {
			t.Fatal("RL profile: the reference did not start with the session")
		}
		select {
		case <-s.ref.done:
		case <-time.After(2 * time.Minute):
			t.Fatal("RL profile: the reference did not finish in 2 minutes")
		}
		if s.ref.err != nil {
			t.Fatalf("RL profile: reference: %v", s.ref.err)
		}
		if len(s.refOut) == 0 || len(s.refMs) == 0 {
			t.Error("RL profile: the reference ran but left no outputs or timings")
		}
	}
}

// heldNVCC writes a stand-in for nvcc that answers --version and fails
// every compile, but only once the file gate exists: a driver build that
// lasts as long as a test wants.
func heldNVCC(t *testing.T) (nvccPath, gate string) {
	dir := t.TempDir()
	gate = filepath.Join(dir, "gate")
	nvccPath = filepath.Join(dir, "nvcc")
	// A version line of its own keeps the compile cache from answering.
	script := fmt.Sprintf(`#!/bin/sh
if [ "$1" = --version ]; then echo "Build cuda_held.%d"; exit 0; fi
while [ ! -e %q ]; do sleep 0.02; done
echo "driver.cu(1): error: held driver" >&2
exit 1
`, time.Now().UnixNano(), gate)
	if err := os.WriteFile(nvccPath, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	return nvccPath, gate
}

// TestReferenceWithoutDriver: the RL profile builds and runs the reference
// program without waiting for the driver's nvcc build, which here lasts
// until the reference has finished, then fails; preparing the session
// names the driver. The report profile's reference waits for the driver,
// and so fails with it.
func TestReferenceWithoutDriver(t *testing.T) {
	toolchain(t) // skips where there is no nvcc, as the other tests of this package do
	tk, err := task.Load(filepath.Join("suites", "selftest", "saxpy"))
	if err != nil {
		t.Fatal(err)
	}
	for _, prof := range []Profile{ProfileRL, ProfileReport} {
		nvccPath, gate := heldNVCC(t)
		cache, err := nvcc.OpenCache(t.TempDir())
		if err != nil {
			t.Fatal(err)
		}
		tc, err := nvcc.New(nvccPath, 0, cache)
		if err != nil {
			t.Fatal(err)
		}
		s, err := NewSession(tk, Options{Toolchain: tc, ScratchDir: t.TempDir(), Profile: prof, Seeds: [2]uint64{1, 2}})
		if err != nil {
			t.Fatal(err)
		}
		defer s.Close()
		defer os.WriteFile(gate, nil, 0o644) // let the held build go on a failure
		s.Warm()
		if prof == ProfileReport {
			s.startReference()
			if err := os.WriteFile(gate, nil, 0o644); err != nil {
				t.Fatal(err)
			}
			if err := s.runReference(context.Background()); err == nil || !strings.Contains(err.Error(), "generated driver does not compile") {
				t.Errorf("report profile: reference with a driver that fails: %v, want the driver's error", err)
			}
			continue
		}
		if err := s.runReference(context.Background()); err != nil {
			t.Fatalf("RL profile: reference: %v", err)
		}
		if len(s.refOut) == 0 {
			t.Error("RL profile: the reference ran but left no outputs")
		}
		if !s.prep.running() {
			t.Error("RL profile: the driver's build ended before the reference (the stand-in nvcc holds it)")
		}
		if err := os.WriteFile(gate, nil, 0o644); err != nil {
			t.Fatal(err)
		}
		if err := s.prepare(context.Background()); err == nil || !strings.Contains(err.Error(), "generated driver does not compile") {
			t.Errorf("RL profile: prepare with a driver that fails: %v, want the driver named", err)
		}
	}
}

// TestCloseWaitsForReference: closing a session whose reference runs
// kills it and removes the scratch folder only once it has exited, and a
// later wait gets an error instead of starting it again.
func TestCloseWaitsForReference(t *testing.T) {
	tk, err := task.Load(filepath.Join("suites", "selftest", "saxpy"))
	if err != nil {
		t.Fatal(err)
	}
	s, err := NewSession(tk, Options{Toolchain: toolchain(t), ScratchDir: t.TempDir(), Profile: ProfileRL, Seeds: [2]uint64{1, 2}})
	if err != nil {
		t.Fatal(err)
	}
	// Built first, so that Close finds the reference program itself running.
	if err := s.refBuild.wait(context.Background(), s.refBuildJob); err != nil {
		t.Fatal(err)
	}
	s.startReference()
	time.Sleep(50 * time.Millisecond)
	s.Close()
	if s.ref.running() {
		t.Error("Close returned while the reference still ran")
	}
	if _, err := os.Stat(s.dir); !os.IsNotExist(err) {
		t.Errorf("scratch folder after Close: %v, want it gone", err)
	}
	if err := s.runReference(context.Background()); err == nil {
		t.Error("a closed session's reference answered without an error")
	}
	// Never started: Close settles it, and a wait gets the error at once.
	s2, err := NewSession(tk, Options{Toolchain: toolchain(t), ScratchDir: t.TempDir(), Profile: ProfileRL})
	if err != nil {
		t.Fatal(err)
	}
	s2.Close()
	if err := s2.runReference(context.Background()); err == nil || !strings.Contains(err.Error(), "closed") {
		t.Errorf("reference of a session closed before it started: %v", err)
	}
}

// TestEvictSkipsRunningReference: a session whose reference runs is not
// evicted, though no request holds it; once the reference has ended it
// is.
func TestEvictSkipsRunningReference(t *testing.T) {
	e := sessionsOnly(t, 1)
	load := func(name string) *task.Task {
		tk, err := task.Load(filepath.Join("suites", "selftest", name))
		if err != nil {
			t.Fatal(err)
		}
		return tk
	}
	first, done, err := e.session(load("saxpy"), Settings{Profile: ProfileRL, CompileOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	done()
	hold := make(chan struct{})
	first.ref.start(func() error { <-hold; return nil })
	if _, done, err = e.session(load("gemm"), Settings{Profile: ProfileRL, CompileOnly: true}); err != nil {
		t.Fatal(err)
	}
	done()
	if _, err := os.Stat(first.dir); err != nil {
		t.Fatalf("the session whose reference runs was evicted: %v", err)
	}
	close(hold)
	<-first.ref.done
	if _, done, err = e.session(load("gather"), Settings{Profile: ProfileRL, CompileOnly: true}); err != nil {
		t.Fatal(err)
	}
	done()
	if _, err := os.Stat(first.dir); !os.IsNotExist(err) {
		t.Errorf("the session whose reference ended was kept: %v", err)
	}
}

// TestPrepareOutDir: where the driver maps its outputs, a run's folder is
// made ahead with each output of 1 MiB or more written full of zeros at
// the size the driver maps (which keeps such a file), the small ones and
// the inputs left to the driver; with the host arena nothing is written
// ahead.
func TestPrepareOutDir(t *testing.T) {
	tk, err := task.Load(filepath.Join("suites", "selftest", "saxpy"))
	if err != nil {
		t.Fatal(err)
	}
	if tk, err = SelectConfigs(tk, ProfileRL, []string{"odd", "npot"}); err != nil {
		t.Fatal(err)
	}
	arena, err := NewSession(tk, Options{Toolchain: &nvcc.Toolchain{}, ScratchDir: t.TempDir(), Profile: ProfileRL, Staging: StagingArena})
	if err != nil {
		t.Fatal(err)
	}
	defer arena.Close()
	if arena.WritesAhead() {
		t.Error("the host arena's driver writes its outputs itself, but the session writes them ahead")
	}
	s, err := NewSession(tk, Options{Toolchain: &nvcc.Toolchain{}, ScratchDir: t.TempDir(), Profile: ProfileRL})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if !s.WritesAhead() {
		t.Fatal("the RL profile maps its outputs, but the session does not write them ahead")
	}
	small, err := SelectConfigs(tk, ProfileRL, []string{"odd"})
	if err != nil {
		t.Fatal(err)
	}
	if ss, err := NewSession(small, Options{Toolchain: &nvcc.Toolchain{}, ScratchDir: t.TempDir(), Profile: ProfileRL}); err != nil {
		t.Fatal(err)
	} else {
		defer ss.Close()
		if ss.WritesAhead() {
			t.Error("a task whose outputs are all under 1 MiB (odd: 4000 bytes) writes them ahead")
		}
	}
	dir := s.prepareOutDir()
	if dir == "" {
		t.Fatal("no folder made")
	}
	var names []string
	ents, _ := os.ReadDir(dir)
	for _, e := range ents {
		names = append(names, e.Name())
	}
	want := []string{filepath.Base(harness.OutputPath(dir, 1, 'a', 2)), filepath.Base(harness.OutputPath(dir, 1, 'b', 2))}
	if !slices.Equal(names, want) {
		t.Fatalf("written ahead: %v, want %v (npot's output z, both seeds; odd's is 4000 bytes)", names, want)
	}
	for _, n := range names {
		b, err := os.ReadFile(filepath.Join(dir, n))
		if err != nil || len(b) != 4*1000003 || slices.ContainsFunc(b, func(x byte) bool { return x != 0 }) {
			t.Errorf("%s: %d bytes, %v; want 4000012 zero bytes", n, len(b), err)
		}
	}
	// Short of space on the scratch file system, nothing is written ahead.
	defer func(f func(string) int64) { scratchFree = f }(scratchFree)
	scratchFree = func(string) int64 { return aheadReserve + 8e6 - 1 } // npot's two outputs need 8000024 bytes
	short := s.prepareOutDir()
	if ents, err := os.ReadDir(short); err != nil || len(ents) != 0 {
		t.Errorf("with too little free space: %d files written ahead, %v; want the folder alone", len(ents), err)
	}
	scratchFree = func(string) int64 { return aheadReserve + 8000024 }
	if ents, _ := os.ReadDir(s.prepareOutDir()); len(ents) != 2 {
		t.Errorf("with just enough free space: %d files written ahead, want 2", len(ents))
	}
	r := &Result{outDir: dir}
	r.dropOutDir()
	if _, err := os.Stat(dir); !os.IsNotExist(err) || r.outDir != "" {
		t.Errorf("a folder made ahead and not taken: %v after dropOutDir, want it gone", err)
	}
}
