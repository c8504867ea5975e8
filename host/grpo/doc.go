// Package grpo is the RL loop: Group Relative Policy Optimization over
// plugin clients (a policy, a benchmarker, and the analyzers with the
// ranker behind a Scorer).
//
// One step takes Batch tasks (a fresh random order each epoch), builds a
// prompt per task (Prompt: the C reference, the signature and the candidate
// contract, few-shot kernels from the train split sorted by measured
// speedup; the same builder serves SFT and evaluation), samples G
// completions, extracts the code (Extract; no usable block gets the
// compile-failure reward and is counted), and judges every candidate
// concurrently (Judge: benchmarker, then features, diagnostics and Rstr).
// Each of the G trajectories is then refined for up to T−1 more turns, its
// prompt holding its last attempt and the feedback (trimmed compiler
// errors, failed configurations with their reasons, the measured speedup,
// the feature values and the top diagnostics).
//
// Rewards come from package reward. Returns are discounted over turns
// (Returns: G_t = Σ γ^(u−t) r_u), and advantages are normalised within
// each group of G candidates of the same task and turn (GroupAdvantages: (x
// − mean)/std, population std); a group whose returns are all equal is
// skipped and counted. The rollouts with their advantages go to the
// policy's Update; the clipped surrogate itself lives in the policy plugin.
//
// A run writes runs/<name>/ (see runDir): the configuration, metrics.jsonl,
// gzipped rollouts an external trainer can read, TensorBoard event files,
// PNG curves and, after every step, an atomic checkpoint (host state with
// its random generators, and the policy's Save), so --resume continues with
// the same next batch and the same random draws.
package grpo
