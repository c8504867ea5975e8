package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestWritesTheProfilesPrograms: the RL profile's programs hold its two
// configurations (the primary and an odd size), with the reference beside
// them; an unknown profile is refused by name.
func TestWritesTheProfilesPrograms(t *testing.T) {
	out := t.TempDir()
	task := filepath.Join("..", "..", "suites", "c2cuda", "vector_add")
	if err := run(out, "rl", []string{task}); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"harness.h", "ref_main.c", "driver.cu", "reference.c"} {
		if _, err := os.Stat(filepath.Join(out, "vector_add", f)); err != nil {
			t.Error(err)
		}
	}
	h, _ := os.ReadFile(filepath.Join(out, "vector_add", "harness.h"))
	if !strings.Contains(string(h), "#define NCONFIGS 2\n") || !strings.Contains(string(h), `"large"`) {
		t.Errorf("harness.h is not the RL profile's (2 configurations, large among them):\n%.600s", h)
	}
	if err := run(out, "fast", []string{task}); err == nil || !strings.Contains(err.Error(), `"fast"`) {
		t.Errorf("unknown profile: %v", err)
	}
}
