package main

import (
	"flag"
	"os"
	"path/filepath"
	"testing"
)

// update is the package's one -update flag: golden tests of every command
// rewrite their testdata/*.golden files with it (go test ./cmd/cudaperf -update).
var update = flag.Bool("update", false, "rewrite testdata/*.golden files")

// TestMain removes the folders the end-to-end tests build binaries and
// install plugins into, once all tests are done (they were left in the
// temp folder, a few hundred MB per run).
func TestMain(m *testing.M) {
	code := m.Run()
	for _, d := range []string{lintDir, installDir, extraDir, rlDir} {
		if d != "" {
			os.RemoveAll(d)
		}
	}
	if parseBin != "" {
		os.RemoveAll(filepath.Dir(parseBin))
	}
	os.Exit(code)
}
