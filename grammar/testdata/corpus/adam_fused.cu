#include <cuda_runtime.h>

// Fused Adam step (bias-corrected), vectorized by 4 when the sizes allow.
struct AdamParams {
  float lr, beta1, beta2, eps, weight_decay;
  float bias_correction1, bias_correction2;
};

__device__ __forceinline__ void adam_update(float &p, float g, float &m, float &v, const AdamParams &a) {
  g += a.weight_decay * p;
  m = a.beta1 * m + (1.f - a.beta1) * g;
  v = a.beta2 * v + (1.f - a.beta2) * g * g;
  float mhat = m / a.bias_correction1;
  float vhat = v / a.bias_correction2;
  p -= a.lr * mhat / (sqrtf(vhat) + a.eps);
}

__global__ void adam_step(float *__restrict__ params, const float *__restrict__ grads, float *__restrict__ exp_avg,
                          float *__restrict__ exp_avg_sq, AdamParams a, long n) {
  long i = (blockIdx.x * (long)blockDim.x + threadIdx.x) * 4;
  if (i + 3 < n) {
    float4 p = *reinterpret_cast<float4 *>(params + i);
    float4 g = *reinterpret_cast<const float4 *>(grads + i);
    float4 m = *reinterpret_cast<float4 *>(exp_avg + i);
    float4 v = *reinterpret_cast<float4 *>(exp_avg_sq + i);
    adam_update(p.x, g.x, m.x, v.x, a);
    adam_update(p.y, g.y, m.y, v.y, a);
    adam_update(p.z, g.z, m.z, v.z, a);
    adam_update(p.w, g.w, m.w, v.w, a);
    *reinterpret_cast<float4 *>(params + i) = p;
    *reinterpret_cast<float4 *>(exp_avg + i) = m;
    *reinterpret_cast<float4 *>(exp_avg_sq + i) = v;
  } else {
    for (; i < n; ++i) adam_update(params[i], grads[i], exp_avg[i], exp_avg_sq[i], a);
  }
}

void adam(float *p, const float *g, float *m, float *v, long n, int step, float lr) {
  AdamParams a{lr, 0.9f, 0.999f, 1e-8f, 0.0f, 0.f, 0.f};
  a.bias_correction1 = 1.f - powf(a.beta1, (float)step);
  a.bias_correction2 = 1.f - powf(a.beta2, (float)step);
  long threads = (n + 3) / 4;
  adam_step<<<(unsigned)((threads + 255) / 256), 256>>>(p, g, m, v, a, n);
}
