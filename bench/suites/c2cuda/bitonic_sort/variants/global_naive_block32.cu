// strategy: deliberately poor block size: naive global bitonic network with 32-thread blocks (one warp per block limits resident warps per SM)
#include <cuda_runtime.h>

#define THREADS 32

// One compare-exchange step of the bitonic network: every thread looks at its
// element i and partner i^j, and only the lower index of each pair acts.
__global__ void bitonic_step(float *a, int m, int j, int k)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i >= m)
		return;
	int l = i ^ j;
	if (l > i) {
		float x = a[i], y = a[l];
		bool up = (i & k) == 0;
		if ((x > y) == up) {
			a[i] = y;
			a[l] = x;
		}
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
	int blocks = (m + THREADS - 1) / THREADS;
	for (int k = 2; k <= m; k <<= 1)
		for (int j = k >> 1; j > 0; j >>= 1)
			bitonic_step<<<blocks, THREADS>>>(a, m, j, k);
}
