__global__ void old(float* x) { // want kernel=old warp_shuffles:"5" warp_reductions:"0"
  float v = x[threadIdx.x];
  for (int o = 16; o > 0; o /= 2) v += __shfl_down(v, o); // want `__shfl_down was removed in CUDA 9 .* use __shfl_down_sync`
  x[threadIdx.x] = v;
}

__global__ void none(float* x) { // want kernel=none warp_shuffles:"0" warp_reductions:"0"
  x[threadIdx.x] = 0;
}
