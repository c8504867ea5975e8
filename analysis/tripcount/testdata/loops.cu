#define TILE 32
constexpr int UNROLL = 4;

__global__ void loops(float* out, const float* in, int n, int k) {
  int tid = threadIdx.x;
  for (int i = 0; i < 16; i++) {}                          // trips: constant 16 weight=16
  for (int i = 0; i <= 16; ++i) {}                         // trips: constant 17 weight=17
  for (int i = 10; i > 0; i -= 3) {}                       // trips: constant 4 weight=4
  for (int i = 0; i < TILE; i += UNROLL) {}                // trips: constant 8 weight=8
  for (int i = 5; i < 5; i++) {}                           // trips: constant 0 weight=0
  for (int i = 1; i < 1024; i *= 2) {}                     // trips: constant 10 weight=10
  for (int s = 128; s > 0; s >>= 1) {}                     // trips: constant 8 weight=8
  for (int i = 0; i < n; i++) {}                           // trips: symbolic n weight=16
  for (int i = 1; i < n - 1; i += 2) {}                    // trips: symbolic (n - 2) / 2 weight=16
  for (int t = 0; t < (n + TILE - 1) / TILE; t++) {}       // trips: symbolic (n + TILE - 1) / TILE weight=16
  for (int i = tid; i < n; i += blockDim.x) {}             // trips: symbolic (n) / (blockDim.x) weight=16
  for (int i = tid; i < 256; i += 32) {}                   // trips: constant 8 weight=8
  for (int s = blockDim.x / 2; s > 0; s >>= 1) {}          // trips: symbolic log2(blockDim.x / 2) weight=8
  for (int i = blockIdx.x * blockDim.x + tid; i < n; i += blockDim.x * gridDim.x) {} // trips: grid-stride (n) / (blockDim.x*gridDim.x) weight=1
  int idx = blockIdx.x * blockDim.x + threadIdx.x;
  while (idx < n) {                                        // trips: grid-stride (n) / (blockDim.x*gridDim.x) weight=1
    out[idx] = in[idx];
    idx += blockDim.x * gridDim.x;
  }
  int j = 0;
  do {                                                     // trips: constant 3 weight=3
    j = j + 2;
  } while (j < 6);
  for (;;) { break; }                                      // trips: unknown ? weight=16
  for (int i = 0; i < n; i = in[i]) {}                     // trips: unknown ? weight=16
  for (int i = 0; in[i] > 0; i++) {}                       // trips: unknown ? weight=16
  while (k > 0) { k--; if (in[k] > 0) k--; }               // trips: unknown ? weight=16
  for (int a = 0; a < 4; a++) {                            // trips: constant 4 weight=4
    for (int b = 0; b < n; b++) {                          // trips: symbolic n weight=16
      out[a * n + b] = 0;                                  // weight: 64 depth=2
    }
  }
  out[0] = 1;                                              // weight: 1 depth=0
}

__global__ void ilp(const float* a, float* c, int n) {
  long long stride = (long long)gridDim.x * blockDim.x;
  long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  for (; i + 3 * stride < n; i += 4 * stride) c[i] = a[i];  // trips: grid-stride (-3*blockDim.x*gridDim.x + n) / (4*blockDim.x*gridDim.x) weight=1
  for (; i < n; i += stride) c[i] = a[i];                    // trips: grid-stride (n) / (blockDim.x*gridDim.x) weight=1
  for (int k = 0; k + 4 <= 64; k += 4) c[k] = 0;             // trips: constant 16 weight=16
}
