package sandbox

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

// Knobs, read from the environment of the process that runs candidates.
const (
	// EnvSandbox set to "off" runs candidates without any confinement: only
	// for trusted code (the task authors' own variants), never for
	// candidates from a policy or a user.
	EnvSandbox = "CUDAPERF_SANDBOX"
	// EnvSkip names mechanisms to leave out, comma separated (landlock,
	// seccomp, rlimits, user). A run that skips one is not sandboxed. It
	// exists because CUDA fails inside any Landlock domain on some driver
	// installations (see docs/sandbox.md).
	EnvSkip = "CUDAPERF_SANDBOX_SKIP"
	// EnvRead adds read-only paths (colon separated) for machines whose
	// CUDA libraries live outside the default allow list.
	EnvRead = "CUDAPERF_SANDBOX_READ"
)

// Mechanism names, as EnvSkip and Report use them.
const (
	Landlock = "landlock"
	Seccomp  = "seccomp"
	Rlimits  = "rlimits"
	User     = "user"
)

// Mechanisms lists every mechanism; a run is sandboxed only when all apply.
var Mechanisms = []string{Landlock, Seccomp, Rlimits, User}

// LandlockScope, in EnvSkip, keeps Landlock but leaves out its signal
// scoping (ABI 6): a diagnostic for finding what breaks CUDA inside a
// Landlock domain; the run is then not sandboxed.
const LandlockScope = "landlock-scope"

// RecordsFD is the descriptor number of the records pipe in the candidate
// when Policy.Records is set; the driver is told "fd:3".
const RecordsFD = 3

// RecordsArg is the records argument to give the driver.
var RecordsArg = fmt.Sprintf("fd:%d", RecordsFD)

// GateFD is the descriptor number of Policy.Gate in the candidate (after
// the records pipe); the driver is told GateArg.
const GateFD = 4

// GateArg is the gate argument to give the driver.
var GateArg = fmt.Sprintf("gate:%d", GateFD)

// NobodyID is the uid and gid a candidate runs as when started by root.
const NobodyID = 65534

// Policy says what one candidate process may do.
type Policy struct {
	OutDir  string   // its own folder: the only place it may write; its working folder
	Inputs  []string // files and folders it may read (its inputs)
	Records string   // if set, the driver's records come through a pipe and are written here
	// OnRecord, if set, is called with each records line as it arrives
	// (from the reader's goroutine), so a caller can follow the run's
	// progress.
	OnRecord func(line []byte)
	// Gate, if set, is given to the candidate as descriptor GateFD (it
	// needs Records): the socket through which the driver asks the
	// evaluator for the GPU (bench.Gate). Like the records descriptor, the
	// candidate may not close or replace it.
	Gate *os.File
	// Limits; zero takes the default.
	CPUTime  time.Duration // RLIMIT_CPU (default 2 min)
	Memory   int64         // RLIMIT_DATA in bytes: heap and private writable mappings (default 32 GiB)
	FileSize int64         // RLIMIT_FSIZE in bytes (default 4 GiB)
	Files    int           // RLIMIT_NOFILE (default 1024)
	Skip     []string      // mechanisms to leave out (EnvSkip adds to it)
	// Env names the variables of the command's environment (runner.Cmd.Env,
	// or this process's when that is nil) that reach the candidate
	// (default: the CUDA, NVIDIA, PATH, locale and library path variables),
	// with HOME and TMPDIR pointed at OutDir.
	Env []string
}

func (p *Policy) defaults() {
	if p.CPUTime <= 0 {
		p.CPUTime = 2 * time.Minute
	}
	if p.Memory <= 0 {
		p.Memory = 32 << 30
	}
	if p.FileSize <= 0 {
		p.FileSize = 4 << 30
	}
	if p.Files <= 0 {
		p.Files = 1024
	}
	if s := os.Getenv(EnvSkip); s != "" {
		for _, m := range strings.Split(s, ",") {
			if m = strings.TrimSpace(m); m != "" {
				p.Skip = append(p.Skip, m)
			}
		}
	}
}

func (p *Policy) skips(m string) bool { return slices.Contains(p.Skip, m) }

// Enabled reports whether candidates are sandboxed (EnvSandbox is not "off").
func Enabled() bool { return os.Getenv(EnvSandbox) != "off" }

// CheckSkip validates EnvSkip, so that a typo does not silently keep a
// mechanism on (or off).
func CheckSkip() error {
	for _, m := range strings.Split(os.Getenv(EnvSkip), ",") {
		if m = strings.TrimSpace(m); m != "" && !slices.Contains(Mechanisms, m) && m != LandlockScope {
			return fmt.Errorf("sandbox: %s names %q; the mechanisms are %s (and %s)", EnvSkip, m, strings.Join(Mechanisms, ", "), LandlockScope)
		}
	}
	return nil
}

// Mechanism is one confinement mechanism and whether it applied.
type Mechanism struct {
	Name    string `json:"name"`
	Applied bool   `json:"applied"`
	Detail  string `json:"detail,omitempty"`
}

// Violation is one thing the candidate tried that the policy forbids; it
// was refused.
type Violation struct {
	Kind   string `json:"kind"` // exec, fork, write, read, records, syscall, network
	Detail string `json:"detail"`
}

func (v Violation) String() string { return v.Kind + ": " + v.Detail }

// Report is how one candidate was confined and what it tried.
type Report struct {
	// Sandboxed is true only when every mechanism applied.
	Sandboxed  bool        `json:"sandboxed"`
	Mechanisms []Mechanism `json:"mechanisms,omitempty"`
	Violations []Violation `json:"violations,omitempty"`
	// Records are the records lines with the supervisor's clock when each
	// arrived (not in JSON: the caller checks them and writes the file).
	Records []Record `json:"-"`
}

// Record is one line of the records pipe.
type Record struct {
	Line []byte
	At   time.Duration // since the candidate was started, by the supervisor's clock
}

// Missing names the mechanisms that did not apply, with why.
func (r *Report) Missing() []string {
	var out []string
	for _, m := range r.Mechanisms {
		if !m.Applied {
			out = append(out, m.Name+" ("+m.Detail+")")
		}
	}
	return out
}

func (r *Report) violate(kind, format string, args ...any) {
	// A candidate in a loop must not grow the report without bound.
	if len(r.Violations) < 20 {
		r.Violations = append(r.Violations, Violation{kind, fmt.Sprintf(format, args...)})
	}
}

// paths is the allow list of one run, shared by the Landlock rules and the
// supervisor's checks so that the two say the same.
type paths struct {
	out    string   // read and write
	read   []string // read-only trees and files
	exec   []string // read and execute files (the candidate and its ELF interpreter)
	dev    []string // device files, read and write
	pid    int      // the candidate's pid: its /proc entry is readable
	noproc bool
}

// defaultRead are the system trees a CUDA program reads: libraries, the
// loader's configuration, and the driver's /sys and /proc entries.
var defaultRead = []string{"/usr", "/lib", "/lib32", "/lib64", "/etc", "/sys", "/opt/nvidia"}

// procRead are the /proc files outside a process's own entry that libc and
// the CUDA driver read.
var procRead = []string{"/proc/cpuinfo", "/proc/meminfo", "/proc/stat", "/proc/devices", "/proc/modules",
	"/proc/filesystems", "/proc/driver", "/proc/sys", "/proc/self", "/proc/thread-self"}

// devFiles are the device files a candidate may open read-write: the NVIDIA
// nodes and the harmless ones. The CUDA driver also opens the
// injection-path shared memory file.
func devFiles() []string {
	out := []string{"/dev/null", "/dev/zero", "/dev/full", "/dev/random", "/dev/urandom", "/dev/shm/cuda_injection_path_shm"}
	nv, _ := filepath.Glob("/dev/nvidia*")
	out = append(out, nv...)
	return out
}

func clean(p string) string { return filepath.Clean(p) }

func under(p, root string) bool {
	return p == root || strings.HasPrefix(p, strings.TrimSuffix(root, "/")+"/")
}

// procOK says whether a /proc path is the candidate's own or a system file;
// other processes' entries, and the magic links that lead out of the
// policy (root, cwd, fd, map_files), are refused.
func (a *paths) procOK(p string) bool {
	rest := strings.TrimPrefix(p, "/proc/")
	first, tail, _ := strings.Cut(rest, "/")
	own := first == "self" || first == "thread-self" || (a.pid > 0 && first == fmt.Sprint(a.pid))
	if !own {
		if first != "" && first[0] >= '0' && first[0] <= '9' {
			return false
		}
		return slices.ContainsFunc(procRead, func(r string) bool { return under(p, r) })
	}
	if first == "thread-self" {
		tail = "task/x/" + tail
	}
	// /proc/self/task/N/... is the same as /proc/self/...
	if t := strings.SplitN(tail, "/", 3); len(t) >= 2 && t[0] == "task" {
		tail = ""
		if len(t) == 3 {
			tail = t[2]
		}
	}
	leaf, _, _ := strings.Cut(tail, "/")
	switch leaf {
	case "root", "cwd", "fd", "map_files", "mem", "environ":
		return false
	}
	return true
}

// mayRead reports whether the candidate may open p for reading.
func (a *paths) mayRead(p string) bool {
	p = clean(p)
	if a.mayWrite(p) || p == "/dev" {
		return true
	}
	if under(p, "/proc") {
		return !a.noproc && a.procOK(p)
	}
	for _, r := range [][]string{a.read, a.exec} {
		if slices.ContainsFunc(r, func(r string) bool { return under(p, r) }) {
			return true
		}
	}
	return false
}

// mayWrite reports whether the candidate may open p for writing or create,
// remove or rename it.
func (a *paths) mayWrite(p string) bool {
	p = clean(p)
	return under(p, a.out) || slices.Contains(a.dev, p) ||
		// /dev/nvidia-caps/* and the like
		slices.ContainsFunc(a.dev, func(d string) bool { return strings.HasPrefix(d, "/dev/nvidia") && under(p, d) }) ||
		// pthread_setname_np on another thread writes its comm file: not an
		// escape (Landlock refuses it anyway; naming threads is optional).
		under(p, "/proc") && !a.noproc && a.procOK(p) && filepath.Base(p) == "comm"
}

// KernelHas reports whether this kernel provides mechanism m (Landlock,
// seccomp user notification); the others need nothing from it.
func KernelHas(m string) bool {
	switch m {
	case Landlock:
		return landlockABI() > 0
	case Seccomp:
		return seccompNotifySupported()
	}
	return true
}
