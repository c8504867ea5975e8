// No sizes: a grid of (n + 255) / 256 blocks is unknown, and so is all
// that depends on it; a constant launch is still known.
__global__ void scale(float *x, int n) { // want kernel=scale blocks:"unknown" threads:"unknown" flops_call:"unknown" t_lower_us:"unknown"
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] *= 2.0f;
}

__global__ void fixed(float *x) { // want kernel=fixed blocks:"8 exact" threads:"1024 exact" gbytes:"8192 exact" flops_call:"1024 exact"
    x[blockIdx.x * blockDim.x + threadIdx.x] *= 2.0f;
}

void run(float *x, int n) {
    scale<<<(n + 255) / 256, 256>>>(x, n);
    fixed<<<8, 128>>>(x);
}
