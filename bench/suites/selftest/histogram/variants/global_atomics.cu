// strategy: atomics-heavy, one global atomicAdd per element
__global__ void hist_global(const unsigned char *data, unsigned int *bins, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) atomicAdd(&bins[data[i]], 1u);
}

extern "C" void histogram(const unsigned char *data, unsigned int *bins, int n, int nbins) {
    cudaMemsetAsync(bins, 0, (size_t)nbins * sizeof(unsigned int));
    hist_global<<<(n + 255) / 256, 256>>>(data, bins, n);
}
