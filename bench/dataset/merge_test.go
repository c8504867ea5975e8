package dataset

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestMerge: finished records of new candidates are appended byte for
// byte; duplicates, unfinished records and a torn last line are not; a
// second merge of the same files adds nothing; a corrupt line in the
// middle of a file is an error that names it.
func TestMerge(t *testing.T) {
	dir := t.TempDir()
	into := filepath.Join(dir, "measurements.jsonl")
	a := `{"task":"t","candidate":"a","compile":{"ok":true},"ran":true}`
	b := `{"task":"t","candidate":"b","compile":{"ok":true},"ran":true,"extra":{"kept":[1,2]}}`
	bad := `{"task":"t","candidate":"c","compile":{"ok":false}}` // did not compile: finished
	os.WriteFile(into, []byte(a+"\n"), 0o644)
	run := filepath.Join(dir, "results.jsonl")
	os.WriteFile(run, []byte(a+"\n"+b+"\n"+
		`{"task":"t","candidate":"d","compile":{"ok":true},"ran":false,"error":"run: killed"}`+"\n"+
		// A recorded answer: an earlier measurement of another candidate
		// with this source, not a measurement of f.
		`{"task":"t","candidate":"f","compile":{"ok":true},"ran":true,"recorded":true}`+"\n"+
		bad+"\n"+
		`{"task":"t","candidate":"e","compile":{"ok":tr`), 0o644)
	st, err := Merge(into, run)
	if err != nil {
		t.Fatal(err)
	}
	if st != (MergeStats{Added: 2, Duplicates: 1, Unfinished: 1, Recorded: 1}) {
		t.Errorf("stats %+v, want 2 added, 1 duplicate, 1 unfinished, 1 recorded", st)
	}
	got, _ := os.ReadFile(into)
	if want := a + "\n" + b + "\n" + bad + "\n"; string(got) != want {
		t.Errorf("records file:\n%s\nwant:\n%s", got, want)
	}
	st, err = Merge(into, run, run)
	if err != nil || st.Added != 0 || st.Duplicates != 6 {
		t.Errorf("second merge: %+v, %v; want nothing added, 6 duplicates", st, err)
	}
	os.WriteFile(run, []byte(a+"\nnot json\n"+b+"\n"), 0o644)
	if _, err := Merge(into, run); err == nil || !strings.Contains(err.Error(), "results.jsonl:2") {
		t.Errorf("corrupt line: %v, want an error naming results.jsonl:2", err)
	}
	// A missing records file is created.
	fresh := filepath.Join(dir, "new.jsonl")
	os.WriteFile(run, []byte(b+"\n"), 0o644)
	if st, err := Merge(fresh, run); err != nil || st.Added != 1 {
		t.Errorf("fresh file: %+v, %v", st, err)
	}
}

// TestMergeKeepsAReMeasurementOfEditedCode: a later record of the
// candidate with another source hash than its latest (code edited, then
// reverted) is appended and is what Load takes; the same source again, an
// older record of another source (a run merged late), and anything against
// a record without a hash are duplicates.
func TestMergeKeepsAReMeasurementOfEditedCode(t *testing.T) {
	dir := t.TempDir()
	into := filepath.Join(dir, "m.jsonl")
	rec := func(cand, hash, time string) string {
		h := ""
		if hash != "" {
			h = `,"source_hash":"sha256:` + hash + `"`
		}
		return `{"time":"` + time + `","task":"t","candidate":"` + cand + `","compile":{"ok":true},"ran":true` + h + `}`
	}
	os.WriteFile(into, []byte(rec("a", "aaaa", "2026-12-01T00:00:00Z")+"\n"+rec("b", "", "2026-12-01T00:00:00Z")+"\n"), 0o644)
	merge := func(want MergeStats, lines ...string) {
		t.Helper()
		run := filepath.Join(dir, "r.jsonl")
		os.WriteFile(run, []byte(strings.Join(lines, "\n")+"\n"), 0o644)
		if st, err := Merge(into, run); err != nil || st != want {
			t.Errorf("merge %q: %+v, %v; want %+v", lines, st, err, want)
		}
	}
	latest := func(cand string) string {
		t.Helper()
		rs, err := Load(into)
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range rs {
			if r.Candidate == cand {
				return r.SourceHash
			}
		}
		return ""
	}
	merge(MergeStats{Added: 1, Superseded: 1, Duplicates: 2}, rec("a", "bbbb", "2026-12-02T00:00:00Z"), rec("a", "aaaa", "2026-12-01T00:00:00Z"), rec("b", "cccc", "2026-12-02T00:00:00Z"))
	if h := latest("a"); h != "sha256:bbbb" {
		t.Errorf("after the edit Load gives %s, want bbbb", h)
	}
	merge(MergeStats{Added: 1, Superseded: 1}, rec("a", "aaaa", "2026-12-03T00:00:00Z")) // reverted and re-measured
	if h := latest("a"); h != "sha256:aaaa" {
		t.Errorf("after the revert Load gives %s, want aaaa", h)
	}
	merge(MergeStats{Duplicates: 1}, rec("a", "bbbb", "2026-12-02T12:00:00Z")) // an older run merged late
	if h := latest("a"); h != "sha256:aaaa" {
		t.Errorf("a late older run displaced the latest: %s", h)
	}
}

// TestMergeAfterATornWrite: a merge killed while writing leaves a record
// without its newline; the next merge cuts it off instead of gluing a new
// record onto it, and merges that candidate again.
func TestMergeAfterATornWrite(t *testing.T) {
	dir := t.TempDir()
	into := filepath.Join(dir, "measurements.jsonl")
	a := `{"task":"t","candidate":"a","compile":{"ok":true},"ran":true}`
	b := `{"task":"t","candidate":"b","compile":{"ok":true},"ran":true}`
	os.WriteFile(into, []byte(a+"\n"+b[:20]), 0o644)
	run := filepath.Join(dir, "results.jsonl")
	os.WriteFile(run, []byte(a+"\n"+b+"\n"), 0o644)
	st, err := Merge(into, run)
	if err != nil || st.Added != 1 || st.Duplicates != 1 {
		t.Fatalf("merge after a torn write: %+v, %v; want b added again and a kept", st, err)
	}
	if got, _ := os.ReadFile(into); string(got) != a+"\n"+b+"\n" {
		t.Errorf("records file:\n%s", got)
	}
	// A file that is one torn record is emptied, then filled.
	os.WriteFile(into, []byte(b[:10]), 0o644)
	if st, err := Merge(into, run); err != nil || st.Added != 2 {
		t.Errorf("merge into a torn single record: %+v, %v", st, err)
	}
	// A whole record without its newline (a hand-edited file) is one every
	// reader keeps: it gets its newline (it had been cut off, and lost).
	os.WriteFile(into, []byte(a), 0o644)
	os.WriteFile(run, []byte(b+"\n"), 0o644)
	if st, err := Merge(into, run); err != nil || st.Added != 1 {
		t.Errorf("merge after a whole unterminated record: %+v, %v", st, err)
	}
	if got, _ := os.ReadFile(into); string(got) != a+"\n"+b+"\n" {
		t.Errorf("records file:\n%s\nwant a then b", got)
	}
}
