package bankconflicts

import (
	"testing"

	"github.com/cudaperf/cudaperf/analysis/affine"
	"github.com/cudaperf/cudaperf/analysis/analysistest"
)

func TestBankConflicts(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), Analyzer, "conflicts", "clean", "shape", "interleaved")
}

// TestDegreeGCD checks the closed form for 4-byte words: gcd(stride, 32).
func TestDegreeGCD(t *testing.T) {
	gcd := func(a, b int64) int64 {
		for b != 0 {
			a, b = b, a%b
		}
		return a
	}
	for stride := int64(1); stride <= 96; stride++ {
		deg, _, ok := Degree(affine.Sym("threadIdx.x").Scale(stride), 4, 0)
		if !ok || int64(deg) != gcd(stride, 32) {
			t.Errorf("stride %d: degree %d, want %d", stride, deg, gcd(stride, 32))
		}
	}
}
