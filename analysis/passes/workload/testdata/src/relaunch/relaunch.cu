// Host code that the symbolic evaluation cannot follow, run on integers
// (package hostexec): a reduction that relaunches until one block is left
// (1,000,000 -> 1954 -> 4 -> 1 blocks: 3 launches, 1959 blocks), and a
// bitonic sort over the next power of two (m = 2^20 for n = 10^6: 20·21/2
// = 210 launches of 4096 blocks).
#define THREADS 256

__global__ void reduce(const float *x, float *y, int n) { // want kernel=reduce launches_per_call:"3 exact" blocks:"1959 exact"
    __shared__ float s[THREADS];
    int i = blockIdx.x * 2 * THREADS + threadIdx.x;
    float v = 0.0f;
    if (i < n) v = x[i];
    if (i + THREADS < n) v += x[i + THREADS];
    s[threadIdx.x] = v;
    __syncthreads();
    if (threadIdx.x == 0) y[blockIdx.x] = s[0];
}

__global__ void step(float *a, int m, int j, int k) { // want kernel=step launches_per_call:"210 exact" blocks:"860160 exact"
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int p = i ^ j;
    if (p > i && ((i & k) == 0) == (a[i] > a[p])) { float t = a[i]; a[i] = a[p]; a[p] = t; }
}

extern "C" void sum(const float *x, float *y, float *tmp, int n) {
    const float *src = x;
    for (;;) {
        int b = (n + 2 * THREADS - 1) / (2 * THREADS);
        reduce<<<b, THREADS>>>(src, b == 1 ? y : tmp, n);
        if (b == 1) break;
        n = b;
        src = tmp;
    }
}

extern "C" void sort(float *a, int n) {
    int m = 1;
    while (m < n) m <<= 1;
    for (int k = 2; k <= m; k <<= 1)
        for (int j = k >> 1; j > 0; j >>= 1)
            step<<<m / THREADS, THREADS>>>(a, m, j, k);
}

// At n = 10^6 (even) only one path runs: the other kernel does no work in
// this call (0, exact), not "unknown".
__global__ void even_path(float *a) { // want kernel=even_path launches_per_call:"1 exact" blocks:"3906 exact"
    a[blockIdx.x * blockDim.x + threadIdx.x] = 0.0f;
}

__global__ void odd_path(float *a) { // want kernel=odd_path launches_per_call:"0 exact" blocks:"0 exact" gbytes:"0 exact"
    a[blockIdx.x * blockDim.x + threadIdx.x] = 1.0f;
}

extern "C" void pick(float *a, int n) {
    if (n % 2 == 0)
        even_path<<<n / 256, 256>>>(a);
    else
        odd_path<<<n / 256, 256>>>(a);
}
