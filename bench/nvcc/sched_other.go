//go:build !linux

package nvcc

// setIdle reports false: the idle scheduling class is Linux's.
func setIdle(pid int) bool { return false }
