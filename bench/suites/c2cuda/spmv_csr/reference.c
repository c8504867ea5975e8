// Reference: CSR sparse matrix times dense vector, each row accumulated in
// double so the reference is the exact-ish answer float kernels are held to.

static unsigned long long splitmix64(unsigned long long *s)
{
	unsigned long long z = (*s += 0x9E3779B97F4A7C15ULL);
	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
	return z ^ (z >> 31);
}

static double unit(unsigned long long *s)
{
	return (double)(splitmix64(s) >> 11) * (1.0 / 9007199254740992.0);
}

// gen_spmv_csr builds the sparsity pattern: three quarters of the nonzeros go
// to uniformly random rows, one quarter to rows skewed towards the start (so
// a few rows are long and many are short or empty, as in real matrices); half
// the columns of a row fall in a band around the diagonal, half anywhere.
void gen_spmv_csr(int *row_ptr, int *col_idx, float *val, float *x, float *y,
		  int rows, int nnz, unsigned long long seed)
{
	(void)val;
	(void)x;
	(void)y;
	unsigned long long s = seed ^ 0x5350u;
	for (int r = 0; r <= rows; r++)
		row_ptr[r] = 0;
	for (int k = 0; k < nnz; k++) {
		double u = unit(&s);
		int r = (k % 4 == 0) ? (int)(rows * u * u) : (int)(rows * u);
		if (r >= rows)
			r = rows - 1;
		row_ptr[r + 1]++;
	}
	for (int r = 0; r < rows; r++)
		row_ptr[r + 1] += row_ptr[r];
	for (int r = 0; r < rows; r++) {
		for (int e = row_ptr[r]; e < row_ptr[r + 1]; e++) {
			unsigned long long z = splitmix64(&s);
			long long c;
			if (z & 1)
				c = (long long)r + (long long)((z >> 8) % 129) - 64;
			else
				c = (long long)((z >> 8) % (unsigned long long)rows);
			c %= rows;
			if (c < 0)
				c += rows;
			col_idx[e] = (int)c;
		}
	}
}

void spmv_csr(const int *row_ptr, const int *col_idx, const float *val, const float *x, float *y,
	      int rows, int nnz)
{
	(void)nnz;
	for (int r = 0; r < rows; r++) {
		double sum = 0.0;
		for (int e = row_ptr[r]; e < row_ptr[r + 1]; e++)
			sum += (double)val[e] * (double)x[col_idx[e]];
		y[r] = (float)sum;
	}
}
