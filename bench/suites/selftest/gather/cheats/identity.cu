// expect: wrong_result — assumes idx is the identity and copies src
extern "C" void gather(const float *src, const int *idx, float *dst, int n) {
    cudaMemcpyAsync(dst, src, (size_t)n * sizeof(float), cudaMemcpyDeviceToDevice);
}
