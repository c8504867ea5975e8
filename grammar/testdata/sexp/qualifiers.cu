// Qualifiers in every position they occur in real code.
__constant__ float kFilter[9];
__device__ __managed__ unsigned long long gCounter;
extern __shared__ float dyn[];

struct Params { const float *in; float *out; int n; };

template <int BLOCK>
__global__ void __launch_bounds__(BLOCK, 2)
blur(const __grid_constant__ Params p) {
  __shared__ float tile[BLOCK + 2];
  const float *__restrict__ in = p.in;
  int i = blockIdx.x * BLOCK + threadIdx.x;
  tile[threadIdx.x + 1] = i < p.n ? in[i] : 0.0f;
  __syncthreads();
}

__global__ __maxnreg__(32) void tiny(int *x) { *x = 1; }

__host__ __device__ __forceinline__ float lerp(float a, float b, float t) { return a + t * (b - a); }
static __device__ __noinline__ int slowpath(int v) { return v * 3; }
