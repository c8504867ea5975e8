// Package bench evaluates CUDA candidates for c2cuda tasks: it compiles
// them, runs them against the C reference on a GPU and judges the result.
//
// For each task a Session generates the reference program and the driver
// (package harness), compiles the reference with gcc -O2 and every
// candidate with nvcc in parallel through the compile cache (package nvcc),
// runs the reference once with two fresh random seeds (crypto/rand), keeps
// its outputs in memory and deletes them from disk, then runs each
// candidate's driver in its own process under a wall-time limit (package
// runner) while NVML samples the clocks, and judges the recorded outputs and
// timings (package verdict). One candidate's failure (compile error, crash,
// hang) is its result; it never stops the others.
//
// An Evaluator is the one evaluation path over sessions: it owns the
// toolchain and compile cache, the GPUs (one Worker per visible device,
// CUDA_VISIBLE_DEVICES honoured, each candidate process seeing its worker's
// GPU alone), a warm Session per task and settings, and the pipeline:
// requests compile in parallel (one nvcc per CPU) and take a free GPU to run.
// The built-in benchmarker plugin serves it (plugins/benchmarker), and
// `cudaperf bench` and the RL loop reach it only through such a plugin, with
// a Job as the request and a Result as the answer. Profiles (report, rl)
// decide the configurations, calls and time limit; the checks are the same.
//
// The subpackages are the pieces: task (task.yaml), harness (generated
// programs), nvcc (compiles and cache), runner (processes), verdict
// (correctness and anti-cheat) and results (JSONL run folders); device
// information comes from analysis/device. The suites live in
// bench/suites/<suite>/<task>/; bench/rlbatch holds the RL throughput batch.
package bench
