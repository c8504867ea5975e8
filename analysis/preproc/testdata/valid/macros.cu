// Valid CUDA that the grammar reads only after preproc.Recover: each
// construct is one the real-world corpus (bench/realworld) showed.
#include <typeinfo>
CUB_NAMESPACE_BEGIN

enum Algo
{
  ALGO_A,
  ALGO_B,
};

CUTLASS_HOST_DEVICE void scale(float *x, int n) { x[0] *= n; }

CCCL_DEPRECATED_BECAUSE("use scale") _CCCL_DEVICE _CCCL_FORCEINLINE void old_scale(float *x) { x[0] *= 2; }

void CUDART_CB done(cudaStream_t s, cudaError_t e, void *p) {}

template <typename T>
__global__ void kern(T *x, int n)
{
  _CCCL_PRAGMA_UNROLL_FULL()
  for (int i = 0; i < 4; ++i) {
    x[threadIdx.x + i * n] += 1;
  }
  CUTLASS_PRAGMA_UNROLL
  for (int i = 0; i < 4; ++i) {
    x[i] = 0;
  }
  if CUB_DETAIL_CONSTEXPR_ISH (sizeof(T) == 4) {
    x[0] = 1;
  }
  NV_IF_ELSE_TARGET(NV_IS_HOST, (x[1] = 2;), (x[1] = 3;));
}

template <typename EnvT>
int run(float *x, const EnvT &env = {}, int cc = {10, 0})
{
  if (typeid(EnvT) == typeid(double)) {
    return 1;
  }
  return typename EnvT::Policy{}.Invoke(x);
}

template __global__ void kern<float>(float *, int);
extern template int run<int>(float *, const int &, int);

void launch(float *x, int n,
#if WITH_STREAM
            cudaStream_t stream
#else
            int device
#endif
)
{
  kern<<<1, 32>>>(x, n);
}

CUB_NAMESPACE_END
