// strategy: naive top-down: copy the levels, then one thread per vertex; frontier threads walk their adjacency lists serially (divergent, uncoalesced col_idx reads)
#include <cuda_runtime.h>

__global__ void expand_thread(const int *row_ptr, const int *col_idx, const int *level_in, int *level_out, int nv, int cur)
{
	int u = blockIdx.x * blockDim.x + threadIdx.x;
	if (u >= nv || level_in[u] != cur)
		return;
	for (int e = row_ptr[u]; e < row_ptr[u + 1]; e++) {
		int w = col_idx[e];
		// Racing writers all store the same value, so the result is deterministic.
		if (level_in[w] == -1)
			level_out[w] = cur + 1;
	}
}

extern "C" void bfs_step(const int *row_ptr, const int *col_idx, const int *level_in, int *level_out, int nv, int ne, int cur)
{
	(void)ne;
	if (nv <= 0)
		return;
	cudaMemcpyAsync(level_out, level_in, (size_t)nv * sizeof(int), cudaMemcpyDeviceToDevice, 0);
	int threads = 256;
	expand_thread<<<(nv + threads - 1) / threads, threads>>>(row_ptr, col_idx, level_in, level_out, nv, cur);
}
