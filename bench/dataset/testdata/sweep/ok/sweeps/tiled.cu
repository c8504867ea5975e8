// strategy: tiled - ITEMS elements per thread, BLOCK threads per block
// saxpy with ITEMS elements per thread; block size and ITEMS are swept.
// sweep: BLOCK = 64, 128, 256
// sweep: ITEMS = 1, 2, 4
// sweep-require: BLOCK * ITEMS <= 512
__global__ void __launch_bounds__(BLOCK) saxpy_k(const float *x, float *y, float a, int n) {
    int base = (blockIdx.x * BLOCK * ITEMS) + threadIdx.x;
#pragma unroll
    for (int k = 0; k < ITEMS; k++) {
        int i = base + k * BLOCK;
        if (i < n) y[i] = a * x[i] + y[i];
    }
}

extern "C" void saxpy(const float *x, float *y, float alpha, int n) {
    int per = BLOCK * ITEMS;
    saxpy_k<<<(n + per - 1) / per, BLOCK>>>(x, y, alpha, n);
}
