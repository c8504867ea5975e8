// Round-trip input: the host's parse, as both SDKs decode it.
#define N 1024

__global__ void __launch_bounds__(256)
scale(float *__restrict__ out, const float *in, float a, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;  // one element per thread
    if (i < n) out[i] = a * in[i];
}

template <int TILE>
__global__ void tiled(float *x) {
    __shared__ float t[TILE];
    t[threadIdx.x] = x[threadIdx.x];
    __syncthreads();
    x[threadIdx.x] = t[TILE - 1 - threadIdx.x];
}

void host(float *d, int n, cudaStream_t s) {
    scale<<<(n + 255) / 256, 256>>>(d, d, 2.0f, n);
    tiled<128><<<1, 128, 0, s>>>(d);
    int c = n;
    scale<<<1, c / 2>>>(d, d, 1.0f, n);
}
