// Reference: indexed gather.
void gather(const float *src, const int *idx, float *dst, int n, int m)
{
	(void)n;
	for (int i = 0; i < m; i++)
		dst[i] = src[idx[i]];
}
