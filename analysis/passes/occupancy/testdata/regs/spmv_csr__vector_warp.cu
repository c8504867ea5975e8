// strategy: warp primitives: one warp per row (CSR-vector), coalesced reads of the row's entries, __shfl_down_sync reduction, read-only __ldg loads
#include <cuda_runtime.h>

__global__ void spmv_warp(const int *__restrict__ row_ptr, const int *__restrict__ col_idx, const float *__restrict__ val,
			  const float *__restrict__ x, float *__restrict__ y, int rows)
{
	int warp = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
	int lane = threadIdx.x & 31;
	if (warp >= rows)
		return;
	int begin = __ldg(&row_ptr[warp]);
	int end = __ldg(&row_ptr[warp + 1]);
	float sum = 0.0f;
	for (int e = begin + lane; e < end; e += 32)
		sum += __ldg(&val[e]) * __ldg(&x[__ldg(&col_idx[e])]);
	for (int off = 16; off > 0; off >>= 1)
		sum += __shfl_down_sync(0xffffffffu, sum, off);
	if (lane == 0)
		y[warp] = sum;
}

extern "C" void spmv_csr(const int *row_ptr, const int *col_idx, const float *val, const float *x, float *y, int rows, int nnz)
{
	(void)nnz;
	int threads = 256;
	long long total = (long long)rows * 32;
	int blocks = (int)((total + threads - 1) / threads);
	if (blocks > 0)
		spmv_warp<<<blocks, threads>>>(row_ptr, col_idx, val, x, y, rows);
}
