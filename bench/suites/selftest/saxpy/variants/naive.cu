// strategy: naive, one thread per element, 256 threads per block
__global__ void saxpy_kernel(const float *x, const float *y, float *z, float alpha, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) z[i] = alpha * x[i] + y[i];
}

extern "C" void saxpy(const float *x, const float *y, float *z, float alpha, int n) {
    saxpy_kernel<<<(n + 255) / 256, 256>>>(x, y, z, alpha, n);
}
