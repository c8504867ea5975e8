// strategy: deliberately poor, atomics-heavy: one thread per stored entry finds its row by binary search in row_ptr and atomicAdds its product into y
#include <cuda_runtime.h>

__global__ void spmv_nnz_atomic(const int *row_ptr, const int *col_idx, const float *val, const float *x, float *y, int rows, int nnz)
{
	int e = blockIdx.x * blockDim.x + threadIdx.x;
	if (e >= nnz)
		return;
	// Largest r with row_ptr[r] <= e; empty rows share row_ptr values, and
	// taking the largest picks the row that really owns entry e.
	int lo = 0, hi = rows - 1;
	while (lo < hi) {
		int mid = (lo + hi + 1) / 2;
		if (row_ptr[mid] <= e)
			lo = mid;
		else
			hi = mid - 1;
	}
	atomicAdd(&y[lo], val[e] * x[col_idx[e]]);
}

extern "C" void spmv_csr(const int *row_ptr, const int *col_idx, const float *val, const float *x, float *y, int rows, int nnz)
{
	cudaMemsetAsync(y, 0, (size_t)rows * sizeof(float), 0);
	int threads = 256;
	int blocks = (nnz + threads - 1) / threads;
	if (blocks > 0 && rows > 0)
		spmv_nnz_atomic<<<blocks, threads>>>(row_ptr, col_idx, val, x, y, rows, nnz);
}
