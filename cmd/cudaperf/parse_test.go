package main

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

var (
	parseBinOnce sync.Once
	parseBin     string
	parseBinErr  error
)

// cudaperfBinary builds the real binary once for the end-to-end tests of
// `cudaperf parse`.
func cudaperfBinary(t *testing.T) string {
	t.Helper()
	parseBinOnce.Do(func() {
		dir, err := os.MkdirTemp("", "cudaperf-parse-test")
		if err != nil {
			parseBinErr = err
			return
		}
		parseBin = filepath.Join(dir, "cudaperf")
		out, err := exec.Command("go", "build", "-o", parseBin, ".").CombinedOutput()
		if err != nil {
			parseBinErr = errors.New(string(out))
		}
	})
	if parseBinErr != nil {
		t.Fatalf("go build: %v", parseBinErr)
	}
	return parseBin
}

func runCudaperf(t *testing.T, stdin string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	cmd := exec.Command(cudaperfBinary(t), args...)
	cmd.Stdin = strings.NewReader(stdin)
	var o, e bytes.Buffer
	cmd.Stdout, cmd.Stderr = &o, &e
	err := cmd.Run()
	var ee *exec.ExitError
	switch {
	case errors.As(err, &ee):
		code = ee.ExitCode()
	case err != nil:
		t.Fatal(err)
	}
	return o.String(), e.String(), code
}

func writeFile(t *testing.T, dir, name, text string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestParsePrintsTree(t *testing.T) {
	dir := t.TempDir()
	f := writeFile(t, dir, "k.cu", "__global__ void k(int *x) { *x = 1; }\nvoid h(int *x) { k<<<1, 32>>>(x); }\n")

	out, stderr, code := runCudaperf(t, "", "parse", f)
	if code != 0 {
		t.Fatalf("exit %d, stderr: %s", code, stderr)
	}
	for _, want := range []string{
		"(translation_unit [0, 0] - [2, 0]\n",
		"\n  (function_definition [0, 0] - [0, 37]\n    (cuda_qualifier [0, 0] - [0, 10])\n",
		"config: (launch_config [1, 18] - [1, 29]\n",
		"grid: (number_literal [1, 21] - [1, 22])",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}

	out, _, code = runCudaperf(t, "k<<<g, b>>>(x);", "parse", "--no-ranges", "-")
	want := "(translation_unit\n  (expression_statement\n    (call_expression\n      function: (identifier)\n      config: (launch_config\n        grid: (identifier)\n        block: (identifier))\n      arguments: (argument_list\n        (identifier)))))\n"
	if code != 0 || out != want {
		t.Errorf("parse --no-ranges - = exit %d\n%s\nwant exit 0\n%s", code, out, want)
	}
}

func TestParseSeveralFilesAreLabelled(t *testing.T) {
	dir := t.TempDir()
	a := writeFile(t, dir, "a.cu", "int a;\n")
	b := writeFile(t, dir, "b.cu", "int b;\n")
	out, _, code := runCudaperf(t, "", "parse", "--no-ranges", a, b)
	want := ";; " + a + "\n(translation_unit\n  (declaration\n    type: (primitive_type)\n    declarator: (identifier)))\n\n;; " + b + "\n(translation_unit\n  (declaration\n    type: (primitive_type)\n    declarator: (identifier)))\n"
	if code != 0 || out != want {
		t.Errorf("exit %d, output:\n%s\nwant:\n%s", code, out, want)
	}
}

func TestParseCheck(t *testing.T) {
	dir := t.TempDir()
	good := writeFile(t, dir, "good.cu", "__global__ void k(float *a) { a[threadIdx.x] = 0.0f; }\n")
	bad := writeFile(t, dir, "bad.cu", "void h(float *a) {\n  k<<<1>>>(a);\n}\n")

	out, stderr, code := runCudaperf(t, "", "parse", "--check", good)
	if code != 0 || out != "" {
		t.Errorf("--check on a clean file: exit %d, stdout %q, stderr %q; want exit 0 and no output", code, out, stderr)
	}

	out, _, code = runCudaperf(t, "", "parse", "--check", good, bad)
	want := bad + ":2:4: error: syntax error near '<<<1>>>(a)'\n"
	if code != 1 || out != want {
		t.Errorf("--check on a bad file: exit %d, stdout %q; want exit 1 and %q", code, out, want)
	}
}

func TestParseUnreadableFiles(t *testing.T) {
	dir := t.TempDir()
	bad := writeFile(t, dir, "bad.cu", "int x = ;\n")
	missing := filepath.Join(dir, "missing.cu")

	out, stderr, code := runCudaperf(t, "", "parse", "--check", missing, bad)
	if code != 2 {
		t.Errorf("exit %d, want 2 (usage error) for a missing file", code)
	}
	if !strings.Contains(stderr, missing+": no such file; give the path of a CUDA source file") {
		t.Errorf("stderr does not name the missing file and the fix:\n%s", stderr)
	}
	// The other file is still checked.
	if !strings.HasPrefix(out, bad+":1:") {
		t.Errorf("stdout = %q, want the syntax error of %s", out, bad)
	}

	_, stderr, code = runCudaperf(t, "", "parse", dir)
	if code != 2 || !strings.Contains(stderr, "is a directory") {
		t.Errorf("parse DIR: exit %d, stderr %q; want exit 2 saying it is a directory", code, stderr)
	}

	// A binary file is refused as lint refuses it, not parsed into a tree
	// of errors.
	bin := writeFile(t, dir, "obj.cu", "\x7fELF\x02\x01\x00\x00int x;\n")
	out, stderr, code = runCudaperf(t, "", "parse", bin)
	if code != 2 || out != "" || !strings.Contains(stderr, bin+": binary file (it contains NUL bytes)") {
		t.Errorf("parse BINARY: exit %d, stdout %q, stderr %q; want exit 2 naming the binary file", code, out, stderr)
	}

	_, stderr, code = runCudaperf(t, "", "parse")
	if code != 2 || !strings.Contains(stderr, "no files given") {
		t.Errorf("parse without files: exit %d, stderr %q; want exit 2", code, stderr)
	}
}
