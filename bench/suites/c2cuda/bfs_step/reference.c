// Reference: one top-down BFS frontier expansion on an undirected graph
// stored as symmetric CSR. Vertices whose level_in is cur form the frontier;
// every unvisited (-1) neighbour of the frontier gets level cur + 1; all
// other vertices keep their level. The result does not depend on the order
// in which edges are visited, so parallel versions must match exactly.
#include <stdlib.h>
#include <string.h>

static unsigned long long splitmix64(unsigned long long *s)
{
	unsigned long long z = (*s += 0x9E3779B97F4A7C15ULL);
	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
	return z ^ (z >> 31);
}

// endpoint draws a vertex; one draw in four is skewed towards low ids (u^2),
// which gives the graph a few hubs of high degree as real graphs have.
static int endpoint(unsigned long long *s, int nv, int k)
{
	double u = (double)(splitmix64(s) >> 11) * (1.0 / 9007199254740992.0);
	int v = (int)((k & 3) == 0 ? nv * u * u : nv * u);
	return v < nv ? v : nv - 1;
}

// gen_bfs_step builds a random undirected multigraph with ne directed CSR
// entries (ne/2 random edges stored both ways, plus one self-loop when ne is
// odd), then runs a real BFS from vertex 0 for cur levels so level_in holds
// levels 0..cur and -1 beyond: the frontier is level cur. The edge stream is
// drawn twice from the same seed (count, then fill) to avoid an edge list.
void gen_bfs_step(int *row_ptr, int *col_idx, int *level_in, int *level_out, int nv, int ne, int cur,
		  unsigned long long seed)
{
	(void)level_out;
	int m = ne / 2;
	unsigned long long s0 = seed ^ 0xBF5u, s;
	int loop = nv / 2;
	memset(row_ptr, 0, (size_t)(nv + 1) * sizeof(int));
	s = s0;
	for (int k = 0; k < m; k++) {
		int u = endpoint(&s, nv, k), v = endpoint(&s, nv, k + 1);
		row_ptr[u + 1]++;
		row_ptr[v + 1]++;
	}
	if (ne & 1)
		row_ptr[loop + 1]++;
	for (int v = 0; v < nv; v++)
		row_ptr[v + 1] += row_ptr[v];
	int *fill = malloc((size_t)nv * sizeof(int));
	if (!fill)
		return;
	memcpy(fill, row_ptr, (size_t)nv * sizeof(int));
	s = s0;
	for (int k = 0; k < m; k++) {
		int u = endpoint(&s, nv, k), v = endpoint(&s, nv, k + 1);
		col_idx[fill[u]++] = v;
		col_idx[fill[v]++] = u;
	}
	if (ne & 1)
		col_idx[fill[loop]++] = loop;
	// BFS from vertex 0; fill is reused as the queue.
	for (int v = 0; v < nv; v++)
		level_in[v] = -1;
	int head = 0, tail = 0;
	level_in[0] = 0;
	fill[tail++] = 0;
	while (head < tail) {
		int u = fill[head++];
		if (level_in[u] >= cur)
			continue;
		for (int e = row_ptr[u]; e < row_ptr[u + 1]; e++) {
			int w = col_idx[e];
			if (level_in[w] == -1) {
				level_in[w] = level_in[u] + 1;
				fill[tail++] = w;
			}
		}
	}
	free(fill);
}

void bfs_step(const int *row_ptr, const int *col_idx, const int *level_in, int *level_out, int nv, int ne, int cur)
{
	(void)ne;
	memcpy(level_out, level_in, (size_t)nv * sizeof(int));
	for (int u = 0; u < nv; u++) {
		if (level_in[u] != cur)
			continue;
		for (int e = row_ptr[u]; e < row_ptr[u + 1]; e++)
			if (level_in[col_idx[e]] == -1)
				level_out[col_idx[e]] = cur + 1;
	}
}
