// strategy: naive - one thread per element
__global__ void saxpy_k(const float *x, float *y, float a, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = a * x[i] + y[i];
}
extern "C" void saxpy(const float *x, float *y, float alpha, int n) {
    saxpy_k<<<(n + 255) / 256, 256>>>(x, y, alpha, n);
}
