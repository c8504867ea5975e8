package harness

import (
	"bytes"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
	"text/template"

	"github.com/cudaperf/cudaperf/bench/task"
)

// File names of the generated sources.
const (
	HeaderFile    = "harness.h"
	RefMainFile   = "ref_main.c"
	DriverFile    = "driver.cu"
	PoisonByteInt = 0xA5 // poison for integer outputs
	PoisonByteFlt = 0xFF // poison for floating-point outputs: all-ones is a NaN
)

// arenaAlign is the alignment, in bytes, of every array the driver carves
// out of its host arena, as cudaMalloc aligns device arrays.
const arenaAlign = 256

// Sources are the generated programs of one task.
type Sources struct {
	Header, RefMain, Driver string
}

// Files returns the sources keyed by file name.
func (s *Sources) Files() map[string]string {
	return map[string]string{HeaderFile: s.Header, RefMainFile: s.RefMain, DriverFile: s.Driver}
}

// Seed tags name the two input sets of every configuration: A is timed and
// checked, B (other inputs) is checked and compared with A to find outputs
// that do not depend on the inputs.
var Tags = [2]byte{'a', 'b'}

// InputPath is where the reference program writes input array param of
// configuration config for seed tag.
func InputPath(dir string, config int, tag byte, param int) string {
	return filepath.Join(dir, fmt.Sprintf("in_c%d_%c_p%d.bin", config, tag, param))
}

// RefOutputPath is where the reference program writes an output.
func RefOutputPath(dir string, config int, tag byte, param int) string {
	return filepath.Join(dir, fmt.Sprintf("ref_c%d_%c_p%d.bin", config, tag, param))
}

// OutputPath is where the driver writes a candidate's output.
func OutputPath(dir string, config int, tag byte, param int) string {
	return filepath.Join(dir, fmt.Sprintf("out_c%d_%c_p%d.bin", config, tag, param))
}

// Generate writes the programs for t. Every configuration must resolve
// (Load has checked that).
func Generate(t *task.Task) (*Sources, error) {
	d := &genData{Task: t, NConfigs: len(t.Configs), NParams: len(t.Params), ArenaMax: 1}
	for _, p := range t.Params {
		d.HasHalf = d.HasHalf || p.Type.IsHalf()
	}
	for i := range t.Configs {
		r, err := t.Resolve(i)
		if err != nil {
			return nil, fmt.Errorf("harness: %s: config %s: %w", t.Name, t.Configs[i].Name, err)
		}
		d.Resolved = append(d.Resolved, r)
		n := arenaBytes(t, r)
		d.Arena = append(d.Arena, n)
		d.ArenaMax = max(d.ArenaMax, n)
	}
	var s Sources
	for _, out := range []struct {
		dst  *string
		tmpl *template.Template
	}{{&s.Header, headerTmpl}, {&s.RefMain, refMainTmpl}, {&s.Driver, driverTmpl}} {
		var b bytes.Buffer
		if err := out.tmpl.Execute(&b, d); err != nil {
			return nil, fmt.Errorf("harness: %s: %w", t.Name, err)
		}
		*out.dst = b.String()
	}
	return &s, nil
}

type genData struct {
	Task     *task.Task
	NConfigs int
	NParams  int
	Resolved []*task.Resolved
	HasHalf  bool    // some parameter is float16 or bfloat16: the header declares the types
	Arena    []int64 // host arena bytes per configuration (arenaBytes)
	ArenaMax int64   // the driver's one host arena: the largest of Arena, at least 1 (malloc(0) may give NULL)
}

// arenaBytes is the part of the driver's host arena that configuration r
// uses: over t's array parameters p, each array's bytes rounded up to
// arenaAlign,
//
//	Σ_p ⌈len_p·size_p / arenaAlign⌉·arenaAlign  bytes.
func arenaBytes(t *task.Task, r *task.Resolved) int64 {
	var n int64
	for _, p := range t.Params {
		if !p.Role.IsArray() {
			continue
		}
		b := r.Len[p.Name] * int64(p.Type.Size())
		n += (b + arenaAlign - 1) / arenaAlign * arenaAlign
	}
	return n
}

var typeEnum = map[task.DType]string{
	task.Float32: "T_F32", task.Float64: "T_F64", task.Int32: "T_I32",
	task.Int64: "T_I64", task.Uint32: "T_U32", task.Uint8: "T_U8",
	task.Float16: "T_F16", task.BFloat16: "T_BF16",
}

var roleEnum = map[task.Role]string{task.In: "R_IN", task.Out: "R_OUT", task.InOut: "R_INOUT", task.Scalar: "R_SCALAR"}

var distEnum = map[string]string{"": "D_NONE", "uniform": "D_UNIFORM", "normal": "D_NORMAL", "randint": "D_RANDINT", "nonzero_uniform": "D_NONZERO"}

// cDouble writes v so that C reads back the same double.
func cDouble(v float64) string {
	s := strconv.FormatFloat(v, 'g', -1, 64)
	if !strings.ContainsAny(s, ".en") {
		s += ".0"
	}
	return s
}

// table renders one row per configuration of per-parameter values.
func (d *genData) table(cell func(r *task.Resolved, p *task.Param) string) string {
	var b strings.Builder
	for ci, r := range d.Resolved {
		b.WriteString("    {")
		for pi := range d.Task.Params {
			if pi > 0 {
				b.WriteString(", ")
			}
			b.WriteString(cell(r, &d.Task.Params[pi]))
		}
		b.WriteString("}")
		if ci < len(d.Resolved)-1 {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, " /* %s */\n", r.Name)
	}
	return b.String()
}

// args renders the argument list of a call in configuration r, with array
// parameters taken from the pointer array p; mutable drops const, for the
// generator, which may fill in arrays.
func (d *genData) args(r *task.Resolved, mutable bool) string {
	parts := make([]string, len(d.Task.Params))
	for i, p := range d.Task.Params {
		switch p.Role {
		case task.Scalar:
			parts[i] = r.Scalars[p.Name]
		case task.In:
			if mutable {
				parts[i] = fmt.Sprintf("(%s *)p[%d]", p.Type.CType(), i)
			} else {
				parts[i] = fmt.Sprintf("(const %s *)p[%d]", p.Type.CType(), i)
			}
		default:
			parts[i] = fmt.Sprintf("(%s *)p[%d]", p.Type.CType(), i)
		}
	}
	return strings.Join(parts, ", ")
}

var funcs = template.FuncMap{
	"quote": strconv.Quote,
	"lens": func(d *genData) string {
		return d.table(func(r *task.Resolved, p *task.Param) string { return strconv.FormatInt(r.Len[p.Name], 10) + "LL" })
	},
	"dists": func(d *genData) string {
		return d.table(func(r *task.Resolved, p *task.Param) string { return distEnum[r.Dists[p.Name].Kind] })
	},
	"distA": func(d *genData) string {
		return d.table(func(r *task.Resolved, p *task.Param) string { return cDouble(r.Dists[p.Name].A) })
	},
	"distB": func(d *genData) string {
		return d.table(func(r *task.Resolved, p *task.Param) string { return cDouble(r.Dists[p.Name].B) })
	},
	"arena": func(d *genData) string {
		parts := make([]string, len(d.Arena))
		for i, n := range d.Arena {
			parts[i] = strconv.FormatInt(n, 10) + "ULL"
		}
		return strings.Join(parts, ", ")
	},
	"arenaAlign": func() int { return arenaAlign },
	"typeEnum":   func(p task.Param) string { return typeEnum[p.Type] },
	"roleEnum":   func(p task.Param) string { return roleEnum[p.Role] },
	"args":       func(d *genData, r *task.Resolved) string { return d.args(r, false) },
	"genArgs":    func(d *genData, r *task.Resolved) string { return d.args(r, true) },
	"genSig": func(t *task.Task) string {
		s := t.GenerateSignature()
		s = strings.Replace(s, "void "+t.Entry+"(", "void "+t.Generator+"(", 1)
		// The generator may fill any array, so in arrays lose their const.
		s = strings.ReplaceAll(s, "const ", "")
		return strings.TrimSuffix(s, ")") + ", unsigned long long seed)"
	},
	"poison": func(p task.Param) string {
		if p.Type.IsFloat() {
			return fmt.Sprintf("0x%02X", PoisonByteFlt)
		}
		return fmt.Sprintf("0x%02X", PoisonByteInt)
	},
}

var (
	headerTmpl  = template.Must(template.New(HeaderFile).Funcs(funcs).Parse(headerSrc))
	refMainTmpl = template.Must(template.New(RefMainFile).Funcs(funcs).Parse(refMainSrc))
	driverTmpl  = template.Must(template.New(DriverFile).Funcs(funcs).Parse(driverSrc))
)
