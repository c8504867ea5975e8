package task

import (
	"path/filepath"
	"slices"
	"testing"
)

// TestRLConfigs checks the RL profile's choice on the real suites: every
// c2cuda task runs its primary and at least one odd size in the RL
// profile, and vector_add's choice is the one documented in task.yaml.
func TestRLConfigs(t *testing.T) {
	dirs, _ := filepath.Glob(filepath.Join("..", "suites", "c2cuda", "*", File))
	if len(dirs) == 0 {
		t.Fatal("no c2cuda tasks found")
	}
	for _, f := range dirs {
		tk, err := Load(filepath.Dir(f))
		if err != nil {
			t.Fatal(err)
		}
		rl := tk.RLConfigs()
		if !slices.Contains(rl, tk.Primary()) {
			t.Errorf("%s: RL configs %v lack the primary %d", tk.Name, rl, tk.Primary())
		}
		odd := false
		for _, i := range rl {
			odd = odd || hasOddSize(tk.Configs[i])
		}
		if !odd {
			t.Errorf("%s: RL configs %v have no odd size; mark one with rl: true", tk.Name, rl)
		}
	}
	tk, err := Load(filepath.Join("..", "suites", "c2cuda", "vector_add"))
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, i := range tk.RLConfigs() {
		names = append(names, tk.Configs[i].Name)
	}
	if !slices.Equal(names, []string{"npot", "large"}) {
		t.Errorf("vector_add RL configs %v, want [npot large]", names)
	}
	// A mark replaces the default odd choice.
	tk.Configs[2].RL = true
	if got := tk.RLConfigs(); !slices.Equal(got, []int{2, 4}) {
		t.Errorf("marked: %v, want [2 4]", got)
	}
}

// TestTwoSizes: every c2cuda task has, besides its primary, a configuration
// moving between 1/1024 and 1/16 of the primary's bytes, so that each
// measured kernel is timed at two sizes a ranker can learn size effects
// from (a real workload, not only the tiny edge cases).
func TestTwoSizes(t *testing.T) {
	dirs, _ := filepath.Glob(filepath.Join("..", "suites", "c2cuda", "*", File))
	if len(dirs) == 0 {
		t.Fatal("no c2cuda tasks found")
	}
	for _, f := range dirs {
		tk, err := Load(filepath.Dir(f))
		if err != nil {
			t.Fatal(err)
		}
		p, err := tk.Resolve(tk.Primary())
		if err != nil {
			t.Fatal(err)
		}
		ok := false
		for i := range tk.Configs {
			r, err := tk.Resolve(i)
			if err != nil {
				t.Fatal(err)
			}
			ok = ok || i != tk.Primary() && r.Bytes*16 <= p.Bytes && r.Bytes*1024 >= p.Bytes
		}
		if !ok {
			t.Errorf("%s: no configuration moves between 1/1024 and 1/16 of the primary's %d bytes; add one", tk.Name, p.Bytes)
		}
	}
}
