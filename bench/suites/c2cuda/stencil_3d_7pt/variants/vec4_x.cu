// strategy: vectorized loads - each thread updates 4 consecutive x points with float4 loads of the centre and the four y/z neighbour rows (when nx % 4 == 0 and aligned), scalar fallback otherwise
#include <cuda_runtime.h>
#include <stdint.h>

__device__ __forceinline__ float st(const float *in, int x, int y, int z, int nx, int ny, int nz) {
  long long sy = nx, sz = (long long)nx * ny;
  long long i = z * sz + y * sy + x;
  if (x == 0 || x == nx - 1 || y == 0 || y == ny - 1 || z == 0 || z == nz - 1) return in[i];
  return 0.4f * in[i] + 0.1f * (((in[i - 1] + in[i + 1]) + (in[i - sy] + in[i + sy])) + (in[i - sz] + in[i + sz]));
}

__global__ void st3_vec4(const float *__restrict__ in, float *__restrict__ out, int nx, int ny, int nz, int use_vec) {
  int x = 4 * (blockIdx.x * blockDim.x + threadIdx.x);
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  int z = blockIdx.z;
  if (x >= nx || y >= ny) return;
  long long sy = nx, sz = (long long)nx * ny;
  long long i = z * sz + y * sy + x;
  if (use_vec && x > 0 && x + 4 < nx && y > 0 && y < ny - 1 && z > 0 && z < nz - 1) {
    float4 c = *(const float4 *)(in + i);
    float4 s = *(const float4 *)(in + i - sy), n = *(const float4 *)(in + i + sy);
    float4 b = *(const float4 *)(in + i - sz), f = *(const float4 *)(in + i + sz);
    float w = in[i - 1], e = in[i + 4];
    float4 o;
    o.x = 0.4f * c.x + 0.1f * (((w + c.y) + (s.x + n.x)) + (b.x + f.x));
    o.y = 0.4f * c.y + 0.1f * (((c.x + c.z) + (s.y + n.y)) + (b.y + f.y));
    o.z = 0.4f * c.z + 0.1f * (((c.y + c.w) + (s.z + n.z)) + (b.z + f.z));
    o.w = 0.4f * c.w + 0.1f * (((c.z + e) + (s.w + n.w)) + (b.w + f.w));
    *(float4 *)(out + i) = o;
  } else {
    for (int k = 0; k < 4 && x + k < nx; k++) out[i + k] = st(in, x + k, y, z, nx, ny, nz);
  }
}

extern "C" void stencil_3d_7pt(const float *in, float *out, int nx, int ny, int nz) {
  if (nx <= 0 || ny <= 0 || nz <= 0) return;
  int use_vec = (nx % 4 == 0) && ((((uintptr_t)in | (uintptr_t)out) % 16) == 0);
  int quads = (nx + 3) / 4;
  dim3 block(32, 4, 1);
  dim3 grid((quads + 31) / 32, (ny + 3) / 4, nz);
  st3_vec4<<<grid, block>>>(in, out, nx, ny, nz, use_vec);
}
