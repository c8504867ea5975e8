// Package launchcfg extracts kernel launch configurations.
//
// A launch site is k<<<grid, block, shmem, stream>>>(…) (a call_expression
// with a config field in the CUDA grammar) or a call to cudaLaunchKernel /
// cudaLaunchCooperativeKernel. For each site it gives the kernel name, the
// grid and block dimensions (x, y, z), the dynamic shared memory in bytes
// and the stream.
//
// Dimensions are evaluated with the affine package, so constants propagate
// through #define, constexpr and const variables, literals and arithmetic:
// (1024 + 255) / 256 is 4, and (n + 255) / 256 stays symbolic (Dim.Text
// renders it). dim3 variables are followed to their definition —
// dim3 b(16, 16), dim3 b = dim3(…), dim3 b{…} — and later member
// assignments before the launch (b.x = 32) are applied. A scalar grid or
// block means (x, 1, 1); a dim3 declared without arguments is (1, 1, 1).
package launchcfg
