#include <cuda_runtime.h>
#include <cfloat>

struct Ray {
  float3 o, d;
};
struct Sphere {
  float3 c;
  float r;
  float3 albedo;
};

__device__ __forceinline__ float3 operator+(float3 a, float3 b) { return make_float3(a.x + b.x, a.y + b.y, a.z + b.z); }
__device__ __forceinline__ float3 operator-(float3 a, float3 b) { return make_float3(a.x - b.x, a.y - b.y, a.z - b.z); }
__device__ __forceinline__ float3 operator*(float s, float3 a) { return make_float3(s * a.x, s * a.y, s * a.z); }
__device__ __forceinline__ float dot3(float3 a, float3 b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
__device__ __forceinline__ float3 normalize3(float3 v) { return rsqrtf(dot3(v, v)) * v; }

__device__ bool hit(const Sphere &s, const Ray &r, float &t) {
  float3 oc = r.o - s.c;
  float b = dot3(oc, r.d);
  float c = dot3(oc, oc) - s.r * s.r;
  float disc = b * b - c;
  if (disc < 0.f) return false;
  t = -b - sqrtf(disc);
  return t > 1e-3f;
}

// One primary ray per pixel, Lambertian shading with one directional light.
__global__ void render(float3 *fb, int w, int h, const Sphere *__restrict__ spheres, int ns) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int j = blockIdx.y * blockDim.y + threadIdx.y;
  if (i >= w || j >= h) return;
  float u = (2.f * (i + 0.5f) / w - 1.f) * w / h;
  float v = 1.f - 2.f * (j + 0.5f) / h;
  Ray r{make_float3(0.f, 0.f, 0.f), normalize3(make_float3(u, v, -1.5f))};
  float best = FLT_MAX;
  int hit_idx = -1;
  for (int k = 0; k < ns; ++k) {
    float t;
    if (hit(spheres[k], r, t) && t < best) {
      best = t;
      hit_idx = k;
    }
  }
  float3 col = make_float3(0.5f + 0.5f * v, 0.7f, 1.0f);
  if (hit_idx >= 0) {
    float3 p = r.o + best * r.d;
    float3 n = normalize3(p - spheres[hit_idx].c);
    float3 light = normalize3(make_float3(1.f, 1.f, 1.f));
    col = fmaxf(dot3(n, light), 0.f) * spheres[hit_idx].albedo;
  }
  fb[j * w + i] = col;
}
