// strategy: bottom-up (pull) in one kernel: each unvisited vertex scans its own neighbours for a frontier vertex and stops at the first; every output written exactly once, no copy pass
#include <cuda_runtime.h>

__global__ void pull(const int *__restrict__ row_ptr, const int *__restrict__ col_idx, const int *__restrict__ level_in,
		     int *__restrict__ level_out, int nv, int cur)
{
	int v = blockIdx.x * blockDim.x + threadIdx.x;
	if (v >= nv)
		return;
	int lv = __ldg(&level_in[v]);
	if (lv == -1) {
		// The graph is symmetric: v is reached iff one of its neighbours is in the frontier.
		int end = __ldg(&row_ptr[v + 1]);
		for (int e = __ldg(&row_ptr[v]); e < end; e++) {
			if (__ldg(&level_in[__ldg(&col_idx[e])]) == cur) {
				lv = cur + 1;
				break;
			}
		}
	}
	level_out[v] = lv;
}

extern "C" void bfs_step(const int *row_ptr, const int *col_idx, const int *level_in, int *level_out, int nv, int ne, int cur)
{
	(void)ne;
	int threads = 256;
	if (nv > 0)
		pull<<<(nv + threads - 1) / threads, threads>>>(row_ptr, col_idx, level_in, level_out, nv, cur);
}
