// Reference: scatter-add (segmented sum by key), accumulated in double so
// the result is independent of summation order.
#include <stdlib.h>

void scatter_add(const float *val, const int *idx, float *out, int n, int bins)
{
	double *acc = calloc((size_t)bins, sizeof(double));
	if (!acc)
		return;
	for (int i = 0; i < n; i++)
		acc[idx[i]] += val[i];
	for (int b = 0; b < bins; b++)
		out[b] = (float)acc[b];
	free(acc);
}
