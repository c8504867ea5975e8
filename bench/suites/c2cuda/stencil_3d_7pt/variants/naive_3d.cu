// strategy: naive - one thread per point on a 32x8x1 block grid, x along threadIdx.x (coalesced), all 7 reads from global memory
#include <cuda_runtime.h>

__global__ void st3_naive(const float *in, float *out, int nx, int ny, int nz) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  int z = blockIdx.z;
  if (x >= nx || y >= ny || z >= nz) return;
  long long sy = nx, sz = (long long)nx * ny;
  long long i = z * sz + y * sy + x;
  if (x == 0 || x == nx - 1 || y == 0 || y == ny - 1 || z == 0 || z == nz - 1)
    out[i] = in[i];
  else
    out[i] = 0.4f * in[i] + 0.1f * (((in[i - 1] + in[i + 1]) + (in[i - sy] + in[i + sy])) + (in[i - sz] + in[i + sz]));
}

extern "C" void stencil_3d_7pt(const float *in, float *out, int nx, int ny, int nz) {
  if (nx <= 0 || ny <= 0 || nz <= 0) return;
  dim3 block(32, 8, 1);
  dim3 grid((nx + 31) / 32, (ny + 7) / 8, nz);
  st3_naive<<<grid, block>>>(in, out, nx, ny, nz);
}
