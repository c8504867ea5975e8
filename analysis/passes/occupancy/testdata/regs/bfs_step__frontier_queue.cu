// strategy: frontier compaction: a warp-aggregated atomic queue of frontier vertices (ballot + popc, one atomicAdd per warp), then a grid-stride warp-per-vertex expansion over the queue only
#include <cuda_runtime.h>

__global__ void copy_and_enqueue(const int *__restrict__ level_in, int *__restrict__ level_out, int *queue, int *count, int nv, int cur)
{
	int v = blockIdx.x * blockDim.x + threadIdx.x;
	int lane = threadIdx.x & 31;
	int lv = v < nv ? __ldg(&level_in[v]) : -2;
	if (v < nv)
		level_out[v] = lv;
	bool front = lv == cur;
	unsigned int mask = __ballot_sync(0xffffffffu, front);
	if (mask == 0)
		return;
	int leader = __ffs(mask) - 1;
	int base = 0;
	if (lane == leader)
		base = atomicAdd(count, __popc(mask));
	base = __shfl_sync(0xffffffffu, base, leader);
	if (front)
		queue[base + __popc(mask & ((1u << lane) - 1))] = v;
}

__global__ void expand_queue(const int *__restrict__ row_ptr, const int *__restrict__ col_idx, const int *__restrict__ level_in,
			     int *level_out, const int *queue, const int *count, int cur)
{
	int lane = threadIdx.x & 31;
	int warp = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
	int warps = gridDim.x * blockDim.x / 32;
	int n = *count;
	for (int q = warp; q < n; q += warps) {
		int u = queue[q];
		int begin = __ldg(&row_ptr[u]), end = __ldg(&row_ptr[u + 1]);
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
	int *scratch = 0; // [0] = queue length, [1..nv] = queue
	if (cudaMalloc(&scratch, ((size_t)nv + 1) * sizeof(int)) != cudaSuccess)
		return;
	cudaMemsetAsync(scratch, 0, sizeof(int), 0);
	int threads = 256;
	copy_and_enqueue<<<(nv + threads - 1) / threads, threads>>>(level_in, level_out, scratch + 1, scratch, nv, cur);
	expand_queue<<<132 * 16, threads>>>(row_ptr, col_idx, level_in, level_out, scratch + 1, scratch, cur);
	cudaFree(scratch);
}
