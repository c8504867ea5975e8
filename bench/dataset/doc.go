// Package dataset manages the measured C→CUDA dataset built from a suite:
// its fixed train/validation/test split by task, and the report of its
// measurements (bench/suites/<suite>/RESULTS.md and a plot).
//
// The split is by task, never by variant: every variant of a task lies on
// the same side, so a ranker validated on held-out tasks has never seen a
// version of the same program. The split file (split.yaml in the suite) is
// the source of truth and is committed; MakeSplit only proposes one,
// stratified by category so each side sees a mix of memory-bound, compute-
// bound and irregular kernels.
package dataset
