package dataset

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestMakeSplitIsDisjointStratifiedAndComplete(t *testing.T) {
	cats := map[string]string{}
	for i, c := range []string{"elementwise", "elementwise", "elementwise", "elementwise", "reduction", "reduction", "reduction",
		"matmul", "matmul", "matmul", "image", "image", "image", "graph", "sorting", "spmv", "scan", "scan", "stencil", "stencil"} {
		cats[c+"_"+string(rune('a'+i))] = c
	}
	s := MakeSplit(cats, 0.15, 0.15)
	var names []string
	for n := range cats {
		names = append(names, n)
	}
	if err := s.Check(names); err != nil {
		t.Fatal(err)
	}
	if len(s.Test) != 3 || len(s.Validation) != 3 {
		t.Errorf("sizes train %d val %d test %d, want 14/3/3", len(s.Train), len(s.Validation), len(s.Test))
	}
	// Every category keeps at least one task in training.
	for c := range map[string]bool{"elementwise": true, "graph": true, "scan": true} {
		found := false
		for _, tr := range s.Train {
			if cats[tr] == c {
				found = true
			}
		}
		if !found {
			t.Errorf("category %s has no training task", c)
		}
	}
	again := MakeSplit(cats, 0.15, 0.15)
	if strings.Join(again.Test, ",") != strings.Join(s.Test, ",") {
		t.Errorf("MakeSplit is not deterministic")
	}
}

func TestCheckNamesProblems(t *testing.T) {
	s := &Split{Train: []string{"a", "b"}, Validation: []string{"b"}, Test: []string{"z"}}
	err := s.Check([]string{"a", "b", "c"})
	if err == nil {
		t.Fatal("want an error")
	}
	for _, want := range []string{"task b is on 2 sides", "task z is not in the suite", "task c is on no side"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q lacks %q", err, want)
		}
	}
}

func TestLoadSplitIsStrict(t *testing.T) {
	p := filepath.Join(t.TempDir(), SplitFile)
	_ = os.WriteFile(p, []byte("train: [a]\nvalidaton: [b]\n"), 0o644)
	if _, err := LoadSplit(p); err == nil || !strings.Contains(err.Error(), "validaton") {
		t.Errorf("misspelled key: %v", err)
	}
}

// TestC2CUDASplitCoversTheSuite checks the committed split against the
// tasks actually in bench/suites/c2cuda.
func TestC2CUDASplitCoversTheSuite(t *testing.T) {
	suite := filepath.Join("..", "suites", "c2cuda")
	s, err := LoadSplit(filepath.Join(suite, SplitFile))
	if err != nil {
		t.Fatal(err)
	}
	files, _ := filepath.Glob(filepath.Join(suite, "*", "task.yaml"))
	var tasks []string
	for _, f := range files {
		tasks = append(tasks, filepath.Base(filepath.Dir(f)))
	}
	if len(tasks) < 40 {
		t.Errorf("the c2cuda suite has %d tasks, the dataset needs at least 40", len(tasks))
	}
	if err := s.Check(tasks); err != nil {
		t.Error(err)
	}
}

func TestAssignExtendsWithoutMovingAndKeepsATrainingTaskPerCategory(t *testing.T) {
	s := &Split{Train: []string{"a1", "b1"}, Validation: []string{"a2"}, Test: []string{"b2"}}
	cats := map[string]string{"a1": "A", "a2": "A", "b1": "B", "b2": "B",
		"a3": "A", "a4": "A", "b3": "B", "c1": "C", "c2": "C", "c3": "C", "c4": "C", "c5": "C"}
	added := s.Assign(cats, 0.2, 0.2)
	if len(added) != 8 {
		t.Fatalf("added %v, want the 8 new tasks", added)
	}
	for task, side := range map[string]string{"a1": "train", "b1": "train", "a2": "validation", "b2": "test"} {
		if s.Side(task) != side {
			t.Errorf("%s moved to %s", task, s.Side(task))
		}
	}
	var names []string
	for n := range cats {
		names = append(names, n)
	}
	if err := s.Check(names); err != nil {
		t.Fatal(err)
	}
	// Shares: 12 tasks × 0.2 ≈ 2.4 each side.
	if len(s.Validation) < 2 || len(s.Test) < 2 || len(s.Validation) > 3 || len(s.Test) > 3 {
		t.Errorf("sides %d/%d/%d, want about 2–3 validation and test", len(s.Train), len(s.Validation), len(s.Test))
	}
	// Category C was new: its first task trains.
	trainC := 0
	for _, x := range s.Train {
		if cats[x] == "C" {
			trainC++
		}
	}
	if trainC == 0 {
		t.Error("category C has no training task")
	}
	// Deterministic.
	s2 := &Split{Train: []string{"a1", "b1"}, Validation: []string{"a2"}, Test: []string{"b2"}}
	s2.Assign(cats, 0.2, 0.2)
	if strings.Join(s2.Test, ",") != strings.Join(s.Test, ",") || strings.Join(s2.Validation, ",") != strings.Join(s.Validation, ",") {
		t.Error("Assign is not deterministic")
	}
}

func TestWriteKeepsTheHeaderAndRoundTrips(t *testing.T) {
	p := filepath.Join(t.TempDir(), SplitFile)
	os.WriteFile(p, []byte("# frozen\n# by hand\ntrain: [a]\nvalidation: []\ntest: [b]\n"), 0o644)
	s, err := LoadSplit(p)
	if err != nil {
		t.Fatal(err)
	}
	s.Train = append(s.Train, "c")
	if err := s.Write(p); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(p)
	if !strings.HasPrefix(string(b), "# frozen\n# by hand\n") {
		t.Errorf("header lost:\n%s", b)
	}
	s2, err := LoadSplit(p)
	if err != nil || strings.Join(s2.Train, ",") != "a,c" || strings.Join(s2.Test, ",") != "b" {
		t.Errorf("round trip: %+v %v", s2, err)
	}
}

// TestLoadSplitRefusesATaskListedTwice: a task on two sides would put a
// held-out task into training, and Side would quietly answer the first.
func TestLoadSplitRefusesATaskListedTwice(t *testing.T) {
	p := filepath.Join(t.TempDir(), SplitFile)
	_ = os.WriteFile(p, []byte("train: [a, b]\nvalidation: [c]\ntest: [b]\n"), 0o644)
	_, err := LoadSplit(p)
	if err == nil || !strings.Contains(err.Error(), "task b is listed 2 times (train, test)") || !strings.Contains(err.Error(), p) {
		t.Errorf("LoadSplit = %v; want the file, the task and its sides named", err)
	}
}

// TestTaskNames: both kinds of task folder count, sorted; anything else
// does not.
func TestTaskNames(t *testing.T) {
	suite := t.TempDir()
	for rel, body := range map[string]string{"b/task.yaml": "x", "a/problem.py": "x", "c/README.md": "x"} {
		p := filepath.Join(suite, rel)
		_ = os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if got := strings.Join(TaskNames(suite), ","); got != "a,b" {
		t.Errorf("TaskNames = %s, want a,b", got)
	}
}

// TestAssignSpreadsHeldOutSlotsOverCategories: new tasks of two categories
// share the held-out slots (category by category, the first took them all:
// attention 3 test, 3 validation, 2 train; reduction 8 train).
func TestAssignSpreadsHeldOutSlotsOverCategories(t *testing.T) {
	s := &Split{}
	cats := map[string]string{}
	for i := range 8 {
		cats[fmt.Sprintf("att%d", i)] = "attention"
		cats[fmt.Sprintf("red%d", i)] = "reduction"
	}
	s.Assign(cats, 0.2, 0.2)
	for _, c := range []string{"attention", "reduction"} {
		held := 0
		for _, side := range [][]string{s.Validation, s.Test} {
			in := 0
			for _, x := range side {
				if cats[x] == c {
					in++
				}
			}
			if in == 0 {
				// Round-robin by the overall deficit alone put all of one
				// category on test and all of the other on validation.
				t.Errorf("%s has no task on a held-out side (split %v / %v / %v)", c, s.Train, s.Validation, s.Test)
			}
			held += in
		}
		if held < 2 || held > 4 {
			t.Errorf("%s has %d held-out tasks of 8; want its share, 2 to 4 (split %v / %v / %v)", c, held, s.Train, s.Validation, s.Test)
		}
	}
}
