package dataset

import (
	"fmt"
	"hash/fnv"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/cudaperf/cudaperf/analysis/pysource"
)

// Contamination check: a test-task kernel must not appear, renamed or
// reformatted, among the files of another side. Files are compared as
// token streams with comments and layout dropped and identifiers renamed
// in order of first use (so `c[i] = a[i] + b[i]` and `z[j] = x[j] + y[j]`
// are one stream), keywords, CUDA built-ins and literals kept. An exact
// match of the streams is a copy; a Jaccard similarity of the sets of
// ShingleLen-token shingles at or above the threshold is a near-copy.

// ShingleLen is the length in tokens of one shingle. Eight tokens are about
// one C statement: long enough that common idioms (`int i = blockIdx.x *`)
// alone do not make two kernels similar, short enough that an edit here and
// there leaves most shingles intact.
const ShingleLen = 8

// DefaultContaminationThreshold is the shingle similarity from which two
// files count as near-copies. On c2cuda before any sweep, the highest
// test-vs-other similarity was 0.40 and the highest validation-vs-train
// 0.82 (col_sum and row_sum atomics_per_element), so 0.8 separates what is
// a shared idiom from what is the same kernel with another index.
const DefaultContaminationThreshold = 0.8

// Overlap is one pair of files on different sides that look like copies.
type Overlap struct {
	A          string  `json:"a"` // path on the more protected side (test, then validation)
	B          string  `json:"b"`
	SideA      string  `json:"side_a"`
	SideB      string  `json:"side_b"`
	Similarity float64 `json:"similarity"` // Jaccard of shingle sets; 1 for exact copies
	Exact      bool    `json:"exact"`
}

func (o Overlap) String() string {
	kind := fmt.Sprintf("near-copy (%.2f of shingles shared)", o.Similarity)
	if o.Exact {
		kind = "copy (same token stream after renaming)"
	}
	return fmt.Sprintf("%s (%s) and %s (%s): %s", o.A, o.SideA, o.B, o.SideB, kind)
}

type fingerprint struct {
	path, side string
	exact      uint64
	shingles   map[uint64]bool
}

// CheckContamination compares every variant and template of every task in
// the suite folder (a torch2cuda variant by the CUDA of its strings,
// eachKernelSource) with those of tasks on other sides of the split, and
// returns the pairs at or above threshold (0 < threshold ≤ 1). Pairs within
// one side are not compared: a train task may share code with another train
// task. Files of tasks absent from the split are an error (assign them first).
func CheckContamination(suite string, split *Split, threshold float64) ([]Overlap, int, error) {
	var fps []fingerprint
	for _, name := range TaskNames(suite) {
		dir := filepath.Join(suite, name)
		side := split.Side(name)
		if side == "" {
			return nil, 0, fmt.Errorf("%s: task %s is in no side of %s; %s", dir, name, SplitFile, SplitHint(suite))
		}
		err := eachKernelSource(dir, func(f string, src []byte) {
			fps = append(fps, fingerprintOf(f, side, src))
		})
		if err != nil {
			return nil, 0, err
		}
	}
	return crossSide(fps, threshold), len(fps), nil
}

// DefaultReferenceThreshold is the shingle similarity from which two tasks'
// reference programs are reported as perhaps one function. References
// share more boilerplate (loops over the output, a double accumulator)
// than kernels, and the report is a warning to read, not a verdict: on
// c2cuda two cross-side pairs reach it, gemm_tall_skinny (test) and
// matmul_fp32 (train) at 0.52, which compute the same C = A·B bit for bit,
// and l2_norm (validation) and dot_product (train) at 0.50, related
// reductions but not one function.
const DefaultReferenceThreshold = 0.5

// CheckReferences compares the reference programs (reference.c) of the
// suite's tasks across sides of the split, as CheckContamination compares
// kernels, and returns the pairs at or above threshold, most similar
// first. Two tasks whose references compute one function on different
// sizes are one task for a model that learned either: a train task's
// kernels solve the test task, renamed. Tasks without a reference.c (a
// torch2cuda problem) are left out.
func CheckReferences(suite string, split *Split, threshold float64) ([]Overlap, error) {
	var fps []fingerprint
	for _, name := range TaskNames(suite) {
		p := filepath.Join(suite, name, "reference.c")
		src, err := os.ReadFile(p)
		if err != nil {
			continue
		}
		if side := split.Side(name); side != "" {
			fps = append(fps, fingerprintOf(p, side, src))
		}
	}
	return crossSide(fps, threshold), nil
}

// crossSide compares every pair of fingerprints on different sides and
// returns those at or above threshold (exact copies always), most similar
// first, each with the more protected side (test, then validation) as A.
func crossSide(fps []fingerprint, threshold float64) []Overlap {
	rank := map[string]int{"test": 0, "validation": 1, "train": 2}
	var out []Overlap
	for i := range fps {
		for j := i + 1; j < len(fps); j++ {
			a, b := &fps[i], &fps[j]
			if a.side == b.side {
				continue
			}
			if rank[a.side] > rank[b.side] {
				a, b = b, a
			}
			exact := a.exact == b.exact
			sim := 1.0
			if !exact {
				// |A∩B|/|A∪B| <= min/max of the sizes: most pairs are
				// ruled out without looking at a shingle (with ~2,500
				// files the full comparison took half a minute).
				la, lb := len(a.shingles), len(b.shingles)
				if float64(min(la, lb)) < threshold*float64(max(la, lb)) {
					continue
				}
				sim = jaccard(a.shingles, b.shingles)
			}
			if exact || sim >= threshold {
				out = append(out, Overlap{A: a.path, B: b.path, SideA: a.side, SideB: b.side, Similarity: sim, Exact: exact})
			}
		}
	}
	slices.SortFunc(out, func(x, y Overlap) int {
		if x.Similarity != y.Similarity {
			if x.Similarity > y.Similarity {
				return -1
			}
			return 1
		}
		return strings.Compare(x.A+x.B, y.A+y.B)
	})
	return out
}

// eachKernelSource calls f with every kernel file of a task folder and the
// CUDA it holds: a c2cuda task's variants and sweep templates (.cu), and a
// torch2cuda task's variants (.py), whose CUDA is the text of their
// strings (pysource, as lint reads them). A .py file without CUDA strings
// has no kernel to compare and is left out.
func eachKernelSource(dir string, f func(path string, cuda []byte)) error {
	cu, _ := filepath.Glob(filepath.Join(dir, "variants", "*.cu"))
	tmpl, _ := filepath.Glob(filepath.Join(dir, SweepDir, "*.cu"))
	py, _ := filepath.Glob(filepath.Join(dir, "variants", "*.py"))
	for _, p := range slices.Concat(cu, tmpl, py) {
		src, err := os.ReadFile(p)
		if err != nil {
			return fmt.Errorf("dataset: %w", err)
		}
		if filepath.Ext(p) == ".py" {
			s := pysource.Extract(src)
			if s == nil || len(s.CUDA) == 0 {
				continue
			}
			src = s.CUDA
		}
		f(p, src)
	}
	return nil
}

func fingerprintOf(path, side string, src []byte) fingerprint {
	toks := CanonicalTokens(src)
	fp := fingerprint{path: path, side: side, exact: streamHash(toks), shingles: map[uint64]bool{}}
	for i := 0; i+ShingleLen <= len(toks); i++ {
		fp.shingles[streamHash(toks[i:i+ShingleLen])] = true
	}
	return fp
}

// streamHash is the FNV-1a hash of a token stream (tokens NUL-separated).
func streamHash(toks []string) uint64 {
	h := fnv.New64a()
	for _, t := range toks {
		h.Write([]byte(t))
		h.Write([]byte{0})
	}
	return h.Sum64()
}

func jaccard(a, b map[uint64]bool) float64 {
	if len(a) == 0 && len(b) == 0 {
		return 1
	}
	if len(a) > len(b) {
		a, b = b, a
	}
	inter := 0
	for k := range a {
		if b[k] {
			inter++
		}
	}
	return float64(inter) / float64(len(a)+len(b)-inter)
}

// CanonicalTokens returns the tokens of C/CUDA source with comments and
// whitespace dropped and every identifier that is not a keyword or CUDA
// built-in renamed to $0, $1, ... in order of first use. A generated
// variant's header (its parameter record) is dropped with the comments.
func CanonicalTokens(src []byte) []string {
	var out []string
	names := map[string]string{}
	s := string(src)
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v' || c == '\\':
			i++
		case strings.HasPrefix(s[i:], "//"):
			for i < len(s) && s[i] != '\n' {
				i++
			}
		case strings.HasPrefix(s[i:], "/*"):
			end := strings.Index(s[i+2:], "*/")
			if end < 0 {
				i = len(s)
			} else {
				i += end + 4
			}
		case c == '"' || c == '\'':
			j := i + 1
			for j < len(s) && s[j] != c && s[j] != '\n' {
				if s[j] == '\\' {
					j++
				}
				j++
			}
			j = min(j+1, len(s))
			out = append(out, s[i:j])
			i = j
		case c == '_' || c|0x20 >= 'a' && c|0x20 <= 'z':
			j := i
			for j < len(s) && (s[j] == '_' || s[j]|0x20 >= 'a' && s[j]|0x20 <= 'z' || s[j] >= '0' && s[j] <= '9') {
				j++
			}
			id := s[i:j]
			// Keywords, built-ins and member names (.x, ->next) stay.
			if keep[id] || len(out) > 0 && (out[len(out)-1] == "." || out[len(out)-1] == "->") {
				out = append(out, id)
			} else {
				if _, ok := names[id]; !ok {
					names[id] = fmt.Sprintf("$%d", len(names))
				}
				out = append(out, names[id])
			}
			i = j
		case c >= '0' && c <= '9' || c == '.' && i+1 < len(s) && s[i+1] >= '0' && s[i+1] <= '9':
			j := i
			for j < len(s) && (s[j] == '.' || s[j] == '_' || s[j]|0x20 >= 'a' && s[j]|0x20 <= 'z' || s[j] >= '0' && s[j] <= '9' ||
				(s[j] == '+' || s[j] == '-') && (s[j-1]|0x20 == 'e' || s[j-1]|0x20 == 'p')) {
				j++
			}
			out = append(out, s[i:j])
			i = j
		default:
			// Punctuation: longest of the three- and two-character operators first.
			n := 1
			for _, op := range []string{"<<<", ">>>", "<<=", ">>=", "...", "->", "++", "--", "<<", ">>", "<=", ">=", "==", "!=", "&&", "||", "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "::", "##"} {
				if strings.HasPrefix(s[i:], op) {
					n = len(op)
					break
				}
			}
			out = append(out, s[i:i+n])
			i += n
		}
	}
	return out
}

// keep lists the identifiers that are not renamed: C and C++ keywords, the
// preprocessor's words, CUDA qualifiers and built-ins, and common types and
// intrinsics. Renaming them would make unrelated kernels look alike.
var keep = map[string]bool{}

func init() {
	for _, w := range strings.Fields(`
		auto bool break case char const constexpr continue default do double else enum extern float for goto if
		inline int long register restrict return short signed sizeof static struct switch typedef union unsigned
		void volatile while template typename class namespace using nullptr true false static_cast
		reinterpret_cast const_cast dynamic_cast operator new delete this public private protected
		define include ifdef ifndef endif pragma unroll undef elif
		__global__ __device__ __host__ __shared__ __constant__ __restrict__ __forceinline__ __launch_bounds__
		threadIdx blockIdx blockDim gridDim warpSize dim3
		__syncthreads __syncwarp __shfl_sync __shfl_down_sync __shfl_up_sync __shfl_xor_sync __ballot_sync
		__any_sync __all_sync __activemask __ldg __fmaf_rn __expf __logf __sinf __cosf __popc __clz __ffs
		atomicAdd atomicMax atomicMin atomicCAS atomicExch atomicSub atomicAnd atomicOr atomicXor
		float2 float3 float4 int2 int3 int4 uint2 uint4 double2 half half2 __half __half2 __nv_bfloat16
		int8_t int16_t int32_t int64_t uint8_t uint16_t uint32_t uint64_t size_t
		sqrtf expf logf fabsf fmaxf fminf tanhf powf rsqrtf erff sqrt exp log fabs fmax fmin tanh pow
		min max cudaMalloc cudaFree cudaMemcpy cudaMemset cudaDeviceSynchronize cudaMemcpyAsync
		cudaStream_t cudaMemcpyHostToDevice cudaMemcpyDeviceToHost cudaMemcpyDeviceToDevice
		wmma mma_sync load_matrix_sync store_matrix_sync fill_fragment fragment
		cooperative_groups thread_block tiled_partition sync this_thread_block
	`) {
		keep[w] = true
	}
}

// Duplicates returns the groups of files (variants and templates of every
// task of the suite, on any side) whose canonical token streams are equal,
// and the number of files read. A sweep instance differs from its
// siblings by the values of its #defines, which the streams keep, so an
// instance in a group means a template whose parameters do not reach the
// code, or a hand-written variant that repeats another.
func Duplicates(suite string) ([][]string, int, error) {
	byHash := map[uint64][]string{}
	files := 0
	for _, name := range TaskNames(suite) {
		err := eachKernelSource(filepath.Join(suite, name), func(f string, src []byte) {
			files++
			h := streamHash(CanonicalTokens(src))
			byHash[h] = append(byHash[h], f)
		})
		if err != nil {
			return nil, 0, err
		}
	}
	var out [][]string
	for _, g := range byHash {
		if len(g) > 1 {
			out = append(out, g)
		}
	}
	slices.SortFunc(out, func(a, b []string) int { return strings.Compare(a[0], b[0]) })
	return out, files, nil
}
