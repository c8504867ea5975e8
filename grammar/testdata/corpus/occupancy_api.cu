#include <cuda_runtime.h>
#include <cstdio>

__global__ void MyKernel(int *array, int arrayCount) {
  int idx = threadIdx.x + blockIdx.x * blockDim.x;
  if (idx < arrayCount) array[idx] *= array[idx];
}

size_t dynamic_smem(int block) { return block * sizeof(int); }

// Pick a block size with the occupancy calculator, then report occupancy.
void launchMyKernel(int *array, int arrayCount) {
  int blockSize, minGridSize, gridSize;
  cudaOccupancyMaxPotentialBlockSize(&minGridSize, &blockSize, MyKernel, 0, 0);
  gridSize = (arrayCount + blockSize - 1) / blockSize;
  MyKernel<<<gridSize, blockSize>>>(array, arrayCount);
  cudaDeviceSynchronize();

  int maxActiveBlocks;
  cudaOccupancyMaxActiveBlocksPerMultiprocessor(&maxActiveBlocks, MyKernel, blockSize, 0);
  int device;
  cudaDeviceProp props;
  cudaGetDevice(&device);
  cudaGetDeviceProperties(&props, device);
  float occupancy = (maxActiveBlocks * blockSize / props.warpSize) /
                    (float)(props.maxThreadsPerMultiProcessor / props.warpSize);
  printf("Launched blocks of size %d. Theoretical occupancy: %f\n", blockSize, occupancy);

  int bs2 = 0, grid2 = 0;
  cudaOccupancyMaxPotentialBlockSizeVariableSMem(&grid2, &bs2, MyKernel, dynamic_smem);
  cudaFuncAttributes attr;
  cudaFuncGetAttributes(&attr, MyKernel);
  printf("regs=%d local=%zu shared=%zu best=%d\n", attr.numRegs, attr.localSizeBytes, attr.sharedSizeBytes, bs2);
}
