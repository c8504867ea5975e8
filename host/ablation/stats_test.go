package ablation

import (
	"math"
	"math/rand/v2"
	"testing"
)

func synth(effect float64, noise float64, seeds, tasks int) *Table {
	rng := rand.New(rand.NewPCG(1, 2))
	t := &Table{Metric: "m", Modes: []string{"both", "random"}, Values: map[string][][]float64{}}
	for s := range seeds {
		t.Seeds = append(t.Seeds, uint64(s+1))
	}
	for k := range tasks {
		t.Tasks = append(t.Tasks, string(rune('a'+k)))
	}
	difficulty := make([]float64, tasks)
	for k := range difficulty {
		difficulty[k] = rng.Float64() // shared by both modes: cancels when paired
	}
	for _, m := range t.Modes {
		v := make([][]float64, seeds)
		for s := range v {
			v[s] = make([]float64, tasks)
			for k := range v[s] {
				v[s][k] = difficulty[k] + noise*rng.NormFloat64()
				if m == "both" {
					v[s][k] += effect
				}
			}
		}
		t.Values[m] = v
	}
	return t
}

func TestCompareDetectsAndMisses(t *testing.T) {
	big := synth(0.2, 0.05, 3, 20)
	if err := big.Check(); err != nil {
		t.Fatal(err)
	}
	c := big.Compare("both", "random", 2000, 1)
	if !c.Detected() || math.Abs(c.Diff.Value-0.2) > 0.03 || c.Verdict() != "both > random" {
		t.Errorf("a 0.2 effect with noise 0.05: %+v (%s)", c, c.Verdict())
	}
	if c.MDE <= 0 || c.MDE > 0.2 {
		t.Errorf("MDE %v should be below the detected effect", c.MDE)
	}
	none := synth(0, 0.05, 3, 20)
	c = none.Compare("both", "random", 2000, 1)
	if c.Detected() || c.Verdict() != "no difference detected" {
		t.Errorf("no effect: %+v (%s)", c, c.Verdict())
	}
	// Pairing: task difficulty (spread 1) is far larger than the effect,
	// yet the paired interval is narrow.
	if w := c.Diff.Hi - c.Diff.Lo; w > 0.1 {
		t.Errorf("paired interval width %v: pairing did not cancel the shared task difficulty", w)
	}
	e := none.Mode("both", 1000, 1)
	if !(e.Lo < e.Value && e.Value < e.Hi) {
		t.Errorf("mode estimate %+v", e)
	}
}

func TestCheckShape(t *testing.T) {
	tb := synth(0, 0.1, 2, 3)
	tb.Values["random"] = tb.Values["random"][:1]
	if tb.Check() == nil {
		t.Error("a missing seed was not reported")
	}
}

// TestTaskSpreadDoesNotShrinkWithSeeds: every seed ran on the same tasks,
// so with identical seeds the interval is the tasks' alone, whatever the
// number of seeds (the nested bootstrap drew tasks anew per seed and
// halved the SE at 4 seeds: sd/√T = 0.112 for these 20 tasks).
func TestTaskSpreadDoesNotShrinkWithSeeds(t *testing.T) {
	task := make([]float64, 20)
	for i := range task {
		task[i] = float64(i%2) * 1.0 // 0,1,0,1,...: sd 0.5
	}
	var ses []float64
	for _, nSeeds := range []int{1, 4, 16} {
		tb := &Table{Metric: "m", Modes: []string{"a"}, Tasks: make([]string, 20), Values: map[string][][]float64{}}
		for s := 0; s < nSeeds; s++ {
			tb.Seeds = append(tb.Seeds, uint64(s+1))
			tb.Values["a"] = append(tb.Values["a"], task)
		}
		ses = append(ses, tb.Mode("a", 4000, 7).SE)
	}
	for i, se := range ses {
		if se < 0.10 || se > 0.125 {
			t.Errorf("SE with %d seed(s) = %.4f, want about 0.112 (sd/√tasks) for any number", []int{1, 4, 16}[i], se)
		}
	}
}
