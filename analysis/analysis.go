package analysis

import (
	"context"
	"fmt"
	"reflect"
	"sort"
	"strings"
	"sync"

	sitter "github.com/smacker/go-tree-sitter"

	"github.com/cudaperf/cudaperf/analysis/device"
	"github.com/cudaperf/cudaperf/analysis/options"
	"github.com/cudaperf/cudaperf/analysis/ptxas"
	"github.com/cudaperf/cudaperf/analysis/syntax"
)

// An Analyzer describes one analysis: its identity, its documentation, the
// analyzers whose results it needs, and the function that runs it on a file.
// Analyzers are values (`var Analyzer = &analysis.Analyzer{...}` in the
// pass's package); there is no registry.
type Analyzer struct {
	// Name is the stable id: lower-case letters, digits and underscores,
	// starting with a letter. It is also the check id of the diagnostics the
	// analyzer reports (e.g. "coalescing").
	Name string

	// Doc is the documentation, usually the pass's doc.go read with
	// MustExtractDoc. The first line is a short lower-case title; the rest
	// says what is measured, its unit and range, and gives a bad and a good
	// example.
	Doc string

	// URL points at the check's documentation page.
	URL string

	// Requires lists the analyzers that must run first on the same file;
	// their results are in Pass.ResultOf.
	Requires []*Analyzer

	// Run analyzes one file. Its result, of type ResultType, is handed to
	// the analyzers that require this one. An error means the analyzer
	// could not run (the driver reports it and skips the dependents); a
	// problem in the source is a diagnostic, not an error.
	Run func(*Pass) (any, error)

	// ResultType is the type of Run's result; nil when it returns none.
	ResultType reflect.Type

	// Features lists the features this analyzer reports. A feature name is
	// a key of the feature vector and is unique across all analyzers.
	Features []FeatureDef

	// Severity is the default severity of the analyzer's diagnostics.
	// The zero value means Warning.
	Severity Severity

	// NoChecks marks an analyzer that reports no diagnostics, only a
	// result for other analyzers and features (kernels, dataflow): it is
	// a pass but not a check, so configurations, suppressions, `explain`
	// and SARIF rules do not offer its name as one. The driver turns a
	// diagnostic it reports anyway into an "internal" error.
	NoChecks bool
	// Options are the settings users can give the check in
	// lint.settings.<Name> (package options), like an x/tools Analyzer's
	// Flags; the pass reads them through Pass.Options.
	Options []options.Def
}

func (a *Analyzer) String() string { return a.Name }

// Title returns the first line of Doc.
func (a *Analyzer) Title() string {
	t, _, _ := strings.Cut(strings.TrimSpace(a.Doc), "\n")
	return strings.TrimSpace(t)
}

// Feature returns the definition of the named feature, or nil.
func (a *Analyzer) Feature(name string) *FeatureDef {
	for i := range a.Features {
		if a.Features[i].Name == name {
			return &a.Features[i]
		}
	}
	return nil
}

// DefaultSeverity returns Severity, or Warning when it is unset.
func (a *Analyzer) DefaultSeverity() Severity {
	if a.Severity == 0 {
		return Warning
	}
	return a.Severity
}

// FeatureLevel says whether a feature has one value per kernel or per file.
type FeatureLevel string

const (
	LevelKernel FeatureLevel = "kernel"
	LevelFile   FeatureLevel = "file"
)

// FeatureDef documents one feature an analyzer reports.
type FeatureDef struct {
	Name  string       // key in the feature vector, e.g. "occ"; same rules as Analyzer.Name
	Unit  string       // e.g. "fraction", "sectors/request", "count"
	Doc   string       // one or two sentences: what the value means
	Range string       // the values it takes, e.g. "[0, 1]" or "[0, +inf)"
	Level FeatureLevel // LevelKernel or LevelFile
	// Version of the definition: raise it when what the value means or how
	// it is computed changes (a bug fix that changes values included), so
	// ranker models trained on the old definition are refused instead of
	// silently misreading it. 0 means 1.
	Version int
}

// Severity orders diagnostics: Info < Warning < Error. The zero value means
// "unset" (an analyzer's default, Warning).
type Severity int

const (
	Info Severity = iota + 1
	Warning
	Error
)

func (s Severity) String() string {
	switch s {
	case Info:
		return "info"
	case Warning, 0:
		return "warning"
	case Error:
		return "error"
	}
	return fmt.Sprintf("severity(%d)", int(s))
}

// ParseSeverity reads "info", "warning" (or "warn") and "error".
func ParseSeverity(s string) (Severity, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "info", "note":
		return Info, nil
	case "warning", "warn":
		return Warning, nil
	case "error":
		return Error, nil
	}
	return 0, fmt.Errorf("analysis: unknown severity %q; use info, warning or error", s)
}

// MarshalText writes the severity's name, so JSON carries "warning".
func (s Severity) MarshalText() ([]byte, error) { return []byte(s.String()), nil }

// UnmarshalText reads a severity name.
func (s *Severity) UnmarshalText(b []byte) error {
	v, err := ParseSeverity(string(b))
	if err != nil {
		return err
	}
	*s = v
	return nil
}

// Range is a span of source: byte offsets (end exclusive) and 1-based lines
// and columns, columns counted in bytes as GCC and clang print them. The end
// position is the position just after the last byte.
type Range struct {
	StartByte, EndByte uint32
	StartLine          int
	StartCol           int
	EndLine            int
	EndCol             int
}

// Node is what diagnostics need of a syntax node: a tree-sitter node
// (*sitter.Node) or its Go copy (*syntax.Node).
type Node interface {
	StartByte() uint32
	EndByte() uint32
	StartPoint() sitter.Point
	EndPoint() sitter.Point
}

func isNil(n Node) bool {
	if n == nil {
		return true
	}
	v := reflect.ValueOf(n)
	return v.Kind() == reflect.Pointer && v.IsNil()
}

// NodeRange returns the range of a syntax node.
func NodeRange(n Node) Range {
	if isNil(n) {
		return Range{StartLine: 1, StartCol: 1, EndLine: 1, EndCol: 1}
	}
	s, e := n.StartPoint(), n.EndPoint()
	return Range{
		StartByte: n.StartByte(), EndByte: n.EndByte(),
		StartLine: int(s.Row) + 1, StartCol: int(s.Column) + 1,
		EndLine: int(e.Row) + 1, EndCol: int(e.Column) + 1,
	}
}

func (r Range) String() string {
	return fmt.Sprintf("%d:%d-%d:%d", r.StartLine, r.StartCol, r.EndLine, r.EndCol)
}

// Diagnostic is one finding at a source range.
type Diagnostic struct {
	Check    string   // the reporting analyzer's Name (or "syntax", "input" from the driver)
	Severity Severity // Info, Warning or Error
	Range    Range
	Message  string // says what is wrong and what to change
	Kernel   string // the kernel it concerns, "" when none
	Fixes    []SuggestedFix
}

// SuggestedFix is an edit that resolves a diagnostic.
type SuggestedFix struct {
	Message string
	Edits   []TextEdit
}

// TextEdit replaces the bytes [Start, End) with NewText.
type TextEdit struct {
	Start, End uint32
	NewText    string
}

// Feature is one measured value.
type Feature struct {
	Name   string // FeatureDef.Name
	Kernel string // "" for a file-level feature
	Value  float64
	Unit   string // FeatureDef.Unit
	// Status says how far the value can be trusted: Exact (the zero
	// value), Estimated (a heuristic stands in for something the source
	// does not say, such as a loop bound read at run time), or Unknown
	// (Value is meaningless: a consumer must treat it as missing, never as
	// good or bad).
	Status Status
}

// Status is how a feature's value was obtained.
type Status uint8

const (
	Exact     Status = iota // computed from the source alone
	Estimated               // a heuristic filled a gap (a default trip count, a register estimate)
	Unknown                 // could not be determined; the value is not a value
)

func (s Status) String() string {
	switch s {
	case Estimated:
		return "estimated"
	case Unknown:
		return "unknown"
	}
	return "exact"
}

// Worse returns the less certain of two statuses: a value computed from an
// estimate is an estimate.
func (s Status) Worse(t Status) Status { return max(s, t) }

// File is one parsed source file.
type File struct {
	Path string
	Src  []byte
	Tree *sitter.Tree
	// Defines are the build's macros (-D, and #defines of the headers
	// the file includes, name → replacement): the file's own #defines
	// win over them.
	Defines map[string]string

	lineStarts []uint32 // byte offset of each line, built on first use

	syntaxOnce sync.Once
	syntaxTree *syntax.Tree
	syntaxErr  error
}

// Syntax returns a Go copy of the tree (package syntax), made on first use
// and shared by every pass of the file. Walking it costs no cgo calls, so a
// pass that walks the tree many times should walk the copy.
func (f *File) Syntax() (*syntax.Tree, error) {
	f.syntaxOnce.Do(func() {
		f.syntaxTree, f.syntaxErr = syntax.Flatten(f.Root(), Language(), f.Src)
	})
	return f.syntaxTree, f.syntaxErr
}

// Range returns the range of the bytes [start, end) of the source, for
// findings that are not one node (end is clamped to the source).
func (f *File) Range(start, end uint32) Range {
	if n := uint32(len(f.Src)); end > n {
		end = n
	}
	if start > end {
		start = end
	}
	sl, sc := f.position(start)
	el, ec := f.position(end)
	return Range{StartByte: start, EndByte: end, StartLine: sl, StartCol: sc, EndLine: el, EndCol: ec}
}

// position returns the 1-based line and byte column of offset off.
func (f *File) position(off uint32) (line, col int) {
	if f.lineStarts == nil {
		f.lineStarts = []uint32{0}
		for i, b := range f.Src {
			if b == '\n' {
				f.lineStarts = append(f.lineStarts, uint32(i+1))
			}
		}
	}
	i := sort.Search(len(f.lineStarts), func(i int) bool { return f.lineStarts[i] > off }) - 1
	return i + 1, int(off-f.lineStarts[i]) + 1
}

// Root returns the root node of the syntax tree.
func (f *File) Root() *sitter.Node { return f.Tree.RootNode() }

// Text returns the source text of a node.
func (f *File) Text(n Node) string {
	if isNil(n) {
		return ""
	}
	s, e := n.StartByte(), n.EndByte()
	if int(e) > len(f.Src) || s > e {
		return ""
	}
	return string(f.Src[s:e])
}

// Language returns the tree-sitter language that parses CUDA. It is the one
// place that chooses the grammar.
func Language() *sitter.Language { return cudaLanguage() }

// ParseFile parses CUDA source. The tree may contain ERROR and MISSING nodes;
// the driver reports them as "syntax" diagnostics.
func ParseFile(ctx context.Context, path string, src []byte) (*File, error) {
	if err := checkLanguage(); err != nil {
		return nil, fmt.Errorf("analysis: parse %s: %w", path, err)
	}
	tree, err := parse(ctx, src)
	if err != nil {
		return nil, fmt.Errorf("analysis: parse %s: %w", path, err)
	}
	return &File{Path: path, Src: src, Tree: tree}, nil
}

// parsers holds idle parsers. Creating one (ts_parser_new and its stacks)
// cost as much as 5 % of parsing a typical file, and a batch lint parses
// hundreds of files and every macro body; a parser is reused only after a
// parse that completed, so it holds no half-done state.
var parsers = sync.Pool{New: func() any {
	p := sitter.NewParser()
	p.SetLanguage(Language())
	return p
}}

func parse(ctx context.Context, src []byte) (*sitter.Tree, error) {
	p := parsers.Get().(*sitter.Parser)
	tree, err := p.ParseCtx(ctx, nil, src)
	if err != nil && ctx.Err() == nil {
		// ParseCtx's cancellation watcher can set a reused parser's
		// cancel flag late, after the context of an earlier parse ended;
		// the parse then stops at once. A fresh parser has no such flag.
		p.Close()
		p = sitter.NewParser()
		p.SetLanguage(Language())
		tree, err = p.ParseCtx(ctx, nil, src)
	}
	if err != nil {
		p.Close() // it may hold a cancelled parse's state
		return nil, err
	}
	parsers.Put(p)
	return tree, nil
}

// A Pass is one analyzer's view of one file: the input, the results of the
// analyzers it requires, and the functions that take its findings. It is
// the only connection between an analyzer and the driver that runs it.
type Pass struct {
	Analyzer *Analyzer
	File     *File
	Device   *device.Device // target limits; never nil (default: H200, sm_90)
	Ptxas    *ptxas.Report  // resource usage per kernel from ptxas -v; nil when not available
	// Sizes binds problem-size names (a host function's parameters, such
	// as n) to values, from `features --set n=…` or a task's
	// configuration; nil when the analysis runs without a size.
	Sizes map[string]int64

	// ResultOf holds the results of the analyzers in Analyzer.Requires
	// (and only those). It is read-only: a driver may hand the same map
	// to the analyzers of a file that require the same analyzers.
	ResultOf map[*Analyzer]any

	// Options are the analyzer's option values: its Options' defaults,
	// overridden by the user's settings.
	Options options.Values

	Report        func(Diagnostic)
	ReportFeature func(Feature)
}

// Reportf reports a diagnostic at the exact range of n with the analyzer's
// name as check and its default severity.
func (p *Pass) Reportf(n Node, format string, args ...any) {
	p.Report(Diagnostic{Check: p.Analyzer.Name, Severity: p.Analyzer.DefaultSeverity(), Range: NodeRange(n), Message: fmt.Sprintf(format, args...)})
}

// ReportKernelf is Reportf for a finding that concerns one kernel.
func (p *Pass) ReportKernelf(kernel string, n Node, format string, args ...any) {
	p.Report(Diagnostic{Check: p.Analyzer.Name, Severity: p.Analyzer.DefaultSeverity(), Range: NodeRange(n), Message: fmt.Sprintf(format, args...), Kernel: kernel})
}

// ReportKernelFeature reports the value of a kernel-level feature; the unit
// comes from the analyzer's FeatureDef.
func (p *Pass) ReportKernelFeature(kernel, name string, value float64) {
	p.ReportFeature(Feature{Name: name, Kernel: kernel, Value: value, Unit: p.unit(name)})
}

// ReportKernelFeatureStatus is ReportKernelFeature for a value that is
// estimated (or unknown, when the value is then ignored).
func (p *Pass) ReportKernelFeatureStatus(kernel, name string, value float64, st Status) {
	if st == Unknown {
		value = 0
	}
	p.ReportFeature(Feature{Name: name, Kernel: kernel, Value: value, Unit: p.unit(name), Status: st})
}

// ReportKernelUnknown says that a kernel-level feature could not be
// determined: consumers leave it out instead of reading a number.
func (p *Pass) ReportKernelUnknown(kernel, name string) {
	p.ReportKernelFeatureStatus(kernel, name, 0, Unknown)
}

// ReportFileFeature reports the value of a file-level feature.
func (p *Pass) ReportFileFeature(name string, value float64) {
	p.ReportFeature(Feature{Name: name, Value: value, Unit: p.unit(name)})
}

func (p *Pass) unit(name string) string {
	if d := p.Analyzer.Feature(name); d != nil {
		return d.Unit
	}
	return ""
}
