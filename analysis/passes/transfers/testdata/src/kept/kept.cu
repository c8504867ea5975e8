// Copies in loops that cannot be hoisted or batched: no finding. Each
// comes from a pattern of the real-world corpus (bench/realworld).
#include <cuda_runtime.h>

struct Plan { float *d_data, *h_data; int n; cudaStream_t stream; };

__global__ void step(float *x, float *sum) { x[threadIdx.x] += 1.0f; }

// a loop over devices, each with its own buffers and stream
void per_device(Plan *plan, int gpus) {
  for (int i = 0; i < gpus; i++) {
    cudaSetDevice(i);
    cudaMemcpyAsync(plan[i].d_data, plan[i].h_data, plan[i].n * sizeof(float), cudaMemcpyHostToDevice, plan[i].stream);
  }
}

// one buffer per tensor
void per_buffer(float **dev, float **host, size_t *size, int count) {
  for (int t = 0; t < count; t++) {
    cudaMemcpy(dev[t], host[t], size[t], cudaMemcpyHostToDevice);
  }
}

// device-to-device and peer copies are not host–device transfers
void on_device(float *a, float *b, int n, int steps) {
  for (int s = 0; s < steps; s++) {
    cudaMemcpy(a, b, n * sizeof(float), cudaMemcpyDeviceToDevice);
    cudaMemcpyPeer(a, 1, b, 0, n * sizeof(float));
  }
}

// an async pipeline on streams already overlaps copies and kernels
void pipeline(float *d, float *h, int n, int frames, cudaStream_t s) {
  for (int f = 0; f < frames; f++) {
    cudaMemcpyAsync(d, h, n * sizeof(float), cudaMemcpyHostToDevice, s);
    step<<<1, 256, 0, s>>>(d, d);
  }
}

// once, on the first step: not every iteration
void first_step(float *d, float *h, int n, int steps) {
  for (int i = 0; i < steps; i++) {
    if (i == 0) {
      cudaMemcpy(d, h, n * sizeof(float), cudaMemcpyHostToDevice);
    }
    step<<<1, 256>>>(d, d);
  }
}

// the host decides on the value it reads back
void converge(float *d, float *d_sum, float tol) {
  float sum = 1.0f;
  for (int k = 0; k < 1000; k++) {
    step<<<1, 256>>>(d, d_sum);
    cudaMemcpy(&sum, d_sum, sizeof(float), cudaMemcpyDeviceToHost);
    if (sum < tol) break;
  }
}

// a timing loop repeats the copy to measure it
void bench(float *d, float *h, int n, int nreps) {
  cudaEvent_t start, stop;
  cudaEventRecord(start, 0);
  for (int r = 0; r < nreps; r++) {
    cudaMemcpy(h, d, n * sizeof(float), cudaMemcpyDeviceToHost);
  }
  cudaEventRecord(stop, 0);
}

// the same copy every iteration of a plain loop is still reported
void repeat(float *d, float *h, int n, int steps) {
  for (int i = 0; i < steps; i++) {
    cudaMemcpy(d, h, n * sizeof(float), cudaMemcpyHostToDevice); // want `cudaMemcpy inside the loop over i repeats a host–device transfer`
    step<<<1, 256>>>(d, d);
  }
}

// a loop over problem sizes copies a different amount each time
void sizes(unsigned *d, unsigned *h) {
  for (int size = 1; size < (1 << 20); size *= 2) {
    cudaMemcpy(d, h, size * sizeof(unsigned), cudaMemcpyHostToDevice);
  }
}

// each iteration reads back what its kernel computed (to check it)
void verify(float *d, float *h, int n, int kernels) {
  for (int k = 0; k < kernels; k++) {
    step<<<1, 256>>>(d, d);
    cudaMemcpy(h, d, n * sizeof(float), cudaMemcpyDeviceToHost);
  }
}
