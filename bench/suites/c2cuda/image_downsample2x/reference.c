// Reference: 2x2 box downsampling. Output (ox, oy) averages input columns
// 2ox, min(2ox+1, width-1) and rows 2oy, min(2oy+1, height-1), so odd sizes
// repeat the last column/row rather than reading past the image.
#include <stddef.h>

void image_downsample2x(const float *in, float *out, int width, int height)
{
	int ow = (width + 1) / 2, oh = (height + 1) / 2;
	for (int oy = 0; oy < oh; oy++) {
		int y0 = 2 * oy, y1 = 2 * oy + 1 < height ? 2 * oy + 1 : height - 1;
		for (int ox = 0; ox < ow; ox++) {
			int x0 = 2 * ox, x1 = 2 * ox + 1 < width ? 2 * ox + 1 : width - 1;
			double s = (double)in[(size_t)y0 * width + x0] + in[(size_t)y0 * width + x1] +
				   in[(size_t)y1 * width + x0] + in[(size_t)y1 * width + x1];
			out[(size_t)oy * ow + ox] = (float)(0.25 * s);
		}
	}
}
