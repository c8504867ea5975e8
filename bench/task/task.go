package task

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strconv"

	"go.yaml.in/yaml/v3"
)

// DType is the element type of a parameter.
type DType string

// The element types a task may use.
const (
	Float32 DType = "float32"
	Float64 DType = "float64"
	Int32   DType = "int32"
	Int64   DType = "int64"
	Uint32  DType = "uint32"
	Uint8   DType = "uint8"
	// Float16 is IEEE binary16 (CUDA __half); BFloat16 is the top half of a
	// float32 (CUDA __nv_bfloat16). Both are array-only: a C reference
	// sees them as unsigned short bits (see docs/task-format.md).
	Float16  DType = "float16"
	BFloat16 DType = "bfloat16"
)

// DTypes lists the element types in documentation order.
var DTypes = []DType{Float32, Float64, Float16, BFloat16, Int32, Int64, Uint32, Uint8}

// CType is the C spelling of d.
func (d DType) CType() string {
	switch d {
	case Float32:
		return "float"
	case Float64:
		return "double"
	case Int32:
		return "int"
	case Int64:
		return "long long"
	case Uint32:
		return "unsigned int"
	case Uint8:
		return "unsigned char"
	case Float16:
		return "__half"
	case BFloat16:
		return "__nv_bfloat16"
	}
	return ""
}

// Size is the size of one element in bytes.
func (d DType) Size() int {
	switch d {
	case Float64, Int64:
		return 8
	case Uint8:
		return 1
	case Float16, BFloat16:
		return 2
	case Float32, Int32, Uint32:
		return 4
	}
	return 0
}

// IsFloat reports whether d is a floating-point type.
func (d DType) IsFloat() bool { return d == Float32 || d == Float64 || d.IsHalf() }

// IsHalf reports whether d is a 16-bit floating-point type, which exists
// only in arrays: no C literal or host arithmetic spells it.
func (d DType) IsHalf() bool { return d == Float16 || d == BFloat16 }

func (d DType) valid() bool { return d.Size() > 0 }

// Role says how the entry point uses a parameter.
type Role string

// The parameter roles.
const (
	In     Role = "in"     // pointer to const, read
	Out    Role = "out"    // pointer, written
	InOut  Role = "inout"  // pointer, read and written
	Scalar Role = "scalar" // passed by value, from the configuration's values
)

// IsArray reports whether the parameter is passed as a pointer.
func (r Role) IsArray() bool { return r == In || r == Out || r == InOut }

// IsOutput reports whether the candidate writes the parameter.
func (r Role) IsOutput() bool { return r == Out || r == InOut }

// IsInput reports whether the parameter carries input data.
func (r Role) IsInput() bool { return r == In || r == InOut }

// Param is one parameter of the entry point, in signature order.
type Param struct {
	Name string `yaml:"name"`
	Type DType  `yaml:"type"`
	Role Role   `yaml:"role"`
	Size string `yaml:"size"` // element count expression, arrays only
}

// Number is a YAML scalar kept as written, so that integers stay exact and
// expressions ("bins-1") stay text until a configuration binds them.
type Number string

// UnmarshalYAML accepts any scalar.
func (n *Number) UnmarshalYAML(v *yaml.Node) error {
	if v.Kind != yaml.ScalarNode {
		return fmt.Errorf("line %d: want a number, got a %s", v.Line, kindName(v.Kind))
	}
	*n = Number(v.Value)
	return nil
}

// Float parses n as a floating-point number.
func (n Number) Float() (float64, error) { return strconv.ParseFloat(string(n), 64) }

// Config is one named size configuration.
type Config struct {
	Name    string            `yaml:"name"`
	Values  map[string]Number `yaml:"values"`
	Primary bool              `yaml:"primary"`
	RL      bool              `yaml:"rl"` // run in the RL profile (see RLConfigs)
}

// Dist is the distribution an input array is drawn from.
type Dist struct {
	Dist string  `yaml:"dist"` // uniform, normal, randint, nonzero_uniform
	Min  *Number `yaml:"min"`
	Max  *Number `yaml:"max"`
	Mean *Number `yaml:"mean"`
	Std  *Number `yaml:"std"`
}

// Tolerance is the per-element pass criterion |out-ref| <= ATol + RTol*|ref|.
type Tolerance struct {
	RTol float64 `yaml:"rtol"`
	ATol float64 `yaml:"atol"`
}

// DefaultTolerance is used for element types that task.yaml does not list.
var DefaultTolerance = map[DType]Tolerance{
	Float32: {RTol: 1e-4, ATol: 1e-5},
	Float64: {RTol: 1e-9, ATol: 1e-12},
	// Two units in the last place of the output's own rounding (2^-10 and
	// 2^-7 relative): a kernel that computes in float and rounds once may
	// differ from the reference by one rounding of a value that differs
	// in the float's last bits.
	Float16:  {RTol: 2e-3, ATol: 1e-4},
	BFloat16: {RTol: 1.6e-2, ATol: 1e-3},
	Int32:    {}, Int64: {}, Uint32: {}, Uint8: {},
}

// Task is a loaded, validated c2cuda task.
type Task struct {
	Name        string              `yaml:"name"`
	Description string              `yaml:"description"`
	Category    string              `yaml:"category"`
	Entry       string              `yaml:"entry"`
	Signature   string              `yaml:"signature"`
	Params      []Param             `yaml:"params"`
	Configs     []Config            `yaml:"configs"`
	Inputs      map[string]Dist     `yaml:"inputs"`
	Generator   string              `yaml:"generator"`
	Tolerance   map[DType]Tolerance `yaml:"tolerance"`
	Bytes       string              `yaml:"bytes"`
	Flops       string              `yaml:"flops"`

	// Filled by Load.
	Dir       string   `yaml:"-"` // the task folder
	Suite     string   `yaml:"-"` // name of the folder above Dir
	Reference string   `yaml:"-"` // path of reference.c
	Variants  []string `yaml:"-"` // paths of variants/*.cu, sorted
}

// File is the name of the task description inside a task folder.
const File = "task.yaml"

// Load reads and validates the task in dir. All problems found are returned
// together (errors.Join), each naming the file and field.
func Load(dir string) (*Task, error) {
	path := filepath.Join(dir, File)
	data, err := os.ReadFile(path)
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return nil, fmt.Errorf("%s: missing; every task folder needs a task.yaml (see docs/task-format.md)", path)
		}
		return nil, fmt.Errorf("task: %w", err)
	}
	t, err := Parse(path, data)
	if err != nil {
		return nil, err
	}
	t.Dir = dir
	t.Suite = filepath.Base(filepath.Dir(filepath.Clean(dir)))
	t.Reference = filepath.Join(dir, "reference.c")
	t.Variants, _ = filepath.Glob(filepath.Join(dir, "variants", "*.cu"))
	sort.Strings(t.Variants)
	if err := t.validate(path, filepath.Base(filepath.Clean(dir)), true); err != nil {
		return nil, err
	}
	return t, nil
}

// Parse decodes task.yaml text strictly (unknown fields are errors) without
// validating it; path is used in messages.
func Parse(path string, data []byte) (*Task, error) {
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	var t Task
	if err := dec.Decode(&t); err != nil {
		if errors.Is(err, io.EOF) {
			return nil, fmt.Errorf("%s: empty file; see docs/task-format.md for the fields", path)
		}
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return &t, nil
}

// Validate checks t as Load does, without the files beside task.yaml; name
// is the folder name the task must have.
func (t *Task) Validate(path, name string) error { return t.validate(path, name, false) }

// Primary returns the index of the primary configuration: the one marked
// primary, or the last.
func (t *Task) Primary() int {
	for i, c := range t.Configs {
		if c.Primary {
			return i
		}
	}
	return len(t.Configs) - 1
}

// RLConfigs returns the indices, in task order, of the configurations the RL
// profile runs: the primary, every configuration marked `rl: true`, and,
// when none is marked, the largest (by the bytes it must move) non-primary
// configuration with an odd size value above 1, so that a kernel which only
// handles multiples of its block size is still caught. A task without such
// a configuration runs the primary and its marked ones only.
func (t *Task) RLConfigs() []int {
	p := t.Primary()
	marked := false
	for _, c := range t.Configs {
		marked = marked || c.RL
	}
	odd, oddBytes := -1, int64(-1)
	if !marked {
		for i := range t.Configs {
			if i == p || !hasOddSize(t.Configs[i]) {
				continue
			}
			var b int64
			if r, err := t.Resolve(i); err == nil {
				b = r.Bytes
			}
			if b > oddBytes {
				odd, oddBytes = i, b
			}
		}
	}
	var out []int
	for i, c := range t.Configs {
		if i == p || c.RL || i == odd {
			out = append(out, i)
		}
	}
	return out
}

// hasOddSize reports whether a configuration binds an integer value that is
// odd and above 1.
func hasOddSize(c Config) bool {
	for _, v := range c.Values {
		if n, err := strconv.ParseInt(string(v), 10, 64); err == nil && n > 1 && n%2 == 1 {
			return true
		}
	}
	return false
}

// Tol returns the tolerance for element type d.
func (t *Task) Tol(d DType) Tolerance {
	if tol, ok := t.Tolerance[d]; ok {
		return tol
	}
	return DefaultTolerance[d]
}

// Param returns the parameter called name, or nil.
func (t *Task) Param(name string) *Param {
	for i := range t.Params {
		if t.Params[i].Name == name {
			return &t.Params[i]
		}
	}
	return nil
}

// DistFor returns the input distribution of param p: the one task.yaml gives,
// or the default (uniform [-1, 1] for floats, randint [1, 100] for integers).
func (t *Task) DistFor(p *Param) Dist {
	if d, ok := t.Inputs[p.Name]; ok {
		return d
	}
	if p.Type.IsFloat() {
		lo, hi := Number("-1"), Number("1")
		return Dist{Dist: "uniform", Min: &lo, Max: &hi}
	}
	lo, hi := Number("1"), Number("100")
	return Dist{Dist: "randint", Min: &lo, Max: &hi}
}

func kindName(k yaml.Kind) string {
	switch k {
	case yaml.MappingNode:
		return "mapping"
	case yaml.SequenceNode:
		return "list"
	case yaml.AliasNode:
		return "alias"
	}
	return "scalar"
}
