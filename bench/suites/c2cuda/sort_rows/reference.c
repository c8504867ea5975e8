// C reference for sort_rows: qsort of every row.
#include <stdlib.h>
#include <string.h>

static int cmp_u32(const void *a, const void *b) {
  unsigned int x = *(const unsigned int *)a, y = *(const unsigned int *)b;
  return (x > y) - (x < y);
}

void sort_rows(const unsigned int *in, unsigned int *out, int rows, int cols) {
  memcpy(out, in, sizeof(unsigned int) * (size_t)rows * cols);
  for (int r = 0; r < rows; r++) qsort(out + (long long)r * cols, (size_t)cols, sizeof(unsigned int), cmp_u32);
}
