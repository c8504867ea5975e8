// strategy: warp primitives: __match_any_sync groups lanes with the same bin, the group leader sums its peers' values (staged in shared memory) and issues one global atomicAdd per group
#include <cuda_runtime.h>

#define THREADS 256

__global__ void __launch_bounds__(THREADS) scatter_match(const float *__restrict__ val, const int *__restrict__ idx, float *out, int n)
{
	__shared__ float vals[THREADS];
	int lane = threadIdx.x & 31;
	int warp_first = blockIdx.x * THREADS + (threadIdx.x & ~31);
	int stride = gridDim.x * THREADS;
	// base is the same for all lanes of a warp, so every lane runs every
	// iteration and the full-mask warp intrinsics are legal.
	for (int base = warp_first; base < n; base += stride) {
		int i = base + lane;
		int key = i < n ? __ldg(&idx[i]) : -1;
		float v = i < n ? __ldg(&val[i]) : 0.0f;
		vals[threadIdx.x] = v;
		__syncwarp();
		unsigned int peers = __match_any_sync(0xffffffffu, key);
		if (key >= 0 && lane == __ffs(peers) - 1) {
			float s = 0.0f;
			for (unsigned int p = peers; p; p &= p - 1)
				s += vals[(threadIdx.x & ~31) + __ffs(p) - 1];
			atomicAdd(&out[key], s);
		}
		__syncwarp();
	}
}

extern "C" void scatter_add(const float *val, const int *idx, float *out, int n, int bins)
{
	cudaMemsetAsync(out, 0, (size_t)bins * sizeof(float), 0);
	int blocks = (n + THREADS - 1) / THREADS;
	if (blocks > 132 * 8)
		blocks = 132 * 8;
	if (blocks > 0)
		scatter_match<<<blocks, THREADS>>>(val, idx, out, n);
}
