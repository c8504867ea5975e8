package transfers

import (
	"bytes"
	_ "embed"
	"fmt"
	"strings"

	"github.com/cudaperf/cudaperf/analysis"
	"github.com/cudaperf/cudaperf/analysis/passes/kernels"
	"github.com/cudaperf/cudaperf/analysis/syntax"
	"github.com/cudaperf/cudaperf/analysis/tripcount"
)

//go:embed doc.go
var doc string

// Analyzer reports the xfer feature and transfers inside loops.
var Analyzer = &analysis.Analyzer{
	Name:     "transfers",
	Doc:      analysis.MustExtractDoc(doc, "transfers"),
	URL:      "https://cudaperf.dev/checks/transfers",
	Requires: []*analysis.Analyzer{kernels.Analyzer},
	Run:      run,
	Features: []analysis.FeatureDef{
		{Name: "xfer", Unit: "calls", Doc: "cudaMemcpy-family calls in the file, weighted by the trip counts of the loops around them", Range: "[0, +inf)", Level: analysis.LevelFile},
	},
	Severity: analysis.Warning,
}

// IsTransfer reports whether a function name is a host–device copy.
func IsTransfer(name string) bool {
	if i := strings.LastIndex(name, "::"); i >= 0 {
		name = name[i+2:]
	}
	return strings.HasPrefix(name, "cudaMemcpy") || strings.HasPrefix(name, "cuMemcpy")
}

func run(pass *analysis.Pass) (any, error) {
	kr := pass.ResultOf[kernels.Analyzer].(*kernels.Result)
	src := pass.File.Src
	tree, err := pass.File.Syntax()
	if err != nil {
		return nil, fmt.Errorf("transfers: %w", err)
	}
	total := 0.0
	// Every name IsTransfer accepts contains "Memcpy": without it in the
	// source there is nothing to find, and no need to walk the whole tree.
	if !bytes.Contains(src, []byte("Memcpy")) {
		pass.ReportFileFeature("xfer", total)
		return nil, nil
	}
	syntax.Inspect(tree.Root(), func(n *syntax.Node) bool {
		if n.Type() != "call_expression" {
			return true
		}
		fn := n.ChildByFieldName("function")
		if fn == nil || !IsTransfer(fn.Content(src)) {
			return true
		}
		f := kr.Enclosing(n)
		if f == nil {
			total++
			return true
		}
		loops := kr.Loops(f)
		total += loops.Weight(n)
		if enc := loops.Enclosing(n); len(enc) > 0 && repeated(n, fn.Content(src), enc[0], f.Node, src) {
			l := enc[0]
			what := "the loop"
			if l.Var != "" {
				what = "the loop over " + l.Var
			}
			times := "every iteration"
			if l.Expr != "" && l.Expr != "?" {
				times = fmt.Sprintf("every iteration (%s times)", l.Expr)
			}
			pass.Reportf(n, "%s inside %s repeats a host–device transfer and its fixed latency %s; copy once outside the loop, batch the pieces into one buffer, or overlap with cudaMemcpyAsync on a stream", fn.Content(src), what, times)
		}
		return true
	})
	pass.ReportFileFeature("xfer", total)
	return nil, nil
}

// repeated reports whether the copy call n inside loop l is one the
// diagnostic is about: the same host–device transfer every iteration,
// which could be hoisted out of the loop or batched. Copies the user
// cannot remove are not: device-to-device and peer copies, copies of a
// different buffer, device or stream each iteration (plan[i].d_data),
// copies already queued asynchronously on a stream, copies under a
// condition (not every iteration), read-backs the loop decides on
// (convergence checks), and timing loops that repeat a copy to measure it.
func repeated(n *syntax.Node, name string, l *tripcount.Loop, fn *syntax.Node, src []byte) bool {
	args := n.ChildByFieldName("arguments")
	if args == nil || !hostDevice(name, args, src) {
		return false
	}
	var list []*syntax.Node
	for i := 0; i < int(args.NamedChildCount()); i++ {
		if c := args.NamedChild(i); c.Type() != "comment" {
			list = append(list, c)
		}
	}
	if l.Var != "" {
		for _, a := range list {
			if indexedBy(a, l.Var, src) {
				return false // another buffer, device or stream each time
			}
		}
		// cudaMemcpy(dst, src, count, ...): a count that changes with
		// the loop is a loop over sizes, not one copy repeated.
		if len(list) >= 3 && !strings.Contains(name, "2D") && !strings.Contains(name, "3D") && mentions(list[2], l.Var, src) {
			return false
		}
	}
	if toHost(name, args, src) && launchesIn(l.Node, n) {
		return false // reads back what a kernel of this iteration wrote
	}
	if strings.HasSuffix(name, "Async") && len(list) > 0 {
		switch st := strings.TrimSpace(list[len(list)-1].Content(src)); st {
		case "0", "NULL", "nullptr", "cudaStreamDefault", "cudaStreamLegacy":
		default:
			if !strings.HasPrefix(st, "cudaMemcpy") && !strings.HasPrefix(st, "sizeof") {
				return false // already queued on a stream: overlap is there
			}
		}
	}
	for p := n.Parent(); p != nil && p != l.Node; p = p.Parent() {
		switch p.Type() {
		case "if_statement", "conditional_expression", "case_statement":
			return false // not every iteration: a host decision picks it
		}
	}
	if dst := firstPointerBase(list, src); dst != "" && decidesOn(l.Node, dst, src) {
		return false // the loop reads the copied value to decide
	}
	if timing(l, fn, src) {
		return false
	}
	return true
}

// hostDevice reports whether a copy moves data between host and device,
// as far as its name and kind argument tell.
func hostDevice(name string, args *syntax.Node, src []byte) bool {
	if i := strings.LastIndex(name, "::"); i >= 0 {
		name = name[i+2:]
	}
	switch {
	case strings.Contains(name, "Peer"), strings.Contains(name, "ArrayToArray"), strings.Contains(name, "DtoD"), strings.Contains(name, "AtoA"):
		return false
	case strings.HasPrefix(name, "cu") && !strings.HasPrefix(name, "cuda"):
		// driver API: the direction is in the name (cuMemcpyHtoD)
		return strings.Contains(name, "HtoD") || strings.Contains(name, "DtoH") || strings.Contains(name, "HtoA") || strings.Contains(name, "AtoH")
	}
	text := args.Content(src)
	switch {
	case strings.Contains(text, "cudaMemcpyDeviceToDevice"), strings.Contains(text, "cudaMemcpyHostToHost"):
		return false
	case strings.Contains(text, "cudaMemcpyHostToDevice"), strings.Contains(text, "cudaMemcpyDeviceToHost"):
		return true
	case strings.Contains(name, "Symbol"):
		return true // to/from a __constant__ or __device__ symbol: host side by default
	}
	// cudaMemcpyDefault or a kind in a variable: the direction is unknown.
	return false
}

// indexedBy reports whether the loop variable v selects something in a:
// a subscript (buf[i]) or a call (stream(i)), not an offset (d + i * n,
// the pieces of one buffer, which can be batched).
func indexedBy(a *syntax.Node, v string, src []byte) bool {
	found := false
	syntax.Inspect(a, func(x *syntax.Node) bool {
		if found {
			return false
		}
		if x.Type() == "subscript_expression" || x.Type() == "call_expression" {
			idx := x.ChildByFieldName("index")
			if idx == nil {
				idx = x.ChildByFieldName("indices")
			}
			if idx == nil {
				idx = x.ChildByFieldName("arguments")
			}
			if idx != nil && mentions(idx, v, src) {
				found = true
				return false
			}
		}
		return true
	})
	return found
}

// mentions reports whether identifier v occurs under n.
func mentions(n *syntax.Node, v string, src []byte) bool {
	found := false
	syntax.Inspect(n, func(x *syntax.Node) bool {
		if found {
			return false
		}
		if x.Type() == "identifier" && x.Content(src) == v {
			found = true
		}
		return true
	})
	return found
}

// decidesOn reports whether a condition in loop (or the loop's own) reads
// v: the copy brings back what the host decides on.
func decidesOn(loop *syntax.Node, v string, src []byte) bool {
	found := false
	syntax.Inspect(loop, func(x *syntax.Node) bool {
		if found {
			return false
		}
		switch x.Type() {
		case "if_statement", "while_statement", "do_statement", "for_statement", "conditional_expression":
			if c := x.ChildByFieldName("condition"); c != nil && mentions(c, v, src) {
				found = true
			}
		case "break_statement", "return_statement":
		}
		return true
	})
	return found
}

// timing reports whether l repeats work to time it: a loop over
// repetitions (nreps, iterations) in a function that reads a timer.
func timing(l *tripcount.Loop, fn *syntax.Node, src []byte) bool {
	bound := l.Expr + " " + l.Var
	if c := l.Node.ChildByFieldName("condition"); c != nil {
		bound += " " + c.Content(src) // the name, where Expr has its value
	}
	bound = strings.ToLower(bound)
	if !strings.Contains(bound, "rep") && !strings.Contains(bound, "iter") && !strings.Contains(bound, "trial") {
		return false
	}
	if fn == nil {
		return false
	}
	body := fn.Content(src)
	for _, t := range []string{"cudaEventRecord", "StartTimer", "chrono::", "_clock::now", "gettimeofday", "clock_gettime"} {
		if strings.Contains(body, t) {
			return true
		}
	}
	return false
}

// toHost reports whether a copy goes from the device to the host.
func toHost(name string, args *syntax.Node, src []byte) bool {
	return strings.Contains(args.Content(src), "cudaMemcpyDeviceToHost") || strings.Contains(name, "FromSymbol") || strings.Contains(name, "DtoH")
}

// launchesIn reports whether loop launches a kernel before the copy n.
func launchesIn(loop, n *syntax.Node) bool {
	found := false
	syntax.Inspect(loop, func(x *syntax.Node) bool {
		if found || x.StartByte() >= n.StartByte() {
			return false
		}
		if x.Type() == "call_expression" && x.ChildByFieldName("config") != nil {
			found = true
		}
		return true
	})
	return found
}

// firstPointerBase names the buffer a copy's first argument (its
// destination) points into.
func firstPointerBase(args []*syntax.Node, src []byte) string {
	if len(args) == 0 {
		return ""
	}
	return syntax.PointerBase(args[0], src, false)
}
