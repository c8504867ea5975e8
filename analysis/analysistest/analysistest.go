package analysistest

import (
	"context"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"sort"
	"strconv"
	"strings"

	sitter "github.com/smacker/go-tree-sitter"

	"github.com/cudaperf/cudaperf/analysis"
	"github.com/cudaperf/cudaperf/analysis/device"
	"github.com/cudaperf/cudaperf/analysis/driver"
	"github.com/cudaperf/cudaperf/analysis/ptxas"
	"github.com/cudaperf/cudaperf/analysis/syntax"
)

// Testing is the part of *testing.T that Run uses.
type Testing interface {
	Helper()
	Errorf(format string, args ...any)
}

// TestData returns the absolute path of the caller's testdata directory.
func TestData() string {
	_, file, _, ok := runtime.Caller(1)
	if !ok {
		return "testdata"
	}
	return filepath.Join(filepath.Dir(file), "testdata")
}

// Result is the outcome of one case.
type Result struct {
	Case  string
	Files []*driver.FileResult
}

// Run runs analyzer a on each case directory testdata/src/<case> and
// checks the findings against the files' want comments. It reports every
// mismatch through t and returns the results for further checks.
func Run(t Testing, testdata string, a *analysis.Analyzer, cases ...string) []*Result {
	t.Helper()
	var out []*Result
	for _, c := range cases {
		if r := runCase(t, testdata, a, c); r != nil {
			out = append(out, r)
		}
	}
	return out
}

func runCase(t Testing, testdata string, a *analysis.Analyzer, name string) *Result {
	t.Helper()
	dir := filepath.Join(testdata, "src", name)
	files, err := sources(dir)
	if err != nil {
		t.Errorf("analysistest: case %s: %v", name, err)
		return nil
	}
	opts := driver.Options{Jobs: 1}
	if b, err := os.ReadFile(filepath.Join(dir, "arch")); err == nil {
		d, err := device.ForArch(strings.TrimSpace(string(b)))
		if err != nil {
			t.Errorf("analysistest: case %s: arch: %v", name, err)
			return nil
		}
		opts.Device = d
	}
	if b, err := os.ReadFile(filepath.Join(dir, "ptxas.txt")); err == nil {
		rep, err := ptxas.ParseBytes(b)
		if err != nil {
			t.Errorf("analysistest: case %s: ptxas.txt: %v", name, err)
			return nil
		}
		opts.Ptxas = func(string) *ptxas.Report { return rep }
	}
	if b, err := os.ReadFile(filepath.Join(dir, "options")); err == nil {
		opts.Settings = map[string]string{}
		for _, line := range strings.Split(string(b), "\n") {
			if line = strings.TrimSpace(line); line == "" || strings.HasPrefix(line, "#") {
				continue
			}
			k, v, ok := strings.Cut(line, "=")
			if !ok {
				t.Errorf("analysistest: case %s: options: %q is not check.name=value", name, line)
				return nil
			}
			opts.Settings[strings.TrimSpace(k)] = strings.TrimSpace(v)
		}
	}
	if b, err := os.ReadFile(filepath.Join(dir, "sizes")); err == nil {
		// NAME=VALUE per line: the problem-size bindings of `features --set`.
		opts.Sizes = map[string]int64{}
		for _, ln := range strings.Fields(string(b)) {
			k, v, ok := strings.Cut(ln, "=")
			x, err := strconv.ParseInt(v, 10, 64)
			if !ok || err != nil {
				t.Errorf("analysistest: case %s: sizes: %q is not NAME=INTEGER", name, ln)
				return nil
			}
			opts.Sizes[k] = x
		}
	}
	drv, err := driver.New([]*analysis.Analyzer{a}, opts)
	if err != nil {
		t.Errorf("analysistest: case %s: %v", name, err)
		return nil
	}
	res := &Result{Case: name}
	for _, path := range files {
		src, err := os.ReadFile(path)
		if err != nil {
			t.Errorf("analysistest: %v", err)
			continue
		}
		exp, errs := Expectations(path, src)
		for _, e := range errs {
			t.Errorf("%v", e)
		}
		fr := drv.RunSource(context.Background(), path, src)
		res.Files = append(res.Files, fr)
		check(t, path, fr, exp)
	}
	return res
}

func sources(dir string) ([]string, error) {
	files, err := Sources(dir)
	if err != nil && os.IsNotExist(err) {
		return nil, fmt.Errorf("%w (a case is a directory testdata/src/<case> with .cu files)", err)
	}
	return files, err
}

// Sources lists the .cu and .cuh files of dir, sorted: the files of a
// case (also for harnesses built on this package, such as the plugin
// SDK's sdktest).
func Sources(dir string) ([]string, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	var files []string
	for _, e := range entries {
		if n := e.Name(); !e.IsDir() && (strings.HasSuffix(n, ".cu") || strings.HasSuffix(n, ".cuh")) {
			files = append(files, filepath.Join(dir, n))
		}
	}
	if len(files) == 0 {
		return nil, fmt.Errorf("no .cu or .cuh files in %s", dir)
	}
	sort.Strings(files)
	return files, nil
}

// DiagExpectation expects a diagnostic on Line matching Pattern.
type DiagExpectation struct {
	Line    int
	Pattern *regexp.Regexp
}

// FeatureExpectation expects feature Name of Kernel ("" = file level).
type FeatureExpectation struct {
	Line   int
	Kernel string
	Name   string
	Value  float64
	Tol    float64
	Absent bool // "none": must not be reported
	// Status, when set ("unknown", or a value followed by "exact" or
	// "estimated"), is the status the feature must have; an unknown
	// feature's value is not compared.
	Status *analysis.Status
}

// Expected holds the want comments of one file.
type Expected struct {
	Diags    []DiagExpectation
	Features []FeatureExpectation
}

var wantRE = regexp.MustCompile(`^//\s*want\s`)

// Expectations reads the want comments of a source file. Malformed
// comments are returned as errors naming the file and line.
func Expectations(path string, src []byte) (*Expected, []error) {
	f, err := analysis.ParseFile(context.Background(), path, src)
	if err != nil {
		return &Expected{}, []error{err}
	}
	defer f.Tree.Close()
	exp := &Expected{}
	var errs []error
	analysis.Inspect(f.Root(), func(n *sitter.Node) bool {
		if n.Type() != "comment" {
			return true
		}
		text := f.Text(n)
		if !wantRE.MatchString(text + " ") {
			return false
		}
		line := int(n.StartPoint().Row) + 1
		body := strings.TrimSpace(wantRE.ReplaceAllString(text+" ", ""))
		if err := parseWant(body, line, exp); err != nil {
			errs = append(errs, fmt.Errorf("%s:%d: bad want comment: %v", path, line, err))
		}
		return false
	})
	return exp, errs
}

func parseWant(s string, line int, exp *Expected) error {
	kernel := ""
	if s == "" {
		return fmt.Errorf(`nothing after "want"; write a "regexp" or name:"value"`)
	}
	for s = strings.TrimSpace(s); s != ""; s = strings.TrimSpace(s) {
		if s[0] == '"' || s[0] == '`' {
			lit, err := strconv.QuotedPrefix(s)
			if err != nil {
				return fmt.Errorf("unterminated string %s", s)
			}
			pat, _ := strconv.Unquote(lit)
			re, err := regexp.Compile(pat)
			if err != nil {
				return fmt.Errorf("regexp %s: %v", lit, err)
			}
			exp.Diags = append(exp.Diags, DiagExpectation{Line: line, Pattern: re})
			s = s[len(lit):]
			continue
		}
		if rest, ok := strings.CutPrefix(s, "kernel="); ok {
			end := strings.IndexAny(rest, " \t")
			if end < 0 {
				end = len(rest)
			}
			kernel = rest[:end]
			if kernel == "" {
				return fmt.Errorf("kernel= needs a name")
			}
			s = rest[end:]
			continue
		}
		colon := strings.IndexByte(s, ':')
		if colon <= 0 || colon+1 >= len(s) || (s[colon+1] != '"' && s[colon+1] != '`') {
			return fmt.Errorf(`cannot read %q: want "regexp", kernel=NAME or name:"value"`, s)
		}
		name := s[:colon]
		lit, err := strconv.QuotedPrefix(s[colon+1:])
		if err != nil {
			return fmt.Errorf("unterminated value after %s", name)
		}
		val, _ := strconv.Unquote(lit)
		s = s[colon+1+len(lit):]
		if name == "kernel" {
			kernel = val
			continue
		}
		fe := FeatureExpectation{Line: line, Kernel: kernel, Name: name}
		if err := parseValue(val, &fe); err != nil {
			return fmt.Errorf("feature %s: %v", name, err)
		}
		exp.Features = append(exp.Features, fe)
	}
	return nil
}

func parseValue(v string, fe *FeatureExpectation) error {
	v = strings.TrimSpace(v)
	if v == "none" {
		fe.Absent = true
		return nil
	}
	for _, st := range []analysis.Status{analysis.Unknown, analysis.Estimated, analysis.Exact} {
		if rest, ok := strings.CutSuffix(v, st.String()); ok {
			st := st
			fe.Status = &st
			v = strings.TrimSpace(rest)
			if st == analysis.Unknown {
				if v != "" {
					return fmt.Errorf("%q: an unknown feature has no value; write \"unknown\"", v)
				}
				return nil
			}
			break
		}
	}
	num, tol, explicit := v, "", false
	for _, sep := range []string{"±", "+-"} {
		if a, b, ok := strings.Cut(v, sep); ok {
			num, tol, explicit = strings.TrimSpace(a), strings.TrimSpace(b), true
			break
		}
	}
	x, err := strconv.ParseFloat(num, 64)
	if err != nil {
		return fmt.Errorf("value %q is not a number (or \"none\")", v)
	}
	fe.Value = x
	if explicit {
		t, err := strconv.ParseFloat(tol, 64)
		if err != nil || t < 0 {
			return fmt.Errorf("tolerance %q is not a non-negative number", tol)
		}
		fe.Tol = t
	} else {
		fe.Tol = math.Max(1e-3, 1e-3*math.Abs(x))
	}
	return nil
}

// Check compares one file's results with its expectations, as Run does:
// for harnesses that produce driver results another way (the plugin SDK's
// sdktest converts a plugin's answer).
func Check(t Testing, path string, fr *driver.FileResult, exp *Expected) {
	t.Helper()
	check(t, path, fr, exp)
}

func check(t Testing, path string, fr *driver.FileResult, exp *Expected) {
	t.Helper()
	used := make([]bool, len(exp.Diags))
	for _, d := range fr.Diagnostics {
		matched := false
		for i, e := range exp.Diags {
			if !used[i] && e.Line == d.Range.StartLine && e.Pattern.MatchString(d.Message) {
				used[i], matched = true, true
				break
			}
		}
		if !matched {
			t.Errorf("%s:%d:%d: unexpected diagnostic: %s [%s]", path, d.Range.StartLine, d.Range.StartCol, d.Message, d.Check)
		}
	}
	for i, e := range exp.Diags {
		if !used[i] {
			t.Errorf("%s:%d: no diagnostic matching %q was reported on this line%s", path, e.Line, e.Pattern, onLine(fr, e.Line))
		}
	}
	for _, e := range exp.Features {
		var got []analysis.Feature
		for _, f := range fr.Features {
			if f.Name == e.Name && f.Kernel == e.Kernel {
				got = append(got, f)
			}
		}
		what := fmt.Sprintf("feature %s", e.Name)
		if e.Kernel != "" {
			what += " of kernel " + e.Kernel
		}
		switch {
		case e.Absent && len(got) > 0:
			t.Errorf("%s:%d: %s was reported (%v), want none", path, e.Line, what, got[0].Value)
		case e.Absent:
		case len(got) == 0:
			t.Errorf("%s:%d: %s was not reported; reported: %s", path, e.Line, what, featureList(fr.Features))
		case len(got) > 1:
			t.Errorf("%s:%d: %s was reported %d times", path, e.Line, what, len(got))
		case e.Status != nil && got[0].Status != *e.Status:
			t.Errorf("%s:%d: %s is %s (%v), want %s", path, e.Line, what, got[0].Status, got[0].Value, *e.Status)
		case e.Status != nil && *e.Status == analysis.Unknown:
		case math.Abs(got[0].Value-e.Value) > e.Tol:
			t.Errorf("%s:%d: %s = %v, want %v (±%v)", path, e.Line, what, got[0].Value, e.Value, e.Tol)
		}
	}
}

// onLine lists what was reported on a line, to make a failed
// expectation easy to fix.
func onLine(fr *driver.FileResult, line int) string {
	var msgs []string
	for _, d := range fr.Diagnostics {
		if d.Range.StartLine == line {
			msgs = append(msgs, strconv.Quote(d.Message))
		}
	}
	if len(msgs) == 0 {
		return ""
	}
	return " (reported there: " + strings.Join(msgs, ", ") + ")"
}

func featureList(fs []analysis.Feature) string {
	if len(fs) == 0 {
		return "nothing"
	}
	var parts []string
	for _, f := range fs {
		k := f.Kernel
		if k == "" {
			k = "<file>"
		}
		parts = append(parts, fmt.Sprintf("%s/%s=%v", k, f.Name, f.Value))
	}
	return strings.Join(parts, ", ")
}

// SyntaxRoot returns the root of f's Go syntax tree (analysis.File.Syntax),
// failing the test when it cannot be built: the one helper that unit tests
// of the analysis machinery use to get at a parsed file.
func SyntaxRoot(t interface {
	Helper()
	Fatal(args ...any)
}, f *analysis.File) *syntax.Node {
	t.Helper()
	tree, err := f.Syntax()
	if err != nil {
		t.Fatal(err)
	}
	return tree.Root()
}

// Parse reads and parses a CUDA file and returns its Go syntax tree and
// source, failing the test on any error: what unit tests of the analysis
// machinery start from.
func Parse(t interface {
	Helper()
	Fatal(args ...any)
}, path string) (*syntax.Node, []byte) {
	t.Helper()
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	f, err := analysis.ParseFile(context.Background(), path, src)
	if err != nil {
		t.Fatal(err)
	}
	return SyntaxRoot(t, f), src
}
