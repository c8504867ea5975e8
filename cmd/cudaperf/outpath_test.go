package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestCheckOutFile: an output path the command could not write at the
// end is refused before the work, with the flag and the fix named; a
// writable one passes and leaves nothing behind.
func TestCheckOutFile(t *testing.T) {
	dir := t.TempDir()
	ro := filepath.Join(dir, "ro")
	if err := os.Mkdir(ro, 0o555); err != nil {
		t.Fatal(err)
	}
	cases := []struct{ path, want string }{
		{filepath.Join(dir, "nodir", "eval.json"), "does not exist: create it (mkdir -p"},
		{dir, "is a folder: give a file name"},
	}
	if os.Getuid() != 0 { // root writes anywhere
		cases = append(cases, struct{ path, want string }{filepath.Join(ro, "x.json"), "cannot write in"})
	}
	for _, c := range cases {
		err := checkOutFile("out", c.path)
		if exitCode(err) != exitUsage || !strings.Contains(err.Error(), "--out "+c.path) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("checkOutFile(%q) = %v, want a usage error naming --out and %q", c.path, err, c.want)
		}
	}
	if err := checkOutFile("out", filepath.Join(dir, "ok.json")); err != nil {
		t.Errorf("writable path refused: %v", err)
	}
	if left, _ := filepath.Glob(filepath.Join(dir, ".cudaperf-write-check-*")); len(left) > 0 {
		t.Errorf("the write check left %v", left)
	}
}
