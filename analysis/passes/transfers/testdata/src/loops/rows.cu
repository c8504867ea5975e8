// want xfer:"34"
void upload(float* d, const float* h, int rows, int cols) {
  for (int r = 0; r < rows; r++) {
    cudaMemcpy(d + r * cols, h + r * cols, cols * sizeof(float), cudaMemcpyHostToDevice); // want `cudaMemcpy inside the loop over r repeats a host–device transfer and its fixed latency every iteration \(rows times\)`
  }
  int it = 0;
  while (it < 16) {
    cudaMemcpyAsync(d, h, 4, cudaMemcpyHostToDevice, 0); // want `cudaMemcpyAsync inside the loop over it .*\(16 times\)`
    it++;
  }
  cudaMemcpy(d, h, rows * cols * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemcpyToSymbol(d, h, 4);
}
