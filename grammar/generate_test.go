package grammar_test

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// treeSitterCLI returns the tree-sitter CLI that generate.sh pins, or skips
// the test: CI builds the committed C and has neither the CLI nor
// node_modules.
func treeSitterCLI(t *testing.T) string {
	t.Helper()
	if testing.Short() {
		t.Skip("regenerating the parser takes ~20 s of CPU; skipped with -short")
	}
	if _, err := os.Stat("node_modules/tree-sitter-cpp/grammar.js"); err != nil {
		t.Skip("grammar/node_modules is absent; run 'cd grammar && npm ci --ignore-scripts' to enable this test")
	}
	cli := os.Getenv("TREE_SITTER")
	if cli == "" {
		home, _ := os.UserHomeDir()
		cli = filepath.Join(home, ".cargo", "bin", "tree-sitter")
	}
	out, err := exec.Command(cli, "--version").Output()
	if err != nil {
		t.Skipf("tree-sitter CLI not found at %s (set TREE_SITTER, or run grammar/generate.sh to install it): %v", cli, err)
	}
	if !strings.Contains(string(out), "0.25.10") {
		t.Skipf("tree-sitter CLI is %s; generate.sh pins 0.25.10", strings.TrimSpace(string(out)))
	}
	return cli
}

// TestGeneratedSourcesUpToDate regenerates the parser in a scratch copy of
// the grammar and compares it with the committed src/: a grammar.js change
// without a regeneration (or a hand edit of src/) fails here.
func TestGeneratedSourcesUpToDate(t *testing.T) {
	cli := treeSitterCLI(t)
	dir := t.TempDir()
	for _, f := range []string{"grammar.js", "package.json", "tree-sitter.json"} {
		copyFile(t, f, filepath.Join(dir, f))
	}
	abs, _ := filepath.Abs("node_modules")
	if err := os.Symlink(abs, filepath.Join(dir, "node_modules")); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(cli, "generate", "--abi", "14")
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("tree-sitter generate: %v\n%s", err, out)
	}
	for _, f := range []string{"parser.c", "grammar.json", "node-types.json", "tree_sitter/parser.h", "tree_sitter/alloc.h", "tree_sitter/array.h"} {
		want, err := os.ReadFile(filepath.Join("src", f))
		if err != nil {
			t.Fatal(err)
		}
		got, err := os.ReadFile(filepath.Join(dir, "src", f))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("src/%s differs from a fresh 'tree-sitter generate --abi 14'; run grammar/generate.sh and commit src/", f)
		}
	}
	// generate.sh derives src/scanner.c from tree-sitter-cpp's by renaming
	// its exported symbols after a one-line header.
	upstream, err := os.ReadFile("node_modules/tree-sitter-cpp/src/scanner.c")
	if err != nil {
		t.Fatal(err)
	}
	ours, err := os.ReadFile("src/scanner.c")
	if err != nil {
		t.Fatal(err)
	}
	_, body, _ := bytes.Cut(ours, []byte("\n"))
	if want := bytes.ReplaceAll(upstream, []byte("tree_sitter_cpp_external_scanner_"), []byte("tree_sitter_cuda_external_scanner_")); !bytes.Equal(body, want) {
		t.Error("src/scanner.c is not tree-sitter-cpp's scanner with renamed symbols; run grammar/generate.sh")
	}
}

// TestTreeSitterCorpusCLI runs `tree-sitter test` on test/corpus with the
// CLI, which also checks what TestTreeSitterCorpus cannot (the CLI's own
// build of src/).
func TestTreeSitterCorpusCLI(t *testing.T) {
	cli := treeSitterCLI(t)
	cmd := exec.Command(cli, "test")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("tree-sitter test: %v\n%s", err, out)
	}
	// Guard against a CLI that finds no tests (wrong directory, renamed
	// folder) and so exits 0.
	if !bytes.Contains(out, []byte("✓")) {
		t.Fatalf("tree-sitter test ran no corpus tests:\n%s", out)
	}
}

func copyFile(t *testing.T, from, to string) {
	t.Helper()
	data, err := os.ReadFile(from)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(to, data, 0o644); err != nil {
		t.Fatal(err)
	}
}
