//go:build !unix

package sdk

func killOwnProcessGroup() {}
