// Command benchmarker is cudaperf's built-in benchmarker plugin: it serves
// BenchmarkerService (plugins/proto/cudaperf/plugin/v1) for c2cuda tasks
// with the bench library, so the host, the RL loop or another tool gets
// the same compile cache, harness, anti-cheat checks and NVML records as
// `cudaperf bench`.
//
// Compile keeps each source under the compile cache (content-addressed) and
// returns its hash as the artifact, so a later Run of the same candidate
// does not compile again. Run loads the task (from task_path, or from
// task_files written to a private folder), keeps one bench session per task
// and settings so that the reference runs once for many candidates, and
// streams one event per configuration and a summary whose reasons are the
// verdict's ("partially_correct: ...", "warning below_bandwidth_floor: ...").
// GPU runs are serialised; compiles run in parallel. Without a GPU, Run
// fails with FAILED_PRECONDITION "no CUDA device found" and Compile works.
package main
