#include <cuda_runtime.h>

struct ParticleAoS {
  float x, y, z;
  float vx, vy, vz;
  float mass;
  int alive;
};

struct ParticlesSoA {
  float *x, *y, *z;
  float *vx, *vy, *vz;
  float *mass;
  int *alive;
};

// Array of structures: each thread touches a 32-byte record, so a warp's
// loads of .x are strided by 8 floats.
__global__ void advance_aos(ParticleAoS *p, int n, float dt) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n || !p[i].alive) return;
  p[i].x += p[i].vx * dt;
  p[i].y += p[i].vy * dt;
  p[i].z += p[i].vz * dt;
}

// Structure of arrays: every field access is unit-stride across the warp.
__global__ void advance_soa(ParticlesSoA p, int n, float dt) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n || !p.alive[i]) return;
  p.x[i] += p.vx[i] * dt;
  p.y[i] += p.vy[i] * dt;
  p.z[i] += p.vz[i] * dt;
}

void advance(ParticleAoS *aos, ParticlesSoA soa, int n, float dt) {
  advance_aos<<<(n + 127) / 128, 128>>>(aos, n, dt);
  advance_soa<<<(n + 127) / 128, 128>>>(soa, n, dt);
}
