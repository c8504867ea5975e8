package driver

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"os"
	"reflect"
	"runtime"
	"runtime/debug"
	"slices"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/cudaperf/cudaperf/analysis"
	"github.com/cudaperf/cudaperf/analysis/device"
	"github.com/cudaperf/cudaperf/analysis/options"
	"github.com/cudaperf/cudaperf/analysis/preproc"
	"github.com/cudaperf/cudaperf/analysis/ptxas"
	"github.com/cudaperf/cudaperf/grammar"
)

// Check ids of the findings the driver itself reports.
const (
	CheckSyntax   = "syntax"   // ERROR and MISSING nodes of the parse tree
	CheckInput    = "input"    // the file could not be read or is not source text
	CheckInternal = "internal" // an analyzer failed (its name is in the message)
)

// DefaultMaxFileSize is the largest file analysed unless Options says
// otherwise: real CUDA sources are far smaller, and a larger file is
// usually generated or not source at all.
const DefaultMaxFileSize = 10 << 20

// Options configure a Driver. The zero value is usable.
type Options struct {
	// Device is the target; nil means device.Default() (the H200).
	Device *device.Device
	// Ptxas returns the ptxas report for a file, or nil; nil means none.
	Ptxas func(path string) *ptxas.Report
	// Sizes binds problem-size names to values for every file
	// (analysis.Pass.Sizes); nil means no size.
	Sizes map[string]int64
	// MaxFileSize in bytes; 0 means DefaultMaxFileSize.
	MaxFileSize int64
	// Jobs is the number of files analysed at once; 0 means GOMAXPROCS.
	Jobs int
	// Defines returns the build's macros for a file (-D flags and the
	// #defines of the headers it includes; name → replacement, "1" for
	// -DNAME), or nil: #if branches they decide are analysed as the build
	// takes them (preproc.Resolve), and the passes see the values
	// (analysis.File.Defines). nil means none.
	Defines func(path string, src []byte) map[string]string
	// Settings are the user's option values, keys "<check>.<name>"
	// (package options); an analyzer's undeclared keys are ignored.
	Settings map[string]string
}

// maxRecoverRounds bounds the re-parses of a file with syntax errors: each
// round rewrites the lines around the remaining errors (preproc.Recover).
// On the real-world corpus (bench/realworld) rounds after the third
// changed nothing.
const maxRecoverRounds = 3

// FileResult holds the findings for one file.
type FileResult struct {
	Path        string
	Diagnostics []analysis.Diagnostic // sorted by position, then check
	Features    []analysis.Feature    // in analyzer order, then report order
	// Errors are the failures behind "input" and "internal" diagnostics,
	// with stacks for panics, for logs and tests.
	Errors []error
	// Analyzed is false when the file was not parsed at all (missing,
	// binary, too large).
	Analyzed bool
}

// Driver runs a fixed set of analyzers.
type Driver struct {
	roots map[*analysis.Analyzer]bool
	order []*analysis.Analyzer // dependencies first
	opts  Options
	// features is how many features the roots declare: a file's result
	// starts with room for that many (one kernel's worth).
	features int
	// group numbers the analyzers of order by their requirements: those
	// with the same share a ResultOf map (see resultsOf); groups counts
	// the numbers.
	group  []int
	groups int
}

// New validates the analyzers and prepares their run order.
func New(analyzers []*analysis.Analyzer, opts Options) (*Driver, error) {
	if err := analysis.Validate(analyzers); err != nil {
		return nil, fmt.Errorf("driver: %w", err)
	}
	if err := grammar.Check(); err != nil {
		return nil, fmt.Errorf("driver: %w", err)
	}
	if opts.Device == nil {
		opts.Device = device.Default()
	}
	if opts.MaxFileSize <= 0 {
		opts.MaxFileSize = DefaultMaxFileSize
	}
	if opts.Jobs <= 0 {
		opts.Jobs = runtime.GOMAXPROCS(0)
	}
	d := &Driver{roots: map[*analysis.Analyzer]bool{}, opts: opts}
	groupOf := map[string]int{} // requirement names → group
	seen := map[*analysis.Analyzer]bool{}
	var visit func(a *analysis.Analyzer)
	visit = func(a *analysis.Analyzer) {
		if seen[a] {
			return
		}
		seen[a] = true
		var key strings.Builder
		for _, r := range a.Requires {
			visit(r)
			key.WriteString(r.Name + "\x00") // names are unique: Validate checks them
		}
		g, ok := groupOf[key.String()]
		if !ok {
			g = len(groupOf)
			groupOf[key.String()] = g
		}
		d.group = append(d.group, g)
		d.order = append(d.order, a)
	}
	for _, a := range analyzers {
		if !d.roots[a] {
			d.features += len(a.Features)
		}
		d.roots[a] = true
		visit(a)
	}
	d.groups = len(groupOf)
	return d, nil
}

// Analyzers returns every analyzer the driver runs, requirements first.
func (d *Driver) Analyzers() []*analysis.Analyzer {
	return append([]*analysis.Analyzer(nil), d.order...)
}

// RunFiles analyses files in parallel (Options.Jobs at a time) and returns
// one result per path, in the order given. A cancelled context stops files
// not yet started; they get an "input" diagnostic saying so.
func (d *Driver) RunFiles(ctx context.Context, paths []string) []*FileResult {
	out := make([]*FileResult, len(paths))
	next := make(chan int)
	var wg sync.WaitGroup
	for w := 0; w < min(d.opts.Jobs, len(paths)); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				out[i] = d.RunFile(ctx, paths[i])
			}
		}()
	}
	for i := range paths {
		next <- i
	}
	close(next)
	wg.Wait()
	return out
}

// RunFile reads and analyses one file.
func (d *Driver) RunFile(ctx context.Context, path string) *FileResult {
	res := &FileResult{Path: path}
	if err := ctx.Err(); err != nil {
		res.inputError(fmt.Errorf("%s: not analysed: %w", path, err))
		return res
	}
	src, err := d.readSource(path)
	if err != nil {
		res.inputError(err)
		return res
	}
	return d.run(ctx, path, src, res)
}

// readSource reads a source file, refusing folders and files over the size
// limit before reading them. It stats the open file (one path lookup, not
// three as os.Stat and os.ReadFile would make).
func (d *Driver) readSource(path string) ([]byte, error) {
	f, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("%s: no such file; check the path", path)
	}
	if err != nil {
		return nil, fmt.Errorf("%s: cannot read: %w", path, err)
	}
	defer f.Close()
	st, err := f.Stat()
	switch {
	case err != nil:
		return nil, fmt.Errorf("%s: cannot read: %w", path, err)
	case st.IsDir():
		return nil, fmt.Errorf("%s: is a directory; pass the .cu files in it, or expand it with driver.Collect", path)
	case st.Size() > d.opts.MaxFileSize:
		return nil, d.tooLarge(path, st.Size())
	}
	// Room for the stat size and a little more (a file that grew meanwhile
	// is still read to its end).
	buf := bytes.NewBuffer(make([]byte, 0, st.Size()+512))
	if _, err := buf.ReadFrom(f); err != nil {
		return nil, fmt.Errorf("%s: cannot read: %w", path, err)
	}
	return buf.Bytes(), nil
}

// tooLarge is the error for a source of size bytes over the limit.
func (d *Driver) tooLarge(path string, size int64) error {
	return fmt.Errorf("%s: %.1f MB is over the %.0f MB limit for one source file; split it or raise the limit", path, float64(size)/(1<<20), float64(d.opts.MaxFileSize)/(1<<20))
}

// RunSource analyses source held in memory; path names it in findings.
func (d *Driver) RunSource(ctx context.Context, path string, src []byte) *FileResult {
	res := &FileResult{Path: path}
	if int64(len(src)) > d.opts.MaxFileSize {
		res.inputError(d.tooLarge(path, int64(len(src))))
		return res
	}
	return d.run(ctx, path, src, res)
}

// binarySniff is how much of a file is checked for NUL bytes, as git and
// grep do to tell binary files from text.
const binarySniff = 8000

// IsBinary reports whether src looks like a binary file (a NUL byte in its
// first binarySniff bytes), which no analysis of CUDA source should read.
func IsBinary(src []byte) bool { return bytes.IndexByte(src[:min(len(src), binarySniff)], 0) >= 0 }

func (d *Driver) run(ctx context.Context, path string, src []byte, res *FileResult) *FileResult {
	if IsBinary(src) {
		res.inputError(fmt.Errorf("%s: binary file (it contains NUL bytes), not CUDA source; remove it from the file list", path))
		return res
	}
	var defs map[string]string
	if d.opts.Defines != nil {
		defs = d.opts.Defines(path, src)
	}
	src = preproc.Resolve(src, defs)
	file, err := analysis.ParseFile(ctx, path, src)
	if err != nil {
		res.inputError(err)
		return res
	}
	errs := grammar.SyntaxErrors(file.Root(), src)
	for round := 0; len(errs) > 0 && round < maxRecoverRounds; round++ {
		fixed := preproc.Recover(src, spans(errs))
		if len(fixed) == 0 || &fixed[0] == &src[0] {
			break // no rule applies
		}
		f2, err := analysis.ParseFile(ctx, path, fixed)
		if err != nil {
			break
		}
		e2 := grammar.SyntaxErrors(f2.Root(), fixed)
		if !fewer(e2, errs) {
			f2.Tree.Close()
			break
		}
		file.Tree.Close()
		file, src, errs = f2, fixed, e2
	}
	defer func() { file.Tree.Close() }()
	file.Defines = defs
	res.Analyzed = true
	if !utf8.Valid(src) {
		off := firstInvalidUTF8(src)
		r := file.Range(uint32(off), uint32(off+1))
		err := fmt.Errorf("%s:%d:%d: not valid UTF-8 (byte 0x%02x); save the file as UTF-8", path, r.StartLine, r.StartCol, src[off])
		res.Errors = append(res.Errors, err)
		// A warning: nvcc compiles such a file (a Latin-1 byte in a
		// comment), and it is analysed; as an error it failed every lint
		// of legacy code at the default --fail-on.
		res.Diagnostics = append(res.Diagnostics, analysis.Diagnostic{Check: CheckInput, Severity: analysis.Warning, Range: r,
			Message: fmt.Sprintf("not valid UTF-8 (byte 0x%02x); the file is analysed as is, but save it as UTF-8", src[off])})
	}
	if len(errs) > 0 {
		res.Diagnostics = append(res.Diagnostics, syntaxDiagnostic(file, src, errs))
	}
	var rep *ptxas.Report
	if d.opts.Ptxas != nil {
		rep = d.opts.Ptxas(path)
	}
	results := make(map[*analysis.Analyzer]any, len(d.order))
	failed := map[*analysis.Analyzer]string{} // analyzer → why
	// Most analyzers require just kernels or dataflow: those with the same
	// requirements share one (read-only) ResultOf map instead of each
	// making its own.
	shared := make([]map[*analysis.Analyzer]any, d.groups)
	for i, a := range d.order {
		if err := ctx.Err(); err != nil {
			res.internal(a, fmt.Errorf("%s: analyzer %s not run: %w", path, a.Name, err))
			failed[a] = "cancelled"
			continue
		}
		if why := d.blocked(a, failed); why != "" {
			failed[a] = why
			if d.roots[a] {
				res.internal(a, fmt.Errorf("%s: analyzer %s skipped: %s", path, a.Name, why))
			}
			continue
		}
		result, err := d.runOne(a, file, rep, resultsOf(a, results, &shared[d.group[i]]), res)
		if err != nil {
			failed[a] = fmt.Sprintf("it requires %s, which failed", a.Name)
			res.internal(a, err)
			continue
		}
		results[a] = result
	}
	slices.SortStableFunc(res.Diagnostics, func(x, y analysis.Diagnostic) int {
		if c := cmp.Compare(x.Range.StartByte, y.Range.StartByte); c != 0 {
			return c
		}
		return strings.Compare(x.Check, y.Check)
	})
	return res
}

func spans(errs []grammar.SyntaxError) []preproc.Span {
	out := make([]preproc.Span, len(errs))
	for i, e := range errs {
		out[i] = preproc.Span{Start: int(e.StartByte), End: int(e.EndByte)}
	}
	return out
}

// fewer reports whether the errors a leave are fewer than b's: fewer
// places, or as many covering fewer bytes.
func fewer(a, b []grammar.SyntaxError) bool {
	if len(a) != len(b) {
		return len(a) < len(b)
	}
	width := func(es []grammar.SyntaxError) (n uint32) {
		for _, e := range es {
			n += e.EndByte - e.StartByte
		}
		return n
	}
	return width(a) < width(b)
}

// syntaxDiagnostic is the one finding for a file the grammar could not
// read whole. It is an error only where nvcc fails too, which it can tell
// for sure only when a bracket has no partner; any other unreadable code
// is more likely a construct the grammar does not know (a macro from a
// header, a C++ feature) than a mistake, so the finding is a note saying
// that the parse was partial.
func syntaxDiagnostic(file *analysis.File, src []byte, errs []grammar.SyntaxError) analysis.Diagnostic {
	if b, ok := preproc.Unbalanced(src); ok {
		return analysis.Diagnostic{Check: CheckSyntax, Severity: analysis.Error, Range: file.Range(uint32(b.Offset), uint32(b.Offset+1)),
			Message: b.Message() + "; the compiler rejects this file too (the rest is still analysed)"}
	}
	e := errs[0]
	places := "1 place"
	if len(errs) > 1 {
		places = fmt.Sprintf("%d places", len(errs))
	}
	return analysis.Diagnostic{Check: CheckSyntax, Severity: analysis.Info, Range: file.Range(e.StartByte, e.EndByte),
		Message: fmt.Sprintf("partial parse: the grammar could not read %s of this file, the first near '%s'; findings there may be missing (`cudaperf parse --check FILE` lists them all)", places, e.Near)}
}

// blocked says why a cannot run: a requirement failed.
func (d *Driver) blocked(a *analysis.Analyzer, failed map[*analysis.Analyzer]string) string {
	for _, r := range a.Requires {
		if _, ok := failed[r]; ok {
			return fmt.Sprintf("it requires %s, which failed", r.Name)
		}
	}
	return ""
}

// resultsOf returns the ResultOf map of a: the results of its
// requirements, the map in *shared when an analyzer with the same
// requirements made it already.
func resultsOf(a *analysis.Analyzer, results map[*analysis.Analyzer]any, shared *map[*analysis.Analyzer]any) map[*analysis.Analyzer]any {
	if *shared != nil {
		return *shared
	}
	m := make(map[*analysis.Analyzer]any, len(a.Requires))
	for _, r := range a.Requires {
		m[r] = results[r]
	}
	*shared = m
	return m
}

// runOne runs one analyzer, turning a panic into an error.
func (d *Driver) runOne(a *analysis.Analyzer, file *analysis.File, rep *ptxas.Report, resultOf map[*analysis.Analyzer]any, res *FileResult) (result any, err error) {
	root := d.roots[a]
	pass := &analysis.Pass{
		Analyzer: a,
		File:     file,
		Device:   d.opts.Device,
		Ptxas:    rep,
		Sizes:    d.opts.Sizes,
		ResultOf: resultOf,
		Options:  options.For(a.Name, a.Options, d.opts.Settings),
		Report: func(diag analysis.Diagnostic) {
			if !root {
				return
			}
			if a.NoChecks {
				res.internal(a, fmt.Errorf("%s: analyzer %s reported a diagnostic, but it declares NoChecks (it is not a check): %s", file.Path, a.Name, diag.Message))
				return
			}
			if diag.Check == "" {
				diag.Check = a.Name
			}
			if diag.Severity == 0 {
				diag.Severity = a.DefaultSeverity()
			}
			res.Diagnostics = append(res.Diagnostics, diag)
		},
		ReportFeature: func(f analysis.Feature) {
			if !root {
				return
			}
			def := a.Feature(f.Name)
			switch {
			case def == nil:
				res.internal(a, fmt.Errorf("%s: analyzer %s reported feature %q, which it does not declare in Features", file.Path, a.Name, f.Name))
				return
			case math.IsNaN(f.Value) || math.IsInf(f.Value, 0):
				res.internal(a, fmt.Errorf("%s: analyzer %s reported %v for feature %q%s", file.Path, a.Name, f.Value, f.Name, kernelSuffix(f.Kernel)))
				return
			case def.Level == analysis.LevelKernel && f.Kernel == "":
				res.internal(a, fmt.Errorf("%s: analyzer %s reported kernel-level feature %q without a kernel", file.Path, a.Name, f.Name))
				return
			}
			if f.Unit == "" {
				f.Unit = def.Unit
			}
			if res.Features == nil {
				res.Features = make([]analysis.Feature, 0, d.features)
			}
			res.Features = append(res.Features, f)
		},
	}
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("%s: analyzer %s panicked: %v (this is a bug in the analyzer; please report it with the file)\n%s", file.Path, a.Name, p, debug.Stack())
		}
	}()
	result, err = a.Run(pass)
	if err != nil {
		return nil, fmt.Errorf("%s: analyzer %s: %w", file.Path, a.Name, err)
	}
	if a.ResultType != nil && result != nil && !reflect.TypeOf(result).AssignableTo(a.ResultType) {
		return nil, fmt.Errorf("%s: analyzer %s returned a %T, but its ResultType is %v", file.Path, a.Name, result, a.ResultType)
	}
	return result, nil
}

func kernelSuffix(k string) string {
	if k == "" {
		return ""
	}
	return " of kernel " + k
}

func (res *FileResult) inputError(err error) {
	res.Errors = append(res.Errors, err)
	res.Diagnostics = append(res.Diagnostics, analysis.Diagnostic{Check: CheckInput, Severity: analysis.Error,
		Range: analysis.Range{StartLine: 1, StartCol: 1, EndLine: 1, EndCol: 1}, Message: trimPath(err.Error(), res.Path)})
}

// internal records an analyzer failure as an error diagnostic at the top
// of the file; the message names the analyzer (and the first line of a
// panic, without the stack).
func (res *FileResult) internal(a *analysis.Analyzer, err error) {
	res.Errors = append(res.Errors, err)
	msg := trimPath(err.Error(), res.Path)
	if i := bytes.IndexByte([]byte(msg), '\n'); i >= 0 {
		msg = msg[:i]
	}
	res.Diagnostics = append(res.Diagnostics, analysis.Diagnostic{Check: CheckInternal, Severity: analysis.Error,
		Range: analysis.Range{StartLine: 1, StartCol: 1, EndLine: 1, EndCol: 1}, Message: msg})
}

// trimPath drops a leading "path: " since printers put the path first.
func trimPath(msg, path string) string {
	if p := path + ": "; len(msg) > len(p) && msg[:len(p)] == p {
		return msg[len(p):]
	}
	return msg
}

func firstInvalidUTF8(b []byte) int {
	for i := 0; i < len(b); {
		r, n := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError && n <= 1 {
			return i
		}
		i += n
	}
	return 0
}
