// strategy: vectorized loads: three-pass compaction where each thread reads 4 consecutive elements with one float4 load (scalar loads for the partial last quad), ranks its quad's kept count with a warp-shuffle block scan and zero-fills with float4 stores
#include <cuda_runtime.h>

#define FULL 0xffffffffu
#define THREADS 256
#define ROUNDS 4
#define TILE (THREADS * 4 * ROUNDS)

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


// Quad q is elements 4q..4q+3; a full quad is 16-byte aligned (cudaMalloc
// pointers are 256-byte aligned), the last one may be partial.
__device__ __forceinline__ int load_quad(const float *__restrict__ in, long long q, int n, float v[4])
{
	long long e = 4 * q;
	if (e + 3 < n) {
		float4 x = __ldg(reinterpret_cast<const float4 *>(in) + q);
		v[0] = x.x;
		v[1] = x.y;
		v[2] = x.z;
		v[3] = x.w;
		return 4;
	}
	int m = 0;
	for (int j = 0; j < 4; j++) {
		v[j] = e + j < n ? __ldg(&in[e + j]) : 0.0f;
		if (e + j < n)
			m++;
	}
	return m;
}

__global__ void __launch_bounds__(THREADS) count_tiles(const float *__restrict__ in, int *cnt, int n)
{
	long long q0 = (long long)blockIdx.x * (TILE / 4);
	int c = 0;
	for (int k = 0; k < ROUNDS; k++) {
		float v[4];
		int m = load_quad(in, q0 + k * THREADS + threadIdx.x, n, v);
		for (int j = 0; j < m; j++)
			c += v[j] > 0.0f;
	}
	int total;
	block_scan(c, &total);
	if (threadIdx.x == 0)
		cnt[blockIdx.x] = total;
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


__global__ void __launch_bounds__(THREADS) scatter_tiles(const float *__restrict__ in, float *out, const int *offs, const int *total, int n)
{
	long long q0 = (long long)blockIdx.x * (TILE / 4);
	int carry = offs[blockIdx.x];
	int tot = *total;
	for (int k = 0; k < ROUNDS; k++) {
		long long q = q0 + k * THREADS + threadIdx.x;
		long long e = 4 * q;
		float v[4];
		int m = load_quad(in, q, n, v);
		int c = 0;
		for (int j = 0; j < m; j++)
			c += v[j] > 0.0f;
		int sum;
		int pos = carry + block_scan(c, &sum) - c;
		for (int j = 0; j < m; j++)
			if (v[j] > 0.0f)
				out[pos++] = v[j];
		// Zero every element index at or past the total (kept or not).
		if (m == 4 && e >= tot)
			reinterpret_cast<float4 *>(out)[q] = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
		else
			for (int j = 0; j < m; j++)
				if (e + j >= tot)
					out[e + j] = 0.0f;
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
