package nvcc

import (
	"os/exec"
	"runtime"

	"golang.org/x/sys/unix"
)

// startIdle starts cmd in the kernel's idle scheduling class (SCHED_IDLE),
// which everything it starts inherits: it runs only on CPUs that nothing
// else wants, and any other task that wakes preempts it at once. Niceness
// cannot give that: a nice-19 compile still holds its CPU until the
// scheduler's next decision, and a candidate process waking from the GPU
// driver waits for it. A child inherits the class of the thread that forks
// it, so that thread is put in the class for the fork and then given its
// own back. Leaving the idle class needs CAP_SYS_NICE (or a RLIMIT_NICE
// that allows nice 0); without it the thread stays locked to this
// goroutine, and the runtime ends it when the goroutine returns (the main
// thread, which cannot end, is parked for good instead), so no other work
// of this process runs in the idle class. It reports whether the class was
// set; when it was not (a kernel that refuses it), cmd is started as an
// ordinary child.
func startIdle(cmd *exec.Cmd) (idle bool, err error) {
	type started struct {
		idle bool
		err  error
	}
	done := make(chan started, 1)
	go func() {
		runtime.LockOSThread()
		own, err := unix.SchedGetAttr(0, 0)
		if err == nil {
			err = unix.SchedSetAttr(0, &unix.SchedAttr{Policy: unix.SCHED_IDLE, Nice: own.Nice}, 0)
		}
		if err != nil {
			runtime.UnlockOSThread() // the thread is as it was: it may serve others
			done <- started{false, cmd.Start()}
			return
		}
		err = cmd.Start()
		if unix.SchedSetAttr(0, own, 0) == nil {
			runtime.UnlockOSThread()
		}
		done <- started{true, err}
	}()
	s := <-done
	return s.idle, s.err
}
