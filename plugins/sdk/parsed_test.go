package sdk_test

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"

	"github.com/cudaperf/cudaperf/analysis"
	"github.com/cudaperf/cudaperf/analysis/syntax"
	"github.com/cudaperf/cudaperf/host/pluginhost"
	pluginv1 "github.com/cudaperf/cudaperf/plugins/proto/cudaperf/plugin/v1"
	"github.com/cudaperf/cudaperf/plugins/sdk"
)

var update = flag.Bool("update", false, "rewrite the round-trip goldens in testdata/roundtrip")

// hostNode is one node as the host's own tree (package syntax) has it; the
// golden list of them is what the Python SDK's round-trip test compares its
// decoding with.
type hostNode struct {
	Kind   string `json:"kind"`
	Field  string `json:"field"`
	Parent int    `json:"parent"`
	Start  [3]int `json:"start"` // byte, line, column
	End    [3]int `json:"end"`
	Named  bool   `json:"named"`
}

type hostView struct {
	Nodes    []hostNode `json:"nodes"`
	Sexp     string     `json:"sexp"`
	Kernels  []string   `json:"kernels"`
	Launches []string   `json:"launches"` // callee grid block
}

func hostNodes(tree *syntax.Tree) []hostNode {
	var out []hostNode
	var walk func(n *syntax.Node)
	walk = func(n *syntax.Node) {
		p := -1
		if n.Parent() != nil {
			p = int(n.Parent().ID())
		}
		s, e := n.StartPoint(), n.EndPoint()
		out = append(out, hostNode{Kind: n.Type(), Field: n.FieldName(), Parent: p, Named: n.IsNamed(),
			Start: [3]int{int(n.StartByte()), int(s.Row) + 1, int(s.Column) + 1}, End: [3]int{int(n.EndByte()), int(e.Row) + 1, int(e.Column) + 1}})
		for i := range int(n.ChildCount()) {
			walk(n.Child(i))
		}
	}
	walk(tree.Root())
	return out
}

// TestParsedRoundTrip sends the host's parse through the wire format and
// checks that the SDK sees every node with the host's kind, field, parent
// and spans, the same S-expression, and the kernels and launches. It also
// keeps the goldens the Python SDK's test reads up to date.
func TestParsedRoundTrip(t *testing.T) {
	files, _ := filepath.Glob("testdata/roundtrip/*.cu")
	if len(files) == 0 {
		t.Fatal("no testdata/roundtrip/*.cu")
	}
	for _, path := range files {
		src, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		parsed, err := pluginhost.Parse(context.Background(), filepath.Base(path), src)
		if err != nil {
			t.Fatal(err)
		}
		sf := &pluginv1.SourceFile{Path: filepath.Base(path), Content: src, Parsed: parsed}
		wire, err := proto.Marshal(sf)
		if err != nil {
			t.Fatal(err)
		}
		var back pluginv1.SourceFile
		if err := proto.Unmarshal(wire, &back); err != nil {
			t.Fatal(err)
		}
		f, err := sdk.Parse(&back)
		if err != nil {
			t.Fatal(err)
		}
		af, err := analysis.ParseFile(context.Background(), path, src)
		if err != nil {
			t.Fatal(err)
		}
		tree, err := af.Syntax()
		if err != nil {
			t.Fatal(err)
		}
		want := hostNodes(tree)
		if f.Len() != len(want) {
			t.Fatalf("%s: SDK sees %d nodes, the host %d", path, f.Len(), len(want))
		}
		for i, w := range want {
			n := f.Node(i)
			p := -1
			if n.Parent() != nil {
				p = n.Parent().Index()
			}
			got := hostNode{Kind: n.Kind(), Field: n.Field(), Parent: p, Named: n.IsNamed(),
				Start: [3]int{n.StartByte(), n.Start().Line, n.Start().Column}, End: [3]int{n.EndByte(), n.End().Line, n.End().Column}}
			if got != w {
				t.Fatalf("%s: node %d: SDK %+v, host %+v", path, i, got, w)
			}
		}
		if got, want := f.Root().String(), tree.Root().String(); got != want {
			t.Errorf("%s: S-expressions differ:\nSDK  %s\nhost %s", path, got, want)
		}
		view := hostView{Nodes: want, Sexp: tree.Root().String()}
		for _, k := range f.Kernels() {
			lb := ""
			if k.LaunchBounds != nil {
				lb = " launch_bounds=" + strings.Join(k.LaunchBounds.Args, ",")
			}
			view.Kernels = append(view.Kernels, k.Name+lb+" name@"+k.NameNode.Text())
		}
		for _, l := range f.Launches() {
			view.Launches = append(view.Launches, l.Callee+" grid="+l.Grid[0].String()+" block="+l.Block[0].String())
		}
		checkGolden(t, strings.TrimSuffix(path, ".cu")+".host.json", mustJSON(t, view))
		js, err := protojson.MarshalOptions{Multiline: true}.Marshal(sf)
		if err != nil {
			t.Fatal(err)
		}
		// protojson's spacing varies on purpose; compare decoded messages.
		golden := strings.TrimSuffix(path, ".cu") + ".sourcefile.json"
		if *update {
			writeFile(t, golden, js)
		} else if old, err := os.ReadFile(golden); err != nil {
			t.Errorf("%v (run go test ./plugins/sdk -run RoundTrip -update)", err)
		} else {
			var m pluginv1.SourceFile
			if err := protojson.Unmarshal(old, &m); err != nil || !proto.Equal(&m, sf) {
				t.Errorf("%s is stale: the host's encoding changed (run go test ./plugins/sdk -run RoundTrip -update)", golden)
			}
		}
	}
}

func TestParsedKernelsAndLaunches(t *testing.T) {
	src, err := os.ReadFile("testdata/roundtrip/kernels.cu")
	if err != nil {
		t.Fatal(err)
	}
	parsed, err := pluginhost.Parse(context.Background(), "kernels.cu", src)
	if err != nil {
		t.Fatal(err)
	}
	f, err := sdk.Parse(&pluginv1.SourceFile{Path: "kernels.cu", Content: src, Parsed: parsed})
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, k := range f.Kernels() {
		names = append(names, k.Name)
	}
	// __launch_bounds__ on its own line before the name is no kernel.
	if strings.Join(names, ",") != "scale,tiled" {
		t.Fatalf("kernels = %v, want scale,tiled", names)
	}
	scale := f.Kernel("scale")
	if scale.LaunchBounds == nil || scale.LaunchBounds.MaxThreads != 256 {
		t.Errorf("scale's launch bounds = %+v, want 256", scale.LaunchBounds)
	}
	if len(scale.Params) != 4 || !scale.Params[0].Restrict || scale.Params[0].Pointer != 1 || !scale.Params[1].Const || scale.Params[3].Name != "n" {
		t.Errorf("scale's params = %+v", scale.Params)
	}
	if len(scale.Launches) != 2 {
		t.Fatalf("scale launched %d times, want 2", len(scale.Launches))
	}
	l := scale.Launches[0]
	if l.Block[0] != (sdk.Value{Known: true, Int: 256, Text: "256"}) || l.Grid[0].Known || l.Caller != "host" || l.Kernel != scale {
		t.Errorf("first launch = %+v", l)
	}
	if got := scale.Launches[1].Block[0]; got.Known {
		t.Errorf("block c/2 with c unknown reads as %+v, want unknown", got)
	}
	tiled := f.Kernel("tiled")
	if len(tiled.TemplateParams) != 1 || tiled.TemplateParams[0] != "TILE" {
		t.Errorf("tiled's template params = %v", tiled.TemplateParams)
	}
	tl := tiled.Launches[0]
	if tl.Stream != "s" || tl.StreamNode.Text() != "s" || len(tl.TemplateArgs) != 1 || tl.TemplateArgs[0] != "128" {
		t.Errorf("tiled's launch = %+v", tl)
	}
	if n := len(tiled.Body.Find("call_expression")); n != 1 {
		t.Errorf("tiled's body has %d calls, want 1 (__syncthreads)", n)
	}
	if c := tiled.Body.Find("call_expression")[0]; c.ChildByField("function").Text() != "__syncthreads" || c.Ancestor("function_definition") != tiled.Node {
		t.Errorf("call %s not found under its kernel", c.Text())
	}
}

func TestParseRefusesMissingOrForeignFormat(t *testing.T) {
	if _, err := sdk.Parse(&pluginv1.SourceFile{Path: "a.cu"}); err != sdk.ErrNotParsed {
		t.Errorf("no parse: err = %v", err)
	}
	_, err := sdk.Parse(&pluginv1.SourceFile{Path: "a.cu", Parsed: &pluginv1.ParsedFile{Format: 2}})
	if err == nil || !strings.Contains(err.Error(), "format 2") {
		t.Errorf("format 2: err = %v", err)
	}
	bad := &pluginv1.ParsedFile{Format: 1, Tree: &pluginv1.SyntaxTree{Kinds: []string{"x"}, Fields: []string{""},
		Kind: []uint32{0}, Field: []uint32{0}, ParentDelta: []uint32{0}, StartByteDelta: []uint32{0}, Length: []uint32{99},
		StartLineDelta: []uint32{0}, StartColumn: []uint32{1}, LineCount: []uint32{0}, EndColumn: []uint32{1}, Flags: []uint32{1}}}
	if _, err := sdk.Parse(&pluginv1.SourceFile{Path: "a.cu", Content: []byte("x"), Parsed: bad}); err == nil || !strings.Contains(err.Error(), "past the file") {
		t.Errorf("span past the end: err = %v", err)
	}
}

func mustJSON(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return append(b, '\n')
}

func checkGolden(t *testing.T, path string, got []byte) {
	t.Helper()
	if *update {
		writeFile(t, path, got)
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./plugins/sdk -run RoundTrip -update)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s is stale (run go test ./plugins/sdk -run RoundTrip -update)", path)
	}
}

func writeFile(t *testing.T, path string, b []byte) {
	t.Helper()
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
}
