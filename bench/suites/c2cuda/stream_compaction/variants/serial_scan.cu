// strategy: deliberately poor: the tile counts are scanned by a single thread (a serial chain of ~33K dependent global loads at the primary size), with small 128-thread blocks
#include <cuda_runtime.h>

#define FULL 0xffffffffu

#define THREADS 128
#define ITEMS 16
#define TILE (THREADS * ITEMS)

// Inclusive scan of v over the block (blockDim.x a multiple of 32, at most
// 1024) with warp shuffles; *total gets the block sum. All threads must call it.
__device__ int block_scan(int v, int *total)
{
	__shared__ int warp_sums[32];
	int lane = threadIdx.x & 31, w = threadIdx.x >> 5, nw = blockDim.x >> 5;
	for (int o = 1; o < 32; o <<= 1) {
		int t = __shfl_up_sync(FULL, v, o);
		if (lane >= o)
			v += t;
	}
	if (lane == 31)
		warp_sums[w] = v;
	__syncthreads();
	if (w == 0) {
		int s = lane < nw ? warp_sums[lane] : 0;
		for (int o = 1; o < 32; o <<= 1) {
			int t = __shfl_up_sync(FULL, s, o);
			if (lane >= o)
				s += t;
		}
		if (lane < nw)
			warp_sums[lane] = s;
	}
	__syncthreads();
	int r = v + (w > 0 ? warp_sums[w - 1] : 0);
	*total = warp_sums[nw - 1];
	__syncthreads(); // warp_sums is reused by the next call
	return r;
}

// Tile b is elements [b*TILE, (b+1)*TILE), read striped: item k of thread t
// is element b*TILE + k*THREADS + t, so every load is coalesced.
__global__ void count_tiles(const float *__restrict__ in, int *cnt, int n)
{
	long long base = (long long)blockIdx.x * TILE;
	int c = 0;
	for (int k = 0; k < ITEMS; k++) {
		long long i = base + k * THREADS + threadIdx.x;
		c += __syncthreads_count(i < n && in[i] > 0.0f);
	}
	if (threadIdx.x == 0)
		cnt[blockIdx.x] = c;
}

// Exclusive scan of the per-tile counts by a single thread: one long serial
// dependency chain, which is what makes this variant slow.
__global__ void scan_counts_serial(int *cnt, int nb, int *total)
{
	int run = 0;
	for (int i = 0; i < nb; i++) {
		int t = cnt[i];
		cnt[i] = run;
		run += t;
	}
	*total = run;
}

// Writes the kept elements of tile b at offs[b] onwards, in order: each round
// of THREADS elements is ranked with a block scan. Elements at or past the
// grand total are zeroed here (they lie in exactly one tile).
__global__ void scatter_tiles(const float *__restrict__ in, float *out, const int *offs, const int *total, int n)
{
	long long base = (long long)blockIdx.x * TILE;
	int carry = offs[blockIdx.x];
	int tot = *total;
	for (int k = 0; k < ITEMS; k++) {
		long long i = base + k * THREADS + threadIdx.x;
		float v = i < n ? in[i] : 0.0f;
		int keep = i < n && v > 0.0f;
		int sum;
		int incl = block_scan(keep, &sum);
		if (keep)
			out[carry + incl - 1] = v;
		// A kept element may itself sit at or past the total: zero it too.
		if (i < n && i >= tot)
			out[i] = 0.0f;
		carry += sum;
	}
}

extern "C" void stream_compaction(const float *in, float *out, int *count, int n)
{
	if (n <= 0)
		return;
	int nb = (int)(((long long)n + TILE - 1) / TILE);
	int *offs = 0;
	if (cudaMalloc(&offs, (size_t)nb * sizeof(int)) != cudaSuccess)
		return;
	count_tiles<<<nb, THREADS>>>(in, offs, n);
	scan_counts_serial<<<1, 1>>>(offs, nb, count);
	scatter_tiles<<<nb, THREADS>>>(in, out, offs, count, n);
	cudaFree(offs);
}
