// Testdata of the textcount example (sdktest.Run).

// __launch_bounds__ on the line before the name: the kernel is "reduce",
// not "__launch_bounds__" (the regex version reported a phantom kernel).
__global__ void __launch_bounds__(256)
reduce(float *out, const float *in)  // want kernel=reduce syncthreads:"2" shared_decls:"1"
{
    __shared__ float s[256];
    s[threadIdx.x] = in[threadIdx.x];
    __syncthreads();
    // __syncthreads(); in a comment is not a call
    if (threadIdx.x == 0) out[blockIdx.x] = s[0] + s[255];
    __syncthreads();
}

__global__ void flip(float *x)  // want "declares __shared__ memory but never calls __syncthreads" kernel=flip syncthreads:"0" shared_decls:"2"
{
    __shared__ float t[32];
    __shared__ int n;
    t[threadIdx.x] = x[threadIdx.x];
    x[threadIdx.x] = t[31 - threadIdx.x] + n;
}

__global__ void warp_only(float *x)  // want "never calls __syncthreads" kernel=warp_only shared_decls:"1"
{
    __shared__ float w[32];
    w[threadIdx.x] = x[threadIdx.x];
    __syncwarp();
    x[threadIdx.x] = w[31 - threadIdx.x];
}

void declared_only(float *x);  // want kernels:"3"
