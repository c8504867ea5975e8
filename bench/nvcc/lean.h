/* cudaperf's lean headers, included before cuda_runtime.h in each of
   nvcc's preprocessing passes and in its host compile (bench/nvcc:
   LeanInclude). cuda_runtime.h includes <utility>, and with it
   <type_traits>, for one use: std::forward in the template
   cudaLaunchKernelEx. Parsed in cudafe++, cicc and the host compiler,
   they are about a sixth of what every compile parses. Here <utility> is
   marked as included and std::forward is declared as libstdc++ declares
   it, so that cuda_runtime.h parses without them; a source that uses what
   <utility> would have given fails its first compile and is compiled
   again with the full headers (leanMissed). */
#ifndef CUDAPERF_LEAN_H
#define CUDAPERF_LEAN_H
#ifdef __cplusplus
namespace std {
template <typename _Tp> struct remove_reference;
template <typename _Tp> constexpr _Tp &&forward(typename remove_reference<_Tp>::type &__t) noexcept;
}
#define _GLIBCXX_UTILITY 1
#endif
#endif
