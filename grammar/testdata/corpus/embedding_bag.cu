#include <cuda_runtime.h>
#include <cstdint>

enum class Pooling : int { Sum = 0, Mean = 1, Max = 2 };

// EmbeddingBag forward: each block handles one bag, threads stride over the
// embedding dimension.
__global__ void embedding_bag_fwd(const float *__restrict__ weight, const int64_t *__restrict__ indices,
                                  const int64_t *__restrict__ offsets, int64_t num_bags, int64_t num_indices,
                                  int dim, Pooling mode, float *__restrict__ out) {
  const int64_t bag = blockIdx.x;
  if (bag >= num_bags) return;
  const int64_t begin = offsets[bag];
  const int64_t end = bag + 1 < num_bags ? offsets[bag + 1] : num_indices;
  for (int d = threadIdx.x; d < dim; d += blockDim.x) {
    float acc = mode == Pooling::Max ? -3.4028235e38f : 0.f;
    for (int64_t k = begin; k < end; ++k) {
      float w = weight[indices[k] * dim + d];
      acc = mode == Pooling::Max ? fmaxf(acc, w) : acc + w;
    }
    if (mode == Pooling::Mean && end > begin) acc /= static_cast<float>(end - begin);
    if (mode == Pooling::Max && end == begin) acc = 0.f;
    out[bag * dim + d] = acc;
  }
}
