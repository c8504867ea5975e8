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
	if len(runs) != 12 {
		t.Fatalf("%d runs, want (the start + 3 modes) × 3 seeds", len(runs))
	}
	// Seed-major: the start of seed 1, then its three modes.
	var names []string
	for _, r := range runs[:5] {
		names = append(names, r.Cfg.Name)
	}
	if got := strings.Join(names, " "); got != "start-s1 ver-s1 both-s1 random-s1 start-s2" {
		t.Errorf("run order %s", got)
	}
	for _, r := range runs {
		if r.Mode == StartMode {
			if r.Cfg.Policy.Init != c.Init {
				t.Errorf("%s starts from %q, not the runs' start %q", r.Cfg.Name, r.Cfg.Policy.Init, c.Init)
			}
			continue
		}
		if r.Cfg.Steps != runs[0].Cfg.Steps || r.Cfg.Group != runs[0].Cfg.Group || r.Cfg.Turns != runs[0].Cfg.Turns ||
			r.Cfg.Batch != runs[0].Cfg.Batch || r.Cfg.Policy.Init != c.Init || r.Cfg.Reward.Mode != r.Mode {
			t.Errorf("run %s differs in budget or start: %+v", r.Cfg.Name, r.Cfg)
		}
	}
}

// start: false leaves the control out; "start" is not a reward mode.
func TestStartRows(t *testing.T) {
	c, err := Parse("a.yaml", []byte("name: x\nmodes: [ver, both]\nseeds: [1, 2]\nstart: false\n"))
	if err != nil {
		t.Fatal(err)
	}
	if n := len(c.Runs()); n != 4 {
		t.Errorf("start: false: %d runs, want 2 modes × 2 seeds", n)
	}
	_, err = Parse("b.yaml", []byte("name: x\nmodes: [ver, start]\nseeds: [1, 2]\n"))
	if err == nil || !strings.Contains(err.Error(), "not a reward mode") {
		t.Errorf("modes: [ver, start]: %v", err)
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

// TestParseRefusesWhatItWouldDropOrDoubleCount: a template's policy.init or
// reward.mode was overwritten for every run without a word (the runs began
// from another start); a repeated mode, seed, side or k counted one run as
// several; an explicit eval value of 0 became the default; a negative
// few-shot count panicked at the first evaluation, after a run's training.
func TestParseRefusesWhatItWouldDropOrDoubleCount(t *testing.T) {
	for _, c := range []struct{ yaml, want string }{
		{"train: {policy: {plugin: replay, init: runs/sft/epoch-4}}", "train.policy.init: the ablation sets it for every run from its top-level init"},
		{"train: {reward: {mode: random}}", "train.reward.mode: the ablation sets it for every run from its top-level modes"},
		{"modes: [ver, ver]", "modes: ver listed more than once"},
		{"seeds: [1, 1]", "seeds: 1 listed more than once"},
		{"eval: {sides: [test, test]}", "eval.sides: test listed more than once"},
		{"eval: {few_shot: -1}", "eval.few_shot -1"},
		{"eval: {n: 0, k: [1]}", "eval.n 0"},
		{"eval: {top_p: 0}", "eval.top_p 0"},
		{"eval: {temperature: -1}", "eval.temperature -1"},
		{"eval: {max_tokens: 0}", "eval.max_tokens 0"},
	} {
		src := "name: x\nmodes: [ver, both]\nseeds: [1, 2]\n" + c.yaml + "\n"
		// Later keys replace the defaults above where the case sets them.
		if strings.HasPrefix(c.yaml, "modes:") || strings.HasPrefix(c.yaml, "seeds:") {
			src = "name: x\n" + c.yaml + "\n"
			if strings.HasPrefix(c.yaml, "modes:") {
				src += "seeds: [1, 2]\n"
			} else {
				src += "modes: [ver]\n"
			}
		}
		_, err := Parse("a.yaml", []byte(src))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: err = %v, want %q", c.yaml, err, c.want)
		}
	}
	// Greedy evaluation is a protocol of its own, kept as written.
	c, err := Parse("a.yaml", []byte("name: x\nmodes: [ver]\nseeds: [1, 2]\neval: {temperature: 0}\n"))
	if err != nil {
		t.Fatal(err)
	}
	if c.Eval.Temperature != 0 || c.Eval.N != 10 || c.Eval.TopP != 0.95 || c.Eval.MaxTokens != 1024 {
		t.Errorf("eval = %+v; want temperature 0 kept and the other defaults", c.Eval)
	}
}
