// conv1d at n = 1048576, k = 15 (the sizes file): 4096 blocks of 256
// threads; per thread 15 taps of two 4-byte loads and one store, 2 FLOPs a
// tap. DRAM: x spans n + 14 floats, w 15 floats (a broadcast), y n floats.
__global__ void conv1d_naive(const float *x, const float *w, float *y, int n, int k) { // want kernel=conv1d_naive launches_per_call:"1 exact" blocks:"4096 exact" threads:"1048576 exact" gbytes:"130023424 exact" flops_call:"31457280 exact" dram_bytes:"8388724 estimated"
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    int half = k / 2;
    float acc = 0.0f;
    for (int j = 0; j < k; j++) {
        int src = i + j - half;
        if (src >= 0 && src < n) acc += w[j] * x[src];
    }
    y[i] = acc;
}

extern "C" void conv1d(const float *x, const float *w, float *y, int n, int k) {
    conv1d_naive<<<(n + 255) / 256, 256>>>(x, w, y, n, k);
}
