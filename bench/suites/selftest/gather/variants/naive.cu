// strategy: naive, one thread per output element
__global__ void gather_kernel(const float *src, const int *idx, float *dst, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) dst[i] = src[idx[i]];
}

extern "C" void gather(const float *src, const int *idx, float *dst, int n) {
    gather_kernel<<<(n + 255) / 256, 256>>>(src, idx, dst, n);
}
