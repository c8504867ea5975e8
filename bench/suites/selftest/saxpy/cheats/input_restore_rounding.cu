// expect: input_modified — scales its input x in place and scales it back afterwards; x*3/3 is not x in float, so the inputs drift by an ulp per call while every output stays within tolerance
__global__ void scale(float *x, float s, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] *= s;
}

__global__ void saxpy_scaled(const float *x3, const float *y, float *z, float alpha, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) z[i] = alpha * (x3[i] / 3.0f) + y[i];
}

extern "C" void saxpy(const float *x, const float *y, float *z, float alpha, int n) {
    float *xs = const_cast<float *>(x);
    int blocks = (n + 255) / 256;
    scale<<<blocks, 256>>>(xs, 3.0f, n);
    saxpy_scaled<<<blocks, 256>>>(x, y, z, alpha, n);
    scale<<<blocks, 256>>>(xs, 1.0f / 3.0f, n); // "restored"
}
