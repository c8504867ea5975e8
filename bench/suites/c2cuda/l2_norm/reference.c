// Reference: Euclidean norm, squares summed in double.
#include <math.h>

void l2_norm(const float *x, float *result, int n)
{
	double s = 0.0;
	for (int i = 0; i < n; i++)
		s += (double)x[i] * (double)x[i];
	result[0] = (float)sqrt(s);
}
