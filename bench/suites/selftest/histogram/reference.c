void histogram(const unsigned char *data, unsigned int *bins, int n, int nbins) {
    for (int b = 0; b < nbins; b++)
        bins[b] = 0;
    for (int i = 0; i < n; i++)
        bins[data[i]]++;
}
