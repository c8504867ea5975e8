// The block comes from the caller (a dim3 parameter): its width is
// unknown, not 1, so lanes are not mapped onto threadIdx.y and y * w + x
// is not a stride of w.
__global__ void img(float *out, int w, int h) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < w && y < h) out[y * w + x] = 1.0f;
}

void run(float *out, int w, int h, dim3 block) {
  dim3 grid((w + block.x - 1) / block.x, (h + block.y - 1) / block.y);
  img<<<grid, block>>>(out, w, h);
}
