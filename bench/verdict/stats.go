package verdict

import (
	"math"
	"slices"
)

// Timing summarises repeated measurements in milliseconds.
type Timing struct {
	N      int     `json:"n"`
	Median float64 `json:"median_ms"`
	Min    float64 `json:"min_ms"`
	Max    float64 `json:"max_ms"`
	Mean   float64 `json:"mean_ms"`
	CV     float64 `json:"cv"` // sample standard deviation / mean
}

// Summarize computes a Timing; nil for no samples.
func Summarize(ms []float64) *Timing {
	if len(ms) == 0 {
		return nil
	}
	s := slices.Clone(ms)
	slices.Sort(s)
	t := &Timing{N: len(s), Min: s[0], Max: s[len(s)-1], Median: Median(s), Mean: s[0]}
	if len(s) > 1 {
		var sum, sq float64
		for _, v := range s {
			sum += v
		}
		mean := sum / float64(len(s))
		t.Mean = mean
		for _, v := range s {
			sq += (v - mean) * (v - mean)
		}
		if mean > 0 {
			t.CV = math.Sqrt(sq/float64(len(s)-1)) / mean
		}
	}
	return t
}

// Median of v (which it does not modify); NaN for none.
func Median(v []float64) float64 {
	if len(v) == 0 {
		return math.NaN()
	}
	s := slices.Clone(v)
	slices.Sort(s)
	n := len(s)
	if n%2 == 1 {
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
}
