#include <cuda_runtime.h>
#include <cstdio>

__global__ void shortKernel(float *out_d, const float *in_d, int N) {
  int idx = blockIdx.x * blockDim.x + threadIdx.x;
  if (idx < N) out_d[idx] = 1.23f * in_d[idx];
}

// Capture a sequence of short kernels into a CUDA graph once, replay it many times.
void run_with_graph(float *out_d, float *in_d, int N, int nsteps, int nkernels, cudaStream_t stream) {
  int threads = 512;
  int blocks = (N + threads - 1) / threads;
  bool graphCreated = false;
  cudaGraph_t graph;
  cudaGraphExec_t instance;
  for (int istep = 0; istep < nsteps; istep++) {
    if (!graphCreated) {
      cudaStreamBeginCapture(stream, cudaStreamCaptureModeGlobal);
      for (int ikrnl = 0; ikrnl < nkernels; ikrnl++) {
        shortKernel<<<blocks, threads, 0, stream>>>(out_d, in_d, N);
      }
      cudaStreamEndCapture(stream, &graph);
      cudaGraphInstantiate(&instance, graph, 0);
      graphCreated = true;
    }
    cudaGraphLaunch(instance, stream);
    cudaStreamSynchronize(stream);
  }
  cudaGraphExecDestroy(instance);
  cudaGraphDestroy(graph);
}

// The same work built explicitly with graph nodes.
void build_graph_explicitly(float *out_d, float *in_d, int N, cudaStream_t stream) {
  cudaGraph_t graph;
  cudaGraphCreate(&graph, 0);
  cudaKernelNodeParams params = {};
  void *args[] = {&out_d, &in_d, &N};
  params.func = (void *)shortKernel;
  params.gridDim = dim3((N + 511) / 512);
  params.blockDim = dim3(512);
  params.sharedMemBytes = 0;
  params.kernelParams = args;
  cudaGraphNode_t node;
  cudaGraphAddKernelNode(&node, graph, nullptr, 0, &params);
  cudaGraphExec_t exec;
  cudaGraphInstantiate(&exec, graph, 0);
  cudaGraphLaunch(exec, stream);
  cudaStreamSynchronize(stream);
  cudaGraphExecDestroy(exec);
  cudaGraphDestroy(graph);
}
