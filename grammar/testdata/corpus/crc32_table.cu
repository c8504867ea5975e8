#include <cuda_runtime.h>
#include <cstdint>

__constant__ uint32_t c_crc_table[256];

void init_crc_table() {
  uint32_t table[256];
  for (uint32_t i = 0; i < 256; ++i) {
    uint32_t c = i;
    for (int k = 0; k < 8; ++k) c = (c & 1) ? 0xEDB88320u ^ (c >> 1) : c >> 1;
    table[i] = c;
  }
  cudaMemcpyToSymbol(c_crc_table, table, sizeof(table));
}

// CRC-32 of many independent fixed-size records, one thread per record.
__global__ void crc32_records(const uint8_t *__restrict__ data, int record_len, int nrecords,
                              uint32_t *__restrict__ out) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= nrecords) return;
  const uint8_t *p = data + (size_t)r * record_len;
  uint32_t crc = 0xFFFFFFFFu;
  for (int i = 0; i < record_len; ++i) crc = c_crc_table[(crc ^ p[i]) & 0xFF] ^ (crc >> 8);
  out[r] = crc ^ 0xFFFFFFFFu;
}
