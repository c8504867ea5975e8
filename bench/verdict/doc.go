// Package verdict decides whether a candidate's recorded run is correct and
// honest, and summarises its timings.
//
// Correctness: an output element passes when |out - ref| <= atol + rtol*|ref|
// (NaN never passes; integers compare exactly by default). A configuration
// passes when every output element passes for both input sets (seed A,
// which is timed, and seed B).
//
// Rejections, each with its reason id and a sentence:
//
//   - compile_error, runtime_error, timeout: the candidate did not build or
//     the driver did not finish a configuration;
//   - wrong_result: no configuration passes;
//   - partially_correct: some configurations pass and others fail (for
//     example correct only on small sizes);
//   - poison_survived: output elements still hold the poison the harness
//     wrote before the call, so the candidate did not write them;
//   - input_independent: for some configuration the outputs on seed B are
//     byte-identical to those on seed A although the reference's differ
//     (a constant output, or a result cached from an earlier call);
//   - hidden_work: after the end event had completed, a device-wide
//     synchronisation still waited (median over repetitions) longer than
//     HiddenWorkMs and HiddenWorkFraction of the event time: work ran where
//     the default-stream events could not see it (a non-blocking stream, a
//     host thread), so the timing is not the candidate's;
//   - input_modified: after the calls of a seed, an input array on the
//     device differs, in any byte, from what the driver loaded: the
//     candidate wrote its inputs (restoring them afterwards with other
//     rounding still counts), which changes what later calls compute;
//   - sandbox_violation: the candidate tried something the sandbox
//     forbids (bench/sandbox: running a program or a shell, starting a
//     process, writing outside its folder, reading the compile cache or
//     other candidates' files, touching or forging its records); set by
//     the bench package from the sandbox's report.
//
// Warnings (accepted, but flagged):
//
//   - below_bandwidth_floor: the median time is below bytes/peak bandwidth,
//     the least time the bytes the task must move could take (L2 is flushed
//     before every call, so caches cannot explain it);
//   - leaked_memory: free device memory shrank across a configuration's
//     calls (not judged when the GPU was shared with other candidates,
//     whose allocations the device-wide figure includes);
//   - not_sandboxed: a confinement mechanism did not apply (the kernel
//     lacks it, or it was skipped by a knob); the detail names it.
//
// Timings are summarised by median, min, max and coefficient of variation
// (sample standard deviation over mean); speedup is the reference's median
// CPU time over the candidate's median event time.
package verdict
