package sandbox

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/cudaperf/cudaperf/bench/runner"
	"golang.org/x/sys/unix"
)

// world is a scratch layout like the benchmarker's: a session folder
// with the inputs, this candidate's folder, another candidate's folder,
// and a "compile cache" elsewhere.
type world struct {
	session, data, out, other, cache, input string
	bin                                     string // compiled test programs
}

func newWorld(t testing.TB) *world {
	t.Helper()
	root, err := os.MkdirTemp("", "cudaperf-sandboxtest-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(root) })
	w := &world{session: root, data: filepath.Join(root, "data"), out: filepath.Join(root, "out-1"),
		other: filepath.Join(root, "out-2"), cache: filepath.Join(root, "cache"), bin: filepath.Join(root, "bin")}
	for _, d := range []string{w.data, w.out, w.other, w.cache, w.bin} {
		if err := os.Mkdir(d, 0o700); err != nil {
			t.Fatal(err)
		}
	}
	w.input = filepath.Join(w.data, "in.txt")
	for p, s := range map[string]string{w.input: "input\n", filepath.Join(w.other, "out.txt"): "other candidate\n",
		filepath.Join(w.cache, "entry"): "cached binary\n", filepath.Join(w.data, "ref_c0_a_p2.bin"): "answer\n"} {
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// A private input (umask 077 on the reference's side): the sandbox must
	// make it readable for the candidate's user.
	os.Chmod(w.input, 0o600)
	return w
}

// compile builds testdata/escapes/name.c with gcc.
func (w *world) compile(t testing.TB, name string) string {
	t.Helper()
	gcc, err := exec.LookPath("gcc")
	if err != nil {
		t.Skip("gcc is not installed: the sandbox tests build their escape programs with it")
	}
	exe := filepath.Join(w.bin, name)
	if out, err := exec.Command(gcc, "-O1", "-pthread", "-o", exe, filepath.Join("testdata", "escapes", name+".c")).CombinedOutput(); err != nil {
		t.Fatalf("gcc %s: %v\n%s", name, err, out)
	}
	return exe
}

func (w *world) run(t testing.TB, exe string, args ...string) (*runner.Outcome, *Report) {
	t.Helper()
	o, rep, err := Run(context.Background(), runner.Cmd{Path: exe, Args: args, Timeout: time.Minute},
		Policy{OutDir: w.out, Inputs: []string{w.data}, Records: filepath.Join(w.session, "records.jsonl")})
	if err != nil {
		t.Fatalf("Run %s: %v", filepath.Base(exe), err)
	}
	return o, rep
}

// needs skips unless the kernel has the mechanisms a test relies on, and
// says which is missing.
func needs(t *testing.T, ms ...string) {
	t.Helper()
	for _, m := range ms {
		switch m {
		case Landlock:
			if landlockABI() == 0 {
				t.Skip("the kernel has no Landlock (CONFIG_SECURITY_LANDLOCK and lsm=landlock)")
			}
		case Seccomp:
			if !seccompNotifySupported() {
				t.Skip("the kernel has no seccomp user notification (Linux 5.5)")
			}
		}
	}
	if !Enabled() {
		t.Skipf("%s=off", EnvSandbox)
	}
}

func TestHonestProgramRunsClean(t *testing.T) {
	needs(t, Landlock, Seccomp)
	w := newWorld(t)
	o, rep := w.run(t, w.compile(t, "honest"), w.input)
	if !o.OK() || len(rep.Violations) > 0 {
		t.Fatalf("honest program: %s, violations %v\n%s", o.Describe(), rep.Violations, o.Output)
	}
	if b, err := os.ReadFile(filepath.Join(w.out, "out.txt")); err != nil || string(b) != "input\n" {
		t.Errorf("out.txt = %q, %v; want the input copied", b, err)
	}
	if len(rep.Records) != 1 || !strings.Contains(string(rep.Records[0].Line), `"config":0`) {
		t.Errorf("records = %q, want the one line it wrote", rep.Records)
	}
	for _, m := range rep.Mechanisms {
		// The user switch needs root; everything else must apply here.
		if !m.Applied && !(m.Name == User && os.Geteuid() != 0) {
			t.Errorf("mechanism %s did not apply: %s", m.Name, m.Detail)
		}
	}
	if os.Geteuid() == 0 && !rep.Sandboxed {
		t.Errorf("run as root with every mechanism available, but not sandboxed: %v", rep.Missing())
	}
}

// TestFilesWrittenAheadAreTheCandidates: a file the evaluator put in the
// candidate's folder before the run (an output written ahead, mode 0644)
// is the candidate's to write, also once it runs as another user: the
// honest program overwrites out.txt.
func TestFilesWrittenAheadAreTheCandidates(t *testing.T) {
	needs(t, Landlock, Seccomp)
	w := newWorld(t)
	if err := os.WriteFile(filepath.Join(w.out, "out.txt"), []byte("written ahead\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	o, rep := w.run(t, w.compile(t, "honest"), w.input)
	if !o.OK() || len(rep.Violations) > 0 {
		t.Fatalf("honest program over a file written ahead: %s, violations %v\n%s", o.Describe(), rep.Violations, o.Output)
	}
	if b, err := os.ReadFile(filepath.Join(w.out, "out.txt")); err != nil || string(b) != "input\n" {
		t.Errorf("out.txt = %q, %v; want the input copied over what was written ahead", b, err)
	}
}

// TestCUDARuntimeHabitsAreNotViolations keeps the false alarms the first
// session found on the GPU machine fixed: each had rejected every candidate.
func TestCUDARuntimeHabitsAreNotViolations(t *testing.T) {
	needs(t, Landlock, Seccomp)
	w := newWorld(t)
	o, rep := w.run(t, w.compile(t, "cuda_like"))
	if !o.OK() || len(rep.Violations) > 0 {
		t.Errorf("%s, violations %v\n%s", o.Describe(), rep.Violations, o.Output)
	}
}

func hasViolation(rep *Report, kind, text string) bool {
	for _, v := range rep.Violations {
		if v.Kind == kind && strings.Contains(v.Detail, text) {
			return true
		}
	}
	return false
}

func TestEscapesAreRefused(t *testing.T) {
	needs(t, Landlock, Seccomp)
	w := newWorld(t)
	outside := filepath.Join(w.session, "escaped.txt")
	cases := []struct {
		prog, kind, text string
		args             []string
		absent           []string // files the escape would have made
	}{
		{prog: "write_outside", kind: "write", text: outside, args: []string{outside}, absent: []string{outside}},
		{prog: "write_outside", kind: "write", text: w.input, args: []string{w.input}},
		{prog: "shell", kind: "fork", text: "system()", args: []string{"echo pwned > pwned.txt"}, absent: []string{filepath.Join(w.out, "pwned.txt")}},
		{prog: "fork", kind: "fork", text: "fork", absent: []string{filepath.Join(w.out, "child.txt")}},
		{prog: "exec", kind: "exec", text: "/bin/sh", args: []string{"/bin/sh"}, absent: []string{filepath.Join(w.out, "pwned.txt")}},
		{prog: "read_secret", kind: "read", text: w.cache, args: []string{filepath.Join(w.cache, "entry")}},
		{prog: "read_secret", kind: "read", text: w.other, args: []string{filepath.Join(w.other, "out.txt")}},
		{prog: "read_secret", kind: "read", text: "/proc/self/root", args: []string{"/proc/self/root" + filepath.Join(w.cache, "entry")}},
		{prog: "records", kind: "records", text: "dup2"},
		{prog: "openat2", kind: "write", text: "openat2 " + outside, args: []string{outside}, absent: []string{outside}},
		{prog: "openat2", kind: "write", text: "symlink", args: []string{outside}, absent: []string{outside}},
	}
	for _, c := range cases {
		t.Run(c.prog+"/"+c.kind, func(t *testing.T) {
			os.RemoveAll(w.out)
			os.Mkdir(w.out, 0o700)
			o, rep := w.run(t, w.compile(t, c.prog), c.args...)
			t.Logf("violations: %v", rep.Violations)
			if !hasViolation(rep, c.kind, c.text) {
				t.Errorf("no %s violation naming %q; violations %v\n%s", c.kind, c.text, rep.Violations, o.Output)
			}
			if strings.Contains(o.Output, "WROTE") || strings.Contains(o.Output, "READ ") {
				t.Errorf("the escape worked:\n%s", o.Output)
			}
			for _, p := range c.absent {
				if _, err := os.Stat(p); err == nil {
					t.Errorf("%s exists: the escape worked", p)
				}
			}
		})
	}
	if b, _ := os.ReadFile(w.input); string(b) != "input\n" {
		t.Errorf("the input was changed to %q", b)
	}
}

// TestSignalsStayHome checks that a candidate cannot signal a process
// beside it (here a sleeping child of the test) and can signal itself.
func TestSignalsStayHome(t *testing.T) {
	needs(t, Seccomp)
	w := newWorld(t)
	victim := exec.Command("sleep", "30")
	if err := victim.Start(); err != nil {
		t.Skipf("cannot start a process to protect: %v", err)
	}
	defer victim.Process.Kill()
	pid := strconv.Itoa(victim.Process.Pid)
	o, rep := w.run(t, w.compile(t, "signal"), pid)
	if strings.Contains(o.Output, "KILLED") || !hasViolation(rep, "signal", "kill("+pid+")") {
		t.Errorf("kill of another process: violations %v\n%s", rep.Violations, o.Output)
	}
	if !o.OK() || !strings.Contains(o.Output, "got my own signal") {
		t.Errorf("signalling itself failed: %s\n%s", o.Describe(), o.Output)
	}
}

// TestLandlockAloneBlocksFiles checks the file rules without the
// supervisor: with seccomp skipped, nothing reports the attempt, but the
// write and the read still fail.
func TestLandlockAloneBlocksFiles(t *testing.T) {
	needs(t, Landlock)
	t.Setenv(EnvSkip, Seccomp+","+User)
	w := newWorld(t)
	outside := filepath.Join(w.session, "escaped.txt")
	o, rep := w.run(t, w.compile(t, "write_outside"), outside)
	if _, err := os.Stat(outside); err == nil || strings.Contains(o.Output, "WROTE") {
		t.Errorf("Landlock let the write outside the folder through:\n%s", o.Output)
	}
	if rep.Sandboxed {
		t.Errorf("a run with seccomp skipped is reported sandboxed")
	}
	o, _ = w.run(t, w.compile(t, "read_secret"), filepath.Join(w.cache, "entry"), filepath.Join(w.other, "out.txt"))
	if strings.Contains(o.Output, "READ ") {
		t.Errorf("Landlock let a read through:\n%s", o.Output)
	}
}

func TestThirtyTwoBitCallsKill(t *testing.T) {
	needs(t, Seccomp)
	w := newWorld(t)
	o, _ := w.run(t, w.compile(t, "int80"))
	if o.Signal != "bad system call" {
		t.Errorf("int 0x80 fork: %s, want killed by SIGSYS\n%s", o.Describe(), o.Output)
	}
}

func TestSandboxOffIsReported(t *testing.T) {
	t.Setenv(EnvSandbox, "off")
	w := newWorld(t)
	o, rep := w.run(t, w.compile(t, "honest"), w.input)
	if !o.OK() || rep.Sandboxed || len(rep.Missing()) == 0 {
		t.Errorf("sandbox off: %s, sandboxed %v, missing %v\n%s", o.Describe(), rep.Sandboxed, rep.Missing(), o.Output)
	}
	if len(rep.Records) != 1 {
		t.Errorf("records through the pipe without the sandbox: %d lines, want 1", len(rep.Records))
	}
}

// TestEnvironment checks that the command's environment is the base (the
// worker's CUDA_VISIBLE_DEVICES reaches the candidate) and that nothing
// else of it does, confined or not.
func TestEnvironment(t *testing.T) {
	w := newWorld(t)
	exe := w.compile(t, "env")
	for _, mode := range []string{"on", "off"} {
		t.Run(mode, func(t *testing.T) {
			if mode == "off" {
				t.Setenv(EnvSandbox, "off")
			}
			o, _, err := Run(context.Background(), runner.Cmd{Path: exe, Args: []string{"CUDA_VISIBLE_DEVICES", "API_TOKEN", "HOME"},
				Env: []string{"CUDA_VISIBLE_DEVICES=7", "API_TOKEN=secret", "HOME=/root"}, Timeout: time.Minute}, Policy{OutDir: w.out})
			if err != nil {
				t.Fatal(err)
			}
			want := "CUDA_VISIBLE_DEVICES=7\nAPI_TOKEN=(unset)\nHOME=" + w.out + "\n"
			if o.Output != want {
				t.Errorf("the candidate saw\n%s\nwant\n%s", o.Output, want)
			}
		})
	}
}

func TestBadSkipIsAnError(t *testing.T) {
	t.Setenv(EnvSkip, "landlok")
	if err := CheckSkip(); err == nil || !strings.Contains(err.Error(), "landlock") {
		t.Errorf("CheckSkip(landlok) = %v, want an error naming the mechanisms", err)
	}
}

// TestGateDescriptor checks that Policy.Gate reaches the candidate as
// descriptor GateFD through the launcher, and that the candidate can use
// it but not close or replace it.
func TestGateDescriptor(t *testing.T) {
	needs(t, Seccomp)
	w := newWorld(t)
	exe := w.compile(t, "gate")
	// Without SOCK_CLOEXEC, which macOS lacks: this test starts no other
	// process while the descriptors are open to it.
	fds, err := unix.Socketpair(unix.AF_UNIX, unix.SOCK_STREAM, 0)
	if err != nil {
		t.Fatal(err)
	}
	unix.CloseOnExec(fds[0])
	unix.CloseOnExec(fds[1])
	mine, theirs := os.NewFile(uintptr(fds[0]), "gate"), os.NewFile(uintptr(fds[1]), "gate-candidate")
	defer mine.Close()
	go func() { // the evaluator's side: grant the one request
		b := make([]byte, 1)
		if n, _ := mine.Read(b); n == 1 {
			mine.Write([]byte{'g'})
		}
	}()
	o, rep, err := Run(context.Background(), runner.Cmd{Path: exe, Timeout: time.Minute},
		Policy{OutDir: w.out, Inputs: []string{w.data}, Records: filepath.Join(w.session, "records.jsonl"), Gate: theirs})
	if err != nil {
		t.Fatal(err)
	}
	if !o.OK() || !strings.Contains(o.Output, "granted") {
		t.Fatalf("the gate did not work inside the sandbox: %s\n%s", o.Describe(), o.Output)
	}
	if !hasViolation(rep, "records", "gate descriptor") {
		t.Errorf("closing or replacing the gate was not a violation: %v", rep.Violations)
	}
}

// TestSupervisorSurvivesSignals checks that the supervisor keeps answering
// while this process is flooded with the signal the Go runtime preempts
// goroutines with: on the H200 machine a supervisor that left its loop on
// EINTR made the candidate's opens fail with ENOSYS, at random.
func TestSupervisorSurvivesSignals(t *testing.T) {
	needs(t, Seccomp)
	w := newWorld(t)
	exe := w.compile(t, "many_opens")
	stop := make(chan struct{})
	defer close(stop)
	go func() {
		for {
			select {
			case <-stop:
				return
			default:
				syscall.Kill(os.Getpid(), syscall.SIGURG)
				time.Sleep(5 * time.Microsecond)
			}
		}
	}()
	o, rep := w.run(t, exe, w.input)
	if !o.OK() || !strings.Contains(o.Output, "50000 opens") {
		t.Fatalf("the candidate's checked calls failed under signals: %s\n%s", o.Describe(), o.Output)
	}
	if len(rep.Violations) > 0 {
		t.Errorf("violations: %v", rep.Violations)
	}
}
