//go:build unix

package sdk

import (
	"os"
	"syscall"
)

// killOwnProcessGroup kills the plugin's process group, taking whatever the
// plugin started (a compiler, a benchmark) down with it, but only when the
// plugin leads its group, as it does when the cudaperf host started it; a
// plugin run some other way must not kill its caller's group.
func killOwnProcessGroup() {
	if pid := os.Getpid(); syscall.Getpgrp() == pid {
		_ = syscall.Kill(-pid, syscall.SIGKILL)
	}
}
