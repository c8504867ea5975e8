package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestBenchSkipMeasured: a sweep cut short resumes with --skip-measured;
// only finished records count (a torn last line, a compile-only record or
// a harness error is measured again).
func TestBenchSkipMeasured(t *testing.T) {
	prev := filepath.Join(t.TempDir(), "results.jsonl")
	os.WriteFile(prev, []byte(
		`{"task":"saxpy","candidate":"naive","kind":"variant","compile":{"ok":true},"ran":true}`+"\n"+
			`{"task":"saxpy","candidate":"grid_stride","kind":"variant","compile":{"ok":true},"ran":false,"error":"run: killed"}`+"\n"+
			`{"task":"saxpy","candidate":"grid_str`), 0o644)
	stdout, stderr, code := benchRun(t, t.TempDir(), "bench", "--suites", selftestRoot, "--suite", "selftest", "--task", "saxpy",
		"--compile-only", "--format", "json", "--runs-dir", t.TempDir(), "--skip-measured", prev)
	if code != 0 {
		t.Fatalf("exit %d\n%s%s", code, stdout, stderr)
	}
	if !strings.Contains(stderr, "1 of 2 candidates already measured") || strings.Count(stdout, "\n") != 1 || !strings.Contains(stdout, `"candidate":"grid_stride"`) {
		t.Fatalf("want only grid_stride evaluated:\nstdout:\n%s\nstderr:\n%s", stdout, stderr)
	}
	// Everything measured: nothing to do, exit 0.
	os.WriteFile(prev, []byte(
		`{"task":"saxpy","candidate":"naive","compile":{"ok":true},"ran":true}`+"\n"+
			`{"task":"saxpy","candidate":"grid_stride","compile":{"ok":false}}`+"\n"), 0o644)
	stdout, stderr, code = benchRun(t, t.TempDir(), "bench", "--suites", selftestRoot, "--suite", "selftest", "--task", "saxpy",
		"--compile-only", "--runs-dir", t.TempDir(), "--skip-measured", filepath.Join(filepath.Dir(prev), "*.jsonl"))
	if code != 0 || !strings.Contains(stderr, "2 of 2 candidates already measured") || stdout != "" {
		t.Fatalf("all measured: exit %d\n%s%s", code, stdout, stderr)
	}
}

// TestBenchTimeBudget: with --time-budget a run sends no candidate after the
// budget, says how many are left, and exits as a finished run would, so a
// script in a time-limited slot can resume with --skip-measured.
func TestBenchTimeBudget(t *testing.T) {
	stdout, stderr, code := benchRun(t, t.TempDir(), "bench", "--suites", selftestRoot, "--suite", "selftest", "--task", "saxpy",
		"--compile-only", "--format", "json", "--runs-dir", t.TempDir(), "--time-budget", "1ns")
	if code != 0 || stdout != "" || !strings.Contains(stderr, "time budget 1ns reached: 0 of 2 candidates evaluated, 2 left") {
		t.Fatalf("budget spent at once: exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	stdout, stderr, code = benchRun(t, t.TempDir(), "bench", "--suites", selftestRoot, "--suite", "selftest", "--task", "saxpy",
		"--compile-only", "--format", "json", "--runs-dir", t.TempDir(), "--time-budget", "10m")
	if code != 0 || strings.Count(stdout, "\n") != 2 || strings.Contains(stderr, "time budget") {
		t.Fatalf("ample budget: exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
}
