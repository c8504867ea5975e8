package analysis

import (
	"errors"
	"fmt"
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"
)

var nameRE = regexp.MustCompile(`^[a-z][a-z0-9_]*$`)

// Validate checks a set of analyzers and everything they require: names are
// valid and unique, every analyzer has Run and a Doc whose first line is a
// title, Requires has no cycle, and feature definitions are valid and each
// feature name is reported by one analyzer only. All problems are returned
// together.
func Validate(analyzers []*Analyzer) error {
	var errs []error
	names := map[string]*Analyzer{}
	features := map[string]*Analyzer{}
	const (
		white = iota
		grey
		black
	)
	color := map[*Analyzer]int{}
	var visit func(a *Analyzer, path []string)
	visit = func(a *Analyzer, path []string) {
		if a == nil {
			errs = append(errs, fmt.Errorf("analysis: nil analyzer required by %s", strings.Join(path, " -> ")))
			return
		}
		switch color[a] {
		case grey:
			errs = append(errs, fmt.Errorf("analysis: cycle in Requires: %s -> %s", strings.Join(path, " -> "), a.Name))
			return
		case black:
			return
		}
		color[a] = grey
		errs = append(errs, checkAnalyzer(a, names, features)...)
		for _, r := range a.Requires {
			visit(r, append(path, a.Name))
		}
		color[a] = black
	}
	for _, a := range analyzers {
		visit(a, nil)
	}
	return errors.Join(errs...)
}

func checkAnalyzer(a *Analyzer, names, features map[string]*Analyzer) []error {
	var errs []error
	bad := func(format string, args ...any) {
		errs = append(errs, fmt.Errorf("analysis: analyzer %q: "+format, append([]any{a.Name}, args...)...))
	}
	if !nameRE.MatchString(a.Name) {
		bad("name must be lower-case letters, digits and _, starting with a letter")
	} else if prev, ok := names[a.Name]; ok && prev != a {
		bad("name used by two analyzers")
	} else {
		names[a.Name] = a
	}
	if a.Run == nil {
		bad("Run is nil")
	}
	if t := a.Title(); t == "" {
		bad("Doc is empty; write a doc.go whose package comment starts with a one-line title")
	} else if r, _ := utf8.DecodeRuneInString(t); unicode.IsUpper(r) && !isAcronymStart(t) {
		bad("Doc title %q should start lower-case", t)
	}
	if a.Severity < 0 || a.Severity > Error {
		bad("Severity %d is not Info, Warning or Error", int(a.Severity))
	}
	local := map[string]bool{}
	for _, f := range a.Features {
		if !nameRE.MatchString(f.Name) {
			bad("feature name %q must be lower-case letters, digits and _", f.Name)
			continue
		}
		if local[f.Name] {
			bad("feature %q defined twice", f.Name)
			continue
		}
		local[f.Name] = true
		if prev, ok := features[f.Name]; ok && prev != a {
			bad("feature %q is also reported by analyzer %q", f.Name, prev.Name)
		} else {
			features[f.Name] = a
		}
		if f.Level != LevelKernel && f.Level != LevelFile {
			bad("feature %q: Level %q must be %q or %q", f.Name, f.Level, LevelKernel, LevelFile)
		}
		if f.Unit == "" || f.Doc == "" {
			bad("feature %q needs a Unit and a Doc", f.Name)
		}
	}
	for _, o := range a.Options {
		// The default is what every user who sets nothing gets: it must
		// be a value the option accepts (of its type, within its bounds).
		if err := o.CheckValue(o.Default); err != nil {
			bad("option %q: its Default: %v", o.Name, err)
		}
	}
	return errs
}

// isAcronymStart allows titles such as "CUDA kernel discovery" or "L2 reuse":
// a first word in capitals is an acronym, not a capitalised sentence.
func isAcronymStart(t string) bool {
	w, _, _ := strings.Cut(t, " ")
	if len(w) < 2 {
		return false
	}
	for _, r := range w {
		if unicode.IsLower(r) {
			return false
		}
	}
	return true
}
