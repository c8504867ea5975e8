package grpo

import (
	"compress/gzip"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func writeGz(t *testing.T, path, text string) {
	t.Helper()
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	zw := gzip.NewWriter(f)
	zw.Write([]byte(text))
	zw.Close()
	f.Close()
}

// Steps come back in step order whatever the directory's order; a run
// without rollouts has none; a bad line names its file and line.
func TestRunRollouts(t *testing.T) {
	dir := t.TempDir()
	if recs, err := RunRollouts(dir); err != nil || recs != nil {
		t.Fatalf("no rollouts folder: %v, %v; want none and no error", recs, err)
	}
	os.MkdirAll(filepath.Join(dir, "rollouts"), 0o755)
	writeGz(t, filepath.Join(dir, "rollouts", "step-000010.jsonl.gz"), `{"step":10}`+"\n")
	writeGz(t, filepath.Join(dir, "rollouts", "step-000002.jsonl.gz"), `{"step":2}`+"\n\n"+`{"step":2,"turn":1}`+"\n")
	recs, err := RunRollouts(dir)
	if err != nil {
		t.Fatal(err)
	}
	var steps []int64
	for _, r := range recs {
		steps = append(steps, r.Step)
	}
	if len(steps) != 3 || steps[0] != 2 || steps[1] != 2 || steps[2] != 10 {
		t.Errorf("steps %v, want [2 2 10]", steps)
	}
	writeGz(t, filepath.Join(dir, "rollouts", "step-000011.jsonl.gz"), `{"step":11}`+"\n"+`{"step":`+"\n")
	_, err = RunRollouts(dir)
	if err == nil || !strings.Contains(err.Error(), "step-000011.jsonl.gz:2") {
		t.Errorf("a truncated line: error %v, want one naming step-000011.jsonl.gz:2", err)
	}
}
