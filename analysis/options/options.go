package options

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"
)

// Type is the type of an option's value.
type Type string

const (
	Int    Type = "int"
	Float  Type = "float"
	Bool   Type = "bool"
	String Type = "string"
)

// Def declares one option of a check.
type Def struct {
	Name    string // key under the check, e.g. "min-ratio"
	Type    Type   // Int, Float, Bool or String; "" means String
	Default string // the value when the user sets none, in the type's syntax
	Doc     string // one line: what it changes
	// Min and Max bound an Int or Float option, inclusive, in the type's
	// syntax; "" leaves that side open. A value outside them is refused
	// like one of the wrong type (a coalescing min-ratio of -1 would
	// report every access and say nothing).
	Min, Max string
}

// CheckValue reports whether v is a value of the option's type, within its
// bounds.
func (d Def) CheckValue(v string) error {
	var err error
	var x float64 // the value, for the bounds
	switch d.Type {
	case Int:
		var n int
		n, err = strconv.Atoi(strings.TrimSpace(v))
		x = float64(n)
	case Float:
		x, err = strconv.ParseFloat(strings.TrimSpace(v), 64)
		if err == nil && math.IsNaN(x) {
			err = errors.New("NaN") // compares with no bound and no threshold
		}
	case Bool:
		_, err = strconv.ParseBool(strings.TrimSpace(v))
	case String, "":
	default:
		return fmt.Errorf("option %s has unknown type %q (use int, float, bool or string)", d.Name, d.Type)
	}
	if err != nil {
		return fmt.Errorf("%q is not a%s %s", v, article(d.Type), d.Type)
	}
	if d.Type != Int && d.Type != Float {
		return nil
	}
	lo, hi, err := d.bounds()
	if err != nil {
		return err
	}
	switch {
	case x < lo:
		return fmt.Errorf("%s is below the option's minimum, %s", strings.TrimSpace(v), d.Min)
	case x > hi:
		return fmt.Errorf("%s is above the option's maximum, %s", strings.TrimSpace(v), d.Max)
	}
	return nil
}

// Canonical is v as every plugin SDK reads it: an int or a float in Go's
// shortest form, a bool as true or false, with the blanks CheckValue
// allows removed; v itself when it is not a value of the type. The host
// checks values with Go's parsers, which accept " true" and "T", while a
// Python plugin's bool parser refused "t" and the Go SDK's an untrimmed
// "true": sent as written, a value the configuration check let through
// failed every file.
func (d Def) Canonical(v string) string {
	t := strings.TrimSpace(v)
	switch d.Type {
	case Int:
		if n, err := strconv.Atoi(t); err == nil {
			return strconv.Itoa(n)
		}
	case Float:
		if x, err := strconv.ParseFloat(t, 64); err == nil {
			return strconv.FormatFloat(x, 'g', -1, 64)
		}
	case Bool:
		if b, err := strconv.ParseBool(t); err == nil {
			return strconv.FormatBool(b)
		}
	}
	return v
}

// Canonicalize rewrites, in place, every setting of a declared option to
// its Canonical form, so that plugins receive what the host checked.
func Canonicalize(decls []Decl, settings map[string]map[string]string) {
	for _, d := range decls {
		if v, ok := settings[d.Check][d.Name]; ok {
			settings[d.Check][d.Name] = d.Canonical(v)
		}
	}
}

// bounds are Min and Max as numbers, ±Inf where open; an unparsable bound
// is the declaring check's error.
func (d Def) bounds() (lo, hi float64, err error) {
	lo, hi = math.Inf(-1), math.Inf(1)
	for _, b := range []struct {
		s   string
		dst *float64
	}{{d.Min, &lo}, {d.Max, &hi}} {
		if b.s == "" {
			continue
		}
		if *b.dst, err = strconv.ParseFloat(strings.TrimSpace(b.s), 64); err != nil {
			return lo, hi, fmt.Errorf("option %s declares the bound %q, which is not a number (a bug in the check that declares it)", d.Name, b.s)
		}
	}
	return lo, hi, nil
}

// Summary is the option's type, default and bounds as messages and
// listings show them: "float, default 2, at least 1".
func (d Def) Summary() string {
	t := d.Type
	if t == "" {
		t = String
	}
	s := fmt.Sprintf("%s, default %s", t, d.Default)
	if r := d.Range(); r != "" {
		s += ", " + r
	}
	return s
}

// Range says the option's bounds for messages: "[1, 100]", "at least 1",
// "at most 8"; "" when it has none.
func (d Def) Range() string {
	switch {
	case d.Min != "" && d.Max != "":
		return fmt.Sprintf("[%s, %s]", d.Min, d.Max)
	case d.Min != "":
		return "at least " + d.Min
	case d.Max != "":
		return "at most " + d.Max
	}
	return ""
}

func article(t Type) string {
	if t == Int {
		return "n"
	}
	return ""
}

// Decl is a declared option as the host knows it: the check it tunes and
// the plugin that declares it.
type Decl struct {
	Plugin string
	Check  string
	Def
}

// Key is the option's key in AnalyzeRequest.options: "<check>.<name>".
func (d Decl) Key() string { return d.Check + "." + d.Name }

// Validate checks lint.settings (check → key → value) against the
// declared options. where names the configuration file for the errors.
// Every problem is reported, each naming the setting and what is known.
func Validate(decls []Decl, settings map[string]map[string]string, where string) error {
	byCheck := map[string][]Decl{}
	for _, d := range decls {
		byCheck[d.Check] = append(byCheck[d.Check], d)
	}
	var problems []string
	for _, check := range sortedKeys(settings) {
		ds := byCheck[check]
		if len(ds) == 0 {
			problems = append(problems, fmt.Sprintf("lint.settings.%s: check %s has no options; checks with options: %s", check, check, orNone(checksWithOptions(byCheck))))
			continue
		}
		for _, key := range sortedKeys(settings[check]) {
			i := slices.IndexFunc(ds, func(d Decl) bool { return d.Name == key })
			if i < 0 {
				problems = append(problems, fmt.Sprintf("lint.settings.%s.%s: unknown option; %s's options: %s", check, key, check, names(ds)))
				continue
			}
			if err := ds[i].CheckValue(settings[check][key]); err != nil {
				problems = append(problems, fmt.Sprintf("lint.settings.%s.%s: %v (%s)", check, key, err, ds[i].Doc))
			}
		}
	}
	if len(problems) == 0 {
		return nil
	}
	return fmt.Errorf("config: %s: %s (`cudaperf plugins describe NAME` lists a plugin's options)", where, strings.Join(problems, "; "))
}

// Flatten turns lint.settings into AnalyzeRequest.options keys.
func Flatten(settings map[string]map[string]string) map[string]string {
	out := map[string]string{}
	for check, kv := range settings {
		for k, v := range kv {
			out[check+"."+k] = v
		}
	}
	return out
}

func checksWithOptions(byCheck map[string][]Decl) string {
	var out []string
	for c := range byCheck {
		out = append(out, c)
	}
	sort.Strings(out)
	return strings.Join(out, ", ")
}

func names(ds []Decl) string {
	var out []string
	for _, d := range ds {
		out = append(out, fmt.Sprintf("%s (%s)", d.Name, d.Summary()))
	}
	sort.Strings(out)
	return strings.Join(out, ", ")
}

func orNone(s string) string {
	if s == "" {
		return "none"
	}
	return s
}

func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// Values are one check's options as a pass reads them: the defaults of
// its Defs, overridden by the request's "<check>.<name>" values.
type Values struct {
	check string
	defs  []Def
	set   map[string]string
}

// For returns check's option values from the flat request options.
func For(check string, defs []Def, flat map[string]string) Values {
	return Values{check: check, defs: defs, set: flat}
}

// String returns the option's value; an undeclared name is a bug in the
// pass and panics (the driver reports it as an internal error).
func (v Values) String(name string) string {
	i := slices.IndexFunc(v.defs, func(d Def) bool { return d.Name == name })
	if i < 0 {
		panic(fmt.Sprintf("options: %s has no option %q (declare it in the analyzer's Options)", v.check, name))
	}
	if s, ok := v.set[v.check+"."+name]; ok {
		if v.defs[i].CheckValue(s) == nil {
			return strings.TrimSpace(s)
		}
	}
	return v.defs[i].Default
}

// Int, Float and Bool read an option of that type (the default when the
// value does not parse, which Validate prevents for user settings).
func (v Values) Int(name string) int {
	n, _ := strconv.Atoi(v.String(name))
	return n
}

func (v Values) Float(name string) float64 {
	f, _ := strconv.ParseFloat(v.String(name), 64)
	return f
}

func (v Values) Bool(name string) bool {
	b, _ := strconv.ParseBool(v.String(name))
	return b
}
