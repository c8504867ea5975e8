// Uses std::numeric_limits and std::max without including <limits> or
// <algorithm>: it compiles with nvcc's full host headers only, so the lean
// compile fails naming them and the full one must answer (LeanFlags).
__global__ void fill(float *y, float v, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = v;
}

extern "C" void launch(float *y, int n) {
    fill<<<std::max((n + 255) / 256, 1), 256>>>(y, -std::numeric_limits<float>::infinity(), n);
}
