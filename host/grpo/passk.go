package grpo

import (
	"math"
	"slices"
)

// PassAtK is the unbiased estimator of pass@k from n samples of which c
// are correct (Chen et al., 2021): 1 − C(n−c, k) / C(n, k), the
// probability that a random k-subset of the n samples holds a correct one.
// It needs k ≤ n.
func PassAtK(n, c, k int) float64 {
	if k > n || k < 1 {
		return math.NaN()
	}
	if n-c < k {
		return 1
	}
	// C(n−c, k)/C(n, k) = Π_{i=n−c+1}^{n} (1 − k/i)
	p := 1.0
	for i := n - c + 1; i <= n; i++ {
		p *= 1 - float64(k)/float64(i)
	}
	return 1 - p
}

// ExpectedMaxOfK is the expected maximum of a random k-subset (without
// replacement) of values: with the values sorted ascending, the i-th
// (1-based) is the maximum of C(i−1, k−1) of the C(n, k) subsets.
func ExpectedMaxOfK(values []float64, k int) float64 {
	n := len(values)
	if k > n || k < 1 {
		return math.NaN()
	}
	v := slices.Clone(values)
	slices.Sort(v)
	var e float64
	for i := k; i <= n; i++ {
		// w = C(i−1, k−1) / C(n, k), in logs to stay finite for large n.
		lw := lchoose(i-1, k-1) - lchoose(n, k)
		e += v[i-1] * math.Exp(lw)
	}
	return e
}

func lchoose(n, k int) float64 {
	a, _ := math.Lgamma(float64(n + 1))
	b, _ := math.Lgamma(float64(k + 1))
	c, _ := math.Lgamma(float64(n - k + 1))
	return a - b - c
}
