// launches counts launch sites weighted by the trip counts of the loops
// around them: 1 + 64 (constant loop) + 8*4 (nested) + 1 (cudaLaunchKernel);
// kernels counts the distinct kernels launched: one (issue 11: it was 98).
// want kernels:"1" launches:"98 exact"
__global__ void row_kernel(float *d, int r) { d[r * blockDim.x + threadIdx.x] = 0.0f; }

void run(float *d) {
    row_kernel<<<1, 256>>>(d, 0);
    for (int r = 0; r < 64; r++)
        row_kernel<<<1, 256>>>(d, r);
    for (int i = 0; i < 8; i++)
        for (int j = 0; j < 4; ++j)
            row_kernel<<<1, 256>>>(d, i * 4 + j);
    void *args[] = {&d};
    cudaLaunchKernel((void *)row_kernel, dim3(1), dim3(256), args, 0, 0);
}
