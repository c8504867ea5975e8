package bench

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/cudaperf/cudaperf/bench/verdict"
)

// Batch classes: what a batch candidate is, and so what must become of it.
const (
	ClassHonest       = "honest"        // must be accepted
	ClassCompileError = "compile_error" // must fail to compile
	ClassWrong        = "wrong"         // must be rejected for its outputs
	ClassCrash        = "crash"         // must be rejected as a runtime error
	ClassHang         = "hang"          // must be killed at the time limit
	ClassSideStream   = "side_stream"   // leaves work on another stream: must be rejected as hidden work
)

// classReason is the verdict reason each class must be rejected with.
var classReason = map[string]string{
	ClassCompileError: verdict.CompileError,
	ClassWrong:        verdict.WrongResult,
	ClassCrash:        verdict.RuntimeError,
	ClassHang:         verdict.Timeout,
	ClassSideStream:   verdict.HiddenWork,
}

// BatchItem is one line of a batch manifest (bench/rlbatch/manifest.jsonl):
// a candidate file for a task, with its class. Expect overrides the reason
// id its class implies (e.g. partially_correct for a candidate wrong on
// some configurations only).
type BatchItem struct {
	Task   string `json:"task"`
	File   string `json:"file"` // relative to the manifest's folder, or absolute
	Class  string `json:"class"`
	Expect string `json:"expect,omitempty"`
}

// Candidate is the item as a candidate; path is the manifest's folder.
// Anything but an honest candidate is a cheat that must be rejected with
// its reason.
func (b BatchItem) Candidate(dir string) Candidate {
	p := b.File
	if !filepath.IsAbs(p) {
		p = filepath.Join(dir, p)
	}
	c := Candidate{Name: strings.TrimSuffix(filepath.Base(p), ".cu"), Path: p, Kind: KindCandidate}
	if b.Class != ClassHonest {
		c.Kind, c.Expect = KindCheat, b.Expect
		if c.Expect == "" {
			c.Expect = classReason[b.Class]
		}
	}
	return c
}

// LoadBatch reads a batch manifest, one JSON object a line. Every line is
// checked before anything runs: its file must exist (a missing one ended a
// GPU run midway, dropping results in flight), and two lines of a task must
// not name files with one base name (results are keyed by task and
// candidate name: one measurement was kept of the two).
func LoadBatch(path string) ([]BatchItem, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("bench: batch: %w", err)
	}
	defer f.Close()
	var out []BatchItem
	lines := map[string]int{} // task/candidate name → manifest line
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		var b BatchItem
		dec := json.NewDecoder(strings.NewReader(line))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&b); err != nil {
			return nil, fmt.Errorf("%s:%d: %w", path, n, err)
		}
		if _, ok := classReason[b.Class]; !ok && b.Class != ClassHonest {
			return nil, fmt.Errorf("%s:%d: class %q is unknown: use honest, compile_error, wrong, crash, hang or side_stream", path, n, b.Class)
		}
		if b.Task == "" || b.File == "" {
			return nil, fmt.Errorf("%s:%d: task and file are required", path, n)
		}
		c := b.Candidate(filepath.Dir(path))
		if st, err := os.Stat(c.Path); err != nil || st.IsDir() {
			return nil, fmt.Errorf("%s:%d: file %s: no such file (a relative file is taken from the manifest's folder)", path, n, c.Path)
		}
		key := b.Task + "/" + c.Name
		if prev, ok := lines[key]; ok {
			return nil, fmt.Errorf("%s:%d: task %s already has a candidate named %s (line %d); results are keyed by task and file name: rename one file", path, n, b.Task, c.Name, prev)
		}
		lines[key] = n
		out = append(out, b)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("bench: batch %s: %w", path, err)
	}
	if len(out) == 0 {
		// Without this the CLI went on to say "no task found under
		// bench/suites", which names the wrong input.
		return nil, fmt.Errorf("bench: batch %s has no candidates: write one JSON object a line, such as {\"task\": \"saxpy\", \"file\": \"a.cu\"}", path)
	}
	return out, nil
}
