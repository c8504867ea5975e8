// A bounds guard in a 2-D tile (16-wide rows, so a warp holds two rows)
// whose offset is a uniform variable: only the blocks at the image's edge
// split (SobelFilter's SobelShared). No warning.
__global__ void tile(float *out, short w, short h, short BlockWidth) {
  short u = 4 * blockIdx.x * BlockWidth;
  short v = blockIdx.y * blockDim.y + threadIdx.y;
  short ib;
  u >>= 2;
  for (ib = threadIdx.x; ib < BlockWidth; ib += blockDim.x) {
    if (u + ib < w / 4 && v < h) {
      out[v * w + u + ib] = 1.0f;
    }
  }
}

// The same rows split at a constant column: every warp diverges.
__global__ void halves(float *out) {
  if (threadIdx.x % 16 < 8) { // want `branch on threadIdx.x % 16 < 8 diverges inside every warp`
    out[threadIdx.x] = 1.0f;
  }
}

void run(float *out, short w, short h) {
  dim3 threads(16, 4);
  tile<<<dim3(8, 8), threads>>>(out, w, h, 80);
  halves<<<8, threads>>>(out);
}
