package grammar_test

import (
	"testing"

	sitter "github.com/smacker/go-tree-sitter"

	"github.com/cudaperf/cudaperf/grammar"
)

// TestContractQueries compiles queries over the node and field names that
// README.md promises to the analysis passes, and counts their matches in a
// sample: renaming a node or field in grammar.js breaks this test before it
// breaks an analysis.
func TestContractQueries(t *testing.T) {
	src := []byte(`extern __shared__ float smem[];
template <int BS>
__global__ void __launch_bounds__(BS, 2) k(const float *__restrict__ x, __grid_constant__ const P p) {
  __shared__ float t[BS];
#pragma unroll 4
  for (int i = 0; i < 4; ++i) t[i] = x[i];
  asm volatile("bar.sync 0;" ::: "memory");
}
__global__ __maxnreg__(32) void __cluster_dims__(2, 1, 1) m() {}
HOST_DEVICE inline float sq(float v) { return v * v; }
void host(cudaStream_t s) {
  k<256><<<dim3(4), 256, 1024, s>>>(nullptr, P{});
  m<<<1, 32>>>();
  other(1, 2);
}
`)
	root := parse(t, src).RootNode()
	if root.HasError() {
		t.Fatalf("sample has syntax errors: %+v", grammar.SyntaxErrors(root, src))
	}
	for _, tc := range []struct {
		query string
		want  int
	}{
		{`(cuda_qualifier) @q`, 5},
		{`((cuda_qualifier) @q (#eq? @q "__shared__"))`, 2},
		{`(declaration (storage_class_specifier) (cuda_qualifier) declarator: (array_declarator !size)) @d`, 1},
		{`(parameter_declaration (cuda_qualifier) @q)`, 1},
		{`(pointer_declarator (type_qualifier) @r)`, 1},
		{`(launch_bounds (argument_list (identifier) (number_literal))) @lb`, 1},
		{`(maxnreg (argument_list (number_literal))) @m`, 1},
		{`(cluster_dims (argument_list)) @c`, 1},
		{`(macro_modifier (identifier)) @mm`, 1},
		{`(call_expression function: (template_function) config: (launch_config grid: (_) block: (_) shared_mem: (_) stream: (_)) arguments: (argument_list)) @launch`, 1},
		{`(call_expression function: (identifier) config: (launch_config grid: (_) block: (_) !shared_mem !stream)) @launch`, 1},
		{`(call_expression !config) @call`, 2}, // dim3(4) and other(1, 2)
		{`(gnu_asm_expression (gnu_asm_qualifier) assembly_code: (string_literal)) @asm`, 1},
		{`((preproc_call directive: (preproc_directive) @d argument: (preproc_arg) @a) . (for_statement))`, 1},
	} {
		q, err := sitter.NewQuery([]byte(tc.query), grammar.Language())
		if err != nil {
			t.Errorf("query %s: %v", tc.query, err)
			continue
		}
		qc := sitter.NewQueryCursor()
		qc.Exec(q, root)
		got := 0
		for {
			m, ok := qc.NextMatch()
			if !ok {
				break
			}
			if m = qc.FilterPredicates(m, src); len(m.Captures) > 0 {
				got++
			}
		}
		qc.Close()
		q.Close()
		if got != tc.want {
			t.Errorf("query %s: %d matches, want %d", tc.query, got, tc.want)
		}
	}
}
