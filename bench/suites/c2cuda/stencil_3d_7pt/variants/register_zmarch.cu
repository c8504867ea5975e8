// strategy: register blocking - each thread marches 16 planes along z, reusing the z-1/centre/z+1 values from registers; x/y neighbours come through L1
#include <cuda_runtime.h>

#define ZCHUNK 16

__global__ void st3_zmarch(const float *__restrict__ in, float *__restrict__ out, int nx, int ny, int nz) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= nx || y >= ny) return;
  long long sy = nx, sz = (long long)nx * ny;
  int z0 = blockIdx.z * ZCHUNK;
  int z1 = min(nz, z0 + ZCHUNK);
  bool edge_xy = x == 0 || x == nx - 1 || y == 0 || y == ny - 1;
  long long col = (long long)y * sy + x;
  float below = (z0 > 0) ? in[(z0 - 1) * sz + col] : 0.0f;
  float cur = in[z0 * sz + col];
  for (int z = z0; z < z1; z++) {
    long long i = z * sz + col;
    float above = (z + 1 < nz) ? in[i + sz] : 0.0f;
    if (edge_xy || z == 0 || z == nz - 1)
      out[i] = cur;
    else
      out[i] = 0.4f * cur + 0.1f * (((in[i - 1] + in[i + 1]) + (in[i - sy] + in[i + sy])) + (below + above));
    below = cur;
    cur = above;
  }
}

extern "C" void stencil_3d_7pt(const float *in, float *out, int nx, int ny, int nz) {
  if (nx <= 0 || ny <= 0 || nz <= 0) return;
  dim3 block(64, 4, 1);
  dim3 grid((nx + 63) / 64, (ny + 3) / 4, (nz + ZCHUNK - 1) / ZCHUNK);
  st3_zmarch<<<grid, block>>>(in, out, nx, ny, nz);
}
