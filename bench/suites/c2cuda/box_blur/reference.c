// Reference: 7x7 box blur with clamp-to-edge borders, as two separable 1-D
// sums in double (column sums for the row, then a horizontal window), which
// equals the direct 49-term mean up to rounding.
#include <stdlib.h>

#define R 3

static int clampi(int v, int lo, int hi)
{
	return v < lo ? lo : (v > hi ? hi : v);
}

void box_blur(const float *in, float *out, int width, int height)
{
	double *col = malloc((size_t)width * sizeof(double));
	if (!col)
		return;
	for (int y = 0; y < height; y++) {
		for (int x = 0; x < width; x++) {
			double s = 0.0;
			for (int d = -R; d <= R; d++)
				s += in[(size_t)clampi(y + d, 0, height - 1) * width + x];
			col[x] = s;
		}
		for (int x = 0; x < width; x++) {
			double s = 0.0;
			for (int d = -R; d <= R; d++)
				s += col[clampi(x + d, 0, width - 1)];
			out[(size_t)y * width + x] = (float)(s / ((2 * R + 1) * (2 * R + 1)));
		}
	}
	free(col);
}
