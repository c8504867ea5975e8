package kernels

import (
	"github.com/cudaperf/cudaperf/analysis"
	"github.com/cudaperf/cudaperf/analysis/affine"
	"github.com/cudaperf/cudaperf/analysis/launchcfg"
	"github.com/cudaperf/cudaperf/analysis/syntax"
	"github.com/cudaperf/cudaperf/analysis/tripcount"
)

// Kind is the CUDA execution space of a function.
type Kind uint8

const (
	Host       Kind = iota // no CUDA qualifier, or __host__ only
	Device                 // __device__
	HostDevice             // __host__ __device__
	Kernel                 // __global__
)

func (k Kind) String() string {
	switch k {
	case Device:
		return "device"
	case HostDevice:
		return "host device"
	case Kernel:
		return "kernel"
	}
	return "host"
}

// Function is one function definition (or, in Result.Prototypes, a
// declaration without a body).
type Function struct {
	Name       string       // base name, e.g. "relu"
	Qualified  string       // with namespaces and classes, e.g. "ops::relu"
	Kind       Kind         //
	Node       *syntax.Node // function_definition (declaration for a prototype)
	NameNode   *syntax.Node // the name in the declarator
	Body       *syntax.Node // compound_statement; nil for a prototype
	Params     []Param      //
	Qualifiers []string     // CUDA qualifiers as written: __global__, __device__, __forceinline__, ...
	ExternC    bool         // inside extern "C"
	// Template is the enclosing template_declaration, nil when the function
	// is not a template; TemplateParams are its parameter names.
	Template       *syntax.Node
	TemplateParams []string
	// LaunchBounds is nil without __launch_bounds__.
	LaunchBounds *LaunchBounds
	// MaxNReg is the __maxnreg__ value, 0 when absent or not a constant.
	MaxNReg int
	// Launches are the launch sites inside this function, in source order.
	Launches []*Launch
	// Shared are the __shared__ declarations inside this function.
	Shared []*SharedDecl
	// Calls are the functions of this file called (not launched) from
	// this one, each once, in order of first call.
	Calls []*Function
	// LaunchedBy are the launch sites in this file that resolve to this
	// kernel.
	LaunchedBy []*Launch
	// Sites are the body's calls (launches included), inline-assembly
	// statements and if and switch statements, in source order (the order
	// of syntax.Inspect), lambdas included. Passes that look only at these
	// read them here instead of walking the whole body again.
	Sites []Site
	// Exprs are the body's subscript, pointer and field expressions,
	// calls, operators, assignments and lambdas, in source order, lambdas'
	// insides included: what dataflow and arith examine, walked with
	// WalkExprs instead of the whole body.
	Exprs []Expr

	globalsUsed []*SharedDecl // file-scope __shared__ variables named in the body
	body        affine.Body   // what Result.Scope builds the scope from
}

// IsKernel reports whether f is a __global__ function.
func (f *Function) IsKernel() bool { return f.Kind == Kernel }

// IsDeviceCode reports whether f runs on the device (kernel, __device__ or
// __host__ __device__).
func (f *Function) IsDeviceCode() bool { return f.Kind != Host }

// SiteKind is the kind of a Site.
type SiteKind uint8

const (
	CallSite   SiteKind = iota + 1 // call_expression
	AsmSite                        // gnu_asm_expression
	IfSite                         // if_statement
	SwitchSite                     // switch_statement
)

// Site is a node that passes look for in a function body (Function.Sites).
type Site struct {
	Node *syntax.Node
	Kind SiteKind
	// InLambda and InAsm say whether the node is inside a lambda or an
	// inline-assembly statement of the body: a pass that does not look
	// into those skips such sites.
	InLambda, InAsm bool
}

// Expr is a node of Function.Exprs and its type.
type Expr struct {
	Node *syntax.Node
	Kind string // Node.Type()
}

// WalkExprs calls visit with f's Exprs in source order; when visit returns
// false, the Exprs inside that node are skipped: syntax.Inspect of the body
// with visit seeing only these kinds.
func (f *Function) WalkExprs(visit func(n *syntax.Node, kind string) bool) {
	var skip *syntax.Node
	for _, e := range f.Exprs {
		if skip != nil {
			if within(e.Node, skip) {
				continue
			}
			skip = nil
		}
		if !visit(e.Node, e.Kind) {
			skip = e.Node
		}
	}
}

// within reports whether n is a descendant of r. Nodes are numbered in
// source order (preorder), so the parents of n below r all have larger IDs.
func within(n, r *syntax.Node) bool {
	for p := n.Parent(); p != nil && p.ID() >= r.ID(); p = p.Parent() {
		if p == r {
			return true
		}
	}
	return false
}

// Param is one function parameter.
type Param struct {
	Name     string       // "" when unnamed
	Type     string       // base type as written, e.g. "float", "const T"
	Pointer  int          // levels of * (and & counted as 1)
	Const    bool         // the pointee (or value) is const
	Restrict bool         // __restrict__ on the pointer
	Node     *syntax.Node // parameter_declaration
}

// LaunchBounds is __launch_bounds__(MaxThreads, MinBlocks, MaxBlocksPerCluster).
// Values that are not integer constants (a template parameter) are 0 and
// their expressions stay in Args.
type LaunchBounds struct {
	Node       *syntax.Node
	Args       []*syntax.Node
	MaxThreads int
	MinBlocks  int
	MaxCluster int
}

// Launch is a kernel launch: kernel<<<grid, block, shared_mem, stream>>>(args),
// or a call to cudaLaunchKernel / cudaLaunchCooperativeKernel.
type Launch struct {
	Node   *syntax.Node // call_expression
	Config *syntax.Node // launch_config (the argument_list for cudaLaunchKernel)
	// The configuration expressions; SharedMem and Stream are nil when
	// omitted.
	Grid, Block, SharedMem, Stream *syntax.Node
	Args                           []*syntax.Node // the kernel arguments (none for cudaLaunchKernel)
	// Cfg is the evaluated configuration (package launchcfg): grid and
	// block dimensions and dynamic shared memory through constant
	// propagation. It is never nil.
	Cfg *launchcfg.Launch
	// read says whether Cfg is launchcfg.At's reading, not the unknown
	// dimensions put in its place (see Evaluated).
	read bool

	Callee       string       // the callee as written, without template arguments: "relu", "ops::relu"
	CalleeNode   *syntax.Node // the call's function field
	TemplateArgs []string     // template arguments as written, e.g. ["float", "128"]
	// Kernel is the kernel defined in this file that the launch calls,
	// nil when the callee is not one (a function pointer, another file).
	Kernel *Function
	// Caller is the function the launch is written in, nil at file scope.
	Caller *Function
}

// Evaluated returns Cfg where launchcfg.At reads the launch's
// configuration and nil where it reads none (a launch inside an ERROR
// node): what launchcfg.At(r.Scope(l.Caller), l.Node) returns, evaluated
// once for all the passes that ask.
func (l *Launch) Evaluated() *launchcfg.Launch {
	if !l.read {
		return nil
	}
	return l.Cfg
}

// SharedDecl is one variable declared __shared__.
type SharedDecl struct {
	Node       *syntax.Node   // the declaration
	Declarator *syntax.Node   // this variable's declarator
	Name       string         //
	Type       string         // element type as written, e.g. "float", "T"
	ElemSize   int            // bytes per element; 0 when unknown (a template type)
	Pointer    bool           // a pointer stored in shared memory
	Dims       []int          // array dimensions, outermost first; -1 where not constant
	DimNodes   []*syntax.Node // their expressions (nil for extern [])
	Extern     bool           // extern __shared__: sized at launch (dynamic)
	// Bytes is the static size; -1 when it cannot be computed, 0 for
	// extern (dynamic) declarations.
	Bytes int
	Func  *Function // the enclosing function, nil at file scope
}

// Result is what the kernels analyzer returns (analysis.Pass.ResultOf).
// Node pointers refer to the tree of the analysed file.
type Result struct {
	Functions    []*Function   // all function definitions, in source order
	Kernels      []*Function   // the __global__ definitions, in source order
	DeviceFuncs  []*Function   // __device__ and __host__ __device__ definitions
	Prototypes   []*Function   // function declarations without a body
	Launches     []*Launch     // all launch sites, in source order
	Shared       []*SharedDecl // all __shared__ declarations, in source order
	SharedGlobal []*SharedDecl // the file-scope ones

	// Affine holds the file's macros and file-level constants for the
	// affine evaluator. Use Scope to get a function's scope.
	Affine *affine.File

	scopes map[*syntax.Node]*affine.Scope
	loops  map[*syntax.Node]*tripcount.Info
	byName map[string][]*Function
}

// Kernel returns the kernel named name (base or qualified name), or nil.
// With several (overloads, or the same name in two namespaces) it returns
// the first in source order.
func (r *Result) Kernel(name string) *Function {
	for _, f := range r.byName[name] {
		if f.Kind == Kernel {
			return f
		}
	}
	return nil
}

// Named returns the function definitions with the given base or qualified
// name.
func (r *Result) Named(name string) []*Function { return r.byName[name] }

// Enclosing returns the function definition that contains n, or nil.
func (r *Result) Enclosing(n *syntax.Node) *Function {
	if n == nil {
		return nil
	}
	s, e := n.StartByte(), n.EndByte()
	var best *Function
	for _, f := range r.Functions {
		if f.Node.StartByte() <= s && e <= f.Node.EndByte() {
			// Innermost wins (a function defined inside a class inside
			// a function).
			if best == nil || f.Node.StartByte() >= best.Node.StartByte() {
				best = f
			}
		}
	}
	return best
}

// Scope returns the affine scope of f (nil: file level). Scopes are
// created once per function and cached; like the rest of a Result they
// belong to one file and are not safe for concurrent use (the driver runs
// the passes of a file one after another).
func (r *Result) Scope(f *Function) *affine.Scope {
	var key *syntax.Node
	if f != nil {
		key = f.Node
	}
	if s, ok := r.scopes[key]; ok {
		return s
	}
	var s *affine.Scope
	if f != nil && f.Body != nil {
		// From the nodes the discovery's walk collected: no second walk.
		s = r.Affine.ScopeOf(f.Node, &f.body)
	} else {
		s = r.Affine.Scope(nil)
	}
	r.scopes[key] = s
	return s
}

// Loops returns the trip-count analysis of f's loops, cached like Scope.
func (r *Result) Loops(f *Function) *tripcount.Info {
	var key *syntax.Node
	if f != nil {
		key = f.Node
	}
	if in, ok := r.loops[key]; ok {
		return in
	}
	in := tripcount.Analyze(r.Scope(f))
	r.loops[key] = in
	return in
}

// StaticShared returns the static shared memory of kernel f in bytes: its
// own __shared__ declarations, those of the device functions it calls
// (transitively), and the file-scope __shared__ variables any of them name.
// known is false when some size could not be computed (a template
// parameter); the sum then counts only the known sizes.
func (r *Result) StaticShared(f *Function) (bytes int, known bool) {
	known = true
	seenF := map[*Function]bool{}
	seenS := map[*SharedDecl]bool{}
	add := func(s *SharedDecl) {
		if seenS[s] || s.Extern {
			return
		}
		seenS[s] = true
		if s.Bytes < 0 {
			known = false
			return
		}
		bytes += s.Bytes
	}
	stack := []*Function{f}
	for len(stack) > 0 {
		g := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if g == nil || seenF[g] {
			continue
		}
		seenF[g] = true
		for _, s := range g.Shared {
			add(s)
		}
		for _, s := range g.globalsUsed {
			add(s)
		}
		stack = append(stack, g.Calls...)
	}
	return bytes, known
}

// UsesDynamicShared reports whether kernel f (or a function it calls)
// declares extern __shared__ memory.
func (r *Result) UsesDynamicShared(f *Function) bool {
	seen := map[*Function]bool{}
	stack := []*Function{f}
	for len(stack) > 0 {
		g := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if g == nil || seen[g] {
			continue
		}
		seen[g] = true
		for _, s := range g.Shared {
			if s.Extern {
				return true
			}
		}
		for _, s := range g.globalsUsed {
			if s.Extern {
				return true
			}
		}
		stack = append(stack, g.Calls...)
	}
	return false
}

// WeightStatus says whether the loop weights inside kernel f are exact:
// analysis.Estimated when a loop of f, or of a device function it calls
// (transitively), has no constant trip count and so weighs the default
// guess (tripcount.DefaultTrips), else analysis.Exact. Loop-weighted
// features of f carry this status.
func (r *Result) WeightStatus(f *Function) analysis.Status {
	seen := map[*Function]bool{}
	stack := []*Function{f}
	for len(stack) > 0 {
		g := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if g == nil || seen[g] {
			continue
		}
		seen[g] = true
		for _, l := range r.Loops(g).Loops() {
			if l.Kind != tripcount.Constant {
				return analysis.Estimated
			}
		}
		stack = append(stack, g.Calls...)
	}
	return analysis.Exact
}
