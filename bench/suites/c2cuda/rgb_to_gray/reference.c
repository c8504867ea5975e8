// Reference: integer BT.601 luma, rounded: (77 R + 150 G + 29 B + 128) >> 8.
// The weights sum to 256, so the result always fits in a byte.
void rgb_to_gray(const unsigned char *rgb, unsigned char *gray, int n)
{
	for (int i = 0; i < n; i++) {
		unsigned int r = rgb[3 * i], g = rgb[3 * i + 1], b = rgb[3 * i + 2];
		gray[i] = (unsigned char)((77u * r + 150u * g + 29u * b + 128u) >> 8);
	}
}
