//go:build !unix

package sdk

func killOwnProcessGroup() {}

// processAlive cannot tell here; the parent-pid check alone decides.
func processAlive(int) bool { return false }
