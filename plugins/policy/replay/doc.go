// Command replay is a policy plugin without a language model: for a prompt
// about task X it proposes X's known variants (bench/suites/<suite>/X/
// variants/*.cu, each as a ```cuda block, or a torch2cuda suite's
// variants/*.py, each as a ```python block) and one answer without code,
// sampled from a softmax over per-task logits. Update moves the logits
// along the policy gradient of the rollouts' advantages,
//
//	logits += lr · A · (onehot(a) − softmax(logits))
//
// (with A replaced by the example's weight for an SFT Update, whose
// completions must be the variants as the prompt builder's Answer wraps
// them), so the same GRPO loop that trains an LLM visibly learns here: the
// probability of fast variants grows and the answer without code fades.
// With the `recorded` benchmarker the whole loop runs in CI without a GPU.
//
// The task is the prompt id up to its first ':' (the loop's ids are
// "<task>:s<step>:b<batch index>:t<turn>..."). The suite folder is
// $CUDAPERF_REPLAY_SUITE, which cudaperf train, eval, sft and ablate set to
// their suite (plugins run in their own folder, so a relative default
// would not find it); without it, bench/suites/c2cuda under the working
// directory.
// Hyperparameters: learning_rate (default 0.5). Sampling is deterministic
// for a request seed. Save writes the logits to <path>/replay.json.
package main
