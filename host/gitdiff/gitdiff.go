package gitdiff

import (
	"bufio"
	"bytes"
	"fmt"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
)

// Lines are the new lines of a working tree.
type Lines struct {
	root  string
	lines map[string]map[int]bool // path relative to root → new line numbers
	whole map[string]bool         // untracked files: every line is new
}

// Since compares the working tree that contains dir with rev.
func Since(dir, rev string) (*Lines, error) {
	out, err := git(dir, "rev-parse", "--show-toplevel")
	if err != nil {
		return nil, fmt.Errorf("gitdiff: %s is not in a git working tree (--new-from-rev needs one): %v", dir, err)
	}
	root := strings.TrimSpace(string(out))
	if _, err := git(root, "rev-parse", "--verify", "--quiet", rev+"^{commit}"); err != nil {
		return nil, fmt.Errorf("gitdiff: %q is not a commit of %s; name one git knows (a branch, a tag, HEAD~3)", rev, root)
	}
	// core.quotePath=false: non-ASCII names unquoted (parse unquotes the
	// names git quotes all the same: those with quotes, backslashes or
	// control characters).
	diff, err := git(root, "-c", "core.quotePath=false", "diff", "--no-color", "--no-ext-diff", "--no-renames", "-U0", rev, "--")
	if err != nil {
		return nil, fmt.Errorf("gitdiff: git diff %s: %v", rev, err)
	}
	l := &Lines{root: root, lines: parse(diff), whole: map[string]bool{}}
	others, err := git(root, "ls-files", "--others", "--exclude-standard", "-z")
	if err != nil {
		return nil, fmt.Errorf("gitdiff: git ls-files: %v", err)
	}
	for _, f := range bytes.Split(others, []byte{0}) {
		if len(f) > 0 {
			l.whole[string(f)] = true
		}
	}
	return l, nil
}

// parse reads the +++ and @@ lines of a unified diff with no context.
func parse(diff []byte) map[string]map[int]bool {
	out := map[string]map[int]bool{}
	var cur map[int]bool
	sc := bufio.NewScanner(bytes.NewReader(diff))
	sc.Buffer(make([]byte, 1<<20), 1<<26)
	for sc.Scan() {
		t := sc.Text()
		switch {
		case strings.HasPrefix(t, "+++ "):
			cur = nil
			if name, ok := diffName(t[len("+++ "):]); ok {
				cur = map[int]bool{}
				out[name] = cur
			}
		case strings.HasPrefix(t, "@@ ") && cur != nil:
			// @@ -a[,b] +c[,d] @@
			fields := strings.Fields(t)
			if len(fields) < 3 || !strings.HasPrefix(fields[2], "+") {
				continue
			}
			start, count := fields[2][1:], "1"
			if s, c, ok := strings.Cut(start, ","); ok {
				start, count = s, c
			}
			a, err1 := strconv.Atoi(start)
			n, err2 := strconv.Atoi(count)
			if err1 != nil || err2 != nil {
				continue
			}
			for i := a; i < a+n; i++ {
				cur[i] = true
			}
		}
	}
	return out
}

// diffName is the path of a "+++ " line's file: "b/<path>", C-quoted when
// the path has a quote, a backslash or a control character, and followed
// by a tab when it has a space ("/dev/null" for a deleted file: not ok). A
// name taken literally lost those files' new findings.
func diffName(s string) (string, bool) {
	s = strings.TrimSuffix(s, "\t")
	if strings.HasPrefix(s, `"`) {
		u, err := strconv.Unquote(s) // git's escapes (\t, \", \ooo) are Go's
		if err != nil {
			return "", false
		}
		s = u
	}
	return strings.CutPrefix(s, "b/")
}

// New reports whether line (1-based) of path is new. path may be relative
// to the current folder or absolute. A file outside the working tree is
// new: git knows nothing older of it.
func (l *Lines) New(path string, line int) bool {
	abs, err := filepath.Abs(path)
	if err != nil {
		return true
	}
	if r, err := filepath.EvalSymlinks(abs); err == nil {
		abs = r
	}
	rel, err := filepath.Rel(l.root, abs)
	if err != nil || strings.HasPrefix(rel, "..") {
		return true
	}
	rel = filepath.ToSlash(rel)
	return l.whole[rel] || l.lines[rel][line]
}

func git(dir string, args ...string) ([]byte, error) {
	cmd := exec.Command("git", append([]string{"-C", dir}, args...)...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		if msg := strings.TrimSpace(stderr.String()); msg != "" {
			return nil, fmt.Errorf("%s", msg)
		}
		return nil, err
	}
	return out, nil
}
