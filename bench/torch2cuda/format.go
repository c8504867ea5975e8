package torch2cuda

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"regexp"
	"sort"

	"github.com/cudaperf/cudaperf/analysis/pysource"
)

// The static format checks: what a file must define, found without
// running it (the runner's validate command checks the same at import).
var (
	classModelRE    = regexp.MustCompile(`(?m)^class\s+Model\s*\(`)
	classModelNewRE = regexp.MustCompile(`(?m)^class\s+ModelNew\s*\(`)
	getInputsRE     = regexp.MustCompile(`(?m)^def\s+get_inputs\s*\(`)
	getInitInputsRE = regexp.MustCompile(`(?m)^def\s+get_init_inputs\s*\(`)
	loadInlineRE    = regexp.MustCompile(`\bload_inline\s*\(`)
	globalRE        = regexp.MustCompile(`__global__\s+(?:__launch_bounds__\s*\([^)]*\)\s*)?(?:static\s+|inline\s+|__noinline__\s+)*void\s+(?:__launch_bounds__\s*\([^)]*\)\s*)?([A-Za-z_][A-Za-z0-9_]*)`)
)

// ValidateProblem checks that a problem file defines Model, get_inputs
// and get_init_inputs at top level; every missing piece is named.
func ValidateProblem(path string) error {
	src, err := os.ReadFile(path)
	if err != nil {
		return fmt.Errorf("torch2cuda: problem: %w", err)
	}
	return validateProblem(path, src)
}

func validateProblem(path string, src []byte) error {
	var errs []error
	if !classModelRE.Match(src) {
		errs = append(errs, fmt.Errorf("%s: defines no top-level `class Model(nn.Module)`: the reference whose forward the candidate replaces", path))
	}
	if !getInputsRE.Match(src) {
		errs = append(errs, fmt.Errorf("%s: defines no top-level `def get_inputs()`: it returns the list of forward's arguments", path))
	}
	if !getInitInputsRE.Match(src) {
		errs = append(errs, fmt.Errorf("%s: defines no top-level `def get_init_inputs()`: it returns the list of Model's constructor arguments ([] when none)", path))
	}
	return errors.Join(errs...)
}

// SourceHash is the hash a torch2cuda record carries of its candidate
// (bench.Result.SourceHash), by which the recorded benchmarker matches it:
// of the file's bytes, with line ends made "\n" and each line's trailing
// blanks dropped. Not bench.SourceHash: its C normalization reads Python's
// floor division `//` as a comment, so `n // 2` and `n // 4` hashed alike,
// and dropping layout would change nothing safely in a language where
// indentation is syntax.
func SourceHash(src []byte) string {
	h := sha256.New()
	for line := range bytes.Lines(src) {
		h.Write(bytes.TrimRight(line, " \t\r\n"))
		h.Write([]byte{'\n'})
	}
	return "sha256:" + hex.EncodeToString(h.Sum(nil))
}

// Candidate is a candidate file's static facts.
type Candidate struct {
	Path    string
	Source  []byte
	Kernels []string // __global__ function names in its CUDA strings, sorted
}

// ValidateCandidate checks that a candidate defines ModelNew and builds
// CUDA of its own with load_inline, and returns its kernels' names.
func ValidateCandidate(path string) (*Candidate, error) {
	src, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("torch2cuda: candidate: %w", err)
	}
	return ParseCandidate(path, src)
}

// ParseCandidate is ValidateCandidate on bytes; path is used in messages.
func ParseCandidate(path string, src []byte) (*Candidate, error) {
	var errs []error
	if !classModelNewRE.Match(src) {
		errs = append(errs, fmt.Errorf("%s: defines no top-level `class ModelNew(nn.Module)`: the module that replaces Model, with the same constructor and forward arguments", path))
	}
	if !loadInlineRE.Match(src) {
		errs = append(errs, fmt.Errorf("%s: never calls torch.utils.cpp_extension.load_inline(...): a candidate builds its CUDA from source strings", path))
	}
	c := &Candidate{Path: path, Source: src, Kernels: Kernels(src)}
	if len(c.Kernels) == 0 {
		errs = append(errs, fmt.Errorf("%s: its strings declare no __global__ kernel (pass the CUDA as load_inline's cuda_sources)", path))
	}
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	return c, nil
}

// Kernels lists the __global__ functions declared in a Python file's CUDA
// strings (pysource's extraction), sorted and unique.
func Kernels(py []byte) []string {
	s := pysource.Extract(py)
	if s == nil {
		return nil
	}
	seen := map[string]bool{}
	for _, m := range globalRE.FindAllSubmatch(s.CUDA, -1) {
		seen[string(m[1])] = true
	}
	out := make([]string, 0, len(seen))
	for k := range seen {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
