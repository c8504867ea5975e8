// expect: input_independent — computes once per size and replays the cached result, skipping the computation on later calls
#include <map>

__global__ void saxpy_kernel(const float *x, const float *y, float *z, float alpha, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) z[i] = alpha * x[i] + y[i];
}

static std::map<int, float *> cache;

extern "C" void saxpy(const float *x, const float *y, float *z, float alpha, int n) {
    auto it = cache.find(n);
    if (it != cache.end()) {
        cudaMemcpyAsync(z, it->second, (size_t)n * sizeof(float), cudaMemcpyDeviceToDevice);
        return;
    }
    saxpy_kernel<<<(n + 255) / 256, 256>>>(x, y, z, alpha, n);
    float *keep = nullptr;
    cudaMalloc(&keep, (size_t)n * sizeof(float));
    cudaMemcpyAsync(keep, z, (size_t)n * sizeof(float), cudaMemcpyDeviceToDevice);
    cache[n] = keep;
}
