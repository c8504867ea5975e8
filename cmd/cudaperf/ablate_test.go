package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cudaperf/cudaperf/host/pluginhost/plugintest"
)

// The ablation end to end without a GPU: replay + recorded, two modes ×
// two seeds and the start's evaluation per seed, a budget spent before the
// first run, --resume to the end, then the results page.
func TestAblateOffline(t *testing.T) {
	root := t.TempDir()
	cfg := filepath.Join(root, "ablation.yaml")
	os.WriteFile(cfg, []byte(`name: abl
root: `+root+`
modes: [ver, both]
seeds: [1, 2]
primary: {metric: pass@1, side: test}
eval: {sides: [test], n: 3, k: [1, 3], tasks: {test: [saxpy, vector_add]}}
train:
  steps: 2
  batch: 2
  group: 4
  turns: 1
  tasks: [dot_product, gelu, row_sum]
  policy: {plugin: replay, hyperparameters: {learning_rate: 1.0}}
  benchmarker: {plugin: recorded, concurrency: 4}
`), 0o644)
	out, errOut, code := rlRun(t, "ablate", "--config", cfg, "--budget", "1ns")
	if code != 0 || !strings.Contains(out, "budget") {
		t.Fatalf("budgeted call: exit %d\n%s\n%s", code, out, errOut)
	}
	if _, _, code := rlRun(t, "ablate", "--config", cfg); code == 0 {
		t.Error("a second ablation into the same folder without --resume was accepted")
	}
	out, errOut, code = rlRun(t, "ablate", "--config", cfg, "--resume")
	if code != 0 || !strings.Contains(out, "all 6 runs done") {
		t.Fatalf("resume: exit %d\n%s\n%s", code, out, errOut)
	}
	if !strings.Contains(out, "run start-s1: the start, evaluated untrained") {
		t.Errorf("no start evaluation logged:\n%s", out)
	}
	for _, run := range []string{"start-s1", "ver-s1", "both-s1", "start-s2", "ver-s2", "both-s2"} {
		b, err := os.ReadFile(filepath.Join(root, "abl", run, "eval-test.json"))
		if err != nil {
			t.Error(err)
			continue
		}
		var rep struct {
			Tasks []struct {
				Task string `json:"task"`
			} `json:"tasks"`
		}
		if err := json.Unmarshal(b, &rep); err != nil {
			t.Fatal(err)
		}
		var names []string
		for _, te := range rep.Tasks {
			names = append(names, te.Task)
		}
		if strings.Join(names, ",") != "saxpy,vector_add" {
			t.Errorf("%s: evaluated on %v, want eval.tasks' [saxpy vector_add]", run, names)
		}
		want := 2 // identical budgets
		if strings.HasPrefix(run, "start-") {
			want = 0 // the start is evaluated, never trained
		}
		if ms := metricsOf(t, filepath.Join(root, "abl", run)); len(ms) != want {
			t.Errorf("%s: %d steps, want %d", run, len(ms), want)
		}
	}
	page := filepath.Join(root, "RESULTS.md")
	out, errOut, code = rlRun(t, "ablate", "report", "--config", cfg, "--out", page)
	if code != 0 {
		t.Fatalf("report: exit %d\n%s\n%s", code, out, errOut)
	}
	b, _ := os.ReadFile(page)
	for _, want := range []string{"**Primary metric**", "pass@1 on the test side", "both − ver", "ver − start", "MDE", "## Conclusion", "Ranker validity", "curves.png",
		// Every run, the start rows included, recorded what it began from.
		"Start checkpoint, by content: the policy's own weights for every run."} {
		if !strings.Contains(string(b), want) {
			t.Errorf("results page lacks %q:\n%s", want, b)
		}
	}
	if _, err := os.Stat(filepath.Join(root, "curves.png")); err != nil {
		t.Error(err)
	}
	// A reading by hand: a missing file is named; one written against no
	// results is printed, marked, and warned about.
	reading := filepath.Join(root, "READING.md")
	if _, errOut, code = rlRun(t, "ablate", "report", "--config", cfg, "--out", page, "--reading", reading); code != 2 || !strings.Contains(errOut, "READING.md") {
		t.Errorf("report --reading with no such file: exit %d, stderr %q; want 2 and the file named", code, errOut)
	}
	if err := os.WriteFile(reading, []byte("The runs are a test.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, errOut, code = rlRun(t, "ablate", "report", "--config", cfg, "--out", page, "--reading", reading); code != 0 || !strings.Contains(errOut, "possibly stale") {
		t.Errorf("report --reading unmarked: exit %d, stderr %q; want 0 and a warning", code, errOut)
	}
	if b, _ := os.ReadFile(page); !strings.Contains(string(b), "The runs are a test.") || !strings.Contains(string(b), "Possibly stale") {
		t.Errorf("the page lacks the reading or its mark:\n%s", b)
	}

	// Replayed with the runs' own weights, a both run's signal comes back
	// as recorded; with a bound, no compiled candidate is below a failure.
	out, errOut, code = rlRun(t, "ablate", "rescore", "--config", cfg)
	if code != 0 {
		t.Fatalf("rescore: exit %d\n%s\n%s", code, out, errOut)
	}
	rows := 0
	for _, line := range strings.Split(out, "\n") {
		cols := strings.Split(strings.Trim(line, "| "), " | ")
		if len(cols) != 5 || !strings.HasPrefix(cols[0], "both-s") {
			continue
		}
		rows++
		for _, col := range cols[2:] {
			if a, b, ok := strings.Cut(col, " → "); !ok || a != b {
				t.Errorf("%s: %q: replayed with its own weights, recorded and replayed differ", cols[0], col)
			}
		}
	}
	if rows != 2 {
		t.Errorf("rescore: %d rows of both runs, want 2:\n%s", rows, out)
	}
	out, errOut, code = rlRun(t, "ablate", "rescore", "--config", cfg, "--str-bound", "0.085")
	if code != 0 || !strings.Contains(out, "squashed into ±0.085") || !strings.Contains(out, "| ver-s2 |") {
		t.Fatalf("rescore --str-bound: exit %d\n%s\n%s", code, out, errOut)
	}
	for _, line := range strings.Split(out, "\n") {
		cols := strings.Split(strings.Trim(line, "| "), " | ")
		if len(cols) == 5 && strings.Contains(cols[0], "-s") { // a run's row
			if _, after, _ := strings.Cut(cols[2], " → "); after != "0%" && after != "—" {
				t.Errorf("%s: bounded, %s of compiled candidates below a failure", cols[0], after)
			}
		}
	}
	if _, errOut, code := rlRun(t, "ablate", "rescore", "--config", cfg, "--str-bound", "0.5"); code != 2 || !strings.Contains(errOut, "exceeds") {
		t.Errorf("rescore --str-bound 0.5: exit %d, %s; want a usage error naming the largest bound", code, errOut)
	}
}

// ablate plan from a run's evaluation report: a page with the primary
// metric's MDE; a --base that is not SIDE=FILE is a usage error.
func TestAblatePlan(t *testing.T) {
	root := t.TempDir()
	cfg := filepath.Join(root, "ablation.yaml")
	os.WriteFile(cfg, []byte("name: abl\nroot: "+root+"\nmodes: [ver, both, random]\nseeds: [1, 2, 3]\n"+
		"eval: {sides: [test], n: 10, k: [1]}\ntrain: {steps: 2}\n"), 0o644)
	base := filepath.Join(plugintest.ModuleRoot(t), "bench", "h200", "2026-12-03-lease2", "rl", "eval-sft-test.json")
	page := filepath.Join(root, "PLAN.md")
	out, errOut, code := rlRun(t, "ablate", "plan", "--config", cfg, "--base", "test="+base, "--sims", "20", "--out", page)
	if code != 0 {
		t.Fatalf("plan: exit %d\n%s\n%s", code, out, errOut)
	}
	b, _ := os.ReadFile(page)
	if !strings.Contains(string(b), "| test | pass@1 (primary) | both − random |") || !strings.Contains(string(b), "--sims 20") {
		t.Errorf("plan page lacks the primary comparison or its command:\n%s", b)
	}
	if _, errOut, code := rlRun(t, "ablate", "plan", "--config", cfg, "--base", base); code != 2 || !strings.Contains(errOut, "SIDE=FILE") {
		t.Errorf("--base without SIDE=: exit %d, %s", code, errOut)
	}
}

// writeAblation writes a small offline ablation (replay + recorded) under
// root; policy and extra vary it.
func writeAblation(t *testing.T, root, file, policy, eval, extra string) string {
	t.Helper()
	p := filepath.Join(root, file)
	if err := os.WriteFile(p, []byte(`name: abl
root: `+root+`
modes: [ver]
seeds: [1, 2]
start: false
eval: {sides: [test], k: [1], tasks: {test: [saxpy]}, `+eval+`}
train:
  steps: 1
  batch: 1
  group: 2
  turns: 1
  tasks: [dot_product, gelu]
  policy: {plugin: `+policy+`}
  benchmarker: {plugin: recorded`+extra+`}
`), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// Finished runs are not described by a configuration they were not made
// with: --resume, report and rescore refuse a changed eval.n or train.tasks
// (exit 2, each key named with both values); a changed candidate_timeout
// is accepted.
func TestAblateResumeRefusesChangedConfig(t *testing.T) {
	root := t.TempDir()
	cfg := writeAblation(t, root, "a.yaml", "replay", "n: 2", "")
	if out, errOut, code := rlRun(t, "ablate", "--config", cfg); code != 0 || !strings.Contains(out, "all 2 runs done") {
		t.Fatalf("ablate: exit %d\n%s\n%s", code, out, errOut)
	}
	changed := writeAblation(t, root, "changed.yaml", "replay", "n: 3", "")
	b, _ := os.ReadFile(changed)
	os.WriteFile(changed, []byte(strings.Replace(string(b), "tasks: [dot_product, gelu]", "tasks: [gelu]", 1)), 0o644)
	for _, args := range [][]string{
		{"ablate", "--config", changed, "--resume"},
		{"ablate", "report", "--config", changed, "--out", filepath.Join(root, "RESULTS.md")},
		{"ablate", "rescore", "--config", changed},
	} {
		out, errOut, code := rlRun(t, args...)
		if code != 2 {
			t.Errorf("%v: exit %d, want 2\n%s\n%s", args[:2], code, out, errOut)
		}
		for _, want := range []string{"eval.n: 2, the config says 3", "train.tasks: [dot_product, gelu], the config says [gelu]", "start a new ablation under another name"} {
			if !strings.Contains(errOut, want) {
				t.Errorf("%v: stderr lacks %q:\n%s", args[:2], want, errOut)
			}
		}
	}
	timeout := writeAblation(t, root, "timeout.yaml", "replay", "n: 2", ", candidate_timeout: 5m")
	if out, errOut, code := rlRun(t, "ablate", "--config", timeout, "--resume"); code != 0 || !strings.Contains(out, "all 2 runs done") {
		t.Errorf("resume with only candidate_timeout changed: exit %d\n%s\n%s", code, out, errOut)
	}
}

// A start that cannot run (a policy plugin named wrong) is a usage error
// that leaves no folder and gives no --resume advice, so the corrected
// command runs as it is; an existing folder without --resume is a usage
// error too (exit 2, as for train).
func TestAblateFailedStartLeavesNothing(t *testing.T) {
	root := t.TempDir()
	cfg := writeAblation(t, root, "a.yaml", "nosuch", "n: 2", "")
	_, errOut, code := rlRun(t, "ablate", "--config", cfg)
	if code != 2 || !strings.Contains(errOut, "nosuch") || strings.Contains(errOut, "--resume") {
		t.Errorf("policy nosuch: exit %d, stderr %q; want 2, the plugin named, no --resume advice", code, errOut)
	}
	if _, err := os.Stat(filepath.Join(root, "abl")); err == nil {
		t.Error("a start refused left runs/abl behind")
	}
	cfg = writeAblation(t, root, "a.yaml", "replay", "n: 2", "")
	if out, errOut, code := rlRun(t, "ablate", "--config", cfg, "--budget", "1ns"); code != 0 {
		t.Fatalf("corrected, without --resume: exit %d\n%s\n%s", code, out, errOut)
	}
	if _, errOut, code := rlRun(t, "ablate", "--config", cfg); code != 2 || !strings.Contains(errOut, "--resume") {
		t.Errorf("into an existing folder: exit %d, stderr %q; want 2 and --resume", code, errOut)
	}
}
