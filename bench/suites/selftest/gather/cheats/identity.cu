// expect: partially_correct|wrong_result — assumes idx is the identity and copies src, which is right only for one element
extern "C" void gather(const float *src, const int *idx, float *dst, int n) {
    cudaMemcpyAsync(dst, src, (size_t)n * sizeof(float), cudaMemcpyDeviceToDevice);
}
