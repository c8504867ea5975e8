#include <cuda_runtime.h>

// Interleaved RGB (uchar3) to 8-bit luma, 2D launch over the image.
__global__ void rgba_to_greyscale(const uchar4 *const rgbaImage, unsigned char *const greyImage, int numRows,
                                  int numCols) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= numCols || y >= numRows) return;
  uchar4 rgba = rgbaImage[y * numCols + x];
  float channelSum = .299f * rgba.x + .587f * rgba.y + .114f * rgba.z;
  greyImage[y * numCols + x] = static_cast<unsigned char>(channelSum);
}

void your_rgba_to_greyscale(const uchar4 *const d_rgbaImage, unsigned char *const d_greyImage, size_t numRows,
                            size_t numCols) {
  const dim3 blockSize(16, 16, 1);
  const dim3 gridSize((numCols + blockSize.x - 1) / blockSize.x, (numRows + blockSize.y - 1) / blockSize.y, 1);
  rgba_to_greyscale<<<gridSize, blockSize>>>(d_rgbaImage, d_greyImage, numRows, numCols);
  cudaDeviceSynchronize();
}
