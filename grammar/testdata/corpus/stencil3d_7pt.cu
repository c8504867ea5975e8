#include <cuda_runtime.h>

#define BX 32
#define BY 8

// 7-point 3D stencil marching along z, keeping the z-1/z/z+1 planes in
// registers and the current plane in shared memory.
__global__ void __launch_bounds__(BX * BY, 4)
stencil7(const float *__restrict__ in, float *__restrict__ out, int nx, int ny, int nz, float c0, float c1) {
  __shared__ float plane[BY + 2][BX + 2];
  int ix = blockIdx.x * BX + threadIdx.x;
  int iy = blockIdx.y * BY + threadIdx.y;
  int tx = threadIdx.x + 1, ty = threadIdx.y + 1;
  size_t stride = (size_t)nx * ny;
  bool inside = ix > 0 && iy > 0 && ix < nx - 1 && iy < ny - 1;
  size_t idx = (size_t)iy * nx + ix;

  float below = 0.f, cur = 0.f, above = 0.f;
  if (ix < nx && iy < ny) {
    below = in[idx];
    cur = in[idx + stride];
  }
  for (int z = 1; z < nz - 1; ++z) {
    if (ix < nx && iy < ny) above = in[idx + (z + 1) * stride];
    __syncthreads();
    plane[ty][tx] = cur;
    if (threadIdx.x == 0 && ix > 0) plane[ty][0] = in[idx + z * stride - 1];
    if (threadIdx.x == BX - 1 && ix < nx - 1) plane[ty][BX + 1] = in[idx + z * stride + 1];
    if (threadIdx.y == 0 && iy > 0) plane[0][tx] = in[idx + z * stride - nx];
    if (threadIdx.y == BY - 1 && iy < ny - 1) plane[BY + 1][tx] = in[idx + z * stride + nx];
    __syncthreads();
    if (inside) {
      out[idx + z * stride] = c0 * cur + c1 * (plane[ty][tx - 1] + plane[ty][tx + 1] + plane[ty - 1][tx] +
                                              plane[ty + 1][tx] + below + above);
    }
    below = cur;
    cur = above;
  }
}

void stencil(const float *in, float *out, int nx, int ny, int nz) {
  dim3 b(BX, BY);
  dim3 g((nx + BX - 1) / BX, (ny + BY - 1) / BY);
  stencil7<<<g, b>>>(in, out, nx, ny, nz, -6.0f, 1.0f);
}
