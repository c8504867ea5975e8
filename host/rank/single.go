package rank

import "math"

// SingleFeature is the control "the best single feature": one feature of
// the file vector, signed, as the score.
type SingleFeature struct {
	Feature string
	Sign    float64 // +1: more is faster; −1: less is faster
	// TrainRho is its mean within-task ρ on the tasks it was chosen on.
	TrainRho float64
}

// Score is Sign · the feature's value; a missing value scores as 0.
func (s SingleFeature) Score(v Variant) float64 {
	x, ok := observed(FileVector(v.Kernels), s.Feature)
	if !ok {
		return 0
	}
	return s.Sign * x
}

// BestSingleFeature picks, on the given (training) tasks at their primary
// configuration, the feature and sign with the highest mean within-task
// Spearman ρ; ties go to the first name in schema order.
func BestSingleFeature(schema Schema, tasks []Task) SingleFeature {
	best := SingleFeature{TrainRho: math.Inf(-1)}
	for _, f := range schema.Sorted() {
		for _, sign := range []float64{1, -1} {
			c := SingleFeature{Feature: f.Name, Sign: sign}
			rs := Evaluate(tasks, c.Score, PrimaryOnly)
			var sum float64
			for _, r := range rs {
				sum += r.Rho
			}
			if len(rs) == 0 {
				continue
			}
			if m := sum / float64(len(rs)); m > best.TrainRho {
				c.TrainRho = m
				best = c
			}
		}
	}
	return best
}
