package dataset

import (
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
