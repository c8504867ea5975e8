package ablation

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cudaperf/cudaperf/bench/task"
	"github.com/cudaperf/cudaperf/host/grpo"
)

// ablationConfig parses an ablation under root; extra is appended to
// the eval and train mappings' bodies.
func ablationConfig(t *testing.T, root, eval, train string) *Config {
	t.Helper()
	c, err := Parse("ablation.yaml", []byte("name: abl\nroot: "+root+"\nmodes: [ver]\nseeds: [1, 2]\n"+
		"eval: {sides: [test], n: 3, k: [1]"+eval+"}\ntrain: {steps: 1, batch: 1, group: 2, turns: 1, tasks: [a]"+train+"}\n"))
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func tinyDataset() *grpo.Dataset {
	return &grpo.Dataset{Suite: "tiny", Tasks: []*grpo.Task{
		{Task: &task.Task{Name: "a"}, Side: "train"},
		{Task: &task.Task{Name: "b"}, Side: "train"},
		{Task: &task.Task{Name: "c"}, Side: "test"},
	}}
}

// An ablation's results are pre-registered: a configuration that differs
// from the folder's in a key that decides results is refused by --resume,
// report and rescore, with every such key named; the start's path and the
// candidate time limit may change.
func TestAblationRefusesChangedConfig(t *testing.T) {
	root := t.TempDir()
	made := ablationConfig(t, root, "", "")
	env := Env{Dataset: tinyDataset(), Open: func(context.Context) (*Parts, error) { return nil, errors.New("opened") }}
	if err := Execute(context.Background(), made, env, false, 1); !errors.Is(err, ErrBudget) {
		t.Fatalf("made with a budget of 1ns: %v", err)
	}
	// Every run done: before, --resume skipped them all and said nothing.
	for _, r := range made.Runs() {
		os.MkdirAll(r.Cfg.Dir(), 0o755)
		os.WriteFile(EvalFile(r.Cfg.Dir(), "test"), []byte("{}"), 0o644)
	}
	harmless := ablationConfig(t, root, "", ", benchmarker: {candidate_timeout: 3m}")
	harmless.Init = "elsewhere/the-same-start"
	if _, err := Collect(harmless); err != nil {
		t.Errorf("a new candidate_timeout and init path were refused: %v", err)
	}

	changed := ablationConfig(t, root, "", "")
	changed.Eval.N = 5
	changed.base.Tasks = []string{"a", "b"}
	for name, err := range map[string]error{
		"resume":  Execute(context.Background(), changed, env, true, 0),
		"report":  func() error { _, err := Collect(changed); return err }(),
		"rescore": func() error { _, err := Rescore(changed, changed.Weights()); return err }(),
	} {
		var ue *UsageError
		if !errors.As(err, &ue) {
			t.Errorf("%s: %v, want a usage error", name, err)
			continue
		}
		for _, want := range []string{"eval.n: 3, the config says 5", "train.tasks: [a], the config says [a, b]", "restore them", "another name"} {
			if !strings.Contains(err.Error(), want) {
				t.Errorf("%s: %q lacks %q", name, err, want)
			}
		}
	}
}

// A start refused (a task that is not in the suite, a start that is not
// there) leaves no folder; a start that fails before anything was kept
// removes its folder and does not advise --resume; once something is kept,
// it does.
func TestAblationFailedStartLeavesNothing(t *testing.T) {
	root := t.TempDir()
	opened := errors.New("no policy plugin named nosuch")
	env := Env{Dataset: tinyDataset(), Open: func(context.Context) (*Parts, error) { return nil, opened }}

	bad := ablationConfig(t, root, ", tasks: {test: [nosuch]}", "")
	bad.Init = filepath.Join(root, "no-start")
	err := Execute(context.Background(), bad, env, false, 0)
	var ue *UsageError
	if !errors.As(err, &ue) || !strings.Contains(err.Error(), "eval.tasks.test") || !strings.Contains(err.Error(), "init:") {
		t.Errorf("bad tasks and init: %v, want a usage error naming eval.tasks.test and init", err)
	}
	if _, err := os.Stat(bad.Dir()); err == nil {
		t.Error("a refused start made the ablation's folder")
	}

	c := ablationConfig(t, root, "", "")
	err = Execute(context.Background(), c, env, false, 0)
	if !errors.Is(err, opened) || strings.Contains(err.Error(), "--resume") {
		t.Errorf("failed before keeping anything: %v, want the plugin's error without --resume advice", err)
	}
	if _, err := os.Stat(c.Dir()); err == nil {
		t.Error("a start that kept nothing left its folder: a plain rerun would be refused")
	}

	if err := Execute(context.Background(), c, env, false, 1); !errors.Is(err, ErrBudget) {
		t.Fatalf("budget of 1ns: %v", err)
	}
	if err := Execute(context.Background(), c, env, false, 0); !errors.As(err, &ue) || !strings.Contains(err.Error(), "--resume") {
		t.Errorf("into an existing folder without --resume: %v, want a usage error", err)
	}
	first := c.Runs()[0].Cfg.Dir()
	os.MkdirAll(first, 0o755)
	os.WriteFile(EvalFile(first, "test"), []byte("{}"), 0o644)
	err = Execute(context.Background(), c, env, true, 0)
	if !errors.Is(err, opened) || !strings.Contains(err.Error(), "kept: rerun with --resume") {
		t.Errorf("failed after an evaluation: %v, want --resume advice", err)
	}
	if _, err := os.Stat(EvalFile(first, "test")); err != nil {
		t.Errorf("the kept evaluation is gone: %v", err)
	}
}
