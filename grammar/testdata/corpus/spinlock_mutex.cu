#include <cuda_runtime.h>

// A global-memory spin lock: only one thread per block contends, the rest wait
// at the barrier. Fine for coarse critical sections, slow under contention.
struct Lock {
  int *mutex;
  Lock() {
    int state = 0;
    cudaMalloc((void **)&mutex, sizeof(int));
    cudaMemcpy(mutex, &state, sizeof(int), cudaMemcpyHostToDevice);
  }
  ~Lock() { cudaFree(mutex); }
  __device__ void lock() {
    while (atomicCAS(mutex, 0, 1) != 0) {
      __nanosleep(32);
    }
    __threadfence();
  }
  __device__ void unlock() {
    __threadfence();
    atomicExch(mutex, 0);
  }
};

__global__ void blockCounterLocked(Lock lock, int *nblocks) {
  if (threadIdx.x == 0) {
    lock.lock();
    *nblocks = *nblocks + 1;
    lock.unlock();
  }
}

__device__ volatile int g_flag = 0;

__global__ void producer_consumer(int *data) {
  if (blockIdx.x == 0 && threadIdx.x == 0) {
    data[0] = 42;
    __threadfence();
    g_flag = 1;
  } else if (blockIdx.x == 1 && threadIdx.x == 0) {
    while (g_flag == 0) {
    }
    data[1] = data[0] + 1;
  }
}
