package main

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cudaperf/cudaperf/analysis/device"
	"github.com/cudaperf/cudaperf/host/pluginhost/plugintest"
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

// TestNoGPUHint: an error saying no GPU was found gains the way to go on
// without one; any other error is left as it is.
func TestNoGPUHint(t *testing.T) {
	err := noGPUHint(fmt.Errorf("plugin x: Run: %w (NVML: ERROR_LIBRARY_NOT_FOUND)", device.ErrNoGPU), "--benchmarker recorded")
	if !strings.Contains(err.Error(), "without a GPU, --benchmarker recorded answers") || !errors.Is(err, device.ErrNoGPU) {
		t.Errorf("no-GPU error: %v", err)
	}
	other := errors.New("compile failed")
	if got := noGPUHint(other, "x"); got != other {
		t.Errorf("other error changed: %v", got)
	}
}

// TestBenchReportOut: bench report --out writes the page and plot there
// and leaves the suite's own RESULTS.md (which describes its whole
// measurements file) as it was; the page quotes the command that made it.
func TestBenchReportOut(t *testing.T) {
	root := plugintest.ModuleRoot(t)
	suitePage := filepath.Join(root, "bench/suites/c2cuda/RESULTS.md")
	before, err := os.ReadFile(suitePage)
	if err != nil {
		t.Fatal(err)
	}
	all, err := os.ReadFile(filepath.Join(root, "bench/suites/c2cuda/measurements.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	var one []string
	for _, l := range strings.Split(string(all), "\n") {
		if strings.Contains(l, `"task":"saxpy"`) {
			one = append(one, l)
		}
	}
	dir := t.TempDir()
	res := filepath.Join(dir, "results.jsonl")
	os.WriteFile(res, []byte(strings.Join(one, "\n")+"\n"), 0o644)
	out := filepath.Join(dir, "report")
	stdout, stderr, code := runIn(t, root, nil, "bench", "report", "--out", out, res)
	if code != 0 {
		t.Fatalf("exit %d\n%s%s", code, stdout, stderr)
	}
	page, err := os.ReadFile(filepath.Join(out, "RESULTS.md"))
	if err != nil || !strings.Contains(string(page), "saxpy") || !strings.Contains(string(page), "cudaperf bench report --out "+out) {
		t.Errorf("report page (%v):\n%.600s", err, page)
	}
	if _, err := os.Stat(filepath.Join(out, "speedups.png")); err != nil {
		t.Error(err)
	}
	if after, _ := os.ReadFile(suitePage); string(after) != string(before) {
		t.Error("bench report --out rewrote the suite's RESULTS.md")
	}
	// A --compare file that cannot be read is refused before anything is
	// written (it used to fail after the page was replaced).
	again := filepath.Join(dir, "again")
	_, stderr, code = runIn(t, root, nil, "bench", "report", "--out", again, "--compare", filepath.Join(dir, "nosuch.jsonl"), res)
	if code != 2 || !strings.Contains(stderr, "--compare") {
		t.Errorf("bad --compare: exit %d, stderr:\n%s", code, stderr)
	}
	if _, err := os.Stat(filepath.Join(again, "RESULTS.md")); err == nil {
		t.Error("bench report wrote RESULTS.md before refusing a bad --compare")
	}
	// No variant accepted: the page (its rejections) without the plot; it
	// failed with exit 3 and wrote nothing.
	rejected := filepath.Join(dir, "rejected.jsonl")
	os.WriteFile(rejected, []byte(strings.ReplaceAll(strings.Join(one, "\n")+"\n", `"accepted":true`, `"accepted":false`)), 0o644)
	none := filepath.Join(dir, "none")
	_, stderr, code = runIn(t, root, nil, "bench", "report", "--out", none, rejected)
	page, err = os.ReadFile(filepath.Join(none, "RESULTS.md"))
	if code != 0 || err != nil || !strings.Contains(string(page), "saxpy") || strings.Contains(string(page), "speedups.png") {
		t.Errorf("all rejected: exit %d (%v), stderr:\n%s\npage:\n%.400s", code, err, stderr, page)
	}
}
