// expect: input_modified — uses its input x as scratch space (two passes: x *= alpha in place, then z = x + y), so every later call starts from changed inputs
__global__ void scale_in_place(float *x, float alpha, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] *= alpha;
}

__global__ void add(const float *x, const float *y, float *z, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) z[i] = x[i] + y[i];
}

extern "C" void saxpy(const float *x, const float *y, float *z, float alpha, int n) {
    float *scratch = const_cast<float *>(x);
    scale_in_place<<<(n + 255) / 256, 256>>>(scratch, alpha, n);
    add<<<(n + 255) / 256, 256>>>(x, y, z, n);
}
