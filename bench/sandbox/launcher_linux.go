package sandbox

import (
	"debug/elf"
	"encoding/json"
	"fmt"
	"os"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"unsafe"

	"golang.org/x/sys/unix"
)

// envLaunch carries the launch configuration to the re-executed binary.
const envLaunch = "CUDAPERF_SANDBOX_LAUNCH"

// launchConfig is what the supervisor tells the launcher.
type launchConfig struct {
	Exe      string   `json:"exe"`
	Args     []string `json:"args"` // argv[1:]
	Env      []string `json:"env"`
	Out      string   `json:"out"`
	Read     []string `json:"read"`
	Exec     []string `json:"exec"`
	Dev      []string `json:"dev"`
	Records  bool     `json:"records"`
	Gate     bool     `json:"gate"`
	CtlFD    int      `json:"ctl_fd"`
	CPU      uint64   `json:"cpu_s"`
	Memory   uint64   `json:"memory"`
	FileSize uint64   `json:"file_size"`
	Files    uint64   `json:"files"`
	Skip     []string `json:"skip"`
	NoUser   string   `json:"no_user,omitempty"` // why the user switch cannot be made
}

// protected lists the descriptors the candidate may not close or replace.
func (c *launchConfig) protected() []int {
	var fds []int
	if c.Records {
		fds = append(fds, RecordsFD)
	}
	if c.Gate {
		fds = append(fds, GateFD)
	}
	return fds
}

// launchStatus is the launcher's answer, sent before it execs the candidate.
type launchStatus struct {
	Pid        int         `json:"pid"`
	Mechanisms []Mechanism `json:"mechanisms"`
	Error      string      `json:"error,omitempty"`
}

// The launcher is this same binary, re-executed by Run with envLaunch set:
// it applies the policy to itself and then execs the candidate, which
// inherits all of it. Running it from init means every binary that runs
// candidates (cudaperf, the benchmarker plugin, test binaries) can launch
// without a change to its main.
func init() {
	if cfg := os.Getenv(envLaunch); cfg != "" {
		launch(cfg)
	}
}

func launch(text string) {
	// Landlock, no_new_privs and seccomp below apply to this thread; the
	// exec from it carries them into the candidate.
	runtime.LockOSThread()
	var cfg launchConfig
	if err := json.Unmarshal([]byte(text), &cfg); err != nil {
		fmt.Fprintf(os.Stderr, "sandbox launcher: bad configuration: %v\n", err)
		os.Exit(126)
	}
	st := launchStatus{Pid: os.Getpid()}
	send := func(listener int) {
		b, _ := json.Marshal(st)
		var oob []byte
		if listener >= 0 {
			oob = unix.UnixRights(listener)
		}
		if err := unix.Sendmsg(cfg.CtlFD, b, oob, nil, 0); err != nil {
			fmt.Fprintf(os.Stderr, "sandbox launcher: cannot report to the supervisor: %v\n", err)
			os.Exit(126)
		}
	}
	fail := func(format string, args ...any) {
		st.Error = fmt.Sprintf(format, args...)
		send(-1)
		os.Exit(126)
	}
	skip := func(m string) bool {
		for _, s := range cfg.Skip {
			if s == m {
				return true
			}
		}
		return false
	}
	mech := func(name string, err error, ok string) {
		m := Mechanism{Name: name, Applied: err == nil, Detail: ok}
		if err != nil {
			m.Detail = err.Error()
		}
		st.Mechanisms = append(st.Mechanisms, m)
	}
	skipped := fmt.Errorf("skipped by %s", EnvSkip)

	exe, err := unix.Open(cfg.Exe, unix.O_RDONLY|unix.O_CLOEXEC, 0)
	if err != nil {
		fail("cannot open the candidate %s: %v", cfg.Exe, err)
	}
	if err := unix.Chdir(cfg.Out); err != nil {
		fail("cannot enter %s: %v", cfg.Out, err)
	}
	a := &paths{out: cfg.Out, read: cfg.Read, exec: cfg.Exec, dev: cfg.Dev}

	// Landlock's rules are built while the launcher can still open every
	// path, and enforced after the user switch.
	ruleset, abi := -1, 0
	var llErr error
	switch {
	case skip(Landlock):
		llErr = skipped
	default:
		if abi = landlockABI(); abi == 0 {
			llErr = fmt.Errorf("the kernel has no Landlock (CONFIG_SECURITY_LANDLOCK, lsm=landlock)")
		} else {
			ruleset, llErr = landlockRuleset(a, abi, !skip(LandlockScope))
		}
	}

	if skip(Rlimits) {
		mech(Rlimits, skipped, "")
	} else {
		mech(Rlimits, setLimits(&cfg), fmt.Sprintf("cpu %d s, data %d MiB, file size %d MiB, %d files, no core dumps",
			cfg.CPU, cfg.Memory>>20, cfg.FileSize>>20, cfg.Files))
	}
	switch {
	case skip(User):
		mech(User, skipped, "")
	case cfg.NoUser != "":
		mech(User, fmt.Errorf("%s", cfg.NoUser), "")
	default:
		detail, err := dropUser()
		mech(User, err, detail)
	}
	if err := unix.Prctl(unix.PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0); err != nil {
		fail("no_new_privs: %v", err)
	}
	if ruleset >= 0 {
		llErr = landlockRestrict(ruleset)
		unix.Close(ruleset)
	}
	llDetail := fmt.Sprintf("ABI %d", abi)
	if llErr == nil && skip(LandlockScope) {
		llErr = fmt.Errorf("ABI %d, signal scoping skipped by %s", abi, EnvSkip)
	}
	mech(Landlock, llErr, llDetail)

	listener := -1
	switch {
	case skip(Seccomp):
		mech(Seccomp, skipped, "")
	case !seccompNotifySupported():
		mech(Seccomp, fmt.Errorf("the kernel cannot pass system calls to a supervisor (seccomp user notification, Linux 5.5)"), "")
	default:
		var err error
		listener, err = installFilter(cfg.protected(), st.Pid)
		mech(Seccomp, err, "no fork or exec; opens and file system changes checked by the supervisor")
	}
	// From here on, notified calls wait for the supervisor, which gets the
	// listener now: nothing between the filter and this send may open files.
	send(listener)
	if listener >= 0 {
		unix.Close(listener)
	}
	unix.Close(cfg.CtlFD)

	argv, err := syscall.SlicePtrFromStrings(append([]string{cfg.Exe}, cfg.Args...))
	if err != nil {
		os.Exit(126)
	}
	envv, err := syscall.SlicePtrFromStrings(cfg.Env)
	if err != nil {
		os.Exit(126)
	}
	empty := [1]byte{}
	_, _, e := unix.Syscall6(unix.SYS_EXECVEAT, uintptr(exe), uintptr(unsafe.Pointer(&empty[0])),
		uintptr(unsafe.Pointer(&argv[0])), uintptr(unsafe.Pointer(&envv[0])), unix.AT_EMPTY_PATH, 0)
	fmt.Fprintf(os.Stderr, "sandbox launcher: exec %s: %v\n", cfg.Exe, e)
	os.Exit(127)
}

func setLimits(cfg *launchConfig) error {
	set := func(name string, res int, soft, hard uint64) error {
		if err := unix.Setrlimit(res, &unix.Rlimit{Cur: soft, Max: hard}); err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
		return nil
	}
	for _, l := range []struct {
		name       string
		res        int
		soft, hard uint64
	}{
		// SIGXCPU at the soft limit, SIGKILL a little later.
		{"RLIMIT_CPU", unix.RLIMIT_CPU, cfg.CPU, cfg.CPU + 5},
		// Not RLIMIT_AS: the CUDA driver reserves far more address space
		// than it uses. RLIMIT_DATA counts private writable memory.
		{"RLIMIT_DATA", unix.RLIMIT_DATA, cfg.Memory, cfg.Memory},
		{"RLIMIT_FSIZE", unix.RLIMIT_FSIZE, cfg.FileSize, cfg.FileSize},
		{"RLIMIT_NOFILE", unix.RLIMIT_NOFILE, cfg.Files, cfg.Files},
		{"RLIMIT_CORE", unix.RLIMIT_CORE, 0, 0},
	} {
		if err := set(l.name, l.res, l.soft, l.hard); err != nil {
			return err
		}
	}
	return nil
}

// dropUser gives up root: every capability, then the uid. Started by
// another user it checks that no capability is held.
func dropUser() (string, error) {
	if os.Geteuid() != 0 {
		if eff := capEff(); eff != 0 {
			return "", fmt.Errorf("uid %d holds capabilities %#x", os.Geteuid(), eff)
		}
		return fmt.Sprintf("uid %d (not root), no capabilities", os.Geteuid()), nil
	}
	last := 40
	if b, err := os.ReadFile("/proc/sys/kernel/cap_last_cap"); err == nil {
		if n, err := strconv.Atoi(strings.TrimSpace(string(b))); err == nil {
			last = n
		}
	}
	for c := 0; c <= last; c++ {
		if err := unix.Prctl(unix.PR_CAPBSET_DROP, uintptr(c), 0, 0, 0); err != nil {
			return "", fmt.Errorf("dropping capability %d: %w", c, err)
		}
	}
	_ = unix.Prctl(unix.PR_CAP_AMBIENT, unix.PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0)
	if err := syscall.Setgroups(nil); err != nil {
		return "", fmt.Errorf("setgroups: %w", err)
	}
	if err := syscall.Setresgid(NobodyID, NobodyID, NobodyID); err != nil {
		return "", fmt.Errorf("setresgid: %w", err)
	}
	// From root to another uid clears the permitted and effective sets.
	if err := syscall.Setresuid(NobodyID, NobodyID, NobodyID); err != nil {
		return "", fmt.Errorf("setresuid: %w", err)
	}
	if eff := capEff(); eff != 0 {
		return "", fmt.Errorf("capabilities %#x survived the switch to uid %d", eff, NobodyID)
	}
	return fmt.Sprintf("uid and gid %d, no capabilities", NobodyID), nil
}

// capEff reads the calling thread's effective capabilities.
func capEff() uint64 {
	b, err := os.ReadFile("/proc/thread-self/status")
	if err != nil {
		return ^uint64(0)
	}
	for _, l := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(l, "CapEff:"); ok {
			n, err := strconv.ParseUint(strings.TrimSpace(v), 16, 64)
			if err == nil {
				return n
			}
		}
	}
	return ^uint64(0)
}

// interpreter returns the ELF interpreter (dynamic loader) of exe, which
// exec opens for execution too; "" for a static executable.
func interpreter(exe string) string {
	f, err := elf.Open(exe)
	if err != nil {
		return ""
	}
	defer f.Close()
	for _, p := range f.Progs {
		if p.Type == elf.PT_INTERP {
			b := make([]byte, p.Filesz)
			if _, err := p.ReadAt(b, 0); err == nil {
				return strings.TrimRight(string(b), "\x00")
			}
		}
	}
	return ""
}
