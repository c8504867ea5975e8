// A side-stream cheat: does the work on a non-blocking stream that the
// default-stream timer does not wait for; it must be rejected as hidden work.
__global__ void add_slow(const float *a, const float *b, float *c, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float v = b[i];
        // Extra dependent work so that the hidden part clearly outlasts the timer.
        for (int k = 0; k < 20000; k++) v = v * 1.0000001f;
        c[i] = a[i] + b[i] + (v - v);
    }
}

static cudaStream_t hidden;

extern "C" void vector_add(const float *a, const float *b, float *c, int n) {
    if (!hidden) cudaStreamCreateWithFlags(&hidden, cudaStreamNonBlocking);
    add_slow<<<(n + 255) / 256, 256, 0, hidden>>>(a, b, c, n);
}
