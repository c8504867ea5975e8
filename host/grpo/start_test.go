package grpo

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func writeTree(t *testing.T, dir string, files map[string]string) string {
	t.Helper()
	for name, body := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// The digest follows the content and the names inside the folder, not
// where the folder is.
func TestInitDigest(t *testing.T) {
	files := map[string]string{"adapter_config.json": "{}", "adapter_model.safetensors": "weights", "sub/x": "1"}
	a := writeTree(t, t.TempDir(), files)
	b := writeTree(t, t.TempDir(), files)
	da, err := InitDigest(a)
	if err != nil {
		t.Fatal(err)
	}
	if db, _ := InitDigest(b); db != da || len(da) != 64 {
		t.Errorf("the same content in two folders: %q and %q", da, db)
	}
	writeTree(t, b, map[string]string{"adapter_model.safetensors": "weightz"})
	if db, _ := InitDigest(b); db == da {
		t.Error("a changed weight file kept the digest")
	}
	c := writeTree(t, t.TempDir(), map[string]string{"adapter_config.json": "{}", "adapter_model.safetensors.old": "weights", "sub/x": "1"})
	if dc, _ := InitDigest(c); dc == da {
		t.Error("a renamed file kept the digest")
	}
	if d, err := InitDigest(""); d != "" || err != nil {
		t.Errorf(`InitDigest("") = %q, %v; want "" (the policy's own weights)`, d, err)
	}
	if _, err := InitDigest(filepath.Join(a, "missing")); err == nil || !strings.Contains(err.Error(), "policy.init") {
		t.Errorf("a missing init: %v", err)
	}
}

func TestRecordStart(t *testing.T) {
	init := writeTree(t, t.TempDir(), map[string]string{"w": "one"})
	run := t.TempDir()
	// Resuming a run that has no record (made before runs kept one) writes none.
	if err := RecordStart(run, init, false); err != nil {
		t.Fatal(err)
	}
	if st, _ := ReadStart(run); st != nil {
		t.Fatalf("a continued run without a record got one: %+v", st)
	}
	if err := RecordStart(run, init, true); err != nil {
		t.Fatal(err)
	}
	st, err := ReadStart(run)
	if err != nil || st == nil || st.Init != init || len(st.SHA256) != 64 {
		t.Fatalf("record %+v, %v", st, err)
	}
	if err := RecordStart(run, init, false); err != nil {
		t.Errorf("the same start refused: %v", err)
	}
	// The same path, other weights: what happened to the ablation's start.
	writeTree(t, init, map[string]string{"w": "two"})
	err = RecordStart(run, init, false)
	if err == nil || !strings.Contains(err.Error(), "a run keeps its start") || !strings.Contains(err.Error(), st.SHA256[:12]) {
		t.Errorf("another start at the same path: %v", err)
	}
	if err := RecordStart(run, "", true); err == nil || !strings.Contains(err.Error(), "the policy's own weights") {
		t.Errorf("no start where the run had one: %v", err)
	}
}

// A trained run records its start, and resuming it from another checkpoint
// at the same policy.init is refused before anything is trained.
func TestResumeKeepsTheStart(t *testing.T) {
	d := testDataset(t)
	a := testConfig(t, t.TempDir(), 2)
	tr, err := NewTrainer(context.Background(), a, Options{Policy: replayPolicy(t), Benchmarker: newFakeBench(t, d), Dataset: d}, false)
	if err != nil {
		t.Fatal(err)
	}
	if err := tr.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	if st, err := ReadStart(a.Dir()); err != nil || st == nil || st.SHA256 != "" {
		t.Fatalf("a run from the policy's own weights recorded %+v, %v", st, err)
	}
	// Run b starts from a's last checkpoint, copied to a place of its own.
	init := filepath.Join(t.TempDir(), "init")
	src := filepath.Join(a.Dir(), "checkpoints", "step-000002", "policy")
	if err := os.CopyFS(init, os.DirFS(src)); err != nil {
		t.Fatal(err)
	}
	b := testConfig(t, t.TempDir(), 2)
	b.Policy.Init = init
	tr, err = NewTrainer(context.Background(), b, Options{Policy: replayPolicy(t), Benchmarker: newFakeBench(t, d), Dataset: d}, false)
	if err != nil {
		t.Fatal(err)
	}
	if err := tr.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	want, _ := InitDigest(init)
	if st, _ := ReadStart(b.Dir()); st == nil || st.SHA256 != want {
		t.Fatalf("run b recorded %+v, want sha256 %s", st, want)
	}
	writeTree(t, init, map[string]string{"extra.txt": "another adapter now"})
	b.Steps = 3
	if _, err := NewTrainer(context.Background(), b, Options{Policy: replayPolicy(t), Benchmarker: newFakeBench(t, d), Dataset: d}, true); err == nil ||
		!strings.Contains(err.Error(), "a run keeps its start") {
		t.Errorf("resumed from another start: %v", err)
	}
	os.Remove(filepath.Join(init, "extra.txt"))
	if _, err := NewTrainer(context.Background(), b, Options{Policy: replayPolicy(t), Benchmarker: newFakeBench(t, d), Dataset: d}, true); err != nil {
		t.Errorf("resumed from its own start: %v", err)
	}
}

// TestMissingStartLeavesNoRun: a policy.init that does not exist is a
// configuration error before the run folder is made; it was a tool failure
// that left a folder refusing the corrected command ("continue it with
// --resume").
func TestMissingStartLeavesNoRun(t *testing.T) {
	d := testDataset(t)
	c := testConfig(t, t.TempDir(), 2)
	c.Policy.Init = filepath.Join(t.TempDir(), "runs", "sft-1", "epoch-4")
	_, err := NewTrainer(context.Background(), c, Options{Policy: replayPolicy(t), Benchmarker: newFakeBench(t, d), Dataset: d}, false)
	if !errors.Is(err, ErrConfig) || !strings.Contains(err.Error(), "policy.init") {
		t.Fatalf("err = %v, want a configuration error naming policy.init", err)
	}
	if _, err := os.Stat(c.Dir()); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the run folder %s exists after the refusal (%v)", c.Dir(), err)
	}
}

// TestUnloadableStartLeavesNoRun: a start the policy cannot load (another
// LoRA rank) leaves no run folder, so the corrected command runs; it was
// refused as a second run of the same name.
func TestUnloadableStartLeavesNoRun(t *testing.T) {
	d := testDataset(t)
	c := testConfig(t, t.TempDir(), 2)
	c.Policy.Init = t.TempDir() // exists, but holds nothing replay can load
	_, err := NewTrainer(context.Background(), c, Options{Policy: replayPolicy(t), Benchmarker: newFakeBench(t, d), Dataset: d}, false)
	if err == nil || !strings.Contains(err.Error(), "load the initial policy") {
		t.Fatalf("err = %v, want the load's failure", err)
	}
	if _, err := os.Stat(c.Dir()); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the run folder %s exists after the failed start (%v)", c.Dir(), err)
	}
	// A folder the user made beforehand is theirs: left in place.
	if err := os.MkdirAll(c.Dir(), 0o755); err != nil {
		t.Fatal(err)
	}
	if _, err := NewTrainer(context.Background(), c, Options{Policy: replayPolicy(t), Benchmarker: newFakeBench(t, d), Dataset: d}, false); err == nil {
		t.Fatal("the unloadable start loaded")
	}
	if _, err := os.Stat(c.Dir()); err != nil {
		t.Errorf("the user's folder was removed: %v", err)
	}
}

// failingSave is a policy whose first Save fails (the process killed while
// it saved).
type failingSave struct {
	Policy
	failed bool
}

func (p *failingSave) Save(ctx context.Context, path string) error {
	if !p.failed {
		p.failed = true
		return errors.New("killed during save")
	}
	return p.Policy.Save(ctx, path)
}

// TestResumeWithoutCheckpointStartsClean: step 1 recorded, its checkpoint
// never written; resuming starts over and must not keep step 1's records
// (metrics.jsonl held steps 1, 1, 2).
func TestResumeWithoutCheckpointStartsClean(t *testing.T) {
	d := testDataset(t)
	c := testConfig(t, t.TempDir(), 2)
	tr, err := NewTrainer(context.Background(), c, Options{Policy: &failingSave{Policy: replayPolicy(t)}, Benchmarker: newFakeBench(t, d), Dataset: d}, false)
	if err != nil {
		t.Fatal(err)
	}
	if err := tr.Run(context.Background()); err == nil || !strings.Contains(err.Error(), "killed during save") {
		t.Fatalf("run = %v, want the failed save", err)
	}
	tr, err = NewTrainer(context.Background(), c, Options{Policy: replayPolicy(t), Benchmarker: newFakeBench(t, d), Dataset: d}, true)
	if err != nil {
		t.Fatal(err)
	}
	if err := tr.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	ms, err := ReadMetrics(filepath.Join(c.Dir(), "metrics.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	var steps []int64
	for _, m := range ms {
		steps = append(steps, m.Step)
	}
	if len(steps) != 2 || steps[0] != 1 || steps[1] != 2 {
		t.Errorf("metrics steps %v, want [1 2]", steps)
	}
}

// TestResumeMayChangeKeepCheckpoints: how many checkpoints are kept decides
// nothing a run computes; changing it on --resume was refused as "another
// configuration". Another key still is.
func TestResumeMayChangeKeepCheckpoints(t *testing.T) {
	d := testDataset(t)
	c := testConfig(t, t.TempDir(), 1)
	tr, err := NewTrainer(context.Background(), c, Options{Policy: replayPolicy(t), Benchmarker: newFakeBench(t, d), Dataset: d}, false)
	if err != nil {
		t.Fatal(err)
	}
	if err := tr.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	c.KeepCheckpoints, c.Steps = 5, 2
	if _, err := NewTrainer(context.Background(), c, Options{Policy: replayPolicy(t), Benchmarker: newFakeBench(t, d), Dataset: d}, true); err != nil {
		t.Errorf("resume with keep_checkpoints 5: %v", err)
	}
	c.Group = 4
	if _, err := NewTrainer(context.Background(), c, Options{Policy: replayPolicy(t), Benchmarker: newFakeBench(t, d), Dataset: d}, true); err == nil || !strings.Contains(err.Error(), "group: 6, now 4") {
		t.Errorf("resume with another group: %v", err)
	}
}
