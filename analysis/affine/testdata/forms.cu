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
  long sc = static_cast<long>(blockIdx.x) * 4 + tid; // form: 4*blockIdx.x + threadIdx.x
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

// The preprocessor does not expand a macro inside its own expansion
// (C11 6.10.3.4p2): the name stays a name. A doubling chain is evaluated
// once per macro and use, not 2^n times; past maxDepth it is unknown.
#define SELF (SELF + 1)
#define PING (PONG * 2)
#define PONG (PING + 3)
#define D0 threadIdx.x
#define FR(x) (FR(x) + x)
#define FA(x) (FB(x) + FB(x + 1))
#define FB(x) (FA(x) * 2)
#define D1 (D0 + D0)
#define D2 (D1 + D1)
#define D3 (D2 + D2)
#define D4 (D3 + D3)
#define D5 (D4 + D4)
#define D6 (D5 + D5)
#define D7 (D6 + D6)
#define D8 (D7 + D7)
#define D9 (D8 + D8)
#define D10 (D9 + D9)
#define D11 (D10 + D10)
#define D12 (D11 + D11)
#define D13 (D12 + D12)
#define D14 (D13 + D13)
#define D15 (D14 + D14)
#define D16 (D15 + D15)
#define D17 (D16 + D16)
#define D18 (D17 + D17)
#define D19 (D18 + D18)
#define D20 (D19 + D19)
#define D21 (D20 + D20)
#define D22 (D21 + D21)
#define D23 (D22 + D22)
#define D24 (D23 + D23)
#define D25 (D24 + D24)
#define D26 (D25 + D25)
#define D27 (D26 + D26)
#define D28 (D27 + D27)
#define D29 (D28 + D28)
#define D30 (D29 + D29)
#define D31 (D30 + D30)
#define D32 (D31 + D31)
#define D33 (D32 + D32)
#define D34 (D33 + D33)
#define D35 (D34 + D34)
#define D36 (D35 + D35)
#define D37 (D36 + D36)
#define D38 (D37 + D37)
#define D39 (D38 + D38)
#define D40 (D39 + D39)
__global__ void recursive_macros(float* out) {
  int s = SELF;                                   // form: SELF + 1
  int p = PING;                                   // form: 2*PING + 6
  int d = D20;                                    // form: 1048576*threadIdx.x
  int e = D40;                                    // form: unknown
  int f = FR(threadIdx.x);                        // form: unknown(threadIdx.x)
  int g = FA(1);                                  // form: unknown
  int h = IDX(SQ(IDX(0, col)), 1);                // form: 257*col*col + 1
}
