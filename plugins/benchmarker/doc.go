// Command benchmarker is cudaperf's built-in benchmarker plugin: it serves
// the bench.Evaluator as BenchmarkerService (plugins/proto/cudaperf/plugin/v1)
// through plugins/sdk/benchserve, which converts the proto to bench types
// and back. `cudaperf bench` reaches the GPU only through this plugin (or
// another one named with --benchmarker), and so does the RL loop, so both
// get the same compile cache, harness, anti-cheat checks, profiles and NVML
// records.
//
// Compile keeps each source under the compile cache (content-addressed) and
// returns its hash as the artifact, so a later Run of the same candidate
// does not compile again. Run loads the task (from task_path, or from
// task_files kept by content hash), keeps one session per task and settings
// so that the reference runs once for many candidates, and streams one event
// per configuration and a summary whose record field is the full
// bench.Result. Requests are served concurrently: compiles run in parallel
// (one per CPU), runs are spread over the visible GPUs, one candidate per
// GPU at a time. Without a GPU, Run fails with FAILED_PRECONDITION "no CUDA
// device found" unless compile_only is set; Compile works.
package main
