// A crash: writes through an invalid device pointer, so the CUDA context
// is lost; it must be rejected as a runtime error and the next candidate
// must be unaffected.
__global__ void bad_write(float *p, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) p[i] = 1.0f;
}

extern "C" void vector_add(const float *a, const float *b, float *c, int n) {
    bad_write<<<(n + 255) / 256, 256>>>((float *)0x10, n);
}
