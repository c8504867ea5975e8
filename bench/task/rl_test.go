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
