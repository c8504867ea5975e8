#include <cuda_runtime.h>

#define BW 16
#define BH 16

// Sobel gradient magnitude with an 18x18 shared tile (1-pixel halo).
__global__ void sobel(const unsigned char *__restrict__ in, unsigned char *__restrict__ out, int w, int h) {
  __shared__ unsigned char tile[BH + 2][BW + 2];
  int x = blockIdx.x * BW + threadIdx.x;
  int y = blockIdx.y * BH + threadIdx.y;
  for (int dy = threadIdx.y; dy < BH + 2; dy += BH) {
    for (int dx = threadIdx.x; dx < BW + 2; dx += BW) {
      int gx = min(max((int)(blockIdx.x * BW) + dx - 1, 0), w - 1);
      int gy = min(max((int)(blockIdx.y * BH) + dy - 1, 0), h - 1);
      tile[dy][dx] = in[gy * w + gx];
    }
  }
  __syncthreads();
  if (x >= w || y >= h) return;
  int tx = threadIdx.x + 1, ty = threadIdx.y + 1;
  int gxv = -tile[ty - 1][tx - 1] - 2 * tile[ty][tx - 1] - tile[ty + 1][tx - 1] + tile[ty - 1][tx + 1] +
            2 * tile[ty][tx + 1] + tile[ty + 1][tx + 1];
  int gyv = -tile[ty - 1][tx - 1] - 2 * tile[ty - 1][tx] - tile[ty - 1][tx + 1] + tile[ty + 1][tx - 1] +
            2 * tile[ty + 1][tx] + tile[ty + 1][tx + 1];
  float mag = sqrtf((float)(gxv * gxv + gyv * gyv));
  out[y * w + x] = (unsigned char)min(255, (int)mag);
}

void run_sobel(const unsigned char *in, unsigned char *out, int w, int h) {
  sobel<<<dim3((w + BW - 1) / BW, (h + BH - 1) / BH), dim3(BW, BH)>>>(in, out, w, h);
}
