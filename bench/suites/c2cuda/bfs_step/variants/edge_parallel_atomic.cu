// strategy: deliberately poor, atomics-heavy: one thread per CSR entry finds its source vertex by binary search in row_ptr and claims unvisited targets with atomicCAS
#include <cuda_runtime.h>

__global__ void copy_levels(const int *level_in, int *level_out, int nv)
{
	int v = blockIdx.x * blockDim.x + threadIdx.x;
	if (v < nv)
		level_out[v] = level_in[v];
}

__global__ void expand_edges(const int *row_ptr, const int *col_idx, const int *level_in, int *level_out, int nv, int ne, int cur)
{
	int e = blockIdx.x * blockDim.x + threadIdx.x;
	if (e >= ne)
		return;
	// Largest u with row_ptr[u] <= e owns entry e (skips empty rows).
	int lo = 0, hi = nv - 1;
	while (lo < hi) {
		int mid = (lo + hi + 1) / 2;
		if (row_ptr[mid] <= e)
			lo = mid;
		else
			hi = mid - 1;
	}
	if (level_in[lo] != cur)
		return;
	int w = col_idx[e];
	if (level_in[w] == -1)
		atomicCAS(&level_out[w], -1, cur + 1);
}

extern "C" void bfs_step(const int *row_ptr, const int *col_idx, const int *level_in, int *level_out, int nv, int ne, int cur)
{
	if (nv <= 0)
		return;
	int threads = 256;
	copy_levels<<<(nv + threads - 1) / threads, threads>>>(level_in, level_out, nv);
	if (ne > 0)
		expand_edges<<<(ne + threads - 1) / threads, threads>>>(row_ptr, col_idx, level_in, level_out, nv, ne, cur);
}
