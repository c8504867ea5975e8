// Reference: one step of softened gravitational accelerations (G = 1) for n
// bodies, all pairs, accumulated in double.
//
//   acc[i] = sum_j m_j (p_j - p_i) / (|p_j - p_i|^2 + EPS2)^(3/2)
//
// pos holds x, y, z, mass for each body (float4 layout); acc holds ax, ay, az.
// The j == i term is zero because p_j - p_i is zero, so it needs no branch.
#include <math.h>

#define EPS2 0.01

void nbody(const float *pos, float *acc, int n)
{
	for (int i = 0; i < n; i++) {
		double px = pos[4 * i], py = pos[4 * i + 1], pz = pos[4 * i + 2];
		double ax = 0.0, ay = 0.0, az = 0.0;
		for (int j = 0; j < n; j++) {
			double dx = (double)pos[4 * j] - px;
			double dy = (double)pos[4 * j + 1] - py;
			double dz = (double)pos[4 * j + 2] - pz;
			double r2 = dx * dx + dy * dy + dz * dz + EPS2;
			double s = (double)pos[4 * j + 3] / (r2 * sqrt(r2));
			ax += s * dx;
			ay += s * dy;
			az += s * dz;
		}
		acc[3 * i] = (float)ax;
		acc[3 * i + 1] = (float)ay;
		acc[3 * i + 2] = (float)az;
	}
}
