#include <cuda_runtime.h>

// Write a procedural pattern into a CUDA array through a surface object, then
// read it back through a texture object with bilinear filtering.
__global__ void write_pattern(cudaSurfaceObject_t surf, int width, int height, float t) {
  unsigned x = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < width && y < height) {
    float v = __sinf(x * 0.1f + t) * __cosf(y * 0.1f - t);
    surf2Dwrite(v, surf, x * sizeof(float), y);
  }
}

__global__ void sample(cudaTextureObject_t tex, float *out, int width, int height, float zoom) {
  unsigned x = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= width || y >= height) return;
  float u = (x + 0.5f) / (width * zoom);
  float v = (y + 0.5f) / (height * zoom);
  out[y * width + x] = tex2D<float>(tex, u, v);
}

void run(int w, int h, float *d_out) {
  cudaChannelFormatDesc fmt = cudaCreateChannelDesc(32, 0, 0, 0, cudaChannelFormatKindFloat);
  cudaArray_t arr;
  cudaMallocArray(&arr, &fmt, w, h, cudaArraySurfaceLoadStore);
  cudaResourceDesc res{};
  res.resType = cudaResourceTypeArray;
  res.res.array.array = arr;
  cudaSurfaceObject_t surf;
  cudaCreateSurfaceObject(&surf, &res);
  cudaTextureDesc td{};
  td.addressMode[0] = td.addressMode[1] = cudaAddressModeWrap;
  td.filterMode = cudaFilterModeLinear;
  td.readMode = cudaReadModeElementType;
  td.normalizedCoords = 1;
  cudaTextureObject_t tex;
  cudaCreateTextureObject(&tex, &res, &td, nullptr);
  dim3 b(16, 16), g((w + 15) / 16, (h + 15) / 16);
  write_pattern<<<g, b>>>(surf, w, h, 0.f);
  sample<<<g, b>>>(tex, d_out, w, h, 2.f);
  cudaDestroyTextureObject(tex);
  cudaDestroySurfaceObject(surf);
  cudaFreeArray(arr);
}
