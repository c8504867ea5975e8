__global__ void ok(int *x) { *x = 1; }
}}} @@@ this is not CUDA ### {
__device__ int alsook(int y) { return y; }
