__global__ void ints(int* a, int n) { // want kernel=ints flops:"0" ops:"6"
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  a[i] = (i << 2) ^ (n % 7) - 1;
}
