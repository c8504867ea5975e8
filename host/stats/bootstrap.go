package stats

import (
	"math"
	"math/rand/v2"
	"slices"

	"gonum.org/v1/gonum/stat"
)

// Bootstrap is the percentile interval at level (0.95: the 2.5 and 97.5
// percentiles) of stat over rounds resamples, with replacement, of n items
// (stat gets the resampled indices). Resamples whose statistic is NaN (a
// correlation of a constant resample, say) are left out; with none left,
// or no items, the interval is NaN. The seed fixes the resamples, so a
// report is reproducible.
func Bootstrap(n, rounds int, level float64, seed uint64, stat func(idx []int) float64) (lo, hi float64) {
	if n == 0 || rounds <= 0 {
		return math.NaN(), math.NaN()
	}
	rng := rand.New(rand.NewPCG(seed, 0xb007))
	vals := make([]float64, 0, rounds)
	idx := make([]int, n)
	for range rounds {
		for i := range idx {
			idx[i] = rng.IntN(n)
		}
		if v := stat(idx); !math.IsNaN(v) {
			vals = append(vals, v)
		}
	}
	if len(vals) == 0 {
		return math.NaN(), math.NaN()
	}
	slices.Sort(vals)
	return quantile(vals, (1-level)/2), quantile(vals, 1-(1-level)/2)
}

// quantile is the p-quantile of sorted xs (empirical).
func quantile(sorted []float64, p float64) float64 {
	return stat.Quantile(p, stat.Empirical, sorted, nil)
}
