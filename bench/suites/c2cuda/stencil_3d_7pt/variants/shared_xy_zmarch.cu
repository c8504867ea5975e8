// strategy: shared-memory tiling (2.5D blocking) - a 32x8 xy tile with halo in shared memory marches along z, keeping the z-1/z+1 values in registers
#include <cuda_runtime.h>

#define BX 32
#define BY 8
#define ZCHUNK 32

__global__ void __launch_bounds__(BX * BY) st3_25d(const float *__restrict__ in, float *__restrict__ out, int nx,
                                                   int ny, int nz) {
  __shared__ float s[BY + 2][BX + 2];
  long long sy = nx, sz = (long long)nx * ny;
  int x0 = blockIdx.x * BX, y0 = blockIdx.y * BY;
  int x = x0 + threadIdx.x, y = y0 + threadIdx.y;
  int z0 = blockIdx.z * ZCHUNK;
  int z1 = min(nz, z0 + ZCHUNK);
  bool inside = x < nx && y < ny;
  bool edge_xy = x == 0 || x == nx - 1 || y == 0 || y == ny - 1;
  long long col = (long long)y * sy + x;
  float below = 0.0f, cur = 0.0f, above = 0.0f;
  if (inside) {
    if (z0 > 0) below = in[(z0 - 1) * sz + col];
    cur = in[z0 * sz + col];
  }
  int tid = threadIdx.y * BX + threadIdx.x;
  for (int z = z0; z < z1; z++) {
    if (inside && z + 1 < nz) above = in[(z + 1) * sz + col];
    // Stage plane z (tile plus halo) for the x/y neighbours.
    __syncthreads();  // previous iteration's reads are done
    for (int k = tid; k < (BY + 2) * (BX + 2); k += BX * BY) {
      int sr = k / (BX + 2), sc = k % (BX + 2);
      int gy = y0 + sr - 1, gx = x0 + sc - 1;
      s[sr][sc] = (gx >= 0 && gx < nx && gy >= 0 && gy < ny) ? in[z * sz + (long long)gy * sy + gx] : 0.0f;
    }
    __syncthreads();
    if (inside) {
      long long i = z * sz + col;
      int r = threadIdx.y + 1, c = threadIdx.x + 1;
      if (edge_xy || z == 0 || z == nz - 1)
        out[i] = cur;
      else
        out[i] = 0.4f * cur + 0.1f * (((s[r][c - 1] + s[r][c + 1]) + (s[r - 1][c] + s[r + 1][c])) + (below + above));
    }
    below = cur;
    cur = above;
  }
}

extern "C" void stencil_3d_7pt(const float *in, float *out, int nx, int ny, int nz) {
  if (nx <= 0 || ny <= 0 || nz <= 0) return;
  dim3 grid((nx + BX - 1) / BX, (ny + BY - 1) / BY, (nz + ZCHUNK - 1) / ZCHUNK);
  st3_25d<<<grid, dim3(BX, BY)>>>(in, out, nx, ny, nz);
}
