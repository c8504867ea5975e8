// A grid-stride sum over n = 2^20 floats with 264 blocks of 256 threads:
// each thread averages n / 67584 = 15.5 iterations (estimated, a mean over
// threads), and only thread 0 of a block writes its partial sum.
__global__ void block_sum(const float *x, float *out, int n) { // want kernel=block_sum blocks:"264 exact" threads:"67584 exact" gbytes:"4195360±2 estimated"
    __shared__ float s[256];
    float acc = 0.0f;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) acc += x[i];
    s[threadIdx.x] = acc;
    __syncthreads();
    for (int k = blockDim.x / 2; k > 0; k >>= 1) {
        if (threadIdx.x < k) s[threadIdx.x] += s[threadIdx.x + k];
        __syncthreads();
    }
    if (threadIdx.x == 0) out[blockIdx.x] = s[0];
}

extern "C" void sum(const float *x, float *out, int n) {
    block_sum<<<264, 256>>>(x, out, n);
}
