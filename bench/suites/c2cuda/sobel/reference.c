// Reference: Sobel gradient magnitude with clamp-to-edge borders, in double.
//   gx = [-1 0 1; -2 0 2; -1 0 1] * p,  gy = [-1 -2 -1; 0 0 0; 1 2 1] * p
#include <math.h>
#include <stddef.h>

static int clampi(int v, int lo, int hi)
{
	return v < lo ? lo : (v > hi ? hi : v);
}

void sobel(const float *in, float *out, int width, int height)
{
	for (int y = 0; y < height; y++) {
		const float *up = in + (size_t)clampi(y - 1, 0, height - 1) * width;
		const float *mid = in + (size_t)y * width;
		const float *dn = in + (size_t)clampi(y + 1, 0, height - 1) * width;
		for (int x = 0; x < width; x++) {
			int l = clampi(x - 1, 0, width - 1), r = clampi(x + 1, 0, width - 1);
			double gx = ((double)up[r] + 2.0 * mid[r] + dn[r]) - ((double)up[l] + 2.0 * mid[l] + dn[l]);
			double gy = ((double)dn[l] + 2.0 * dn[x] + dn[r]) - ((double)up[l] + 2.0 * up[x] + up[r]);
			out[(size_t)y * width + x] = (float)sqrt(gx * gx + gy * gy);
		}
	}
}
