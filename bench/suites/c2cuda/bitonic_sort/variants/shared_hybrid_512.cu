// strategy: shared-memory tiling with a smaller block size: 512-element chunks (256-thread blocks), so more steps go through global memory than the 2048 variant
#include <cuda_runtime.h>

#define CHUNK 512

__device__ __forceinline__ int pair_low(int t, int j)
{
	return ((t & ~(j - 1)) << 1) | (t & (j - 1));
}

// Sorts each chunk of c elements (c a power of two <= CHUNK) in shared memory
// with all network stages k <= c; directions come from global indices, so the
// chunks form the bitonic sequences the later global stages expect.
__global__ void sort_chunks(float *a, int c)
{
	__shared__ float s[CHUNK];
	int base = blockIdx.x * c;
	for (int x = threadIdx.x; x < c; x += blockDim.x)
		s[x] = a[base + x];
	__syncthreads();
	for (int k = 2; k <= c; k <<= 1) {
		for (int j = k >> 1; j > 0; j >>= 1) {
			int i = pair_low(threadIdx.x, j);
			int l = i + j;
			float x = s[i], y = s[l];
			bool up = ((base + i) & k) == 0;
			if ((x > y) == up) {
				s[i] = y;
				s[l] = x;
			}
			__syncthreads();
		}
	}
	for (int x = threadIdx.x; x < c; x += blockDim.x)
		a[base + x] = s[x];
}

// Finishes stage k for all steps j < c inside each chunk in shared memory.
__global__ void merge_chunks(float *a, int c, int k)
{
	__shared__ float s[CHUNK];
	int base = blockIdx.x * c;
	for (int x = threadIdx.x; x < c; x += blockDim.x)
		s[x] = a[base + x];
	__syncthreads();
	bool up = (base & k) == 0; // k > c: one direction per chunk
	for (int j = c >> 1; j > 0; j >>= 1) {
		int i = pair_low(threadIdx.x, j);
		int l = i + j;
		float x = s[i], y = s[l];
		if ((x > y) == up) {
			s[i] = y;
			s[l] = x;
		}
		__syncthreads();
	}
	for (int x = threadIdx.x; x < c; x += blockDim.x)
		a[base + x] = s[x];
}

// Steps with j >= c cross chunks and go through global memory.
__global__ void global_pairs(float *a, int half, int j, int k)
{
	int t = blockIdx.x * blockDim.x + threadIdx.x;
	if (t >= half)
		return;
	int i = pair_low(t, j);
	int l = i + j;
	float x = a[i], y = a[l];
	bool up = (i & k) == 0;
	if ((x > y) == up) {
		a[i] = y;
		a[l] = x;
	}
}

// Padding: the network needs a power-of-two length m >= n. When n is not one,
// sort a scratch copy padded with +inf (which sorts last) and copy the first n
// back; the copies are device-to-device on the default stream.
__global__ void fill_inf(float *a, int from, int to)
{
	int i = from + blockIdx.x * blockDim.x + threadIdx.x;
	if (i < to)
		a[i] = __int_as_float(0x7f800000);
}

static void sort_pow2(float *a, int m);

extern "C" void bitonic_sort(float *data, int n)
{
	if (n <= 1)
		return;
	int m = 1;
	while (m < n)
		m <<= 1;
	if (m == n) {
		sort_pow2(data, m);
		return;
	}
	float *buf = 0;
	if (cudaMalloc(&buf, (size_t)m * sizeof(float)) != cudaSuccess)
		return;
	cudaMemcpyAsync(buf, data, (size_t)n * sizeof(float), cudaMemcpyDeviceToDevice, 0);
	fill_inf<<<(m - n + 255) / 256, 256>>>(buf, n, m);
	sort_pow2(buf, m);
	cudaMemcpyAsync(data, buf, (size_t)n * sizeof(float), cudaMemcpyDeviceToDevice, 0);
	cudaFree(buf);
}

static void sort_pow2(float *a, int m)
{
	int c = m < CHUNK ? m : CHUNK;
	int chunks = m / c;
	sort_chunks<<<chunks, c / 2>>>(a, c);
	int half = m / 2;
	int gblocks = (half + 255) / 256;
	for (int k = 2 * c; k <= m; k <<= 1) {
		for (int j = k >> 1; j >= c; j >>= 1)
			global_pairs<<<gblocks, 256>>>(a, half, j, k);
		merge_chunks<<<chunks, c / 2>>>(a, c, k);
	}
}
