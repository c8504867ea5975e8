// Reference: a 256-bin byte histogram, counted serially.
void histogram_256(const unsigned char *data, unsigned int *hist, int n)
{
	for (int b = 0; b < 256; b++)
		hist[b] = 0;
	for (int i = 0; i < n; i++)
		hist[data[i]]++;
}
