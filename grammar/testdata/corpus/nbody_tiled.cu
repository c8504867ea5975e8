#include <cuda_runtime.h>

#define SOFTENING 1e-9f

// All-pairs n-body with shared-memory tiles of body positions (float4: xyz + mass).
__device__ float3 bodyBodyInteraction(float4 bi, float4 bj, float3 ai) {
  float3 r;
  r.x = bj.x - bi.x;
  r.y = bj.y - bi.y;
  r.z = bj.z - bi.z;
  float distSqr = r.x * r.x + r.y * r.y + r.z * r.z + SOFTENING;
  float invDist = rsqrtf(distSqr);
  float invDist3 = invDist * invDist * invDist;
  float s = bj.w * invDist3;
  ai.x += r.x * s;
  ai.y += r.y * s;
  ai.z += r.z * s;
  return ai;
}

template <int BLOCK_SIZE>
__global__ void integrateBodies(float4 *__restrict__ newPos, float4 *__restrict__ vel, const float4 *__restrict__ oldPos,
                                float dt, int n) {
  __shared__ float4 sh[BLOCK_SIZE];
  int i = blockIdx.x * BLOCK_SIZE + threadIdx.x;
  float4 myPos = i < n ? oldPos[i] : make_float4(0, 0, 0, 0);
  float3 acc = {0.0f, 0.0f, 0.0f};
  for (int tile = 0; tile < gridDim.x; tile++) {
    int j = tile * BLOCK_SIZE + threadIdx.x;
    sh[threadIdx.x] = j < n ? oldPos[j] : make_float4(0, 0, 0, 0);
    __syncthreads();
#pragma unroll 8
    for (int k = 0; k < BLOCK_SIZE; k++) acc = bodyBodyInteraction(myPos, sh[k], acc);
    __syncthreads();
  }
  if (i < n) {
    float4 v = vel[i];
    v.x += acc.x * dt;
    v.y += acc.y * dt;
    v.z += acc.z * dt;
    myPos.x += v.x * dt;
    myPos.y += v.y * dt;
    myPos.z += v.z * dt;
    newPos[i] = myPos;
    vel[i] = v;
  }
}

void step(float4 *newPos, float4 *vel, const float4 *oldPos, float dt, int n) {
  constexpr int B = 256;
  integrateBodies<B><<<(n + B - 1) / B, B>>>(newPos, vel, oldPos, dt, n);
}
