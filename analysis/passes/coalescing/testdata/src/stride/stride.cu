// Stride-k float access needs min(k, 8) times the ideal 4 sectors.

__global__ void s1(const float* in, float* out) { // want kernel=s1 coal:"1" coal_unknown:"0"
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = in[i];
}

__global__ void s2(const float* in, float* out) { // want kernel=s2 coal:"0.75"
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = in[2 * i]; // want `global load from in\[2 \* i\] is uncoalesced: .* 2 elements \(8 B\) apart, so a warp touches 8 32-byte sectors instead of 4 \(2.0x`
}

__global__ void s4(const float* in, float* out) { // want kernel=s4 coal:"0.25"
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[4 * i] = in[4 * i]; // want `store to out\[4 \* i\] .* 16 32-byte sectors instead of 4 \(4.0x` `load from in\[4 \* i\] .* \(4.0x`
}

#define STRIDE 8
__global__ void s8(const float* in, float* out) { // want kernel=s8 coal:"0.125"
  int tid = threadIdx.x;
  out[tid * STRIDE] = in[tid * STRIDE]; // want `32 32-byte sectors instead of 4 \(8.0x` `\(8.0x`
}

__global__ void s32(float* data) { // want kernel=s32 coal:"0.125"
  data[threadIdx.x * 32] += 1.0f; // want `read-modify-write of data\[threadIdx.x \* 32\] .* 32 elements \(128 B\) apart`
}

// Row-major matrix read with the thread on the row: stride n, symbolic.
__global__ void rows(const float* A, float* y, int n) { // want kernel=rows coal:"0.176"
  int row = blockIdx.x * blockDim.x + threadIdx.x;
  float sum = 0.0f;
  for (int k = 0; k < n; k++) sum += A[row * n + k]; // want `A\[row \* n \+ k\] is uncoalesced: neighbouring threads \(threadIdx.x\) are n elements apart`
  y[row] = sum;
}

// double and float4 at stride 1 are ideal; a uniform index is a broadcast.
__global__ void wide(const double* d, const float4* v, float4* o, const float* c, int n) { // want kernel=wide coal:"1"
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  o[i] = make_float4(d[i], c[blockIdx.x], c[n], v[i].x);
}

// Data-dependent indices are unknown, not good.
__global__ void gather(const float* in, const int* idx, float* out) { // want kernel=gather coal:"1" coal_unknown:"0.333"
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = in[idx[i]];
}

__device__ int hash(int);
__global__ void allunknown(const float* in, float* out) { // want kernel=allunknown coal:"0" coal_unknown:"1"
  out[hash(threadIdx.x)] = in[hash(threadIdx.x + 1)];
}

// The 2-D decomposition of a 1-D block: lanes 0-15 read one row, 16-31 the
// next, 16 floats each — 4 sectors, ideal.
__global__ void tiles(const float* A, float* out, int K) { // want kernel=tiles coal:"1"
  int t = threadIdx.x;
  int r = t / 16, c = t % 16;
  out[t] = A[r * K + c];
}

// A swizzle: eight groups of four lanes, 256 bytes apart, read neighbouring
// elements — 8 sectors instead of 4.
__global__ void scatter(const float* in, float* out) { // want kernel=scatter coal:"0.75"
  int t = threadIdx.x;
  out[t] = in[(t % 8) * 64 + t / 8]; // want `lanes of a warp touch 8 32-byte sectors instead of 4 \(2.0x`
}

// A device function's accesses count for the kernel that calls it.
__device__ float at(const float* p, int i) { return p[3 * i]; } // want `3 elements \(12 B\) apart`
__global__ void viafunc(const float* in, float* out) { // want kernel=viafunc coal:"0.667±0.01"
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = at(in, i);
}

__global__ void nomem(int n) { // want kernel=nomem coal:"1" coal_unknown:"0"
}

// static_cast<int64_t>(...), PyTorch's indexing, passes its value through
// as (int64_t)... does (it was an unknown call: the stride went unseen).
__global__ void cast64(const float* x, float* y, int n, int s) { // want kernel=cast64 coal_unknown:"0"
  auto i = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) y[i * s] = x[i]; // want `global store to y\[i \* s\] is uncoalesced`
}

// One member of a struct the file defines, per thread: the struct's size
// is the stride (it was unknown, taken as 4 bytes: "coalesced").
struct Particle { float x, y, z, vx, vy, vz, m, q; }; // 32 bytes
typedef struct { double d; float f; } Pair;          // 16 bytes: f at 8
__global__ void aos(const Particle* __restrict__ p, const Pair* __restrict__ q, float* __restrict__ out, int n) { // want kernel=aos coal_load:"0.1875" coal_store:"1"
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = p[i].x + q[i].f; // want `global load from p\[i\] is uncoalesced: .* 8 elements \(32 B\) apart` `global load from q\[i\] is uncoalesced: .* 4 elements \(16 B\) apart`
}

// Members through -> and through a C-style struct type (m and q are
// neighbours: together two of every eight floats).
__global__ void aos2(const struct Particle* __restrict__ p, float* __restrict__ out, int n) { // want kernel=aos2 coal_load:"0.25"
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = (p + i)->m + p[i].q; // want `global load from \(p \+ i\)->m is uncoalesced: .* 8 elements \(32 B\) apart` `global load from p\[i\] is uncoalesced`
}

// Two kernels of one name in two namespaces are two kernels, named by
// their qualified names (their features had been merged into one row).
namespace fp32 {
__global__ void scale(float* x) { x[threadIdx.x] *= 2.0f; } // want kernel=fp32::scale coal:"1"
}
namespace fp64 {
__global__ void scale(double* x) { x[8 * threadIdx.x] *= 2.0; } // want kernel=fp64::scale coal:"0.25" `read-modify-write of x\[8 \* threadIdx.x\] is uncoalesced`
}
