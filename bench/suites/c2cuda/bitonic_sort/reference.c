// Reference: ascending sort of n floats with the C library's qsort.
#include <stdlib.h>

static int cmp_float(const void *pa, const void *pb)
{
	float a = *(const float *)pa, b = *(const float *)pb;
	return (a > b) - (a < b);
}

void bitonic_sort(float *data, int n)
{
	if (n > 1)
		qsort(data, (size_t)n, sizeof(float), cmp_float);
}
