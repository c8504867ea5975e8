package bench

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestLoadBatchChecksEveryLineFirst: a missing file is named with its
// manifest line before anything runs (it ended a GPU run midway with exit
// 3, dropping the results in flight); an absolute file stays where it is
// (it was put under the manifest's folder); two files of one task with one
// base name are refused (results keep one measurement of the two); a
// manifest without candidates is refused by name.
func TestLoadBatchChecksEveryLineFirst(t *testing.T) {
	dir := t.TempDir()
	for _, f := range []string{"a.cu", "x/k.cu", "y/k.cu"} {
		os.MkdirAll(filepath.Dir(filepath.Join(dir, f)), 0o755)
		os.WriteFile(filepath.Join(dir, f), []byte("// strategy: x\n"), 0o644)
	}
	abs := filepath.Join(dir, "a.cu")
	manifest := func(lines ...string) string {
		p := filepath.Join(dir, "m.jsonl")
		os.WriteFile(p, []byte(strings.Join(lines, "\n")+"\n"), 0o644)
		return p
	}
	items, err := LoadBatch(manifest(`{"task":"t","file":"x/k.cu","class":"honest"}`, `{"task":"t","file":"`+abs+`","class":"wrong"}`, `{"task":"u","file":"y/k.cu","class":"honest"}`))
	if err != nil {
		t.Fatal(err)
	}
	if c := items[1].Candidate(dir); c.Path != abs || c.Name != "a" {
		t.Errorf("absolute file: candidate %+v, want path %s", c, abs)
	}
	for _, c := range []struct {
		lines []string
		want  string
	}{
		{[]string{`{"task":"t","file":"a.cu","class":"honest"}`, `{"task":"t","file":"typo.cu","class":"honest"}`}, "m.jsonl:2: file " + filepath.Join(dir, "typo.cu") + ": no such file"},
		{[]string{`{"task":"t","file":"x","class":"honest"}`}, "m.jsonl:1: file " + filepath.Join(dir, "x") + ": no such file"},
		{[]string{`{"task":"t","file":"x/k.cu","class":"honest"}`, `{"task":"t","file":"y/k.cu","class":"honest"}`}, "m.jsonl:2: task t already has a candidate named k (line 1)"},
		// An empty manifest is named as such (it was "no task found under
		// bench/suites", which points at the wrong input).
		{[]string{"# nothing yet", ""}, "m.jsonl has no candidates"},
	} {
		if _, err := LoadBatch(manifest(c.lines...)); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v: err = %v, want %q", c.lines, err, c.want)
		}
	}
}
