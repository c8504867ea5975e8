//go:build !linux

package nvcc

import "os/exec"

// startIdle starts cmd as an ordinary child: the idle scheduling class is
// Linux's.
func startIdle(cmd *exec.Cmd) (idle bool, err error) { return false, cmd.Start() }
