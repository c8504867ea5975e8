// Package tripcount estimates how many times the loops of a CUDA function
// run, per thread, and turns that into a weight for "counts weighted by
// loops".
//
// A loop is understood when it has one induction variable v with a start
// a, a test v OP b (OP one of < <= > >= !=, either side) and one update of
// v: additive (v++, v += s, v = v + s) or geometric (v *= c, v <<= k,
// v >>= k, v /= c). for, while and do-while loops are handled; a while loop's
// update is found in its body and its start is the variable's definition.
// The kinds:
//
//   - Constant: a, b and the step are constants; Trips is exact.
//   - Symbolic: the count depends on parameters or block sizes, e.g. n,
//     (n - 1) / 4 or log2(blockDim.x); Expr renders it.
//   - GridStride: the step contains gridDim (i += blockDim.x*gridDim.x):
//     the grid covers the range, so each thread runs about once.
//   - Unknown: anything else (data-dependent bounds, several updates,
//     for (;;)).
//
// Thread-dependent starts (i = threadIdx.x) are ignored for the count:
// every thread runs about (b − a)/s times.
//
// Weights: Constant → Trips; GridStride → 1; geometric Symbolic →
// LogTrips (8, log2 of a typical 256-thread block); other Symbolic and
// Unknown → DefaultTrips (16). The weight of a statement is the product of
// the weights of the loops around it inside its function.
package tripcount
