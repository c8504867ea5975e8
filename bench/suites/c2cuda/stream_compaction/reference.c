// Reference: order-preserving stream compaction of the positive elements;
// the unused tail of out is zeroed so every output element is defined.
void stream_compaction(const float *in, float *out, int *count, int n)
{
	int k = 0;
	for (int i = 0; i < n; i++)
		if (in[i] > 0.0f)
			out[k++] = in[i];
	count[0] = k;
	for (int i = k; i < n; i++)
		out[i] = 0.0f;
}
