// Package intensity defines the intensity analyzer, which estimates the
// arithmetic intensity of each kernel.
//
// # Analyzer intensity
//
// arithmetic intensity: estimated FLOPs per byte of global memory traffic
//
// ai = flops / gmem_bytes, both per thread and weighted by loop trip
// counts: flops from the arith analyzer (FMA = 2), bytes from the
// globalmem analyzer (every global load and store at its element size).
// Loops with a constant trip count weigh exactly that count; loops bounded
// by a parameter (k < n) weigh the default factor of package tripcount in
// both the numerator and the denominator, so a loop body's own ratio
// dominates as it should when n is large. Caches are not modelled: every
// access counts as DRAM traffic, so data reuse through shared memory or
// registers shows up as a higher ai, and reuse through L1/L2 does not.
//
// Feature, per kernel: ai. Unit: FLOP/byte; range [0, +inf); 0 for a
// kernel without floating-point work. A kernel without global traffic gets
// its FLOP count (as if it moved one byte). Compare with the machine
// balance (an H200 does about 67 TFLOP/s FP32 over 4.8 TB/s, ~14 FLOP/byte):
// below it a kernel is memory-bound.
//
// No diagnostics: a low ai is a property of the algorithm (a vector add
// is 1 FLOP per 12 bytes), not a mistake.
//
// Bad (naive matrix multiply: two global floats per multiply-add,
// ai ≈ 2 / 8 = 0.25):
//
//	for (int k = 0; k < n; k++) sum += A[row * n + k] * B[k * n + col];
//
// Good (32×32 tiles staged in shared memory: each global element serves 32
// multiply-adds, ai ≈ 8):
//
//	As[ty][tx] = A[row * n + t * 32 + tx]; Bs[ty][tx] = B[(t * 32 + ty) * n + col];
//	__syncthreads();
//	for (int k = 0; k < 32; k++) sum += As[ty][k] * Bs[k][tx];
package intensity
