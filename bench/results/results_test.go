package results

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestAppendRead(t *testing.T) {
	dir := NewRunDir(t.TempDir(), time.Date(2026, 11, 29, 16, 5, 0, 0, time.UTC))
	if filepath.Base(dir) != "bench-20261129T160500Z" {
		t.Errorf("run dir %s", dir)
	}
	for i := 0; i < 2; i++ { // a second Open appends
		w, err := Open(dir)
		if err != nil {
			t.Fatal(err)
		}
		if err := w.Append(map[string]int{"i": i}); err != nil {
			t.Fatal(err)
		}
		w.Close()
	}
	var got []int
	err := Read(filepath.Join(dir, File), func(b []byte) error {
		var m map[string]int
		if err := json.Unmarshal(b, &m); err != nil {
			return err
		}
		got = append(got, m["i"])
		return nil
	})
	if err != nil || len(got) != 2 || got[0] != 0 || got[1] != 1 {
		t.Errorf("read %v, %v", got, err)
	}
}

// TestReadSkipsATornLastLine: a run killed while appending leaves half a
// line at the end; the lines before it are kept and nothing fails. Bad
// JSON anywhere else is still an error naming the line.
func TestReadSkipsATornLastLine(t *testing.T) {
	p := filepath.Join(t.TempDir(), File)
	decode := func(got *[]int) func([]byte) error {
		return func(b []byte) error {
			var m map[string]int
			if err := json.Unmarshal(b, &m); err != nil {
				return err
			}
			*got = append(*got, m["i"])
			return nil
		}
	}
	os.WriteFile(p, []byte("{\"i\":1}\n{\"i\":2}\n{\"i\":"), 0o644)
	var got []int
	if err := Read(p, decode(&got)); err != nil || len(got) != 2 {
		t.Errorf("torn last line: read %v, %v; want the two whole lines", got, err)
	}
	os.WriteFile(p, []byte("{\"i\":1}\n{\"i\":\n{\"i\":3}\n"), 0o644)
	got = nil
	if err := Read(p, decode(&got)); err == nil || !strings.Contains(err.Error(), ":2:") {
		t.Errorf("bad middle line: %v, want an error at line 2", err)
	}
	os.WriteFile(p, []byte("{\"i\":1}\n{\"i\":4}"), 0o644) // whole last line without newline
	got = nil
	if err := Read(p, decode(&got)); err != nil || len(got) != 2 || got[1] != 4 {
		t.Errorf("last line without newline: %v, %v", got, err)
	}
}

// TestCloseDropEmpty: a run folder whose results file got nothing is
// removed on close; one with a result, or with other files, is kept.
func TestCloseDropEmpty(t *testing.T) {
	root := t.TempDir()
	empty := NewRunDir(root, time.Unix(1, 0))
	w, err := Open(empty)
	if err != nil {
		t.Fatal(err)
	}
	if err := w.CloseDropEmpty(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(empty); !os.IsNotExist(err) {
		t.Errorf("an empty run folder was kept: %v", err)
	}
	full := NewRunDir(root, time.Unix(2, 0))
	w, _ = Open(full)
	w.Append(map[string]int{"a": 1})
	w.CloseDropEmpty()
	if _, err := os.Stat(filepath.Join(full, File)); err != nil {
		t.Errorf("a results file with a result was removed: %v", err)
	}
	other := NewRunDir(root, time.Unix(3, 0))
	w, _ = Open(other)
	os.WriteFile(filepath.Join(other, "notes.txt"), []byte("x"), 0o644)
	w.CloseDropEmpty()
	if _, err := os.Stat(filepath.Join(other, "notes.txt")); err != nil {
		t.Errorf("a folder holding other files was removed: %v", err)
	}
}

// TestOpenNewNeverShares: two runs started in the same second (two shards
// on one host) appended to one results file; each gets a folder of its own.
func TestOpenNewNeverShares(t *testing.T) {
	root := t.TempDir()
	now := time.Date(2026, 12, 5, 7, 0, 0, 0, time.UTC)
	a, err := OpenNew(root, now)
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	b, err := OpenNew(root, now)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	if a.Path == b.Path || filepath.Dir(a.Path) != NewRunDir(root, now) || filepath.Dir(b.Path) != NewRunDir(root, now)+"-2" {
		t.Errorf("runs of one second wrote %s and %s", a.Path, b.Path)
	}
}
