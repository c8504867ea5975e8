//go:build unix

package sdk

import (
	"bytes"
	"errors"
	"fmt"
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

// processAlive reports whether pid is a live process. A zombie (dead, not
// yet reaped) counts as dead; that needs /proc, elsewhere kill(pid, 0)
// decides.
func processAlive(pid int) bool {
	if stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid)); err == nil {
		i := bytes.LastIndexByte(stat, ')')
		return i < 0 || i+2 >= len(stat) || (stat[i+2] != 'Z' && stat[i+2] != 'X')
	} else if _, err := os.Stat("/proc/self/stat"); err == nil {
		return false // /proc works, so the process does not exist
	}
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}
