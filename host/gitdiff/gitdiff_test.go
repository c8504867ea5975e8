package gitdiff

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

func run(t *testing.T, dir string, args ...string) {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-C", dir}, args...)...)
	cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@t", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@t")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
}

func TestSince(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	dir := t.TempDir()
	run(t, dir, "init", "-q")
	write := func(name, text string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("old.cu", "a\nb\nc\nd\n")
	write("same.cu", "x\n")
	run(t, dir, "add", ".")
	run(t, dir, "commit", "-qm", "base")
	write("old.cu", "a\nB\nc\nd\ne\nf\n") // line 2 changed, 5-6 added
	write("new.cu", "n\n")                // untracked
	l, err := Since(dir, "HEAD")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		file string
		line int
		want bool
	}{
		{"old.cu", 1, false}, {"old.cu", 2, true}, {"old.cu", 3, false}, {"old.cu", 5, true}, {"old.cu", 6, true},
		{"same.cu", 1, false}, {"new.cu", 1, true}, {"new.cu", 40, true},
	} {
		if got := l.New(filepath.Join(dir, c.file), c.line); got != c.want {
			t.Errorf("%s:%d new = %v, want %v", c.file, c.line, got, c.want)
		}
	}
	if _, err := Since(dir, "no-such-rev"); err == nil || !strings.Contains(err.Error(), "is not a commit") {
		t.Errorf("bad revision: %v", err)
	}
	if _, err := Since(t.TempDir(), "HEAD"); err == nil || !strings.Contains(err.Error(), "not in a git working tree") {
		t.Errorf("outside git: %v", err)
	}
}

// TestSinceNamesGitQuotes: git writes a name with a space followed by a
// tab, one with a quote (or, by default, any non-ASCII byte) C-quoted; taken
// literally, those files' new lines were not new.
func TestSinceNamesGitQuotes(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	dir := t.TempDir()
	run(t, dir, "init", "-q")
	names := []string{"plain.cu", "my kernel.cu", "café.cu", `say "hi".cu`}
	for _, n := range names {
		if err := os.WriteFile(filepath.Join(dir, n), []byte("a\nb\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	run(t, dir, "add", ".")
	run(t, dir, "commit", "-qm", "base")
	for _, n := range names {
		if err := os.WriteFile(filepath.Join(dir, n), []byte("a\nB\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	l, err := Since(dir, "HEAD")
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range names {
		if !l.New(filepath.Join(dir, n), 2) || l.New(filepath.Join(dir, n), 1) {
			t.Errorf("%q: line 2 new %v, line 1 new %v; want true, false", n, l.New(filepath.Join(dir, n), 2), l.New(filepath.Join(dir, n), 1))
		}
	}
}
