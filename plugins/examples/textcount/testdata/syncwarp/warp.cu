// With TC001.accept-syncwarp: __syncwarp() counts as the barrier.
__global__ void warp_only(float *x)  // want kernel=warp_only syncthreads:"0" shared_decls:"1"
{
    __shared__ float w[32];
    w[threadIdx.x] = x[threadIdx.x];
    __syncwarp();
    x[threadIdx.x] = w[31 - threadIdx.x];
}
