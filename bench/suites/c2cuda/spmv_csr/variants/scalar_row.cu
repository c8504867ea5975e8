// strategy: naive scalar CSR: one thread per row; neighbouring threads read far-apart col_idx/val (uncoalesced) and long rows serialize one thread
#include <cuda_runtime.h>

__global__ void spmv_scalar(const int *row_ptr, const int *col_idx, const float *val, const float *x, float *y, int rows)
{
	int r = blockIdx.x * blockDim.x + threadIdx.x;
	if (r >= rows)
		return;
	float sum = 0.0f;
	for (int e = row_ptr[r]; e < row_ptr[r + 1]; e++)
		sum += val[e] * x[col_idx[e]];
	y[r] = sum;
}

extern "C" void spmv_csr(const int *row_ptr, const int *col_idx, const float *val, const float *x, float *y, int rows, int nnz)
{
	(void)nnz;
	int threads = 256;
	int blocks = (rows + threads - 1) / threads;
	if (blocks > 0)
		spmv_scalar<<<blocks, threads>>>(row_ptr, col_idx, val, x, y, rows);
}
