// Includes <utility> for std::pair, which the lean headers mark as
// included (lean.h): the lean compile fails naming std's missing member,
// and the full headers must answer (LeanInclude).
#include <utility>

__global__ void fill(float *y, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = 1.0f;
}

void launch(float *y, int n) {
    std::pair<int, int> grid = std::make_pair((n + 255) / 256, 256);
    fill<<<grid.first, grid.second>>>(y, n);
}
