package suppress

import (
	"slices"
	"testing"

	"github.com/cudaperf/cudaperf/host/report"
)

const src = `__global__ void k(float *a, int s) {
  float x = a[threadIdx.x * s]; // cudaperf:ignore coalescing s is 1 in production
  // cudaperf:ignore bankconflicts,coalescing measured: not the bottleneck
  // (a second comment line)
  float y = a[threadIdx.x * 2];
  float z = a[threadIdx.x * 3]; // cudaperf:ignore coalescing
  float w = a[0]; /* cudaperf:ignore all legacy code */
  float v = a[1]; // cudaperf:ignore divergence nothing to see
}
`

func diag(line int, check string) report.Diagnostic {
	return report.Diagnostic{File: "k.cu", Line: line, Column: 3, Check: check, Severity: report.Warning, Message: check}
}

func TestApply(t *testing.T) {
	ds := Parse("k.cu", []byte(src))
	if len(ds) != 5 {
		t.Fatalf("parsed %d directives, want 5", len(ds))
	}
	if ds[1].Target != 5 {
		t.Errorf("own-line directive covers line %d, want 5 (next code line)", ds[1].Target)
	}
	in := []report.Diagnostic{
		diag(2, "coalescing"),    // suppressed (trailing)
		diag(2, "divergence"),    // kept: other check
		diag(5, "coalescing"),    // suppressed by the directive two lines up
		diag(6, "coalescing"),    // kept: directive has no reason
		diag(7, "gmem"),          // suppressed by "all"
		diag(7, "syntax"),        // never suppressed
		diag(9, "bankconflicts"), // kept: no directive
	}
	kept, problems := Apply("k.cu", in, ds)
	wantKept := map[int]string{2: "divergence", 6: "coalescing", 7: "syntax", 9: "bankconflicts"}
	if len(kept) != len(wantKept) {
		t.Fatalf("kept %d diagnostics, want %d: %+v", len(kept), len(wantKept), kept)
	}
	for _, d := range kept {
		if wantKept[d.Line] != d.Check {
			t.Errorf("unexpectedly kept %s on line %d", d.Check, d.Line)
		}
	}
	if len(problems) != 2 {
		t.Fatalf("got %d problems, want 2 (no reason on line 6, unused on line 8): %+v", len(problems), problems)
	}
	if problems[0].Line != 6 || problems[0].Severity != report.Warning {
		t.Errorf("missing-reason problem: %+v", problems[0])
	}
	if problems[1].Line != 8 || problems[1].Severity != report.Note {
		t.Errorf("unused-directive problem: %+v", problems[1])
	}
}

// TestOnlyCommentsAreDirectives: a directive spelled in a string literal
// (a message the kernel prints) is text, not a directive; one in a comment
// after a literal, a digit separator or a raw string still counts.
func TestOnlyCommentsAreDirectives(t *testing.T) {
	src := `__global__ void k(float *x, int s) {
  const char *msg = "// cudaperf:ignore coalescing in a string"; x[threadIdx.x * s] = 0.f;
  const char *m2 = "/* cudaperf:ignore all no */"; x[threadIdx.x * s] = 1.f;
  char q = '"'; x[threadIdx.x * s] = 2.f; // cudaperf:ignore coalescing after a char literal
  int n = 1'000; x[threadIdx.x * s] = 3.f; // cudaperf:ignore coalescing after a digit separator
  const char *r = R"x(" // cudaperf:ignore coalescing in a raw string )x"; x[threadIdx.x * s] = 4.f;
  const char *r2 = R"(")"; x[threadIdx.x * s] = 5.f; /* cudaperf:ignore coalescing after a raw string */
  unsigned m = 0xFFFF'FFFF; x[threadIdx.x * s] = 6.f; // cudaperf:ignore coalescing after a hex separator
  char c = u8'a'; x[threadIdx.x * s] = 7.f; // cudaperf:ignore coalescing after a u8 literal
}
`
	var got []int
	for _, d := range Parse("k.cu", []byte(src)) {
		got = append(got, d.Line)
	}
	if want := []int{4, 5, 7, 8, 9}; !slices.Equal(got, want) {
		t.Errorf("directives on lines %v, want %v", got, want)
	}
}
