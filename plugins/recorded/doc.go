// Command recorded is a benchmarker plugin for machines without a GPU (CI,
// a laptop): it answers from measurements made earlier on a GPU instead of
// running anything, so the RL loop and `cudaperf bench --benchmarker
// recorded` work end to end without a GPU.
//
// Behaviour, which the RL loop relies on:
//
//   - Measurements are the results.jsonl lines of `cudaperf bench` (the
//     bench.Result type). By default a task's are read from the
//     measurements.jsonl of its suite folder (bench/suites/c2cuda/
//     measurements.jsonl for a task under bench/suites/c2cuda/);
//     $CUDAPERF_MEASUREMENTS (colon-separated files) replaces that list.
//     torch2cuda tasks (KernelBench-format problem folders) are answered
//     the same way, from bench/suites/torch2cuda/measurements.jsonl.
//   - A record is found by the normalized hash of the candidate's source
//     (bench.SourceHash for CUDA: comments and whitespace that separates
//     no tokens do not count, tokens do; torch2cuda.SourceHash for Python: trailing blanks and line
//     ends do not count) against the hash of what was measured, for the
//     same task: the
//     record's source_hash, which the evaluator writes since 2026-12-05,
//     else the measured file's as it is now, found from the record's path,
//     relative to the measurements file's folder or one of its parents, or
//     as the task's variants/<candidate>.cu (or .py). When a candidate was
//     measured more than once, the last line wins.
//   - A found record is answered as it was measured (compile, verdict,
//     timings, device, seeds, profile), with Recorded true, the summary
//     reason "recorded: ...", and the request's own candidate name, path,
//     kind and expected reason. The requested profile, seeds and settings
//     do not change it: Result.Profile says how it was measured.
//   - Any other source is answered with a result whose Error starts with
//     "not recorded" (bench.NotRecorded), no verdict and Recorded false:
//     never a guess. Compile of an unknown source is a FAILED_PRECONDITION
//     error saying the same.
//   - A measurements file that is missing or has a damaged line fails the
//     request with an error naming the file and line (answering "not
//     recorded" would turn it into a run of zero rewards); only a last
//     record torn off by a killed writer (no final newline) is left out.
//   - Devices is empty: the plugin has no GPU.
package main
