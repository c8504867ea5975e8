package bench

import "golang.org/x/sys/unix"

// socketPair is a connected pair of stream sockets, both closed on exec
// (the candidate's end is passed to its process explicitly).
func socketPair() ([2]int, error) {
	return unix.Socketpair(unix.AF_UNIX, unix.SOCK_STREAM|unix.SOCK_CLOEXEC, 0)
}
