// A header shared between host-only C++ and CUDA translation units.
#pragma once

#include <cstddef>

#ifdef __CUDACC__
#define CP_HD __host__ __device__
#define CP_DEV __device__
#define CP_ALIGN(n) __align__(n)
#else
#define CP_HD
#define CP_DEV
#define CP_ALIGN(n) alignas(n)
#endif

namespace geom {

struct CP_ALIGN(16) Vec3 {
  float x, y, z, pad;
};

CP_HD inline Vec3 make_vec3(float x, float y, float z) { return Vec3{x, y, z, 0.f}; }
CP_HD inline Vec3 operator+(Vec3 a, Vec3 b) { return make_vec3(a.x + b.x, a.y + b.y, a.z + b.z); }
CP_HD inline Vec3 operator-(Vec3 a, Vec3 b) { return make_vec3(a.x - b.x, a.y - b.y, a.z - b.z); }
CP_HD inline Vec3 operator*(float s, Vec3 a) { return make_vec3(s * a.x, s * a.y, s * a.z); }
CP_HD inline float dot(Vec3 a, Vec3 b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
CP_HD inline Vec3 cross(Vec3 a, Vec3 b) {
  return make_vec3(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x);
}

// The device pass of nvcc defines __CUDA_ARCH__; the host pass and plain C++
// compilers do not.
CP_HD inline float fast_rsqrt(float v) {
#if defined(__CUDA_ARCH__)
  return rsqrtf(v);
#else
  return 1.0f / __builtin_sqrtf(v);
#endif
}

CP_DEV inline float lane_sum(float v) {
  for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(0xffffffffu, v, o);
  return v;
}

CP_HD inline Vec3 normalize(Vec3 a) { return fast_rsqrt(dot(a, a)) * a; }

}  // namespace geom
