package grpo

import "math"

// Returns computes the discounted return of every turn of every trajectory:
// rewards[i][t] is trajectory i's reward at turn t, and
//
//	G[i][t] = Σ_{u ≥ t} γ^(u−t) · rewards[i][u]
//
// so an early candidate is credited with the refinements it led to, less
// the further away they are. γ = 0 scores each turn on its own.
func Returns(rewards [][]float64, gamma float64) [][]float64 {
	out := make([][]float64, len(rewards))
	for i, r := range rewards {
		g := make([]float64, len(r))
		acc := 0.0
		for t := len(r) - 1; t >= 0; t-- {
			acc = r[t] + gamma*acc
			g[t] = acc
		}
		out[i] = g
	}
	return out
}

// MinStd is the smallest group standard deviation that is normalised; a
// group whose values are all equal (to within it) teaches nothing: every
// advantage would be 0, or noise divided by almost 0.
const MinStd = 1e-6

// GroupAdvantages normalises one group's values (the returns of the G
// candidates sampled for the same prompt at the same turn):
//
//	A_i = (x_i − mean(x)) / std(x)
//
// with the population standard deviation (divide by G), as in GRPO. ok is
// false for a group whose std is below MinStd: it is skipped, not sent to
// Update, and counted in the step's metrics.
func GroupAdvantages(x []float64) (adv []float64, ok bool) {
	if len(x) < 2 {
		return nil, false
	}
	mean, std := MeanStd(x)
	if std < MinStd {
		return nil, false
	}
	adv = make([]float64, len(x))
	for i, v := range x {
		adv[i] = (v - mean) / std
	}
	return adv, true
}

// MeanStd returns the mean and population standard deviation of x (0, 0
// for an empty x).
func MeanStd(x []float64) (mean, std float64) {
	if len(x) == 0 {
		return 0, 0
	}
	for _, v := range x {
		mean += v
	}
	mean /= float64(len(x))
	var ss float64
	for _, v := range x {
		ss += (v - mean) * (v - mean)
	}
	return mean, math.Sqrt(ss / float64(len(x)))
}
