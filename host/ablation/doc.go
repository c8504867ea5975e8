// Package ablation runs and analyses the reward ablation the reviewers
// asked for: the same GRPO budget (steps, G, T, tasks) from the same start
// under reward modes ver, both and random (and str), each with several
// seeds, then an evaluation of every run, and paired comparisons.
//
// Statistics. Every run r = (mode, seed) is evaluated on the same tasks; a
// metric m (pass@1 correctness, log speedup@k, ...) is a per-task value
// m[r][task]. A mode's value is the mean over seeds and tasks, with a
// two-way (crossed) bootstrap interval: each resample draws seeds with
// replacement and tasks with replacement, one task sample for all its
// seeds, since every seed ran on the same tasks (drawing tasks anew per
// seed made intervals up to √seeds too narrow; crossed, they are
// conservative where the noise of each run's evaluation dominates, see
// resample). A paired comparison A − B draws
// the same seeds and tasks for both modes (the runs of one seed share the
// task order and sampling seeds; the tasks are the same), so the variation
// that the two modes share cancels. The minimum detectable effect (MDE) of
// the design is 2.80 × the bootstrap standard error of the difference:
// the effect a two-sided test at α = 0.05 detects with 80% power
// (1.96 + 0.84). A difference whose interval includes 0 is reported as
// "no difference detected", never as "no difference".
package ablation
