// strategy: coalesced global bitonic network: one thread per compare-exchange pair, no idle threads, one kernel per step
#include <cuda_runtime.h>

#define THREADS 256

__global__ void bitonic_pairs(float *a, int half, int j, int k)
{
	int t = blockIdx.x * blockDim.x + threadIdx.x;
	if (t >= half)
		return;
	// Pair t has lower index i: insert a 0 bit at position log2(j) of t.
	int i = ((t & ~(j - 1)) << 1) | (t & (j - 1));
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
	int half = m / 2;
	int blocks = (half + THREADS - 1) / THREADS;
	for (int k = 2; k <= m; k <<= 1)
		for (int j = k >> 1; j > 0; j >>= 1)
			bitonic_pairs<<<blocks, THREADS>>>(a, half, j, k);
}
