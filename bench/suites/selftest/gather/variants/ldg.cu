// strategy: read-only cache loads (__ldg) with 128 threads per block
__global__ void gather_ldg(const float *__restrict__ src, const int *__restrict__ idx,
                           float *__restrict__ dst, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) dst[i] = __ldg(&src[__ldg(&idx[i])]);
}

extern "C" void gather(const float *src, const int *idx, float *dst, int n) {
    gather_ldg<<<(n + 127) / 128, 128>>>(src, idx, dst, n);
}
