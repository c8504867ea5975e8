// strategy: warp primitives: each lane tests one vertex, __ballot_sync collects the warp's frontier vertices, then the whole warp walks each of their adjacency lists with coalesced col_idx reads
#include <cuda_runtime.h>

__global__ void expand_warp(const int *__restrict__ row_ptr, const int *__restrict__ col_idx, const int *__restrict__ level_in,
			    int *level_out, int nv, int cur)
{
	int u = blockIdx.x * blockDim.x + threadIdx.x;
	int lane = threadIdx.x & 31;
	bool front = u < nv && __ldg(&level_in[u]) == cur;
	unsigned int mask = __ballot_sync(0xffffffffu, front);
	while (mask) {
		int src = __ffs(mask) - 1;
		mask &= mask - 1;
		int v = __shfl_sync(0xffffffffu, u, src);
		int begin = __ldg(&row_ptr[v]), end = __ldg(&row_ptr[v + 1]);
		for (int e = begin + lane; e < end; e += 32) {
			int w = __ldg(&col_idx[e]);
			if (__ldg(&level_in[w]) == -1)
				level_out[w] = cur + 1;
		}
	}
}

extern "C" void bfs_step(const int *row_ptr, const int *col_idx, const int *level_in, int *level_out, int nv, int ne, int cur)
{
	(void)ne;
	if (nv <= 0)
		return;
	cudaMemcpyAsync(level_out, level_in, (size_t)nv * sizeof(int), cudaMemcpyDeviceToDevice, 0);
	int threads = 256;
	expand_warp<<<(nv + threads - 1) / threads, threads>>>(row_ptr, col_idx, level_in, level_out, nv, cur);
}
