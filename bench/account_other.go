//go:build !linux

package bench

import "time"

// threadCPU is 0 where the kernel cannot say a thread's CPU time: the
// evaluator's own kinds then account nothing.
func threadCPU() time.Duration { return 0 }
