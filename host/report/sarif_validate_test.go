package report

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"testing"
)

// sarifValidator finds Microsoft's SARIF multitool, which .ci/setup installs
// from npm (@microsoft/sarif-multitool) under .ci/tools.
func sarifValidator() string {
	if p := os.Getenv("CUDAPERF_SARIF_MULTITOOL"); p != "" {
		return p
	}
	p, _ := filepath.Abs("../../.ci/tools/node_modules/@microsoft/sarif-multitool-linux/Sarif.Multitool")
	if _, err := os.Stat(p); err == nil {
		return p
	}
	return ""
}

// TestSARIFPassesGitHubValidation runs the official validator with GitHub
// code scanning's rules (Ghas) and fails on any error or warning.
func TestSARIFPassesGitHubValidation(t *testing.T) {
	tool := sarifValidator()
	if tool == "" {
		t.Skip("SARIF multitool not installed (run .ci/setup, or set CUDAPERF_SARIF_MULTITOOL)")
	}
	dir := t.TempDir()
	in := filepath.Join(dir, "lint.sarif")
	var b bytes.Buffer
	rules := []Rule{{ID: "coalescing", Title: "global accesses should be coalesced", Doc: "doc", URL: "https://cudaperf.dev/checks/coalescing", Severity: Warning}}
	failures := []Failure{{Plugin: "p", Message: "plugin \"p\": start: it exited"}, {Plugin: "q", File: "/repo/kernels/a.cu", Message: "plugin \"q\": the plugin died analyzing this file"}}
	if err := WriteSARIF(&b, sample(), SARIFOptions{ToolVersion: "1.0.0", BaseDir: "/repo", Rules: rules, Failures: failures}); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(in, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(tool, "validate", in, "-o", filepath.Join(dir, "out.sarif"),
		"--rule-kind", "Sarif;Ghas", "--level", "Error;Warning").CombinedOutput()
	if err != nil {
		t.Fatalf("validator failed: %v\n%s", err, out)
	}
	if bad := regexp.MustCompile(`(?m)^.*: (error|warning) .*$`).FindAll(out, -1); len(bad) > 0 {
		t.Errorf("SARIF validation findings:\n%s", bytes.Join(bad, []byte("\n")))
	}
}
