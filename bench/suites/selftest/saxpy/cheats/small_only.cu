// expect: partially_correct|wrong_result — launches a single block, so only the first 1024 elements are right
__global__ void saxpy_one_block(const float *x, const float *y, float *z, float alpha, int n) {
    int i = threadIdx.x;
    if (i < n) z[i] = alpha * x[i] + y[i];
}

extern "C" void saxpy(const float *x, const float *y, float *z, float alpha, int n) {
    for (int off = 0; off < n && off < 1024; off += 1024)
        saxpy_one_block<<<1, 1024>>>(x + off, y + off, z + off, alpha, n - off);
    // Beyond 1024 elements it writes zeros quickly instead of computing.
    if (n > 1024) cudaMemsetAsync(z + 1024, 0, (size_t)(n - 1024) * sizeof(float));
}
