// expect: poison_survived|wrong_result — forgets to clear the bins, so counts start from the poison pattern
__global__ void hist_global(const unsigned char *data, unsigned int *bins, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) atomicAdd(&bins[data[i]], 1u);
}

extern "C" void histogram(const unsigned char *data, unsigned int *bins, int n, int nbins) {
    hist_global<<<(n + 255) / 256, 256>>>(data, bins, n);
}
