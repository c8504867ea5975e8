// Reference: 5x5 Gaussian (binomial) blur with clamp-to-edge borders,
// computed separably in double: vertical [1 4 6 4 1] sums for the row, then
// the horizontal taps, divided by 256.
#include <stdlib.h>

static const double taps[5] = {1.0, 4.0, 6.0, 4.0, 1.0};

static int clampi(int v, int lo, int hi)
{
	return v < lo ? lo : (v > hi ? hi : v);
}

void gaussian_blur_5x5(const float *in, float *out, int width, int height)
{
	double *col = malloc((size_t)width * sizeof(double));
	if (!col)
		return;
	for (int y = 0; y < height; y++) {
		for (int x = 0; x < width; x++) {
			double s = 0.0;
			for (int d = -2; d <= 2; d++)
				s += taps[d + 2] * in[(size_t)clampi(y + d, 0, height - 1) * width + x];
			col[x] = s;
		}
		for (int x = 0; x < width; x++) {
			double s = 0.0;
			for (int d = -2; d <= 2; d++)
				s += taps[d + 2] * col[clampi(x + d, 0, width - 1)];
			out[(size_t)y * width + x] = (float)(s / 256.0);
		}
	}
	free(col);
}
