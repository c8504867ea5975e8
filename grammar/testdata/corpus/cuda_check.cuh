#ifndef CUDAPERF_CORPUS_CUDA_CHECK_CUH
#define CUDAPERF_CORPUS_CUDA_CHECK_CUH

#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#if defined(__CUDACC__) || defined(__HIPCC__)
#define HOST_DEVICE __host__ __device__
#define DEVICE_INLINE __device__ __forceinline__
#else
#define HOST_DEVICE
#define DEVICE_INLINE inline
#endif

inline void cuda_check_impl(cudaError_t err, const char *expr, const char *file, int line) {
  if (err != cudaSuccess) {
    std::fprintf(stderr, "%s:%d: %s failed: %s (%s)\n", file, line, expr, cudaGetErrorString(err),
                 cudaGetErrorName(err));
    std::abort();
  }
}

#define CUDA_CHECK(expr) cuda_check_impl((expr), #expr, __FILE__, __LINE__)
#define CUDA_CHECK_LAST() CUDA_CHECK(cudaGetLastError())

#ifdef NDEBUG
#define CUDA_SYNC_CHECK() CUDA_CHECK_LAST()
#else
#define CUDA_SYNC_CHECK()            \
  do {                               \
    CUDA_CHECK_LAST();               \
    CUDA_CHECK(cudaDeviceSynchronize()); \
  } while (0)
#endif

HOST_DEVICE inline int ceil_div(int a, int b) { return (a + b - 1) / b; }

DEVICE_INLINE unsigned lane_id() { return threadIdx.x & 31u; }

#endif  // CUDAPERF_CORPUS_CUDA_CHECK_CUH
