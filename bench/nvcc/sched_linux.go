package nvcc

import "golang.org/x/sys/unix"

// setIdle puts the started process pid in the kernel's idle scheduling
// class (SCHED_IDLE), which what it starts from then on inherits: it runs
// only on CPUs that nothing else wants, and any other task that wakes
// preempts it at once. Niceness cannot give that: a nice-19 compile still
// holds its CPU until the scheduler's next decision, and a candidate
// process waking from the GPU driver waits for it. The class is set on the
// child, not on a thread of this process for the fork: a Go thread in the
// idle class, holding the runtime's scheduler and signals while it forks,
// stalled every goroutine of the evaluator on a machine with every CPU
// busy. A child nvcc started in the moment before this call keeps the
// niceness the caller gave the process group, and the kernel keeps the
// process's niceness under the idle class. It reports whether the class
// was set.
func setIdle(pid int) bool {
	return unix.SchedSetAttr(pid, &unix.SchedAttr{Policy: unix.SCHED_IDLE}, 0) == nil
}
