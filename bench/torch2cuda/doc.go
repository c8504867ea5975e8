// Package torch2cuda evaluates PyTorch→CUDA candidates in KernelBench's
// format: a problem file defines Model (a torch.nn.Module), get_inputs()
// and get_init_inputs(); a candidate defines ModelNew, which builds its
// CUDA with torch.utils.cpp_extension.load_inline.
//
// The measuring is done by runner.py (embedded, written under the cache and
// run with the GPU machine's python3 and torch, no network): it imports the
// problem and the candidate, builds Model and ModelNew from the same seed,
// and for each of at least MinSeeds input seeds compares the outputs with
// the per-dtype tolerance the Go side passes (Tolerances), copies the
// inputs before the call to see whether forward wrote them, copies the
// outputs on the caller's stream before synchronising (work left on
// another stream shows as wrong values there), and compares each call's
// outputs with the previous call's (cached results, reused output
// buffers). It lists the CUDA kernels one call of ModelNew and of Model
// launches (torch.profiler), then times ModelNew, eager Model and
// torch.compile(Model) with CUDA events, flushing L2 (a write of twice its
// size) before every call and measuring how long a device-wide
// synchronisation still waits after the end event completed. It writes
// JSON records to a file; it decides nothing.
//
// Judge turns the records into the verdict type the c2cuda evaluator uses
// (bench/verdict), with reason ids:
//
//   - compile_error (load_inline failed), invalid_candidate (no ModelNew,
//     no load_inline, no __global__ kernel), runtime_error, timeout;
//   - wrong_result / partially_correct: every seed / some seeds fail;
//   - input_independent: the outputs equal the previous seed's while the
//     reference's differ (a cached or constant result);
//   - output_reused: a call overwrote the tensors an earlier call returned;
//   - input_modified: forward changed an input's bytes;
//   - unsynced_stream: outputs read on the caller's stream right after
//     forward were wrong though right after a device synchronisation;
//   - hidden_work: work the timer did not see (bench/verdict's thresholds);
//   - no_custom_kernel: ModelNew launched none of the __global__ kernels
//     its source declares (it called the PyTorch op instead);
//   - pytorch_op: more than PyTorchOpFraction of ModelNew's device time is
//     in kernels eager PyTorch launches for the reference.
//
// Speedups are eager's median over the candidate's (Verdict.Speedup) and
// torch.compile's over the candidate's (SpeedupCompiled), where
// torch.compile works.
//
// Evaluator runs it: builds in parallel (Jobs python3 processes importing
// candidates; torch caches each extension by source under
// <cache>/torch2cuda/extensions, and the evaluator remembers the builds it
// made), runs one at a time. Runs of several processes may share a GPU:
// with $CUDAPERF_TORCH_GPU_LOCK naming a file, the runner holds it shared
// while it checks results and compiles the torch.compile baseline, and
// exclusively while it profiles and times, so no timing overlaps other
// work on the GPU (bench/gpu-torch2cuda.sh runs three self-test shards and
// two KernelBench shards at once that way). Outputs are compared on the
// GPU in float64. The result is a bench.Result, like a c2cuda candidate's.
// Before its first job the evaluator checks the machine once: a Python
// that cannot import torch, or (for a job that runs) torch without a CUDA
// device (device.ErrNoGPU), fails the request rather than each candidate,
// which would otherwise be judged for the machine's fault.
//
// buildcheck.py compile-checks candidates without a GPU (their CUDA and
// C++ in two translation units); report.py makes the results tables.
package torch2cuda
