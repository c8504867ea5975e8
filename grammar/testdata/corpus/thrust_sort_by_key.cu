#include <thrust/device_vector.h>
#include <thrust/host_vector.h>
#include <thrust/sort.h>
#include <thrust/sequence.h>
#include <thrust/gather.h>
#include <thrust/random.h>
#include <thrust/execution_policy.h>

struct Particle {
  float x, y, z;
  int cell;
};

// Sort particles by their grid cell: sort keys with an index permutation,
// then gather the structure-of-arrays fields.
void sort_by_cell(thrust::device_vector<int> &cells, thrust::device_vector<float> &x,
                  thrust::device_vector<float> &y, thrust::device_vector<float> &z) {
  const size_t n = cells.size();
  thrust::device_vector<int> perm(n);
  thrust::sequence(perm.begin(), perm.end());
  thrust::sort_by_key(thrust::device, cells.begin(), cells.end(), perm.begin());
  thrust::device_vector<float> tmp(n);
  thrust::gather(perm.begin(), perm.end(), x.begin(), tmp.begin());
  x.swap(tmp);
  thrust::gather(perm.begin(), perm.end(), y.begin(), tmp.begin());
  y.swap(tmp);
  thrust::gather(perm.begin(), perm.end(), z.begin(), tmp.begin());
  z.swap(tmp);
}

int main() {
  thrust::default_random_engine rng(1234);
  thrust::uniform_int_distribution<int> dist(0, 63);
  thrust::host_vector<int> h_cells(1 << 16);
  for (auto &c : h_cells) c = dist(rng);
  thrust::device_vector<int> cells = h_cells;
  thrust::device_vector<float> x(cells.size(), 1.f), y(cells.size(), 2.f), z(cells.size(), 3.f);
  sort_by_cell(cells, x, y, z);
  return thrust::is_sorted(cells.begin(), cells.end()) ? 0 : 1;
}
