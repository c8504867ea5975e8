package task

import (
	"errors"
	"fmt"
	"math"
	"os"
	"regexp"
	"strconv"
	"strings"
)

var (
	taskNameRE   = regexp.MustCompile(`^[a-z0-9_]+$`)
	identRE      = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)
	configNameRE = regexp.MustCompile(`^[A-Za-z0-9_.-]+$`)
)

// cKeywords are identifiers a parameter or entry may not take.
var cKeywords = map[string]bool{
	"auto": true, "break": true, "case": true, "char": true, "const": true, "continue": true,
	"default": true, "do": true, "double": true, "else": true, "enum": true, "extern": true,
	"float": true, "for": true, "goto": true, "if": true, "inline": true, "int": true, "long": true,
	"register": true, "restrict": true, "return": true, "short": true, "signed": true, "sizeof": true,
	"static": true, "struct": true, "switch": true, "typedef": true, "union": true, "unsigned": true,
	"void": true, "volatile": true, "while": true, "bool": true, "class": true, "new": true,
	"delete": true, "template": true, "this": true, "min": true, "max": true,
}

// maxConfigBytes bounds the arrays of one configuration: more than this is
// almost certainly a typo in a size, and would not fit next to the harness's
// copies on one GPU.
const maxConfigBytes = 32 << 30

// collector gathers every problem so that an author fixes them in one pass.
type collector struct {
	path string
	errs []error
}

func (c *collector) add(field, format string, args ...any) {
	c.errs = append(c.errs, fmt.Errorf("%s: %s: %s", c.path, field, fmt.Sprintf(format, args...)))
}

func (t *Task) validate(path, folder string, withFiles bool) error {
	c := &collector{path: path}
	switch {
	case t.Name == "":
		c.add("name", "missing; set it to the folder name %q", folder)
	case !taskNameRE.MatchString(t.Name):
		c.add("name", "%q must match [a-z0-9_]+", t.Name)
	case folder != "" && t.Name != folder:
		c.add("name", "%q must equal the folder name %q", t.Name, folder)
	}
	if strings.TrimSpace(t.Description) == "" {
		c.add("description", "missing; say in one line what the entry computes")
	}
	if strings.TrimSpace(t.Category) == "" {
		c.add("category", "missing; e.g. elementwise, reduction, stencil")
	}
	entryOK := checkIdent(c, "entry", t.Entry)

	paramsOK := t.checkParams(c)
	if entryOK && paramsOK {
		want := t.GenerateSignature()
		if t.Signature == "" {
			c.add("signature", "missing; write %q", want)
		} else if normalizeSignature(t.Signature) != normalizeSignature(want) {
			c.add("signature", "%q does not match params; expected %q", t.Signature, want)
		}
	}
	t.checkInputs(c)
	if t.Generator != "" {
		checkIdent(c, "generator", t.Generator)
	}
	for d, tol := range t.Tolerance {
		f := "tolerance." + string(d)
		if !d.valid() {
			c.add(f, "unknown type %q (want one of %s)", d, dtypeList())
			continue
		}
		if tol.RTol < 0 || tol.ATol < 0 || math.IsNaN(tol.RTol) || math.IsNaN(tol.ATol) {
			c.add(f, "rtol and atol must be >= 0")
		}
	}
	if t.Bytes == "" {
		c.add("bytes", "missing; give the fewest bytes that must move through device memory, e.g. \"3*4*n\"")
	} else if _, err := ParseExpr(t.Bytes); err != nil {
		c.add("bytes", "%v", err)
	}
	if t.Flops != "" {
		if _, err := ParseExpr(t.Flops); err != nil {
			c.add("flops", "%v", err)
		}
	}
	if paramsOK {
		t.checkConfigs(c)
	}
	if withFiles {
		t.checkFiles(c)
	}
	return errors.Join(c.errs...)
}

func checkIdent(c *collector, field, s string) bool {
	switch {
	case s == "":
		c.add(field, "missing")
	case !identRE.MatchString(s):
		c.add(field, "%q is not a C identifier", s)
	case cKeywords[s]:
		c.add(field, "%q is a reserved word; choose another name", s)
	default:
		return true
	}
	return false
}

func dtypeList() string {
	s := make([]string, len(DTypes))
	for i, d := range DTypes {
		s[i] = string(d)
	}
	return strings.Join(s, " ")
}

func (t *Task) checkParams(c *collector) bool {
	n := len(c.errs)
	if len(t.Params) == 0 {
		c.add("params", "missing; list the entry's parameters in signature order")
		return false
	}
	seen := map[string]bool{}
	outputs := 0
	for i, p := range t.Params {
		f := fmt.Sprintf("params[%d]", i)
		if checkIdent(c, f+".name", p.Name) {
			if seen[p.Name] {
				c.add(f+".name", "%q appears twice", p.Name)
			}
			seen[p.Name] = true
		}
		if !p.Type.valid() {
			c.add(f+".type", "%q is not a type (want one of %s)", p.Type, dtypeList())
		}
		switch {
		case p.Role.IsArray():
			if p.Role.IsOutput() {
				outputs++
			}
			if p.Size == "" {
				c.add(f+".size", "missing; arrays need an element count expression such as \"n\"")
			} else if _, err := ParseExpr(p.Size); err != nil {
				c.add(f+".size", "%v", err)
			}
		case p.Role == Scalar:
			if p.Size != "" {
				c.add(f+".size", "scalars have no size; remove it")
			}
			if p.Type.IsHalf() {
				c.add(f+".type", "%s is for arrays only; pass the scalar as float32", p.Type)
			}
		default:
			c.add(f+".role", "%q is not a role (want in, out, inout or scalar)", p.Role)
		}
	}
	if outputs == 0 && len(c.errs) == n {
		c.add("params", "no out or inout parameter: the candidate must write something that can be checked")
	}
	return len(c.errs) == n
}

func (t *Task) checkInputs(c *collector) {
	for pname, d := range t.Inputs {
		f := "inputs." + pname
		p := t.Param(pname)
		if p == nil {
			c.add(f, "no parameter called %q", pname)
			continue
		}
		if !p.Role.IsInput() {
			c.add(f, "%q has role %s; only in and inout parameters take a distribution", pname, p.Role)
			continue
		}
		has := func(x *Number) bool { return x != nil }
		switch d.Dist {
		case "uniform", "nonzero_uniform":
			if !p.Type.IsFloat() {
				c.add(f+".dist", "%s is for floating-point inputs; %q is %s, use randint", d.Dist, pname, p.Type)
			}
			if !has(d.Min) || !has(d.Max) {
				c.add(f, "%s needs min and max", d.Dist)
				break
			}
			lo, err1 := d.Min.Float()
			hi, err2 := d.Max.Float()
			if err1 != nil || err2 != nil {
				c.add(f, "min and max must be numbers")
			} else if !(lo < hi) {
				c.add(f, "min %v must be below max %v", lo, hi)
			} else if d.Dist == "nonzero_uniform" && math.Max(math.Abs(lo), math.Abs(hi)) <= 1e-3 {
				c.add(f, "nonzero_uniform needs a range reaching beyond ±1e-3")
			}
			if has(d.Mean) || has(d.Std) {
				c.add(f, "%s takes min and max only", d.Dist)
			}
		case "normal":
			if !p.Type.IsFloat() {
				c.add(f+".dist", "normal is for floating-point inputs; %q is %s, use randint", pname, p.Type)
			}
			if !has(d.Mean) || !has(d.Std) {
				c.add(f, "normal needs mean and std")
				break
			}
			_, err1 := d.Mean.Float()
			std, err2 := d.Std.Float()
			if err1 != nil || err2 != nil {
				c.add(f, "mean and std must be numbers")
			} else if !(std > 0) {
				c.add(f+".std", "must be > 0")
			}
			if has(d.Min) || has(d.Max) {
				c.add(f, "normal takes mean and std only")
			}
		case "randint":
			if !has(d.Min) || !has(d.Max) {
				c.add(f, "randint needs min and max (inclusive; expressions allowed)")
				break
			}
			for _, b := range []struct {
				n string
				v *Number
			}{{"min", d.Min}, {"max", d.Max}} {
				if _, err := ParseExpr(string(*b.v)); err != nil {
					c.add(f+"."+b.n, "%v", err)
				}
			}
			if has(d.Mean) || has(d.Std) {
				c.add(f, "randint takes min and max only")
			}
		case "":
			c.add(f+".dist", "missing (want uniform, normal, randint or nonzero_uniform)")
		default:
			c.add(f+".dist", "%q is not a distribution (want uniform, normal, randint or nonzero_uniform)", d.Dist)
		}
	}
}

func (t *Task) checkConfigs(c *collector) {
	if len(t.Configs) < 5 {
		c.add("configs", "%d given, at least 5 needed (include 1 element, a non-multiple of 32 and a non-power of two)", len(t.Configs))
	}
	seen := map[string]bool{}
	primaries := 0
	for i := range t.Configs {
		cf := &t.Configs[i]
		f := fmt.Sprintf("configs[%d]", i)
		switch {
		case cf.Name == "":
			c.add(f+".name", "missing")
		case !configNameRE.MatchString(cf.Name):
			c.add(f+".name", "%q must match [A-Za-z0-9_.-]+", cf.Name)
		case seen[cf.Name]:
			c.add(f+".name", "%q appears twice", cf.Name)
		}
		seen[cf.Name] = true
		if cf.Primary {
			primaries++
		}
		for k := range cf.Values {
			if !identRE.MatchString(k) {
				c.add(f+".values."+k, "not an identifier")
			} else if p := t.Param(k); p != nil && p.Role != Scalar {
				c.add(f+".values."+k, "%q is an array parameter; values bind scalars and expression names", k)
			}
		}
		if _, err := t.Resolve(i); err != nil {
			c.add(f, "%v", err)
		}
	}
	if primaries > 1 {
		c.add("configs", "%d configurations are primary; mark at most one", primaries)
	}
}

func (t *Task) checkFiles(c *collector) {
	dir := t.Dir
	ref, err := os.ReadFile(t.Reference)
	switch {
	case err != nil:
		c.add("reference.c", "missing; write the C reference defining void %s(...) in %s", t.Entry, t.Reference)
	case t.Entry != "" && !containsIdent(string(ref), t.Entry):
		c.add("reference.c", "does not define the entry %s", t.Entry)
	case t.Generator != "" && !containsIdent(string(ref), t.Generator):
		c.add("generator", "%s is not defined in %s", t.Generator, t.Reference)
	}
	if len(t.Variants) == 0 {
		c.add("variants", "no variants/*.cu in %s; add at least one CUDA implementation", dir)
	}
	for _, v := range t.Variants {
		src, err := os.ReadFile(v)
		if err != nil {
			c.add("variants", "%v", err)
			continue
		}
		first, _, _ := strings.Cut(string(src), "\n")
		if !strings.HasPrefix(strings.TrimSpace(first), "// strategy:") {
			c.add(v, "first line must be \"// strategy: <one line>\" naming the optimization")
		}
		if t.Entry != "" && !containsIdent(string(src), t.Entry) {
			c.add(v, "does not define the entry extern \"C\" void %s(...)", t.Entry)
		}
	}
}

// containsIdent reports whether id occurs in src as a whole identifier.
func containsIdent(src, id string) bool {
	for i := 0; ; {
		j := strings.Index(src[i:], id)
		if j < 0 {
			return false
		}
		j += i
		before := j == 0 || !isIdentByte(src[j-1])
		after := j+len(id) == len(src) || !isIdentByte(src[j+len(id)])
		if before && after {
			return true
		}
		i = j + 1
	}
}

func isIdentByte(c byte) bool { return isIdentStart(c) || isDigit(c) }

// GenerateSignature is the C prototype implied by Entry and Params.
func (t *Task) GenerateSignature() string {
	parts := make([]string, len(t.Params))
	for i, p := range t.Params {
		switch p.Role {
		case In:
			parts[i] = "const " + p.Type.CType() + " *" + p.Name
		case Out, InOut:
			parts[i] = p.Type.CType() + " *" + p.Name
		default:
			parts[i] = p.Type.CType() + " " + p.Name
		}
	}
	return "void " + t.Entry + "(" + strings.Join(parts, ", ") + ")"
}

// normalizeSignature drops the whitespace that does not separate words, so
// "const float* a" and "const float *a" compare equal.
func normalizeSignature(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	for _, p := range []string{"*", "(", ")", ","} {
		s = strings.ReplaceAll(s, " "+p, p)
		s = strings.ReplaceAll(s, p+" ", p)
	}
	return strings.TrimSuffix(s, ";")
}

// Resolved is one configuration with every expression evaluated.
type Resolved struct {
	Name    string
	Index   int
	Primary bool
	Env     map[string]int64        // integer values, for expressions
	Scalars map[string]string       // C literal per scalar parameter
	Len     map[string]int64        // element count per array parameter
	Dists   map[string]ResolvedDist // per in/inout parameter
	Bytes   int64
	Flops   int64 // 0 when the task gives no flops
}

// ResolvedDist is a distribution with its bounds evaluated.
type ResolvedDist struct {
	Kind string  // uniform, normal, randint, nonzero_uniform
	A, B float64 // min and max, or mean and std for normal
}

// Resolve evaluates configuration i.
func (t *Task) Resolve(i int) (*Resolved, error) {
	cf := &t.Configs[i]
	r := &Resolved{
		Name: cf.Name, Index: i, Primary: i == t.Primary(),
		Env: map[string]int64{}, Scalars: map[string]string{},
		Len: map[string]int64{}, Dists: map[string]ResolvedDist{},
	}
	floats := map[string]float64{}
	for k, v := range cf.Values {
		if n, err := strconv.ParseInt(string(v), 10, 64); err == nil {
			r.Env[k] = n
			floats[k] = float64(n)
			continue
		}
		f, err := v.Float()
		if err != nil || math.IsInf(f, 0) || math.IsNaN(f) {
			return nil, fmt.Errorf("values.%s: %q is not a finite number", k, v)
		}
		if p := t.Param(k); p == nil || !p.Type.IsFloat() {
			return nil, fmt.Errorf("values.%s: %q must be an integer (only float scalar parameters take fractions)", k, v)
		}
		floats[k] = f
	}
	// Scalars first: a missing value explains the size errors it would cause.
	for _, p := range t.Params {
		if p.Role != Scalar {
			continue
		}
		if _, ok := floats[p.Name]; !ok {
			return nil, fmt.Errorf("values.%s: missing; every scalar parameter needs a value", p.Name)
		}
		lit, err := cLiteral(p.Type, cf.Values[p.Name], floats[p.Name])
		if err != nil {
			return nil, fmt.Errorf("values.%s: %v", p.Name, err)
		}
		r.Scalars[p.Name] = lit
	}
	var total int64
	for _, p := range t.Params {
		if p.Role == Scalar {
			continue
		}
		n, err := evalField(p.Size, r.Env)
		if err != nil {
			return nil, fmt.Errorf("size of %s (%q): %v", p.Name, p.Size, err)
		}
		if n < 1 {
			return nil, fmt.Errorf("size of %s (%q) is %d; arrays need at least 1 element", p.Name, p.Size, n)
		}
		r.Len[p.Name] = n
		if n > maxConfigBytes {
			return nil, fmt.Errorf("size of %s (%q) is %d elements, over the %d GiB limit; check the expression", p.Name, p.Size, n, maxConfigBytes>>30)
		}
		total += n * int64(p.Type.Size())
		if p.Role.IsInput() {
			d, err := t.resolveDist(&p, r.Env)
			if err != nil {
				return nil, fmt.Errorf("inputs.%s: %v", p.Name, err)
			}
			r.Dists[p.Name] = d
		}
	}
	if total > maxConfigBytes {
		return nil, fmt.Errorf("arrays total %d bytes, over the %d GiB limit; check the sizes", total, maxConfigBytes>>30)
	}
	var err error
	if t.Bytes != "" {
		if r.Bytes, err = evalField(t.Bytes, r.Env); err != nil {
			return nil, fmt.Errorf("bytes (%q): %v", t.Bytes, err)
		}
		if r.Bytes < 0 {
			return nil, fmt.Errorf("bytes (%q) is negative: %d", t.Bytes, r.Bytes)
		}
	}
	if t.Flops != "" {
		if r.Flops, err = evalField(t.Flops, r.Env); err != nil {
			return nil, fmt.Errorf("flops (%q): %v", t.Flops, err)
		}
	}
	return r, nil
}

func evalField(src string, env map[string]int64) (int64, error) {
	e, err := ParseExpr(src)
	if err != nil {
		return 0, err
	}
	return e.Eval(env)
}

func (t *Task) resolveDist(p *Param, env map[string]int64) (ResolvedDist, error) {
	d := t.DistFor(p)
	r := ResolvedDist{Kind: d.Dist}
	if d.Dist == "randint" {
		lo, err := evalField(string(*d.Min), env)
		if err != nil {
			return r, fmt.Errorf("min: %v", err)
		}
		hi, err := evalField(string(*d.Max), env)
		if err != nil {
			return r, fmt.Errorf("max: %v", err)
		}
		if lo > hi {
			return r, fmt.Errorf("min %d is above max %d", lo, hi)
		}
		if lo == 0 && hi == 0 {
			return r, fmt.Errorf("randint [0, 0] makes an all-zero input; widen the range")
		}
		if err := fitsType(p.Type, lo); err != nil {
			return r, fmt.Errorf("min: %v", err)
		}
		if err := fitsType(p.Type, hi); err != nil {
			return r, fmt.Errorf("max: %v", err)
		}
		r.A, r.B = float64(lo), float64(hi)
		return r, nil
	}
	var a, b *Number = d.Min, d.Max
	if d.Dist == "normal" {
		a, b = d.Mean, d.Std
	}
	if a == nil || b == nil {
		return r, fmt.Errorf("%s is missing its bounds", d.Dist)
	}
	var err error
	if r.A, err = a.Float(); err != nil {
		return r, err
	}
	if r.B, err = b.Float(); err != nil {
		return r, err
	}
	return r, nil
}

func fitsType(d DType, v int64) error {
	var lo, hi int64
	switch d {
	case Int32:
		lo, hi = math.MinInt32, math.MaxInt32
	case Uint32:
		lo, hi = 0, math.MaxUint32
	case Uint8:
		lo, hi = 0, math.MaxUint8
	case Int64:
		return nil
	default: // floats hold any value the generator makes
		return nil
	}
	if v < lo || v > hi {
		return fmt.Errorf("%d does not fit %s", v, d)
	}
	return nil
}

// cLiteral writes a scalar value as a C literal of type d.
func cLiteral(d DType, raw Number, f float64) (string, error) {
	switch d {
	case Float32, Float64:
		s := strconv.FormatFloat(f, 'g', -1, map[DType]int{Float32: 32, Float64: 64}[d])
		if !strings.ContainsAny(s, ".e") {
			s += ".0"
		}
		if d == Float32 {
			s += "f"
		}
		return s, nil
	}
	v, err := strconv.ParseInt(string(raw), 10, 64)
	if err != nil {
		return "", fmt.Errorf("%q must be an integer for %s", raw, d)
	}
	if err := fitsType(d, v); err != nil {
		return "", err
	}
	switch d {
	case Int64:
		return strconv.FormatInt(v, 10) + "LL", nil
	case Uint32:
		return strconv.FormatInt(v, 10) + "u", nil
	}
	return strconv.FormatInt(v, 10), nil
}
