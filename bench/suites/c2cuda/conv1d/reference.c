// C reference for conv1d: direct "same" correlation, taps outside the input
// skipped (zero padding), accumulated in double.
void conv1d(const float *x, const float *w, float *y, int n, int k) {
    int half = k / 2;
    for (int i = 0; i < n; i++) {
        int j0 = half - i > 0 ? half - i : 0;          // first tap with i+j-half >= 0
        int j1 = n + half - i < k ? n + half - i : k;  // one past the last tap with i+j-half < n
        double acc = 0.0;
        for (int j = j0; j < j1; j++) acc += (double)w[j] * x[i + j - half];
        y[i] = (float)acc;
    }
}
