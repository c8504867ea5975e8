#define BS 256
__global__ void __launch_bounds__(BS, 2) k(float* x) { // want kernel=k launch_bounds:"1"
  x[threadIdx.x] = 0;
}

__global__ void __launch_bounds__(2048) toobig(float* x) { // want kernel=toobig launch_bounds:"1" `__launch_bounds__ maximum of 2048 threads exceeds the NVIDIA H200 limit of 1024`
}

__global__ void __launch_bounds__(100) odd(float* x) { // want kernel=odd launch_bounds:"1" `maximum of 100 threads is not a multiple of the warp size \(32\)`
}

void host(float* x, int n) {
  k<<<n / 512, 512>>>(x); // want `launch of k with 512 threads per block exceeds its __launch_bounds__ maximum of 256: the launch fails`
  k<<<n / 256, BS>>>(x);
  k<<<n, dim3(16, 16)>>>(x);
}
