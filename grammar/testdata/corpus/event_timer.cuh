#pragma once
#include <cuda_runtime.h>
#include <stdexcept>
#include <string>

namespace perf {

// RAII wrapper around a pair of CUDA events measuring GPU time on a stream.
class EventTimer {
 public:
  explicit EventTimer(cudaStream_t stream = nullptr) : stream_(stream) {
    check(cudaEventCreate(&start_), "cudaEventCreate");
    check(cudaEventCreate(&stop_), "cudaEventCreate");
  }
  EventTimer(const EventTimer &) = delete;
  EventTimer &operator=(const EventTimer &) = delete;
  ~EventTimer() {
    cudaEventDestroy(start_);
    cudaEventDestroy(stop_);
  }

  void start() { check(cudaEventRecord(start_, stream_), "cudaEventRecord"); }

  float stop_ms() {
    check(cudaEventRecord(stop_, stream_), "cudaEventRecord");
    check(cudaEventSynchronize(stop_), "cudaEventSynchronize");
    float ms = 0.f;
    check(cudaEventElapsedTime(&ms, start_, stop_), "cudaEventElapsedTime");
    return ms;
  }

  template <typename F>
  float time_ms(F &&f, int reps = 10) {
    f();  // warm-up
    start();
    for (int i = 0; i < reps; ++i) f();
    return stop_ms() / reps;
  }

 private:
  static void check(cudaError_t e, const char *what) {
    if (e != cudaSuccess) throw std::runtime_error(std::string(what) + ": " + cudaGetErrorString(e));
  }
  cudaStream_t stream_;
  cudaEvent_t start_{}, stop_{};
};

}  // namespace perf
