// Package rank is the offline pairwise ranker behind the structural reward:
// it learns, from measured variants of the same task, a score s(φ) of a
// kernel's structural feature vector φ such that a faster variant scores
// higher than a slower one. It is pure code over plain types (feature
// vectors are map[string]float64): no plugin or proto type enters it; the
// command layer converts the analyzers' answers once.
//
// # Inputs
//
// Each feature of the model's schema becomes one input: features whose
// range is unbounded ([0, +inf)) are log-scaled as log1p(x), then every
// value is standardized with the mean and standard deviation of the
// training vectors. A value the analysis could not determine is absent
// from the vector, never zero: the input is then 0 (the training mean) and
// a separate mask input is 1, so the model can learn what "unknown" means.
// A feature never observed in training is not an input at all (its weights
// would be untrained noise); it stays in the schema.
//
// A file's vector is the mean of its kernels' vectors, feature by feature
// over the kernels that report it; file-level features (xfer, kernels)
// repeat on each kernel and so keep their value.
//
// Size-dependent features (per-call blocks, bytes, time bounds) exist only
// when the analysis bound a task configuration's problem sizes. A variant
// may carry its vectors at every configuration (Variant.At) and the vectors
// computed without sizes (Variant.Unbound); with Options.Unbound the model
// trains on both, so the same model scores a candidate of a known task (the
// RL reward) and a file whose sizes nobody knows (lint).
//
// # Model and loss
//
// An MLP (tanh hidden layers, linear output; no hidden layer is the linear
// model) is trained on pairs (fast, slow) of variants of one task timed on
// one configuration, with the pairwise logistic loss
//
//	L = Σ_p w_p · log(1 + exp(−(s(fast_p) − s(slow_p)))) / Σ_p w_p + λ‖W‖²
//
// where each (task, configuration) group's pairs weigh 1 in total, so a task
// with many variants does not dominate. Pairs are the top quartile against
// the bottom quartile by measured time (the paper's rule), or optionally
// every pair whose times differ by more than a tie band. Full-batch Adam;
// the scores of each variant are computed once per epoch and the pair
// gradients summed onto them, so an epoch costs O(variants) network passes,
// not O(pairs). Early stopping keeps the parameters with the lowest loss on
// the validation pairs. Training is deterministic for a seed (one
// goroutine, a seeded PCG). An ensemble averages the scores of members
// trained with consecutive seeds.
//
// # Validation
//
// Evaluate measures, per held-out task and configuration, the Spearman ρ
// and Kendall τ-b between score and measured speed and the accuracy on
// top-vs-bottom-quartile pairs; Bootstrap gives 95% percentile intervals of
// the mean over tasks (tasks resampled), and PairedBootstrap the interval
// of a difference between two scorers on the same resampled tasks.
//
// # Model file
//
// A Model is saved as JSON: the schema (name, unit, range, plugin and a
// per-feature version that changes only when that feature's definition
// changes), the normalization, the weights and the training metadata (data
// hash, split, metrics). CheckSchema refuses vectors of another schema and
// names the missing, extra and redefined features.
package rank
