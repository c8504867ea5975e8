// Every launch form the tpb and launch-config analyses must see.
template <typename T, int N> __global__ void fill(T *p, T v);
namespace detail { __global__ void zero(float *p); }

void run(float *d, int n, cudaStream_t stream) {
  const int threads = 256;
  dim3 grid((n + threads - 1) / threads);
  fill<float, 4><<<grid, threads>>>(d, 1.0f);
  fill<int, 1><<<grid, threads, threads * sizeof(int)>>>(reinterpret_cast<int *>(d), 0);
  detail::zero<<<grid, dim3(threads, 1, 1), 0, stream>>>(d);
  cudaLaunchKernel((void *)detail::zero, grid, dim3(threads), nullptr, 0, stream);
  int shifted = n << 2 >> 1;
}
