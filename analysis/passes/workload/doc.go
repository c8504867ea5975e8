// Package workload defines the workload analyzer, which evaluates a file's
// launches at a problem size and reports the work of one call of its host
// entry point.
//
// # Analyzer workload
//
// blocks, threads, bytes, FLOPs and time lower bounds per call at a problem size
//
// The other passes count per thread, with a guessed weight of 16 for every
// loop whose bound is read at run time: a register-tiled GEMM then shows
// thousands of times the FLOPs of a naive one. This pass binds the sizes
// (`cudaperf features --set n=33554432`, or `--task T` for a task's
// configuration; analysis.Pass.Sizes) to the parameters of the host entry
// (a host function of the file that no other host function calls), runs
// the host code's launches and calls to other host functions of the file
// with those values (their loops repeat what they contain), and evaluates
// each launch's grid and block and each kernel's loop trip counts with the
// kernel's parameters, blockDim and gridDim bound. A loop whose start
// depends on the thread (a grid-stride loop) counts its trips averaged over
// the threads. Without a size only what the source fixes is known; the
// rest is unknown, never a guess.
//
// Features, per kernel, for one call of the entry (every launch of the
// kernel in it summed):
//
//   - launches_per_call: launches of the kernel. Unit: launches.
//     Formula: Σ over launch sites of the trips of the host loops around it.
//   - blocks: thread blocks launched. Unit: blocks. Formula: Σ grid.x·grid.y·grid.z.
//   - threads: threads launched. Unit: threads. Formula: Σ blocks·block.x·block.y·block.z.
//   - gbytes: bytes of global loads and stores requested. Unit: bytes.
//     Formula: Σ threads · Σ over accesses (element size · trips of the
//     loops around it · the fraction of threads its guard lets through:
//     1/block.x under threadIdx.x == c, 1/32 under another thread-dependent
//     equality, c/block.x under threadIdx.x < c).
//   - flops_call: floating-point operations. Unit: FLOPs (FMA = 2).
//     Formula: Σ threads · the arith pass's flops at these trip counts.
//   - dram_bytes: estimated DRAM traffic. Unit: bytes. Formula: per array,
//     the sector traffic T = Σ executions · 32-byte sectors per warp
//     request / 32 (a broadcast is one sector per warp; shared memory and
//     registers reuse data by issuing fewer global requests) and the
//     footprint F = the span of addresses the index takes over the thread,
//     block and loop ranges; traffic min(T, F) when F fits in L2, else
//     min(T, max(F, blocks · Fb)) with Fb one block's span (a block's
//     threads and iterations reuse what it fetched while it runs).
//   - t_dram_us: dram_bytes / the device's DRAM bandwidth. Unit: µs.
//   - t_flop_us: flops_call / the device's FP32 peak. Unit: µs.
//   - t_lower_us: max(t_dram_us, t_flop_us), a lower bound on the kernel's
//     time per call (launch overhead not included). Unit: µs.
//
// Each value is exact when every dimension, argument and trip count it
// uses is a constant at the size, estimated when a mean, a default trip
// count (16) or a guard's fraction stood in, and unknown when a launch's
// dimensions could not be evaluated or the kernel is not launched from the
// file. The bandwidth and peak are the vendor's datasheet numbers (H200:
// 4.8 TB/s, 66.9 TFLOP/s FP32).
//
// Bad (one warp per block, a launch per row: 4096 launches of 32 threads):
//
//	for (int r = 0; r < rows; r++) row<<<1, 32>>>(a, r);
//
// Good (one launch, full blocks):
//
//	rows_all<<<(rows * 32 + 255) / 256, 256>>>(a, rows);
package workload
