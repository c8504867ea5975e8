package sandbox

import (
	"fmt"
	"os"
	"unsafe"

	"golang.org/x/sys/unix"
)

// rulesetAttr is struct landlock_ruleset_attr up to the scoped field (ABI 6);
// older kernels accept the longer struct when its tail is zero.
type rulesetAttr struct {
	fs, net, scoped uint64
}

// landlockABI returns the kernel's Landlock ABI version, 0 without Landlock.
func landlockABI() int {
	v, _, e := unix.Syscall(unix.SYS_LANDLOCK_CREATE_RULESET, 0, 0, unix.LANDLOCK_CREATE_RULESET_VERSION)
	if e != 0 {
		return 0
	}
	return int(v)
}

// fsRights are the file system rights each ABI version knows.
func fsRights(abi int) uint64 {
	r := uint64(unix.LANDLOCK_ACCESS_FS_MAKE_SYM<<1) - 1 // ABI 1: execute .. make_sym
	if abi >= 2 {
		r |= unix.LANDLOCK_ACCESS_FS_REFER
	}
	if abi >= 3 {
		r |= unix.LANDLOCK_ACCESS_FS_TRUNCATE
	}
	if abi >= 5 {
		r |= unix.LANDLOCK_ACCESS_FS_IOCTL_DEV
	}
	return r
}

// fileRights are the rights a rule on a non-directory may carry.
const fileRights = unix.LANDLOCK_ACCESS_FS_EXECUTE | unix.LANDLOCK_ACCESS_FS_WRITE_FILE | unix.LANDLOCK_ACCESS_FS_READ_FILE |
	unix.LANDLOCK_ACCESS_FS_TRUNCATE | unix.LANDLOCK_ACCESS_FS_IOCTL_DEV

const (
	llRead  = unix.LANDLOCK_ACCESS_FS_READ_FILE | unix.LANDLOCK_ACCESS_FS_READ_DIR
	llExec  = unix.LANDLOCK_ACCESS_FS_READ_FILE | unix.LANDLOCK_ACCESS_FS_EXECUTE
	llDev   = unix.LANDLOCK_ACCESS_FS_READ_FILE | unix.LANDLOCK_ACCESS_FS_WRITE_FILE | unix.LANDLOCK_ACCESS_FS_TRUNCATE | unix.LANDLOCK_ACCESS_FS_IOCTL_DEV
	llOwnRW = ^uint64(unix.LANDLOCK_ACCESS_FS_EXECUTE | unix.LANDLOCK_ACCESS_FS_MAKE_CHAR | unix.LANDLOCK_ACCESS_FS_MAKE_BLOCK | unix.LANDLOCK_ACCESS_FS_MAKE_SYM)
)

// landlockRuleset builds the ruleset of a (paths that do not exist are
// left out: nothing can be granted on them). It runs before the launcher
// gives up root, which may be needed to open the paths.
func landlockRuleset(a *paths, abi int, scope bool) (fd int, err error) {
	handled := fsRights(abi)
	attr := rulesetAttr{fs: handled}
	if abi >= 6 && scope {
		attr.scoped = unix.LANDLOCK_SCOPE_SIGNAL // no signals to processes outside the domain
	}
	r, _, e := unix.Syscall(unix.SYS_LANDLOCK_CREATE_RULESET, uintptr(unsafe.Pointer(&attr)), unsafe.Sizeof(attr), 0)
	if e != 0 {
		return -1, fmt.Errorf("landlock_create_ruleset: %w", e)
	}
	fd = int(r)
	add := func(path string, rights uint64) error {
		f, err := unix.Open(path, unix.O_PATH|unix.O_CLOEXEC, 0)
		if err != nil {
			return nil // absent here: nothing to grant
		}
		defer unix.Close(f)
		var st unix.Stat_t
		if err := unix.Fstat(f, &st); err != nil {
			return err
		}
		if st.Mode&unix.S_IFMT != unix.S_IFDIR {
			rights &= fileRights
		}
		pb := struct {
			allowed uint64
			parent  int32
		}{rights & handled, int32(f)}
		// struct landlock_path_beneath_attr is packed: 12 bytes.
		_, _, e := unix.Syscall6(unix.SYS_LANDLOCK_ADD_RULE, uintptr(fd), unix.LANDLOCK_RULE_PATH_BENEATH, uintptr(unsafe.Pointer(&pb)), 0, 0, 0)
		if e != 0 {
			return fmt.Errorf("landlock_add_rule %s: %w", path, e)
		}
		return nil
	}
	type rule struct {
		path   string
		rights uint64
	}
	var rules []rule
	for _, p := range append(append([]string{}, a.read...), procRead...) {
		rules = append(rules, rule{p, llRead})
	}
	// Its own /proc entry: the launcher's pid is the candidate's.
	rules = append(rules, rule{fmt.Sprintf("/proc/%d", os.Getpid()), llRead}, rule{a.out, llOwnRW})
	for _, p := range a.exec {
		rules = append(rules, rule{p, llExec})
	}
	for _, p := range a.dev {
		rules = append(rules, rule{p, llDev})
	}
	for _, rl := range rules {
		if err := add(rl.path, rl.rights); err != nil {
			unix.Close(fd)
			return -1, err
		}
	}
	return fd, nil
}

// landlockRestrict enforces the ruleset on the calling thread, which then
// execs the candidate: the domain is inherited across exec and cannot be
// left. Needs no_new_privs (or CAP_SYS_ADMIN).
func landlockRestrict(fd int) error {
	_, _, e := unix.Syscall(unix.SYS_LANDLOCK_RESTRICT_SELF, uintptr(fd), 0, 0)
	if e != 0 {
		return fmt.Errorf("landlock_restrict_self: %w", e)
	}
	return nil
}
