#include <cuda_runtime.h>
#include <cstdio>

// Gaussian blur sampling a 2D texture object (clamp addressing handles the
// borders), weights in constant memory.
__constant__ float c_weights[25];

__global__ void blur5x5(cudaTextureObject_t tex, float *out, int width, int height) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= width || y >= height) return;
  float acc = 0.f;
#pragma unroll
  for (int dy = -2; dy <= 2; ++dy)
#pragma unroll
    for (int dx = -2; dx <= 2; ++dx)
      acc += c_weights[(dy + 2) * 5 + (dx + 2)] * tex2D<float>(tex, x + dx + 0.5f, y + dy + 0.5f);
  out[y * width + x] = acc;
}

cudaTextureObject_t make_texture(cudaArray_t array) {
  cudaResourceDesc resDesc = {};
  resDesc.resType = cudaResourceTypeArray;
  resDesc.res.array.array = array;
  cudaTextureDesc texDesc = {};
  texDesc.addressMode[0] = cudaAddressModeClamp;
  texDesc.addressMode[1] = cudaAddressModeClamp;
  texDesc.filterMode = cudaFilterModePoint;
  texDesc.readMode = cudaReadModeElementType;
  texDesc.normalizedCoords = 0;
  cudaTextureObject_t tex = 0;
  cudaCreateTextureObject(&tex, &resDesc, &texDesc, nullptr);
  return tex;
}

int blur(const float *h_img, float *d_out, int width, int height, const float *h_weights) {
  cudaChannelFormatDesc desc = cudaCreateChannelDesc<float>();
  cudaArray_t array;
  cudaMallocArray(&array, &desc, width, height);
  cudaMemcpy2DToArray(array, 0, 0, h_img, width * sizeof(float), width * sizeof(float), height,
                      cudaMemcpyHostToDevice);
  cudaMemcpyToSymbol(c_weights, h_weights, sizeof(c_weights));
  cudaTextureObject_t tex = make_texture(array);
  dim3 block(16, 16), grid((width + 15) / 16, (height + 15) / 16);
  blur5x5<<<grid, block>>>(tex, d_out, width, height);
  cudaError_t err = cudaDeviceSynchronize();
  if (err != cudaSuccess) printf("blur failed: %s\n", cudaGetErrorString(err));
  cudaDestroyTextureObject(tex);
  cudaFreeArray(array);
  return err == cudaSuccess ? 0 : 1;
}
