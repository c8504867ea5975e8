//go:build !linux

package nvcc

// setIdle reports false: the idle scheduling class is Linux's.
func setIdle(pid int, nice int) bool { return false }
