// Static shared memory of a kernel includes the __shared__ arrays of the
// device functions it calls and the file-scope __shared__ variables used.
__shared__ float staged[32];           // 128 B, used by k only

__device__ float helper(float v) {
    __shared__ float scratch[128];     // 512 B
    scratch[threadIdx.x] = v;
    return scratch[0];
}

__device__ float twice(float v) { return helper(v) + helper(v); }

__global__ void k(float *x) {
    __shared__ int own[256];           // 1024 B
    own[threadIdx.x] = 1;
    staged[threadIdx.x % 32] = x[0];
    x[threadIdx.x] = twice(x[threadIdx.x]) + own[0];
}

__global__ void other(float *x) { x[0] = helper(1.0f); }
