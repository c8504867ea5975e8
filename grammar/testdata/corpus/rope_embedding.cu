#include <cuda_fp16.h>

// Rotary position embedding applied in place to query and key heads
// (GPT-NeoX layout: rotate halves).
template <typename scalar_t>
__device__ __forceinline__ void apply_rotary(scalar_t *__restrict__ arr, const float *__restrict__ cos_ptr,
                                             const float *__restrict__ sin_ptr, int rot_offset, int embed_dim) {
  int x_index = rot_offset;
  int y_index = embed_dim + rot_offset;
  const float cos = cos_ptr[x_index];
  const float sin = sin_ptr[x_index];
  const float x = static_cast<float>(arr[x_index]);
  const float y = static_cast<float>(arr[y_index]);
  arr[x_index] = static_cast<scalar_t>(x * cos - y * sin);
  arr[y_index] = static_cast<scalar_t>(y * cos + x * sin);
}

template <typename scalar_t>
__global__ void rotary_embedding_kernel(const long *__restrict__ positions, scalar_t *__restrict__ query,
                                        scalar_t *__restrict__ key, const float *__restrict__ cos_cache,
                                        const float *__restrict__ sin_cache, const int rot_dim,
                                        const int query_stride, const int key_stride, const int num_heads,
                                        const int num_kv_heads, const int head_size) {
  const int token_idx = blockIdx.x;
  long pos = positions[token_idx];
  const float *cos_ptr = cos_cache + pos * (rot_dim / 2);
  const float *sin_ptr = sin_cache + pos * (rot_dim / 2);
  const int embed_dim = rot_dim / 2;

  const int nq = num_heads * embed_dim;
  for (int i = threadIdx.x; i < nq; i += blockDim.x) {
    const int head_idx = i / embed_dim;
    const long token_head = token_idx * query_stride + head_idx * head_size;
    apply_rotary<scalar_t>(query + token_head, cos_ptr, sin_ptr, i % embed_dim, embed_dim);
  }
  const int nk = num_kv_heads * embed_dim;
  for (int i = threadIdx.x; i < nk; i += blockDim.x) {
    const int head_idx = i / embed_dim;
    const long token_head = token_idx * key_stride + head_idx * head_size;
    apply_rotary<scalar_t>(key + token_head, cos_ptr, sin_ptr, i % embed_dim, embed_dim);
  }
}

void rotary_embedding(const long *positions, float *q, float *k, const float *cos_c, const float *sin_c, int tokens,
                      int rot_dim, int heads, int kv_heads, int head_size, cudaStream_t stream) {
  dim3 grid(tokens);
  dim3 block(std::min(heads * rot_dim / 2, 512));
  rotary_embedding_kernel<float><<<grid, block, 0, stream>>>(positions, q, k, cos_c, sin_c, rot_dim,
                                                             heads * head_size, kv_heads * head_size, heads,
                                                             kv_heads, head_size);
}
