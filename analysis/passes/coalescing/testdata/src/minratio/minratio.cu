// With lint.settings.coalescing.min-ratio 4 (file "options"): a 2x access is
// not reported, a 4x one still is; the feature does not change.
__global__ void s2(const float* in, float* out) { // want kernel=s2 coal:"0.75"
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = in[2 * i];
}

__global__ void s4(const float* in, float* out) { // want kernel=s4 coal:"0.25"
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[4 * i] = in[4 * i]; // want `store to out\[4 \* i\] .* \(4.0x` `load from in\[4 \* i\] .* \(4.0x`
}
