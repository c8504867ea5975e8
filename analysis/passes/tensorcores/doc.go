// Package tensorcores defines the tensorcores analyzer, which counts
// tensor-core matrix operations.
//
// # Analyzer tensorcores
//
// tensor-core use: wmma / mma / wgmma matrix operations
//
// Tensor cores multiply small matrix tiles per warp (or warpgroup) at many
// times the FMA throughput of the CUDA cores. They are reached through the
// wmma API (nvcuda::wmma::mma_sync on fragments), through inline PTX
// (mma.sync, wgmma.mma_async on sm_90, tcgen05.mma on sm_100), and through
// libraries built on them (CUTLASS/CuTe gemm calls are not recognised).
//
// Feature, per kernel (device functions it calls included): tensor_cores,
// the number of tensor-core matrix operations per thread, each weighted by
// the trip counts of the loops around it. Unit: operations; range
// [0, +inf); 0 means the kernel computes on CUDA cores only.
//
// Also counted, as a separate feature, the fragment loads and stores
// (wmma::load_matrix_sync, store_matrix_sync, ldmatrix):
// tensor_core_loads. Unit: operations; range [0, +inf).
//
// No diagnostics: whether tensor cores pay off depends on the data type
// and the shape of the problem.
//
// Bad (half-precision GEMM on the CUDA cores: tensor_cores = 0):
//
//	for (int k = 0; k < K; k++) acc += __half2float(A[row * K + k]) * __half2float(B[k * N + col]);
//
// Good (one 16×16×16 tile product per iteration on the tensor cores):
//
//	wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> a;
//	for (int k = 0; k < K; k += 16) {
//	  wmma::load_matrix_sync(a, A + k, K);
//	  wmma::mma_sync(acc, a, b, acc);
//	}
package tensorcores
