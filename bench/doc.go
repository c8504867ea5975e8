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
// The subpackages are the pieces: task (task.yaml), harness (generated
// programs), nvcc (compiles and cache), runner (processes), verdict
// (correctness and anti-cheat), nvml (device information) and results
// (JSONL run folders). The suites live in bench/suites/<suite>/<task>/.
package bench
