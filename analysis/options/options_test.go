package options

import (
	"strings"
	"testing"
)

var decls = []Decl{
	{Plugin: "cudaperf-analyzer", Check: "coalescing", Def: Def{Name: "min-ratio", Type: Float, Default: "2", Doc: "report at this many times the ideal sectors", Min: "1"}},
	{Plugin: "textcount", Check: "TC001", Def: Def{Name: "accept-syncwarp", Type: Bool, Default: "false"}},
	{Plugin: "textcount", Check: "TC001", Def: Def{Name: "max", Type: Int, Default: "3", Min: "0", Max: "10"}},
}

func TestValidate(t *testing.T) {
	ok := map[string]map[string]string{"coalescing": {"min-ratio": "4.5"}, "TC001": {"accept-syncwarp": "true", "max": "7"}}
	if err := Validate(decls, ok, "x.yaml"); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		settings map[string]map[string]string
		want     []string
	}{
		{map[string]map[string]string{"coalescing": {"min_ratio": "2"}}, []string{"x.yaml", "lint.settings.coalescing.min_ratio: unknown option", "min-ratio (float, default 2, at least 1)"}},
		{map[string]map[string]string{"blocksize": {"x": "1"}}, []string{"check blocksize has no options", "checks with options: TC001, coalescing"}},
		{map[string]map[string]string{"TC001": {"max": "many", "accept-syncwarp": "yes"}}, []string{`"many" is not an int`, `"yes" is not a bool`}},
		{map[string]map[string]string{"coalescing": {"min-ratio": "2x"}}, []string{`"2x" is not a float`, "report at this many"}},
		// Bounds: below a minimum, above a maximum, NaN (which compares
		// with no bound).
		{map[string]map[string]string{"coalescing": {"min-ratio": "-1"}}, []string{"lint.settings.coalescing.min-ratio: -1 is below the option's minimum, 1"}},
		{map[string]map[string]string{"coalescing": {"min-ratio": "NaN"}}, []string{`"NaN" is not a float`}},
		{map[string]map[string]string{"TC001": {"max": "11"}}, []string{"lint.settings.TC001.max: 11 is above the option's maximum, 10"}},
	} {
		err := Validate(decls, tc.settings, "x.yaml")
		if err == nil {
			t.Errorf("%v: no error", tc.settings)
			continue
		}
		for _, w := range tc.want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%v: error lacks %q: %v", tc.settings, w, err)
			}
		}
	}
}

func TestValues(t *testing.T) {
	defs := []Def{decls[0].Def}
	if got := For("coalescing", defs, nil).Float("min-ratio"); got != 2 {
		t.Errorf("default = %v", got)
	}
	if got := For("coalescing", defs, map[string]string{"coalescing.min-ratio": "3.5", "other.min-ratio": "9"}).Float("min-ratio"); got != 3.5 {
		t.Errorf("set = %v", got)
	}
	// A value outside the bounds that reaches a pass anyway (a host that
	// did not validate) reads as the default.
	if got := For("coalescing", defs, map[string]string{"coalescing.min-ratio": "0.5"}).Float("min-ratio"); got != 2 {
		t.Errorf("out of bounds = %v, want the default", got)
	}
	defer func() {
		if recover() == nil {
			t.Error("an undeclared option did not panic")
		}
	}()
	For("coalescing", defs, nil).Int("nope")
}

func TestBounds(t *testing.T) {
	for _, tc := range []struct {
		def  Def
		v    string
		want string // "" when accepted
	}{
		{Def{Name: "n", Type: Int, Min: "1", Max: "4"}, "1", ""},
		{Def{Name: "n", Type: Int, Min: "1", Max: "4"}, " 4 ", ""},
		{Def{Name: "n", Type: Int, Min: "1", Max: "4"}, "0", "0 is below the option's minimum, 1"},
		{Def{Name: "n", Type: Int, Max: "4"}, "5", "5 is above the option's maximum, 4"},
		{Def{Name: "r", Type: Float, Min: "0.5"}, "0.49", "0.49 is below the option's minimum, 0.5"},
		{Def{Name: "r", Type: Float, Min: "0.5"}, "inf", ""},
		{Def{Name: "r", Type: Float, Max: "x"}, "1", `declares the bound "x"`},
		{Def{Name: "s", Type: String, Min: "1"}, "0", ""}, // bounds are for numbers only
	} {
		err := tc.def.CheckValue(tc.v)
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%+v %q: %v", tc.def, tc.v, err)
		case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
			t.Errorf("%+v %q: error %v, want %q", tc.def, tc.v, err, tc.want)
		}
	}
}

func TestFlatten(t *testing.T) {
	got := Flatten(map[string]map[string]string{"a": {"x": "1"}, "b": {"y": "2"}})
	if len(got) != 2 || got["a.x"] != "1" || got["b.y"] != "2" {
		t.Errorf("Flatten = %v", got)
	}
}

// TestCanonical: what CheckValue accepts is sent in the one form every
// plugin SDK parses.
func TestCanonical(t *testing.T) {
	for _, c := range []struct {
		typ     Type
		in, out string
	}{
		{Bool, " true", "true"}, {Bool, "T", "true"}, {Bool, "0", "false"}, {Bool, "maybe", "maybe"},
		{Int, " 42 ", "42"}, {Int, "+7", "7"}, {Float, "1.50", "1.5"}, {Float, " 2e3", "2000"},
		{String, " keep ", " keep "},
	} {
		if got := (Def{Name: "o", Type: c.typ}).Canonical(c.in); got != c.out {
			t.Errorf("%s %q: %q, want %q", c.typ, c.in, got, c.out)
		}
	}
	settings := map[string]map[string]string{"c": {"b": "T", "other": "x"}}
	Canonicalize([]Decl{{Check: "c", Def: Def{Name: "b", Type: Bool}}, {Check: "d", Def: Def{Name: "n", Type: Int}}}, settings)
	if settings["c"]["b"] != "true" || settings["c"]["other"] != "x" || len(settings) != 1 {
		t.Errorf("Canonicalize: %v", settings)
	}
}
