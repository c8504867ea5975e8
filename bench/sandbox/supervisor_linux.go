package sandbox

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"unsafe"

	"github.com/elastic/go-seccomp-bpf/arch"
	"golang.org/x/sys/unix"

	"github.com/cudaperf/cudaperf/bench/runner"
)

// Run runs c confined by p and supervises it: it answers the system calls
// the seccomp filter hands over, collects the records pipe, and returns
// how the program ended and the report. With CUDAPERF_SANDBOX=off it runs c
// unconfined (the records pipe still works) and says so in the report.
func Run(ctx context.Context, c runner.Cmd, p Policy) (*runner.Outcome, *Report, error) {
	recs, files, err := begin(&p)
	if err != nil {
		return nil, nil, err
	}
	defer closeAll(files)
	rep := &Report{}
	if !Enabled() {
		return runUnconfined(ctx, c, p, recs, files, EnvSandbox+"=off")
	}

	a := &paths{out: filepath.Clean(p.OutDir), dev: devFiles()}
	a.exec = []string{c.Path}
	if in := interpreter(c.Path); in != "" {
		a.exec = append(a.exec, in)
	}
	a.read = append(a.read, p.Inputs...)
	a.read = append(a.read, defaultRead...)
	for _, v := range []string{os.Getenv(EnvRead), os.Getenv("LD_LIBRARY_PATH")} {
		for _, d := range strings.Split(v, ":") {
			if filepath.IsAbs(d) {
				a.read = append(a.read, filepath.Clean(d))
			}
		}
	}
	cfg := launchConfig{
		Exe: c.Path, Args: c.Args, Env: candidateEnv(c.Env, p.Env, a.out), Out: a.out, Read: a.read, Exec: a.exec, Dev: a.dev,
		Records: recs != nil, Gate: p.Gate != nil, CPU: uint64(p.CPUTime.Seconds() + 0.5), Memory: uint64(p.Memory),
		FileSize: uint64(p.FileSize), Files: uint64(p.Files), Skip: p.Skip,
	}
	if os.Geteuid() == 0 && !p.skips(User) {
		cfg.NoUser = shareWithNobody(a.out, p.Inputs)
	}
	pair, err := unix.Socketpair(unix.AF_UNIX, unix.SOCK_SEQPACKET|unix.SOCK_CLOEXEC, 0)
	if err != nil {
		return nil, nil, fmt.Errorf("sandbox: %w", err)
	}
	mine, theirs := os.NewFile(uintptr(pair[0]), "sandbox-ctl"), os.NewFile(uintptr(pair[1]), "sandbox-ctl-child")
	defer theirs.Close()
	files = append(files, theirs)
	cfg.CtlFD = 2 + len(files)
	conn, err := net.FileConn(mine)
	mine.Close()
	if err != nil {
		return nil, nil, fmt.Errorf("sandbox: %w", err)
	}
	cfgText, err := json.Marshal(cfg)
	if err != nil {
		return nil, nil, err
	}
	// This program is the launcher; /proc/self/exe still works when its
	// file was replaced (a rebuild during a long run).
	const self = "/proc/self/exe"
	sup := &supervisor{a: a, rep: rep}
	statusCh := make(chan *launchStatus, 1)
	go func() { statusCh <- sup.receive(conn.(*net.UnixConn)) }()
	if recs != nil {
		go recs.read()
	}
	o, runErr := runner.Run(ctx, runner.Cmd{
		Path: self, Dir: a.out, Env: []string{envLaunch + "=" + string(cfgText)},
		Timeout: c.Timeout, Paused: c.Paused, Stop: c.Stop, StopWhy: c.StopWhy, ExtraFiles: files,
	})
	conn.Close()
	st := <-statusCh
	sup.stop()
	if st == nil || st.Error != "" {
		_ = finish(recs, files, rep, nil)
		if st == nil {
			out := ""
			if o != nil {
				out = o.Output
			}
			return o, nil, errors.Join(runErr, fmt.Errorf("sandbox: the launcher did not start: %s", strings.TrimSpace(out)))
		}
		return o, nil, fmt.Errorf("sandbox: the launcher failed: %s", st.Error)
	}
	rep.Mechanisms = st.Mechanisms
	rep.Sandboxed = len(st.Mechanisms) == len(Mechanisms)
	for _, m := range st.Mechanisms {
		rep.Sandboxed = rep.Sandboxed && m.Applied
	}
	return o, rep, finish(recs, files, rep, runErr)
}

// shareWithNobody lets uid NobodyID write the output folder and read the
// inputs: it owns out and the files the caller put in it (output files
// written ahead); the scratch folders above (named cudaperf-*) become
// traversable (not listable), and inputs inside them readable. Anything
// else is left as it is. It returns why the user switch cannot be made,
// or "".
func shareWithNobody(out string, inputs []string) string {
	if err := os.Chown(out, NobodyID, NobodyID); err != nil {
		return fmt.Sprintf("cannot give %s to uid %d: %v", out, NobodyID, err)
	}
	ents, err := os.ReadDir(out)
	if err != nil {
		return fmt.Sprintf("cannot list %s: %v", out, err)
	}
	for _, e := range ents {
		if e.Type().IsRegular() {
			if err := os.Chown(filepath.Join(out, e.Name()), NobodyID, NobodyID); err != nil {
				return fmt.Sprintf("cannot give %s to uid %d: %v", filepath.Join(out, e.Name()), NobodyID, err)
			}
		}
	}
	// add gives others the bits in mode on path, inside scratch folders only.
	add := func(path string, scratch bool, mode os.FileMode) string {
		st, err := os.Stat(path)
		if err != nil {
			return err.Error()
		}
		if st.Mode().Perm()&mode == mode {
			return ""
		}
		if !scratch {
			return fmt.Sprintf("uid %d cannot reach %s (mode %v)", NobodyID, path, st.Mode().Perm())
		}
		if err := os.Chmod(path, st.Mode().Perm()|mode); err != nil {
			return err.Error()
		}
		return ""
	}
	inScratch := func(p string) bool { return strings.Contains(p, "/cudaperf-") }
	for _, p := range append([]string{out}, inputs...) {
		for d := filepath.Dir(p); d != "/" && d != "."; d = filepath.Dir(d) {
			if why := add(d, strings.HasPrefix(filepath.Base(d), "cudaperf-"), 0o001); why != "" {
				return why
			}
		}
	}
	for _, in := range inputs {
		err := filepath.WalkDir(in, func(p string, e os.DirEntry, err error) error {
			if err != nil {
				return err
			}
			mode := os.FileMode(0o004)
			if e.IsDir() {
				mode = 0o005
			}
			if why := add(p, inScratch(p), mode); why != "" {
				return errors.New(why)
			}
			return nil
		})
		if err != nil {
			return err.Error()
		}
	}
	return ""
}

// supervisor answers the notifications of one candidate.
type supervisor struct {
	a       *paths
	rep     *Report
	mu      sync.Mutex
	execs   int
	stopped chan struct{}
	wg      sync.WaitGroup
}

// receive waits for the launcher's status and listener, and starts
// answering notifications.
func (s *supervisor) receive(conn *net.UnixConn) *launchStatus {
	buf, oob := make([]byte, 64<<10), make([]byte, unix.CmsgSpace(4))
	n, oobn, _, _, err := conn.ReadMsgUnix(buf, oob)
	if err != nil || n == 0 {
		return nil
	}
	var st launchStatus
	if json.Unmarshal(buf[:n], &st) != nil {
		return nil
	}
	s.a.pid = st.Pid
	if msgs, err := unix.ParseSocketControlMessage(oob[:oobn]); err == nil && len(msgs) == 1 {
		if fds, err := unix.ParseUnixRights(&msgs[0]); err == nil && len(fds) == 1 {
			s.stopped = make(chan struct{})
			s.wg.Add(1)
			go s.loop(fds[0])
		}
	}
	return &st
}

func (s *supervisor) stop() {
	if s.stopped != nil {
		close(s.stopped)
		s.wg.Wait()
	}
}

// seccomp_notif and seccomp_notif_resp.
type notif struct {
	id    uint64
	pid   uint32
	flags uint32
	nr    int32
	arch  uint32
	ip    uint64
	args  [6]uint64
}

type notifResp struct {
	id    uint64
	val   int64
	error int32
	flags uint32
}

func (s *supervisor) loop(fd int) {
	defer s.wg.Done()
	defer unix.Close(fd)
	info, _ := arch.GetInfo("")
	for {
		select {
		case <-s.stopped:
			return
		default:
		}
		pfd := []unix.PollFd{{Fd: int32(fd), Events: unix.POLLIN}}
		n, err := unix.Poll(pfd, 50)
		if err == unix.EINTR || n == 0 {
			// EINTR is the Go runtime's preemption signal landing on this
			// thread. Leaving on it closed the listener, and from then on
			// the kernel failed the candidate's checked calls (opens, and
			// so CUDA's start) with ENOSYS: seen on the H200 machine as
			// random "Function not implemented" and context failures.
			continue
		}
		if err != nil {
			return
		}
		if pfd[0].Revents&unix.POLLIN == 0 {
			return // POLLHUP: no process uses the filter any more
		}
		var req notif
		if _, _, e := unix.Syscall(unix.SYS_IOCTL, uintptr(fd), unix.SECCOMP_IOCTL_NOTIF_RECV, uintptr(unsafe.Pointer(&req))); e != 0 {
			continue // the caller went away
		}
		name := info.SyscallNumbers[int(req.nr)]
		errno := s.decide(fd, &req, name)
		resp := notifResp{id: req.id}
		if errno == 0 {
			resp.flags = unix.SECCOMP_USER_NOTIF_FLAG_CONTINUE
		} else {
			resp.error = -int32(errno)
		}
		unix.Syscall(unix.SYS_IOCTL, uintptr(fd), unix.SECCOMP_IOCTL_NOTIF_SEND, uintptr(unsafe.Pointer(&resp)))
	}
}

// target reads the calling process's memory and file table; every read is
// confirmed with NOTIF_ID_VALID, so that a pid reused by another process
// cannot answer for the candidate.
type target struct {
	fd  int
	req *notif
	mem *os.File
}

func (t *target) valid() bool {
	id := t.req.id
	_, _, e := unix.Syscall(unix.SYS_IOCTL, uintptr(t.fd), unix.SECCOMP_IOCTL_NOTIF_ID_VALID, uintptr(unsafe.Pointer(&id)))
	return e == 0
}

// str reads the NUL-terminated string at addr ("" for a null pointer).
func (t *target) str(addr uint64) (string, error) {
	if addr == 0 {
		return "", nil
	}
	if err := t.open(); err != nil {
		return "", err
	}
	var out []byte
	buf := make([]byte, 256)
	for len(out) < unix.PathMax {
		n, err := t.mem.ReadAt(buf, int64(addr)+int64(len(out)))
		if i := strings.IndexByte(string(buf[:n]), 0); i >= 0 {
			out = append(out, buf[:i]...)
			break
		}
		out = append(out, buf[:n]...)
		if err != nil {
			return "", err
		}
	}
	if !t.valid() {
		return "", errors.New("the caller went away")
	}
	return string(out), nil
}

func (t *target) open() error {
	if t.mem == nil {
		f, err := os.Open(fmt.Sprintf("/proc/%d/mem", t.req.pid))
		if err != nil {
			return err
		}
		t.mem = f
	}
	return nil
}

func (t *target) u64(addr uint64) (uint64, error) {
	if err := t.open(); err != nil {
		return 0, err
	}
	var b [8]byte
	if _, err := t.mem.ReadAt(b[:], int64(addr)); err != nil {
		return 0, err
	}
	return *(*uint64)(unsafe.Pointer(&b[0])), nil
}

// path resolves a path argument against dirfd (AT_FDCWD: the working folder).
func (t *target) path(dirfd int32, addr uint64) (string, error) {
	p, err := t.str(addr)
	if err != nil || p == "" || filepath.IsAbs(p) {
		return p, err
	}
	link := fmt.Sprintf("/proc/%d/cwd", t.req.pid)
	if dirfd != unix.AT_FDCWD {
		link = fmt.Sprintf("/proc/%d/fd/%d", t.req.pid, dirfd)
	}
	base, err := os.Readlink(link)
	if err != nil {
		return "", err
	}
	if !t.valid() {
		return "", errors.New("the caller went away")
	}
	return filepath.Join(base, p), nil
}

// decide answers one notified call: 0 lets it run (Landlock still applies),
// an errno refuses it. Refusals are violations, except the harmless ones
// CUDA makes (mkdir of a folder that exists, unlink("")).
func (s *supervisor) decide(fd int, req *notif, name string) unix.Errno {
	t := &target{fd: fd, req: req}
	defer func() {
		if t.mem != nil {
			t.mem.Close()
		}
	}()
	args := req.args
	violate := func(kind string, errno unix.Errno, format string, a ...any) unix.Errno {
		s.mu.Lock()
		s.rep.violate(kind, format, a...)
		s.mu.Unlock()
		return errno
	}
	at := func(dirfdArg, pathArg int) (string, bool) {
		dirfd := int32(unix.AT_FDCWD)
		if dirfdArg >= 0 {
			dirfd = int32(args[dirfdArg])
		}
		p, err := t.path(dirfd, args[pathArg])
		return p, err == nil
	}
	// write checks each (dirfd, path) argument pair for a change to the file system.
	write := func(pairs ...[2]int) unix.Errno {
		for _, pr := range pairs {
			p, ok := at(pr[0], pr[1])
			if !ok {
				return unix.EACCES
			}
			if p == "" || s.a.mayWrite(p) {
				continue
			}
			if devCharLink(p) {
				return unix.EACCES
			}
			if (name == "mkdir" || name == "mkdirat") && exists(p) {
				return unix.EEXIST
			}
			return violate("write", unix.EACCES, "%s %s: outside its output folder", name, p)
		}
		return 0
	}
	switch name {
	case "execve", "execveat":
		s.mu.Lock()
		s.execs++
		first := s.execs == 1
		s.mu.Unlock()
		if first {
			return 0 // the launcher starting the candidate
		}
		pathArg, dirfd := 0, -1
		if name == "execveat" {
			pathArg, dirfd = 1, 0
		}
		p, _ := at(dirfd, pathArg)
		return violate("exec", unix.EPERM, "%s %q: candidates may not run programs", name, p)
	case "fork", "vfork", "clone":
		return violate("fork", unix.EPERM, "%s: candidates may not start processes (system(), popen() and fork() are refused)", name)
	case "kill", "tgkill", "tkill", "rt_sigqueueinfo", "rt_tgsigqueueinfo", "pidfd_open":
		return violate("signal", unix.EPERM, "%s(%d): candidates may not signal other processes", name, int32(args[0]))
	case "socket":
		return violate("network", unix.EACCES, "socket(domain %d): candidates may not use the network", args[0])
	case "close", "dup2", "dup3":
		fd := args[0]
		if name != "close" {
			fd = args[1]
		}
		if fd == GateFD {
			return violate("records", unix.EBADF, "%s on the gate descriptor %d: the GPU gate is the harness's", name, fd)
		}
		return violate("records", unix.EBADF, "%s on the records descriptor %d: the records channel is the harness's", name, fd)
	case "open", "creat", "openat", "openat2":
		var flags uint64
		dirfd, pathArg := -1, 0
		switch name {
		case "open":
			flags = args[1]
		case "creat":
			flags = unix.O_CREAT | unix.O_WRONLY | unix.O_TRUNC
		case "openat":
			dirfd, pathArg, flags = 0, 1, args[2]
		case "openat2":
			dirfd, pathArg = 0, 1
			f, err := t.u64(args[2]) // struct open_how starts with the flags
			if err != nil {
				return unix.EACCES
			}
			flags = f
		}
		p, ok := at(dirfd, pathArg)
		if !ok {
			return unix.EACCES
		}
		writes := flags&unix.O_ACCMODE != unix.O_RDONLY || flags&(unix.O_CREAT|unix.O_TRUNC) != 0
		switch {
		case p == "":
			return 0
		case writes && !s.a.mayWrite(p):
			return violate("write", unix.EACCES, "%s %s for writing: outside its output folder", name, p)
		case !writes && !s.a.mayRead(p):
			return violate("read", unix.EACCES, "%s %s: not its input, its output folder or a system library", name, p)
		}
		return 0
	case "mkdir", "rmdir", "unlink", "truncate", "chmod", "chown", "lchown", "utime", "utimes",
		"setxattr", "lsetxattr", "removexattr", "lremovexattr":
		return write([2]int{-1, 0})
	case "mkdirat", "unlinkat", "fchmodat", "fchownat", "futimesat", "utimensat":
		return write([2]int{0, 1})
	case "rename":
		return write([2]int{-1, 0}, [2]int{-1, 1})
	case "renameat", "renameat2":
		return write([2]int{0, 1}, [2]int{2, 3})
	case "symlink", "symlinkat":
		// The CUDA driver (seen with 580.159 on the H200 machine) replaces
		// the /dev/char/MAJOR:MINOR links of its device files at each
		// start: refused as it is for any user but root, and not the
		// candidate's doing.
		dirfd, pathArg := -1, 1
		if name == "symlinkat" {
			dirfd, pathArg = 1, 2
		}
		if p, ok := at(dirfd, pathArg); ok && devCharLink(p) {
			return unix.EACCES
		}
		return violate("write", unix.EPERM, "%s: candidates may not make links or device files", name)
	case "link", "linkat", "mknod", "mknodat":
		return violate("write", unix.EPERM, "%s: candidates may not make links or device files", name)
	}
	if name == "" {
		name = fmt.Sprintf("system call %d", req.nr)
	}
	return violate("syscall", unix.EPERM, "%s: not allowed to candidates", name)
}

// devCharLink reports whether p is one of the /dev/char/MAJOR:MINOR links
// the CUDA driver tries to replace at start-up (see decide).
func devCharLink(p string) bool {
	rest, ok := strings.CutPrefix(p, "/dev/char/")
	return ok && rest != "" && !strings.Contains(rest, "/")
}

func exists(p string) bool {
	_, err := os.Lstat(p)
	return err == nil
}
