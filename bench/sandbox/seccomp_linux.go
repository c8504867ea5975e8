package sandbox

import (
	"fmt"
	"syscall"
	"unsafe"

	seccomp "github.com/elastic/go-seccomp-bpf"
	"github.com/elastic/go-seccomp-bpf/arch"
	"golang.org/x/net/bpf"
	"golang.org/x/sys/unix"
)

// notified are the system calls the supervisor sees and judges (it reads
// their path arguments): starting programs and processes, every open, and
// every call that changes the file system or reaches outside the process.
var notified = []string{
	"fork", "vfork", "execve", "execveat",
	"open", "creat", "openat", "openat2", "open_by_handle_at", "name_to_handle_at",
	"mkdir", "mkdirat", "rmdir", "unlink", "unlinkat", "rename", "renameat", "renameat2",
	"link", "linkat", "symlink", "symlinkat", "truncate", "chmod", "fchmodat", "chown", "lchown", "fchownat",
	"mknod", "mknodat", "utime", "utimes", "futimesat", "utimensat",
	"setxattr", "lsetxattr", "removexattr", "lremovexattr",
	"ptrace", "process_vm_readv", "process_vm_writev", "kcmp", "pidfd_getfd", "pidfd_open", "tkill",
	"mount", "umount2", "pivot_root", "chroot", "unshare", "setns", "bpf", "io_uring_setup",
	"kexec_load", "kexec_file_load", "init_module", "finit_module", "delete_module", "reboot",
	"swapon", "swapoff", "settimeofday", "clock_settime", "clock_adjtime", "adjtimex",
}

// refused are answered with EPERM without a notification: probes that
// libraries make and that need not be reported.
var refused = []string{"setrlimit", "perf_event_open", "keyctl", "add_key", "request_key", "userfaultfd"}

// filter assembles the seccomp program of the candidate with process id
// pid (the launcher's, which exec keeps). With records, closing or
// replacing the records descriptor is notified too.
func filter(protect []int, pid int) ([]bpf.Instruction, error) {
	info, err := arch.GetInfo("")
	if err != nil {
		return nil, err
	}
	// Some calls do not exist on every architecture (arm64 has no open or fork).
	known := func(names []string) []string {
		var out []string
		for _, n := range names {
			if _, ok := info.SyscallNames[n]; ok {
				out = append(out, n)
			}
		}
		return out
	}
	notify := seccomp.SyscallGroup{Action: seccomp.ActionUserNotify, Names: known(notified)}
	cond := func(name string, arg uint32, op seccomp.Operation, v uint64) {
		if _, ok := info.SyscallNames[name]; !ok {
			return
		}
		notify.NamesWithCondtions = append(notify.NamesWithCondtions, seccomp.NameWithConditions{
			Name: name, Conditions: seccomp.ArgumentConditions{{Argument: arg, Operation: op, Value: v}}})
	}
	cond("clone", 0, seccomp.BitsNotSet, unix.CLONE_THREAD) // a new process, not a thread
	cond("socket", 0, seccomp.NotEqual, unix.AF_UNIX)       // the network
	// Signals to other processes: other candidates may run as the same
	// user (Landlock's signal scoping covers this too, where it applies).
	// kill(0, …) is its own process group, which is only itself.
	notify.NamesWithCondtions = append(notify.NamesWithCondtions, seccomp.NameWithConditions{Name: "kill",
		Conditions: seccomp.ArgumentConditions{{Argument: 0, Operation: seccomp.NotEqual, Value: uint64(pid)},
			{Argument: 0, Operation: seccomp.NotEqual, Value: 0}}})
	cond("tgkill", 0, seccomp.NotEqual, uint64(pid))
	cond("rt_tgsigqueueinfo", 0, seccomp.NotEqual, uint64(pid))
	cond("rt_sigqueueinfo", 0, seccomp.NotEqual, uint64(pid))
	for _, fd := range protect { // the records pipe and the gate
		cond("close", 0, seccomp.Equal, uint64(fd))
		cond("dup2", 1, seccomp.Equal, uint64(fd))
		cond("dup3", 1, seccomp.Equal, uint64(fd))
	}
	policy := seccomp.Policy{
		DefaultAction: seccomp.ActionAllow,
		Syscalls: []seccomp.SyscallGroup{
			notify,
			// glibc falls back to clone (checked above) when clone3 is missing;
			// clone3's flags are in memory that a filter cannot read.
			{Action: seccomp.ActionErrno | seccomp.Action(unix.ENOSYS), Names: []string{"clone3"}},
			{Action: seccomp.ActionErrno, Names: known(refused),
				NamesWithCondtions: []seccomp.NameWithConditions{{Name: "prlimit64",
					Conditions: seccomp.ArgumentConditions{{Argument: 2, Operation: seccomp.NotEqual, Value: 0}}}}},
		},
	}
	prog, err := policy.Assemble()
	if err != nil {
		return nil, err
	}
	// The library lets calls of another architecture through to the default
	// action (allow); a 64-bit process can still make 32-bit calls (int
	// 0x80), whose numbers differ, so those kill the process instead.
	guard := []bpf.Instruction{
		bpf.LoadAbsolute{Off: 4, Size: 4}, // seccomp_data.arch
		bpf.JumpIf{Cond: bpf.JumpEqual, Val: uint32(info.ID), SkipTrue: 1},
		bpf.RetConstant{Val: unix.SECCOMP_RET_KILL_PROCESS},
	}
	return append(guard, prog...), nil
}

// installFilter loads the program on the calling thread (the launcher's,
// which then execs the candidate) and returns the notification listener.
func installFilter(protect []int, pid int) (int, error) {
	prog, err := filter(protect, pid)
	if err != nil {
		return -1, err
	}
	raw, err := bpf.Assemble(prog)
	if err != nil {
		return -1, err
	}
	sf := make([]syscall.SockFilter, len(raw))
	for i, r := range raw {
		sf[i] = syscall.SockFilter{Code: r.Op, Jt: r.Jt, Jf: r.Jf, K: r.K}
	}
	fprog := syscall.SockFprog{Len: uint16(len(sf)), Filter: &sf[0]}
	fd, _, e := unix.Syscall(unix.SYS_SECCOMP, unix.SECCOMP_SET_MODE_FILTER, unix.SECCOMP_FILTER_FLAG_NEW_LISTENER, uintptr(unsafe.Pointer(&fprog)))
	if e != 0 {
		return -1, fmt.Errorf("seccomp: %w", e)
	}
	return int(fd), nil
}

// seccompNotifySupported reports whether the kernel can hand system calls
// to a supervisor (Linux 5.0; continuing them needs 5.5).
func seccompNotifySupported() bool {
	act := uint32(unix.SECCOMP_RET_USER_NOTIF)
	_, _, e := unix.Syscall(unix.SYS_SECCOMP, unix.SECCOMP_GET_ACTION_AVAIL, 0, uintptr(unsafe.Pointer(&act)))
	return e == 0
}
