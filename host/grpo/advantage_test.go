package grpo

import (
	"math"
	"testing"
)

func near(a, b float64) bool { return math.Abs(a-b) < 1e-9 }

func TestReturns(t *testing.T) {
	// Two trajectories of three turns, γ = 0.5, by hand:
	//   [1, 0, 2]: G2 = 2, G1 = 0 + 0.5·2 = 1, G0 = 1 + 0.5·1 = 1.5
	//   [-1, -1, 1]: G2 = 1, G1 = -1 + 0.5 = -0.5, G0 = -1 - 0.25 = -1.25
	got := Returns([][]float64{{1, 0, 2}, {-1, -1, 1}}, 0.5)
	want := [][]float64{{1.5, 1, 2}, {-1.25, -0.5, 1}}
	for i := range want {
		for k := range want[i] {
			if !near(got[i][k], want[i][k]) {
				t.Errorf("G[%d][%d] = %v, want %v", i, k, got[i][k], want[i][k])
			}
		}
	}
	if g := Returns([][]float64{{3, 4}}, 0); g[0][0] != 3 || g[0][1] != 4 {
		t.Errorf("γ = 0: %v, want the rewards themselves", g)
	}
}

func TestGroupAdvantages(t *testing.T) {
	// x = [1, 2, 3, 6]: mean 3, population variance (4+1+0+9)/4 = 3.5.
	adv, ok := GroupAdvantages([]float64{1, 2, 3, 6})
	if !ok {
		t.Fatal("group skipped")
	}
	s := math.Sqrt(3.5)
	for i, w := range []float64{-2 / s, -1 / s, 0, 3 / s} {
		if !near(adv[i], w) {
			t.Errorf("A[%d] = %v, want %v", i, adv[i], w)
		}
	}
	if _, ok := GroupAdvantages([]float64{0.7, 0.7, 0.7}); ok {
		t.Error("a zero-variance group was not skipped")
	}
	if _, ok := GroupAdvantages([]float64{1}); ok {
		t.Error("a group of one was not skipped")
	}
}
