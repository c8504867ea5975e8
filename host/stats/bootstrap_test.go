package stats

import (
	"math"
	"testing"
)

func mean(xs []float64) func(idx []int) float64 {
	return func(idx []int) float64 {
		s := 0.0
		for _, i := range idx {
			s += xs[i]
		}
		return s / float64(len(idx))
	}
}

func TestBootstrap(t *testing.T) {
	xs := []float64{0, 1, 0, 1, 0, 1, 0, 1, 0, 1}
	lo, hi := Bootstrap(len(xs), 4000, 0.95, 1, mean(xs))
	if !(lo < 0.5 && hi > 0.5 && lo > 0.1 && hi < 0.9) {
		t.Errorf("interval [%v, %v] for a mean of 0.5 over 10 items", lo, hi)
	}
	if lo2, hi2 := Bootstrap(len(xs), 4000, 0.95, 1, mean(xs)); lo2 != lo || hi2 != hi {
		t.Error("the same seed gave another interval")
	}
	if lo3, hi3 := Bootstrap(len(xs), 4000, 0.95, 2, mean(xs)); lo3 == lo && hi3 == hi {
		t.Log("another seed gave the same interval (possible, but unlikely)")
	}
	// A constant sample has a zero-width interval; no items, NaN.
	c := []float64{3, 3, 3}
	if lo, hi := Bootstrap(3, 100, 0.95, 1, mean(c)); lo != 3 || hi != 3 {
		t.Errorf("constant: [%v, %v]", lo, hi)
	}
	if lo, hi := Bootstrap(0, 100, 0.95, 1, mean(nil)); !math.IsNaN(lo) || !math.IsNaN(hi) {
		t.Errorf("no items: [%v, %v]", lo, hi)
	}
	// NaN resamples are left out, not averaged in.
	nan := func(idx []int) float64 {
		if idx[0] == 0 {
			return math.NaN()
		}
		return 1
	}
	if lo, hi := Bootstrap(4, 200, 0.95, 1, nan); lo != 1 || hi != 1 {
		t.Errorf("with NaN resamples: [%v, %v]", lo, hi)
	}
}
