package ablation

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/cudaperf/cudaperf/host/pluginhost/plugintest"
)

// The committed GPU ablation configuration is valid, and its runs have
// identical budgets.
func TestCommittedConfig(t *testing.T) {
	c, err := Load(filepath.Join(plugintest.ModuleRoot(t), "bench", "ablation", "ablation.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	runs := c.Runs()
	if len(runs) != 9 {
		t.Fatalf("%d runs, want 3 modes × 3 seeds", len(runs))
	}
	// Seed-major: the first three runs are the three modes of seed 1.
	if runs[0].Seed != runs[2].Seed || runs[0].Mode == runs[1].Mode {
		t.Errorf("run order %s %s %s", runs[0].Cfg.Name, runs[1].Cfg.Name, runs[2].Cfg.Name)
	}
	for _, r := range runs {
		if r.Cfg.Steps != runs[0].Cfg.Steps || r.Cfg.Group != runs[0].Cfg.Group || r.Cfg.Turns != runs[0].Cfg.Turns ||
			r.Cfg.Batch != runs[0].Cfg.Batch || r.Cfg.Policy.Init != c.Init || r.Cfg.Reward.Mode != r.Mode {
			t.Errorf("run %s differs in budget or start: %+v", r.Cfg.Name, r.Cfg)
		}
	}
}

func TestParseErrors(t *testing.T) {
	_, err := Parse("a.yaml", []byte("name: x\nmodes: [ver, bogus]\nseeds: [1]\nprimary: {metric: pass@9}\ntrain: {group: 1}\n"))
	if err == nil {
		t.Fatal("accepted")
	}
	_, err2 := Parse("b.yaml", []byte("name: x\nmodes: [ver, both]\nseeds: [1, 2]\neval: {sides: [test], tasks: {train: [gelu]}}\n"))
	if err2 == nil || !strings.Contains(err2.Error(), `eval.tasks.train: "train" is not among eval.sides [test]`) {
		t.Errorf("eval.tasks for a side not evaluated: %v", err2)
	}
	for _, want := range []string{"bogus", "at least 2", "k = 9", "group = 1"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error lacks %q: %v", want, err)
		}
	}
}
