#define WARP 32
#define TID threadIdx.x

__global__ void branches(float* out, const float* in, int n) {
  int tid = threadIdx.x;                          // var: varying
  int gid = blockIdx.x * blockDim.x + tid;        // var: varying
  int warp = tid / 32;                            // var: warp-uniform
  int warp2 = tid >> 5;                           // var: warp-uniform
  int warp3 = tid / warpSize;                     // var: warp-uniform
  int warp4 = gid / WARP;                         // var: warp-uniform
  int base = tid & ~31;                           // var: warp-uniform
  int lane = tid % 32;                            // var: varying
  int lane2 = tid & 31;                           // var: varying
  int half = tid / 16;                            // var: varying
  int bid = blockIdx.x * 2 + gridDim.x;           // var: uniform
  int lin = threadIdx.y * blockDim.x + threadIdx.x;
  int wl = lin / 32;                              // var: warp-uniform
  float v = in[gid];                              // var: varying
  float b = in[blockIdx.x];                       // var: uniform
  float s = __shfl_down_sync(0xffffffff, b, 1);   // var: varying
  float bc = __shfl_sync(0xffffffff, v, 0);       // var: warp-uniform
  unsigned m = __ballot_sync(0xffffffff, v > 0);  // var: warp-uniform
  int old = atomicAdd(out, 1.0f);                 // var: varying
  int flag = 0;
  if (tid == 3) flag = 1;                         // cond: varying
  int f2 = flag;                                  // var: varying
  if (threadIdx.x % 2) out[tid] = 0;              // cond: varying
  if (threadIdx.x / 32 == 0) out[tid] = 1;        // cond: warp-uniform
  if (TID / WARP == 1) out[tid] = 1;              // cond: warp-uniform
  if (warp == 2) out[tid] = 2;                    // cond: warp-uniform
  if (tid < 32) out[tid] = 3;                     // cond: warp-uniform
  if (tid <= 31) out[tid] = 3;                    // cond: warp-uniform
  if (tid > 63) out[tid] = 3;                     // cond: warp-uniform
  if (tid < 16) out[tid] = 3;                     // cond: varying
  if (tid == 0) out[tid] = 4;                     // cond: varying
  if (lane == 0) out[tid] = 4;                    // cond: varying
  if (gid < n) out[gid] = 5;                      // cond: varying
  if (blockIdx.x == 0 && n > 4) out[0] = 6;       // cond: uniform
  if (blockDim.x >= 128) out[0] = 6;              // cond: uniform
  if (b > 0.0f) out[0] = 7;                       // cond: uniform
  if (v > 0.0f) out[0] = 7;                       // cond: varying
  if (m != 0) out[0] = 7;                         // cond: warp-uniform
  if (threadIdx.y == 0) out[0] = 8;               // cond: varying
  for (int i = 0; i < n; i++) out[i] = 0;         // cond: uniform
  for (int i = tid; i < n; i += blockDim.x) out[i] = 0; // cond: varying
  for (int s2 = blockDim.x / 2; s2 > 0; s2 >>= 1) {     // cond: uniform
    if (tid < s2) out[tid] += out[tid + s2];      // cond: varying
  }
  while (flag) { flag = 0; }                      // cond: varying
  float acc[4];
  acc[0] = 1.0f;
  acc[1] = v;
  float a1 = acc[0];                              // var: varying
  if (tid < 32) {
    if (n > 0) {
      out[0] = 1;                                 // control: warp-uniform
    }
  }
  if (n > 0) out[1] = 2;                          // control: uniform
  if (lane == 0) { out[2] = 3; }
  int inner = 0;
  if (lane == 0) { inner = 5; }
  int i3 = inner;                                 // var: varying
}

__device__ float helper(float x, int k) {
  float y = x * 2.0f;                             // var: uniform
  if (k > 0) y = 1.0f;                            // cond: uniform
  return y;
}

__global__ void asm_lane(int* out) {
  unsigned lid;
  asm volatile("mov.u32 %0, %%laneid;" : "=r"(lid));
  unsigned l2 = lid;                              // var: varying
  unsigned c;
  asm("mov.u32 %0, 7;" : "=r"(c));
  unsigned c2 = c;                                // var: uniform
}

// Macros naming themselves or each other end (C11 6.10.3.4p2), and a
// doubling chain costs one expansion per macro, not 2^40.
#define T_SELF (T_SELF + threadIdx.x)
#define T_PING (T_PONG * 2)
#define T_PONG (T_PING + 3)
#define T0 threadIdx.x
#define T1 (T0 + T0)
#define T2 (T1 + T1)
#define T3 (T2 + T2)
#define T4 (T3 + T3)
#define T5 (T4 + T4)
#define T6 (T5 + T5)
#define T7 (T6 + T6)
#define T8 (T7 + T7)
#define T9 (T8 + T8)
#define T10 (T9 + T9)
#define T11 (T10 + T10)
#define T12 (T11 + T11)
#define T13 (T12 + T12)
#define T14 (T13 + T13)
#define T15 (T14 + T14)
#define T16 (T15 + T15)
#define T17 (T16 + T16)
#define T18 (T17 + T17)
#define T19 (T18 + T18)
#define T20 (T19 + T19)
#define T21 (T20 + T20)
#define T22 (T21 + T21)
#define T23 (T22 + T22)
#define T24 (T23 + T23)
#define T25 (T24 + T24)
#define T26 (T25 + T25)
#define T27 (T26 + T26)
#define T28 (T27 + T27)
#define T29 (T28 + T28)
#define T30 (T29 + T29)
#define T31 (T30 + T30)
#define T32 (T31 + T31)
#define T33 (T32 + T32)
#define T34 (T33 + T33)
#define T35 (T34 + T34)
#define T36 (T35 + T35)
#define T37 (T36 + T36)
#define T38 (T37 + T37)
#define T39 (T38 + T38)
#define T40 (T39 + T39)
__global__ void recursive_macros(float* out) {
  int s = T_SELF;                                 // var: varying
  int p = T_PING;                                 // var: uniform
  int d = T40;                                    // var: varying
}
