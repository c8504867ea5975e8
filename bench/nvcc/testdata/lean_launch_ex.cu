// Launches through cudaLaunchKernelEx, the template of cuda_runtime.h
// that uses std::forward, which the lean headers only declare (lean.h):
// the error lies in cuda_runtime.h, and the full headers must answer.
__global__ void fill(float *y, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = 1.0f;
}

void launch(float *y, int n) {
    cudaLaunchConfig_t cfg = {};
    cfg.gridDim = dim3((n + 255) / 256);
    cfg.blockDim = dim3(256);
    cudaLaunchKernelEx(&cfg, fill, y, n);
}
