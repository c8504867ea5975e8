// A device function's pointer parameter that its caller binds to a
// __shared__ array points at shared memory: its strided accesses are not
// uncoalesced global traffic (eigenvalues/bisect_kernel_large.cuh does
// this in its scans).
__device__ void upsweep(unsigned short *s_cl, unsigned int offset) {
  unsigned int ai = offset * (2 * threadIdx.x + 1) - 1;
  unsigned int bi = offset * (2 * threadIdx.x + 2) - 1;
  s_cl[bi] = s_cl[bi] + s_cl[ai];
}

__device__ void upsweep2(unsigned short *s_cl, unsigned int offset) {
  unsigned int bi = offset * (2 * threadIdx.x + 2) - 1;
  s_cl[bi] += 1;
}

// The same function body on a global pointer is still reported.
__device__ void upsweep_global(float *g, unsigned int n) {
  g[threadIdx.x * n] = 0.0f; // want `global store to g\[threadIdx.x \* n\] is uncoalesced`
}

__global__ void scan(float *out, unsigned int n) {
  __shared__ unsigned short s_blocking[512];
  s_blocking[threadIdx.x] = threadIdx.x;
  __syncthreads();
  upsweep(s_blocking, 2);
  unsigned short *s_tail = s_blocking + 1; // a local pointer into it
  upsweep2(s_tail, 4);
  upsweep_global(out, n);
}
