package grpo

import (
	"math"
	"testing"
)

func TestPassAtK(t *testing.T) {
	cases := []struct {
		n, c, k int
		want    float64
	}{
		{10, 0, 1, 0},
		{10, 10, 5, 1},
		{10, 3, 1, 0.3},
		// 1 − C(7,3)/C(10,3) = 1 − 35/120
		{10, 3, 3, 1 - 35.0/120},
		// 1 − C(5,5)/C(10,5) = 1 − 1/252
		{10, 5, 5, 1 - 1.0/252},
		{4, 1, 4, 1},
	}
	for _, c := range cases {
		if got := PassAtK(c.n, c.c, c.k); math.Abs(got-c.want) > 1e-12 {
			t.Errorf("pass@%d(n=%d, c=%d) = %v, want %v", c.k, c.n, c.c, got, c.want)
		}
	}
	if !math.IsNaN(PassAtK(3, 1, 5)) {
		t.Error("k > n should be NaN")
	}
}

func TestExpectedMaxOfK(t *testing.T) {
	v := []float64{4, 1, 3, 2}
	if got := ExpectedMaxOfK(v, 1); math.Abs(got-2.5) > 1e-12 {
		t.Errorf("k=1: %v, want the mean 2.5", got)
	}
	if got := ExpectedMaxOfK(v, 4); math.Abs(got-4) > 1e-12 {
		t.Errorf("k=n: %v, want the max 4", got)
	}
	// k=2: 6 pairs, maxima 2,3,4,3,4,4 → 20/6.
	if got := ExpectedMaxOfK(v, 2); math.Abs(got-20.0/6) > 1e-12 {
		t.Errorf("k=2: %v, want %v", got, 20.0/6)
	}
}
