// Includes C++ headers that bring <type_traits> and std::forward in on
// their own (<vector>, <tuple>, ...): libstdc++'s declarations agree with
// lean.h's, so the lean compile succeeds.
#include <algorithm>
#include <functional>
#include <memory>
#include <tuple>
#include <vector>

__global__ void fill(float *y, int n, float v) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = v;
}

template <class... A> void fwd(int blocks, A &&...a) { fill<<<blocks, 256>>>(std::forward<A>(a)...); }

void launch(float *y, int n) {
    std::vector<int> v{3, 1, 2};
    std::sort(v.begin(), v.end());
    auto t = std::make_tuple(2.0f, 1);
    std::swap(v[0], v[1]);
    fwd((n + 255) / 256, y, n, std::get<0>(t));
}
