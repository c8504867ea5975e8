//go:build unix

package pluginhost

import (
	"os/exec"
	"syscall"
)

// setProcessGroup puts the plugin in its own process group: a terminal's
// Ctrl-C then reaches only the host, which stops plugins in order, and the
// host can kill whatever the plugin spawned along with it.
func setProcessGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
}

// killProcessGroup kills what is left of the plugin's process group (its
// children, e.g. a compiler it ran).
func killProcessGroup(pgid int) {
	if pgid > 0 {
		_ = syscall.Kill(-pgid, syscall.SIGKILL)
	}
}
