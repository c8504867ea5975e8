// Package stats holds the statistics the host's reports share: the
// percentile bootstrap that puts an interval on every ranker metric
// (host/rank) and every evaluation estimate (host/grpo, the ablation).
// One implementation, so that two reports made with the same seed resample
// the same way.
package stats
