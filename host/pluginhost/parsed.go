package pluginhost

import (
	"context"
	"fmt"

	"github.com/cudaperf/cudaperf/analysis"
	"github.com/cudaperf/cudaperf/analysis/launchcfg"
	"github.com/cudaperf/cudaperf/analysis/passes/kernels"
	"github.com/cudaperf/cudaperf/analysis/syntax"
	pluginv1 "github.com/cudaperf/cudaperf/plugins/proto/cudaperf/plugin/v1"
)

// ParsedFormat is the layout version of pluginv1.ParsedFile this host
// writes (see SyntaxTree in analyzer.proto). Both SDKs refuse another.
const ParsedFormat = 1

// Node flags of the SyntaxTree encoding.
const (
	flagNamed   = 1 << 0
	flagMissing = 1 << 1
	flagExtra   = 1 << 2
	flagError   = 1 << 3
)

// Parse parses one file with cudaperf's grammar and returns what plugins
// that set wants_parsed_files receive with it: the syntax tree, the
// kernels and the launch sites, as the built-in analyzer sees them (the
// same parse and the same kernels pass).
func Parse(ctx context.Context, path string, src []byte) (*pluginv1.ParsedFile, error) {
	f, err := analysis.ParseFile(ctx, path, src)
	if err != nil {
		return nil, err
	}
	defer f.Tree.Close()
	tree, err := f.Syntax()
	if err != nil {
		return nil, fmt.Errorf("parse %s: %w", path, err)
	}
	return encodeParsed(tree, kernels.Discover(tree.Root(), src), src), nil
}

// encodeParsed converts a parse into the contract's form: the one place
// where host types become pluginv1 parse types.
func encodeParsed(tree *syntax.Tree, r *kernels.Result, src []byte) *pluginv1.ParsedFile {
	out := &pluginv1.ParsedFile{Format: ParsedFormat, Tree: encodeTree(tree)}
	kernelIndex := map[*kernels.Function]int32{}
	for i, k := range r.Kernels {
		kernelIndex[k] = int32(i)
	}
	launchIndex := map[*kernels.Launch]int32{}
	for i, l := range r.Launches {
		launchIndex[l] = int32(i)
		out.Launches = append(out.Launches, encodeLaunch(l, kernelIndex, src))
	}
	for _, k := range r.Kernels {
		ki := &pluginv1.KernelInfo{
			Name: k.Name, Qualified: k.Qualified, Node: nodeIndex(k.Node), NameNode: nodeIndex(k.NameNode),
			BodyNode: nodeIndex(k.Body), Qualifiers: k.Qualifiers, TemplateParams: k.TemplateParams, ExternC: k.ExternC,
		}
		for _, p := range k.Params {
			ki.Params = append(ki.Params, &pluginv1.KernelParam{Name: p.Name, Type: p.Type, Pointer: int32(p.Pointer),
				Const: p.Const, Restrict: p.Restrict, Node: nodeIndex(p.Node)})
		}
		if lb := k.LaunchBounds; lb != nil {
			b := &pluginv1.LaunchBoundsInfo{Node: nodeIndex(lb.Node), MaxThreads: int32(lb.MaxThreads),
				MinBlocks: int32(lb.MinBlocks), MaxCluster: int32(lb.MaxCluster)}
			for _, a := range lb.Args {
				b.Args = append(b.Args, a.Content(src))
			}
			ki.LaunchBounds = b
		}
		for _, l := range k.LaunchedBy {
			ki.LaunchedBy = append(ki.LaunchedBy, launchIndex[l])
		}
		out.Kernels = append(out.Kernels, ki)
	}
	return out
}

func nodeIndex(n *syntax.Node) int32 {
	if n == nil {
		return -1
	}
	return int32(n.ID())
}

func encodeLaunch(l *kernels.Launch, kernelIndex map[*kernels.Function]int32, src []byte) *pluginv1.LaunchSite {
	s := &pluginv1.LaunchSite{
		Node: nodeIndex(l.Node), Callee: l.Callee, TemplateArgs: l.TemplateArgs, Kernel: -1,
		GridNode: nodeIndex(l.Grid), BlockNode: nodeIndex(l.Block), SharedMemNode: nodeIndex(l.SharedMem), StreamNode: nodeIndex(l.Stream),
	}
	if k, ok := kernelIndex[l.Kernel]; ok && l.Kernel != nil {
		s.Kernel = k
	}
	if l.Caller != nil {
		s.Caller = l.Caller.Name
	}
	if l.Stream != nil {
		s.Stream = l.Stream.Content(src)
	}
	cfg := l.Evaluated()
	if cfg == nil {
		// The configuration could not be read (a launch inside an ERROR
		// node): every value unknown, as written where there is text.
		unknown := func(n *syntax.Node) *pluginv1.LaunchValue { return &pluginv1.LaunchValue{Text: nodeText(n, src)} }
		s.Grid = []*pluginv1.LaunchValue{unknown(l.Grid), unknown(nil), unknown(nil)}
		s.Block = []*pluginv1.LaunchValue{unknown(l.Block), unknown(nil), unknown(nil)}
		s.SharedMem = unknown(l.SharedMem)
		return s
	}
	for i := range 3 {
		s.Grid = append(s.Grid, launchValue(cfg.Grid[i]))
		s.Block = append(s.Block, launchValue(cfg.Block[i]))
	}
	s.SharedMem = launchValue(cfg.SharedMem)
	return s
}

func nodeText(n *syntax.Node, src []byte) string {
	if n == nil {
		return ""
	}
	return n.Content(src)
}

func launchValue(d launchcfg.Dim) *pluginv1.LaunchValue {
	if v, ok := d.Int(); ok {
		return &pluginv1.LaunchValue{Known: true, Value: v, Text: fmt.Sprint(v)}
	}
	return &pluginv1.LaunchValue{Text: d.String()}
}

// encodeTree writes every node of tree, in preorder (the order of the
// syntax package's node IDs), in the columns of format 1.
func encodeTree(tree *syntax.Tree) *pluginv1.SyntaxTree {
	n := tree.Len()
	t := &pluginv1.SyntaxTree{
		Fields: []string{""},
		Kind:   make([]uint32, 0, n), Field: make([]uint32, 0, n), ParentDelta: make([]uint32, 0, n),
		StartByteDelta: make([]uint32, 0, n), Length: make([]uint32, 0, n), StartLineDelta: make([]uint32, 0, n),
		StartColumn: make([]uint32, 0, n), LineCount: make([]uint32, 0, n), EndColumn: make([]uint32, 0, n), Flags: make([]uint32, 0, n),
	}
	kinds := map[string]uint32{}
	fields := map[string]uint32{"": 0}
	intern := func(m map[string]uint32, list *[]string, s string) uint32 {
		if i, ok := m[s]; ok {
			return i
		}
		i := uint32(len(*list))
		m[s] = i
		*list = append(*list, s)
		return i
	}
	prevByte, prevLine := uint32(0), uint32(1)
	stack := []*syntax.Node{tree.Root()}
	for len(stack) > 0 {
		nd := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if nd == nil {
			continue
		}
		i := uint32(len(t.Kind))
		if uint32(nd.ID()) != i {
			// The syntax package numbers nodes in preorder; this walk
			// must visit them in the same order or every node reference
			// of the message would point at the wrong node.
			panic(fmt.Sprintf("pluginhost: node %d visited at position %d", nd.ID(), i))
		}
		t.Kind = append(t.Kind, intern(kinds, &t.Kinds, nd.Type()))
		t.Field = append(t.Field, intern(fields, &t.Fields, nd.FieldName()))
		parent := uint32(0)
		if p := nd.Parent(); p != nil {
			parent = i - uint32(p.ID())
		}
		t.ParentDelta = append(t.ParentDelta, parent)
		sb, eb := nd.StartByte(), nd.EndByte()
		sp, ep := nd.StartPoint(), nd.EndPoint()
		line := sp.Row + 1
		t.StartByteDelta = append(t.StartByteDelta, sb-prevByte)
		t.Length = append(t.Length, eb-sb)
		t.StartLineDelta = append(t.StartLineDelta, line-prevLine)
		t.StartColumn = append(t.StartColumn, sp.Column+1)
		t.LineCount = append(t.LineCount, ep.Row-sp.Row)
		t.EndColumn = append(t.EndColumn, ep.Column+1)
		prevByte, prevLine = sb, line
		var fl uint32
		if nd.IsNamed() {
			fl |= flagNamed
		}
		if nd.IsMissing() {
			fl |= flagMissing
		}
		if nd.IsExtra() {
			fl |= flagExtra
		}
		if nd.IsError() || nd.HasError() {
			fl |= flagError
		}
		t.Flags = append(t.Flags, fl)
		for c := int(nd.ChildCount()) - 1; c >= 0; c-- {
			stack = append(stack, nd.Child(c))
		}
	}
	return t
}
