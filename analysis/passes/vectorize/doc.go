// Package vectorize defines the vectorize analyzer, which measures vector,
// read-only and __restrict__ access to global memory.
//
// # Analyzer vectorize
//
// vectorized, read-only and __restrict__ global memory access
//
// Wide loads and stores (float2, float4, int4, … — directly or through
// reinterpret_cast<float4*>) move 8 or 16 bytes per instruction, so fewer
// instructions and memory transactions carry the same data. Loads through
// the read-only path (__ldg, or a const … __restrict__ pointer the compiler
// may route through the non-coherent cache) relieve L1. __restrict__ tells
// the compiler that pointers do not alias, so it can keep values in
// registers and reorder loads.
//
// Features, per kernel (device functions it calls included, each access
// weighted by the trip counts of the loops around it):
//
//   - vectorized: the fraction of global bytes moved by accesses of
//     vector types (width > 1). Unit: fraction; range [0, 1].
//   - readonly: the fraction of global loads through the read-only path.
//     Unit: fraction; range [0, 1].
//   - restrict: the fraction of the kernel's pointer parameters declared
//     __restrict__ (0 for a kernel without pointer parameters). Unit:
//     fraction; range [0, 1].
//
// Diagnostic (a note): in a kernel with two or more pointer parameters, a
// pointer parameter that the kernel only reads but that is not
// const … __restrict__: without it the compiler must assume a store through
// another pointer may change what it points to.
//
// Bad:
//
//	__global__ void axpy(float a, const float* x, float* y, int n)
//
// Good:
//
//	__global__ void axpy(float a, const float* __restrict__ x, float* __restrict__ y, int n)
package vectorize
