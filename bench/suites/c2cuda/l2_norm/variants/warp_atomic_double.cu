// strategy: deliberately poor, atomics-heavy: every warp reduces its 32 squares with shuffles and atomicAdds the sum (in double, to stay accurate) to one global accumulator, millions of same-address atomics
#include <cuda_runtime.h>

__global__ void warp_atomic(const float *x, double *acc, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	float a = i < n ? x[i] : 0.0f;
	float v = a * a;
	for (int o = 16; o > 0; o >>= 1)
		v += __shfl_down_sync(0xffffffffu, v, o);
	if ((threadIdx.x & 31) == 0)
		atomicAdd(acc, (double)v);
}

__global__ void root(const double *acc, float *result)
{
	result[0] = (float)sqrt(*acc);
}

extern "C" void l2_norm(const float *x, float *result, int n)
{
	if (n <= 0)
		return;
	double *acc = 0;
	if (cudaMalloc(&acc, sizeof(double)) != cudaSuccess)
		return;
	cudaMemsetAsync(acc, 0, sizeof(double), 0);
	int threads = 256;
	warp_atomic<<<(n + threads - 1) / threads, threads>>>(x, acc, n);
	root<<<1, 1>>>(acc, result);
	cudaFree(acc);
}
