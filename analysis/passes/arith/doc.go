// Package arith defines the arith analyzer, which counts the arithmetic
// operations and floating-point operations of each kernel.
//
// # Analyzer arith
//
// arithmetic operations and FLOPs per thread, weighted by loops
//
// Counted as one operation each: the binary operators + − * / % & | ^ << >>,
// their compound assignments (+= …), unary minus, ++ and --, and calls of
// math functions and intrinsics (sqrtf, expf, __expf, rsqrtf, sinf, tanhf,
// fmaxf, __fdividef, …); a fused multiply-add (fmaf, fma, __fmaf_rn) counts
// two. Comparisons, logical operators and address arithmetic inside
// subscripts are counted too when written as operators — they occupy the
// integer pipes like any other.
//
// An operation is a floating-point operation (FLOP) when its result is
// floating-point: an operand is a float, double, half or bfloat16 variable,
// element, vector component or literal (1.0f, 2e3), or the call is a
// floating-point math function. A warp-level tensor-core multiply
// (wmma::mma_sync, 16×16×16) counts 2·16·16·16 / 32 = 256 FLOPs per thread.
//
// Features, per kernel (device functions it calls included), each operation
// weighted by the trip counts of the loops around it (package tripcount):
//
//   - ops: arithmetic operations per thread. Unit: ops; range [0, +inf).
//   - flops: floating-point operations per thread (used by the intensity
//     analyzer for ai). Unit: FLOPs; range [0, +inf).
//
// No diagnostics: the counts describe the work, they are not a mistake.
//
// Example: for (int k = 0; k < 16; k++) acc += a[k] * b[k]; gives
// flops = 32 (a multiply and an add per iteration) and ops = 64 (with the
// test and the increment of k).
//
// Bad (recomputes the same product in every iteration: ops grow with n):
//
//	for (int k = 0; k < n; k++) y[k] = x[k] * (alpha * beta);
//
// Good (hoisted, one multiply per iteration):
//
//	float ab = alpha * beta;
//	for (int k = 0; k < n; k++) y[k] = x[k] * ab;
package arith
