#define TILE 32
__constant__ float coeffs[16];
__device__ float table[256];

__global__ void k(const float* __restrict__ a, float* b, float4* v, double* d, int n, int K) {
  __shared__ float tile[TILE][TILE + 1];
  float acc[4];
  int tx = threadIdx.x, ty = threadIdx.y;
  int i = blockIdx.x * blockDim.x + tx;
  b[i] = a[i];                               // access: b global float idx=blockDim.x*blockIdx.x + threadIdx.x w w=1 | a global float idx=blockDim.x*blockIdx.x + threadIdx.x r ro w=1
  tile[ty][tx] = a[2 * i];                   // access: tile shared float idx=threadIdx.x + 33*threadIdx.y w w=1 | a global float idx=2*blockDim.x*blockIdx.x + 2*threadIdx.x r ro w=1
  b[i] += tile[tx][ty];                      // access: b global float idx=blockDim.x*blockIdx.x + threadIdx.x rw w=1 | tile shared float idx=33*threadIdx.x + threadIdx.y r w=1
  const float* row = a + ty * K;
  for (int k = 0; k < 8; k++) acc[k & 3] = row[k];   // access: acc local float idx=non-affine(k) w w=8 | a global float idx=K*threadIdx.y + k r ro w=8
  float4 x = reinterpret_cast<const float4*>(a)[i];  // access: a global float4 idx=blockDim.x*blockIdx.x + threadIdx.x r ro w=1
  float4* b4 = reinterpret_cast<float4*>(b);
  b4[tx] = x;                                // access: b global float4 idx=threadIdx.x w w=1
  v[i].x = coeffs[tx % 16] + table[tx];      // access: v global float4 idx=blockDim.x*blockIdx.x + threadIdx.x w w=1 | coeffs constant float idx=(threadIdx.x)%16 r w=1 | table global float idx=threadIdx.x r w=1
  d[i] = *(d + tx) + __ldg(&a[tx]) + __ldg(a + 1);   // access: d global double idx=blockDim.x*blockIdx.x + threadIdx.x w w=1 | d global double idx=threadIdx.x r w=1 | a global float idx=threadIdx.x r ro w=1 | a global float idx=1 r ro w=1
  float4 q = *reinterpret_cast<const float4*>(a + 4 * i);  // access: a global float4 idx=blockDim.x*blockIdx.x + threadIdx.x r ro w=1
  (b + 8)[tx] = q.x;                         // access: b global float idx=threadIdx.x + 8 w w=1
  float* p = &b[4];
  *p = b[b[i]];                              // access: b global float idx=4 w w=1 | b global float idx=unknown(b, blockDim.x, blockIdx.x, threadIdx.x) r w=1 | b global float idx=blockDim.x*blockIdx.x + threadIdx.x r w=1
  float* self = self + 1;  // names itself: where it points is unknown (this recursed forever once)
  self[tx] = 0.0f;                           // access: self unknown float idx=threadIdx.x + 1 w w=1
}
