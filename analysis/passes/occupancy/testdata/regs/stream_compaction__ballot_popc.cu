// strategy: warp primitives: three-pass compaction whose scatter ranks elements with __ballot_sync/__popc (no per-element scan), 512 threads x 8 striped items per tile
#include <cuda_runtime.h>

#define FULL 0xffffffffu

#define THREADS 512
#define ITEMS 8
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

// Exclusive scan, in place, of the per-tile counts by one block; the grand
// total goes to *total.
__global__ void scan_counts(int *cnt, int nb, int *total)
{
	int carry = 0;
	for (int base = 0; base < nb; base += blockDim.x) {
		int i = base + threadIdx.x;
		int v = i < nb ? cnt[i] : 0;
		int sum;
		int incl = block_scan(v, &sum);
		if (i < nb)
			cnt[i] = carry + incl - v;
		carry += sum;
	}
	if (threadIdx.x == 0)
		*total = carry;
}

// Same contract as a scan-based scatter, but ranks with warp ballots: a
// lane's rank in its warp is the popcount of the kept lanes below it, and the
// THREADS/32 warp totals are scanned by the first warp.
__global__ void __launch_bounds__(THREADS) scatter_tiles(const float *__restrict__ in, float *out, const int *offs, const int *total, int n)
{
	__shared__ int warp_off[THREADS / 32 + 1];
	int lane = threadIdx.x & 31, w = threadIdx.x >> 5;
	unsigned int below = (1u << lane) - 1;
	long long base = (long long)blockIdx.x * TILE;
	int carry = offs[blockIdx.x];
	int tot = *total;
	for (int k = 0; k < ITEMS; k++) {
		long long i = base + k * THREADS + threadIdx.x;
		float v = i < n ? __ldg(&in[i]) : 0.0f;
		bool keep = i < n && v > 0.0f;
		unsigned int ball = __ballot_sync(FULL, keep);
		if (lane == 0)
			warp_off[w] = __popc(ball);
		__syncthreads();
		if (w == 0) {
			int c = lane < THREADS / 32 ? warp_off[lane] : 0;
			int s = c;
			for (int o = 1; o < 32; o <<= 1) {
				int t = __shfl_up_sync(FULL, s, o);
				if (lane >= o)
					s += t;
			}
			if (lane < THREADS / 32)
				warp_off[lane] = s - c;
			if (lane == THREADS / 32 - 1)
				warp_off[THREADS / 32] = s;
		}
		__syncthreads();
		if (keep)
			out[carry + warp_off[w] + __popc(ball & below)] = v;
		// A kept element may itself sit at or past the total: zero it too.
		if (i < n && i >= tot)
			out[i] = 0.0f;
		carry += warp_off[THREADS / 32];
		__syncthreads(); // warp_off is rewritten next round
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
	scan_counts<<<1, 1024>>>(offs, nb, count);
	scatter_tiles<<<nb, THREADS>>>(in, out, offs, count, n);
	cudaFree(offs);
}
