// expect: hidden_work — does the work on a non-blocking stream that the default-stream timer does not wait for
__global__ void saxpy_slow(const float *x, const float *y, float *z, float alpha, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float v = y[i];
        // Extra dependent work so that the hidden part clearly outlasts the timer.
        for (int k = 0; k < 20000; k++) v = v * 1.0000001f;
        z[i] = alpha * x[i] + y[i] + (v - v);
    }
}

static cudaStream_t hidden;

extern "C" void saxpy(const float *x, const float *y, float *z, float alpha, int n) {
    if (!hidden) cudaStreamCreateWithFlags(&hidden, cudaStreamNonBlocking);
    saxpy_slow<<<(n + 255) / 256, 256, 0, hidden>>>(x, y, z, alpha, n);
}
