// Package globalmem defines the globalmem analyzer, which counts the global
// memory accesses of each kernel and the bytes they move.
//
// # Analyzer globalmem
//
// global memory accesses per thread, weighted by loops
//
// Global accesses are the loads and stores through kernel pointer
// parameters, pointers derived from them, and __device__ variables (see
// the dataflow analyzer); a read-modify-write (a[i] += v) counts as a load
// and a store. Each is weighted by the trip counts of the loops around it
// (package tripcount), and the device functions a kernel calls are
// included.
//
// Features, per kernel:
//
//   - gmem: global loads and stores per thread. Unit: accesses; range
//     [0, +inf).
//   - gmem_bytes: bytes those accesses move per thread (element size: 4
//     for float, 16 for float4, …). Unit: bytes; range [0, +inf).
//
// Diagnostic (a note): a global load inside a loop whose address does not
// change in the loop — its index mentions neither the loop's variable nor
// anything the loop assigns, and the loop does not store through that
// pointer — is repeated in every iteration unless the compiler can prove
// no aliasing; load it once before the loop (or mark the pointer
// const __restrict__).
//
// Bad (x[i] is loaded n times):
//
//	for (int k = 0; k < n; k++) y[k * n + i] += x[i] * w[k];
//
// Good (loaded once):
//
//	float xi = x[i];
//	for (int k = 0; k < n; k++) y[k * n + i] += xi * w[k];
package globalmem
