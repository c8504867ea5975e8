// C reference for stencil_3d_7pt on an nx*ny*nz grid stored x-fastest:
// out = 0.4 c + 0.1 ((w + e) + (s + n) + (b + f)) inside, out = in on the boundary.
void stencil_3d_7pt(const float *in, float *out, int nx, int ny, int nz) {
  long long sy = nx, sz = (long long)nx * ny;
  for (int z = 0; z < nz; z++)
    for (int y = 0; y < ny; y++)
      for (int x = 0; x < nx; x++) {
        long long i = z * sz + y * sy + x;
        if (x == 0 || x == nx - 1 || y == 0 || y == ny - 1 || z == 0 || z == nz - 1)
          out[i] = in[i];
        else
          out[i] = 0.4f * in[i] +
                   0.1f * (((in[i - 1] + in[i + 1]) + (in[i - sy] + in[i + sy])) + (in[i - sz] + in[i + sz]));
      }
}
