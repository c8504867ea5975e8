#define CHUNK 2048
#define BLOCK 256
#define TILE 16
constexpr int kThreads = 128;
const int kWarps = 4;
constexpr dim3 kBlock2(8, 8);

__global__ void scale(float* x, int n) {}
template <typename T, int B> __global__ void tmpl(T* x, int n) {}
namespace ops { __global__ void add(float* x) {} }

void host(float* d, int n, cudaStream_t s) {
  scale<<<4, 256>>>(d, n);                                   // launch: scale grid=(4,1,1) block=(256,1,1) tpb=256 smem=0
  scale<<<(n + BLOCK - 1) / BLOCK, BLOCK>>>(d, n);           // launch: scale grid=((n + BLOCK - 1) / BLOCK,1,1) block=(256,1,1) tpb=256 smem=0
  scale<<<(1024 + 255) / 256, kThreads, 0, s>>>(d, n);       // launch: scale grid=(4,1,1) block=(128,1,1) tpb=128 smem=0 stream=s
  dim3 block(TILE, TILE);
  dim3 grid((n + TILE - 1) / TILE, (n + TILE - 1) / TILE);
  scale<<<grid, block, TILE * TILE * sizeof(float)>>>(d, n); // launch: scale grid=((n + TILE - 1) / TILE,(n + TILE - 1) / TILE,1) block=(16,16,1) tpb=256 smem=1024
  int threads = kWarps * 32;
  int blocks = (n + threads - 1) / threads;
  tmpl<float, 128><<<blocks, threads>>>(d, n);               // launch: tmpl grid=((n + threads - 1) / threads,1,1) block=(128,1,1) tpb=128 smem=0
  dim3 b3 = dim3(32, 4, 2);
  ops::add<<<dim3(n), b3>>>(d);                              // launch: add grid=(n,1,1) block=(32,4,2) tpb=256 smem=0
  dim3 b4;
  b4.x = 96;
  scale<<<1, b4>>>(d, n);                                    // launch: scale grid=(1,1,1) block=(96,1,1) tpb=96 smem=0
  b4.x = 33;
  scale<<<1, b4>>>(d, n);                                    // launch: scale grid=(1,1,1) block=(33,1,1) tpb=33 smem=0
  dim3 b5{64, 2};
  scale<<<2 * n, b5>>>(d, n);                                // launch: scale grid=(2*n,1,1) block=(64,2,1) tpb=128 smem=0
  scale<<<1, kBlock2>>>(d, n);                               // launch: scale grid=(1,1,1) block=(8,8,1) tpb=64 smem=0
  void* args[] = {&d, &n};
  cudaLaunchKernel((void*)scale, dim3(8), dim3(512), args, 0, s); // launch: scale grid=(8,1,1) block=(512,1,1) tpb=512 smem=0 stream=s
  int bs = n > 1000 ? 512 : 256;
  scale<<<n, bs>>>(d, n);                                    // launch: scale grid=(n,1,1) block=(n > 1000 ? 512 : 256,1,1) tpb=<=512 smem=0
  // Issue 11: a block of c / 2 threads with c = min(m, CHUNK) (bitonic
  // sort) is at most CHUNK / 2, not unknown.
  int c = n < CHUNK ? n : CHUNK;
  scale<<<n / c, c / 2>>>(d, n);                             // launch: scale grid=(n / c,1,1) block=(c / 2,1,1) tpb=<=1024 smem=0
  scale<<<1, min(n, 128)>>>(d, n);                           // launch: scale grid=(1,1,1) block=(min(n, 128),1,1) tpb=<=128 smem=0
  scale<<<1, n>>>(d, n);                                     // launch: scale grid=(1,1,1) block=(n,1,1) tpb=? smem=0
}
