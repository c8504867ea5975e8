#define N 256
#define TILE (N / 8)
#define HALF TILE/2
constexpr int B = 128;
const int W = B * 2 + 1;
int counter;

__global__ void vecadd(const float* a, const float* b, float* c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x; // form: blockDim.x*blockIdx.x + threadIdx.x
  int j = i * 2 + 3;                              // form: 2*blockDim.x*blockIdx.x + 2*threadIdx.x + 3
  int tid = threadIdx.x;
  int lane = tid % 32;                            // form: (threadIdx.x)%32
  int warp = tid / warpSize;                      // form: (threadIdx.x)/32
  int half = (2 * tid + 4) / 2;                   // form: threadIdx.x + 2
  int sh = tid << 2;                              // form: 4*threadIdx.x
  int k = TILE + HALF + B + W;                    // form: 433
  int g = counter + n;                            // form: counter + n
  int d = (n + 255) / 256;                        // form: [n + 255]/256
  int m = N % 7 + sizeof(float4) * 2;             // form: 36
  int u = a[i] > 0 ? 1 : 2;                       // form: unknown(a, blockDim.x, blockIdx.x, threadIdx.x)
  int ind = (int)b[(int)a[i]];                    // form: unknown(a, b, blockDim.x, blockIdx.x, threadIdx.x)
  int sel = n > 0 ? i : i;                        // form: blockDim.x*blockIdx.x + threadIdx.x
  int neg = -(tid - n);                           // form: n - threadIdx.x
  int mm = min(3, 5) + max(n, 2) * 0;             // form: 3
  int mul = __mul24(blockIdx.x, blockDim.x);      // form: blockDim.x*blockIdx.x
  int y = 0x10 + 010 + 0b11 + 1'000 + 4u;         // form: 1031
  int t16 = (tid & 15) + 16 * (tid >> 4);         // form: (threadIdx.x)&15 + 16*(threadIdx.x)/16
  int sw = tid ^ 1;                               // form: (threadIdx.x)^1
  c[i] = a[i] + b[i];
}

__global__ void loops(float* out, const float* in, int n, int stride) {
  for (int i = threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
    int x = i;                                    // form: blockDim.x*gridDim.x*i + threadIdx.x
  }
  for (int k = 0; k < n; k++) {
    int x = k * stride;                           // form: k*stride
  }
  for (int k = n - 1; k >= 0; --k) {
    int x = k;                                    // form: -k + n - 1
  }
  int idx = blockIdx.x * blockDim.x + threadIdx.x;
  while (idx < n) {
    int x = idx;                                  // form: blockDim.x*blockIdx.x + blockDim.x*gridDim.x*idx + threadIdx.x
    idx = idx + blockDim.x * gridDim.x;
  }
  for (int s = blockDim.x / 2; s > 0; s >>= 1) {
    int x = threadIdx.x + s;                      // form: s + threadIdx.x
  }
  float sum = 0.0f;
  for (int k = 0; k < n; k++) sum += in[k];
  int bad = sum;                                  // form: unknown(in, k)
  int t = threadIdx.x;
  t *= 2;
  int tt = t;                                     // form: non-affine(threadIdx.x)
  int r;
  r = threadIdx.y * 32;
  int rr = r;                                     // form: 32*threadIdx.y
  int p = 1;
  if (n > 4) p = 2;
  int pp = p;                                     // form: unknown
}

__global__ void flow(float* out, int n, int w) {
  int x = blockIdx.x * 32 + threadIdx.x;
  int a = x;                                      // form: 32*blockIdx.x + threadIdx.x
  x = blockIdx.y * 32 + threadIdx.y;
  int b = x;                                      // form: 32*blockIdx.y + threadIdx.y
  if (n > 0) x = 7;
  int c = x;                                      // form: unknown(blockIdx.x, blockIdx.y, threadIdx.x, threadIdx.y)
  int y = 1;
  for (int k = 0; k < n; k++) {
    int e = y;                                    // form: unknown
    y = 2;
  }
  int z = 3;
  for (int k = 0; k < n; k++) {
    z = k;
    int f = z;                                    // form: k
  }
}

#define IDX(r, c) ((r) * W + (c))
#define SQ(x) x * x
__global__ void macros(float* out, int n) {
  int row = blockIdx.y, col = threadIdx.x;
  int a = IDX(row, col);                          // form: 257*blockIdx.y + threadIdx.x
  int b = SQ(col + 1);                            // form: 2*threadIdx.x + 1
  int c = IDX(IDX(1, 2), col);                    // form: threadIdx.x + 66563
}
