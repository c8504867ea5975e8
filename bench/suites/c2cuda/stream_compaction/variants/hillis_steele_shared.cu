// strategy: shared-memory Hillis-Steele block scans (log2(1024) synchronized rounds per scan, O(n log n) work), one item per thread in 1024-thread blocks
#include <cuda_runtime.h>

#define FULL 0xffffffffu

#define THREADS 1024
#define ITEMS 1
#define TILE (THREADS * ITEMS)

// Inclusive scan of v over the block in shared memory, Hillis-Steele style:
// log2(blockDim) rounds, each thread re-reading a neighbour and syncing, with
// two buffers. All threads must call it; *total gets the block sum.
__device__ int block_scan(int v, int *total)
{
	__shared__ int buf[2][1024];
	int in = 0;
	buf[0][threadIdx.x] = v;
	__syncthreads();
	for (int o = 1; o < blockDim.x; o <<= 1) {
		int x = buf[in][threadIdx.x];
		if (threadIdx.x >= o)
			x += buf[in][threadIdx.x - o];
		buf[1 - in][threadIdx.x] = x;
		in = 1 - in;
		__syncthreads();
	}
	int r = buf[in][threadIdx.x];
	*total = buf[in][blockDim.x - 1];
	__syncthreads();
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
	scan_counts<<<1, 1024>>>(offs, nb, count);
	scatter_tiles<<<nb, THREADS>>>(in, out, offs, count, n);
	cudaFree(offs);
}
