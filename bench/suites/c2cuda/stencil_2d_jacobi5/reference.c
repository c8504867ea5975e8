// C reference for stencil_2d_jacobi5: one Jacobi sweep with fixed boundary.
// out = 0.25 * ((up + down) + (left + right)) inside, out = in on the border.
void stencil_2d_jacobi5(const float *in, float *out, int rows, int cols) {
  for (int r = 0; r < rows; r++) {
    for (int c = 0; c < cols; c++) {
      long long i = (long long)r * cols + c;
      if (r == 0 || r == rows - 1 || c == 0 || c == cols - 1)
        out[i] = in[i];
      else
        out[i] = 0.25f * ((in[i - cols] + in[i + cols]) + (in[i - 1] + in[i + 1]));
    }
  }
}
