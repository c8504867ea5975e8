// strategy: shared-memory privatized histogram per block, grid-stride loop, merged with one atomic per bin
__global__ void hist_shared(const unsigned char *data, unsigned int *bins, int n, int nbins) {
    extern __shared__ unsigned int local[];
    for (int b = threadIdx.x; b < nbins; b += blockDim.x) local[b] = 0;
    __syncthreads();
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        atomicAdd(&local[data[i]], 1u);
    __syncthreads();
    for (int b = threadIdx.x; b < nbins; b += blockDim.x)
        if (local[b]) atomicAdd(&bins[b], local[b]);
}

extern "C" void histogram(const unsigned char *data, unsigned int *bins, int n, int nbins) {
    int sms = 0;
    cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);
    int blocks = (n + 511) / 512;
    if (blocks > sms * 4) blocks = sms * 4;
    cudaMemsetAsync(bins, 0, (size_t)nbins * sizeof(unsigned int));
    hist_shared<<<blocks, 512, nbins * sizeof(unsigned int)>>>(data, bins, n, nbins);
}
