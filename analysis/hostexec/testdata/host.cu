#define THREADS 256

__global__ void fill(float *a, int n) {}
__global__ void step(float *a, int m, int j, int k) {}
__global__ void reduce(const float *x, float *y, int n) {}
__global__ void wide(float *a, int n) {}

// A power of two found by a loop, then a launch per (k, j) pair.
void sort(float *a, int n) {
    int m = 1;
    while (m < n) m <<= 1;
    fill<<<(m - n + THREADS - 1) / THREADS, THREADS>>>(a, n);
    for (int k = 2; k <= m; k <<= 1)
        for (int j = k >> 1; j > 0; j >>= 1)
            step<<<m / THREADS, THREADS>>>(a, m, j, k);
}

// Relaunch until one block is left.
void sum(const float *x, float *y, float *tmp, int n) {
    const float *src = x;
    for (;;) {
        int b = (n + 2 * THREADS - 1) / (2 * THREADS);
        reduce<<<b, THREADS>>>(src, b == 1 ? y : tmp, n);
        if (b == 1) break;
        n = b;
        src = tmp;
    }
}

// The grid from the SM count, capped by the work.
void grid(float *a, int n) {
    int sms = 0;
    if (cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0) != cudaSuccess || sms <= 0) sms = 132;
    long long need = (n + 255) / 256;
    long long blocks = (long long)sms * 4;
    if (blocks > need) blocks = need;
    dim3 block(THREADS);
    wide<<<(int)blocks, block>>>(a, n);
}

// A branch on memory: which launch runs is not known.
void data(float *a, const int *flag, int n) {
    if (flag[0]) fill<<<1, 32>>>(a, n);
}
