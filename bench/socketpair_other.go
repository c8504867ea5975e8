//go:build unix && !linux

package bench

import (
	"syscall"

	"golang.org/x/sys/unix"
)

// socketPair is socketpair_linux.go's for systems without SOCK_CLOEXEC
// (macOS): the flag is set after the call, under the fork lock, so that no
// process started meanwhile inherits the descriptors.
func socketPair() ([2]int, error) {
	syscall.ForkLock.RLock()
	defer syscall.ForkLock.RUnlock()
	fds, err := unix.Socketpair(unix.AF_UNIX, unix.SOCK_STREAM, 0)
	if err != nil {
		return fds, err
	}
	unix.CloseOnExec(fds[0])
	unix.CloseOnExec(fds[1])
	return fds, nil
}
