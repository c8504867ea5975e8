#include <cub/device/device_radix_sort.cuh>
#include <cuda_runtime.h>
#include <memory>

struct CudaFree {
  void operator()(void *p) const { cudaFree(p); }
};

// Sort (key, value) pairs with cub's onesweep radix sort; reuses the temp buffer.
class PairSorter {
 public:
  explicit PairSorter(int max_items) : max_items_(max_items) {
    size_t bytes = 0;
    cub::DeviceRadixSort::SortPairs(nullptr, bytes, static_cast<const unsigned *>(nullptr),
                                    static_cast<unsigned *>(nullptr), static_cast<const int *>(nullptr),
                                    static_cast<int *>(nullptr), max_items);
    void *p = nullptr;
    cudaMalloc(&p, bytes);
    temp_.reset(p);
    temp_bytes_ = bytes;
  }

  cudaError_t sort(const unsigned *keys_in, unsigned *keys_out, const int *vals_in, int *vals_out, int n,
                   cudaStream_t stream, int begin_bit = 0, int end_bit = sizeof(unsigned) * 8) {
    if (n > max_items_) return cudaErrorInvalidValue;
    size_t bytes = temp_bytes_;
    return cub::DeviceRadixSort::SortPairs(temp_.get(), bytes, keys_in, keys_out, vals_in, vals_out, n, begin_bit,
                                           end_bit, stream);
  }

 private:
  int max_items_;
  size_t temp_bytes_ = 0;
  std::unique_ptr<void, CudaFree> temp_;
};
