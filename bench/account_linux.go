package bench

import (
	"time"

	"golang.org/x/sys/unix"
)

// threadCPU is the calling thread's CPU time, user and kernel.
func threadCPU() time.Duration {
	var ru unix.Rusage
	if unix.Getrusage(unix.RUSAGE_THREAD, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
