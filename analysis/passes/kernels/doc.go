// Package kernels defines the kernels analyzer, which finds the CUDA
// functions, kernel launches and shared-memory declarations of a file. Every
// other pass requires it and reads its Result.
//
// # Analyzer kernels
//
// kernel, device function, launch and shared memory discovery
//
// The analyzer walks the syntax tree once and records:
//
//   - every function definition with its CUDA kind (a __global__ kernel, a
//     __device__ function, a __host__ __device__ function or host code), its
//     base and qualified name (namespaces and classes), parameters (type,
//     pointer depth, const, __restrict__), template parameters,
//     __launch_bounds__(max threads, min blocks) and __maxnreg__ values, and
//     extern "C" linkage;
//   - every kernel launch, a call_expression with a <<<grid, block,
//     shared_mem, stream>>> configuration, with its callee resolved to a
//     kernel defined in the file when one matches by qualified or base name
//     (and, among overloads, by argument count);
//   - every __shared__ declaration with its element type and size, array
//     dimensions evaluated through #define, constexpr and const integers,
//     and whether it is extern (dynamically sized);
//   - the calls between functions of the file, so that a kernel's static
//     shared memory includes that of the device functions it calls and the
//     file-scope __shared__ variables they use.
//
// It reports two file-level features. kernels is the number of distinct
// kernels the file launches (unit: kernels; the kernels it defines when it
// launches none). launches is the number of kernel launch sites, each
// weighted by the trip counts of the loops around it (a launch inside a
// 10-iteration host loop counts 10; unit: launches; estimated when a loop
// bound is not a constant). They used to be one number, which made a file
// with one kernel launched 74 times look like 74 kernels. Fewer launches of
// small kernels usually means less launch overhead and more data reuse
// (kernel fusion); the workload pass counts launches per call at a problem
// size.
//
// Bad (a launch per row):
//
//	for (int r = 0; r < 64; r++) row_kernel<<<1, 256>>>(d, r);   // kernels = 1, launches = 64
//
// Good (one launch covers all rows):
//
//	all_rows<<<64, 256>>>(d);                                     // kernels = 1, launches = 1
package kernels
