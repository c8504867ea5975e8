//go:build !unix

package bench

import "os"

// mapFile reads path (no mapping on this system); see mapfile_unix.go.
func mapFile(path string) ([]byte, func(), error) {
	b, err := os.ReadFile(path)
	return b, func() {}, err
}
