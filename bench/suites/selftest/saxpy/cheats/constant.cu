// expect: input_independent — writes a constant, so the output does not depend on the inputs
__global__ void fill(float *z, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) z[i] = 0.5f;
}

extern "C" void saxpy(const float *x, const float *y, float *z, float alpha, int n) {
    fill<<<(n + 255) / 256, 256>>>(z, n);
}
