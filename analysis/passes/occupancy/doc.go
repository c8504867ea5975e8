// Package occupancy defines the occupancy analyzer: theoretical occupancy
// per kernel from its block size, registers, shared memory and the target's
// limits.
//
// # Analyzer occupancy
//
// theoretical occupancy of each kernel
//
// Feature occ (per kernel, a fraction in [0, 1]): resident warps per SM
// divided by the SM's warp limit, from NVIDIA's occupancy algorithm
// (package analysis/occupancy: registers per warp rounded up to 256,
// shared memory per block plus the 1 KB reserve rounded up to 128 bytes,
// warps, the blocks-per-SM cap and, from sm_90, barriers) on the target
// device (the H200 unless another is chosen). Feature occ_blocks (per
// kernel, blocks in [0, 32]) is the number of resident blocks per SM.
//
// Inputs, each from the best source available:
//
//   - block size: the launches of the kernel in the same file whose block
//     dimensions are constants (through dim3, #define, constexpr and const);
//     with several, the lowest occupancy is reported. Without one, the
//     __launch_bounds__ maximum. Without either the features are not
//     reported: occupancy depends on the block size and nothing says what
//     it is.
//   - dynamic shared memory: the launch's third configuration value when it
//     is a constant, else 0.
//   - registers, static shared memory and barriers: the ptxas report
//     (`nvcc -Xptxas -v`) when one is given for the target architecture.
//     Otherwise registers are estimated from the source (see below), static
//     shared memory is the sum of the kernel's __shared__ arrays (including
//     those of the device functions it calls) and barriers are 1 when the
//     kernel calls __syncthreads.
//
// The register estimate without ptxas: 12 registers (indices, addresses,
// loop counters and temporaries every kernel has), plus 1 per pointer
// parameter, plus half a register per 32-bit word of the local scalars of
// the kernel and of the device functions it calls (ptxas reuses registers
// between short-lived values; vector types count their words, 64-bit types
// 2), plus one register per word of local arrays of at most 128 words
// (after unrolling they are indexed by constants and live in registers;
// larger arrays are in local memory), rounded up to a multiple of 8 and
// capped by __maxnreg__, the __launch_bounds__ budget and 255. Fitted on the
// project's c2cuda suite against ptxas for sm_90: mean absolute error about
// 6 registers, occupancy within about 0.014 on average at the suite's own
// launches (bench/perf/analysis.md has the measurement). Give a ptxas
// report for exact values.
//
// Diagnostics: an error when a kernel declares more static shared memory
// than a kernel may (48 KB: ptxas rejects it), an error when no block of
// the launch fits on an SM (the launch fails), and a warning when occupancy
// is 25% or less, naming the limiting resource and what to change.
//
// Bad (64 registers per thread and 1024 threads: one block per SM, 50%;
// with 72 or more registers it cannot launch at all):
//
//	__global__ void heavy(float *x) { float acc[64]; ... }
//	heavy<<<n / 1024, 1024>>>(x);
//
// Good (bound the registers so two blocks of 256 fit with room to spare, or
// move the array to shared memory):
//
//	__global__ void __launch_bounds__(256, 4) heavy(float *x) { ... }
//	heavy<<<n / 256, 256>>>(x);
package occupancy
