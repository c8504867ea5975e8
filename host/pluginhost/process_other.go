//go:build !unix

package pluginhost

import "os/exec"

func setProcessGroup(*exec.Cmd) {}

func killProcessGroup(int) {}
