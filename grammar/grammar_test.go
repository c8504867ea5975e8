package grammar_test

import (
	"bytes"
	"context"
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	sitter "github.com/smacker/go-tree-sitter"

	"github.com/cudaperf/cudaperf/grammar"
)

var update = flag.Bool("update", false, "rewrite testdata/**/*.golden from the current output")

func parse(t testing.TB, src []byte) *sitter.Tree {
	t.Helper()
	tree, err := grammar.Parse(context.Background(), src)
	if err != nil {
		t.Fatalf("Parse: %v", err)
	}
	t.Cleanup(tree.Close)
	return tree
}

func treeString(t testing.TB, n *sitter.Node, format grammar.TreeFormat) string {
	t.Helper()
	var b bytes.Buffer
	if err := grammar.WriteTree(&b, n, format); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// golden compares got with testdata file path, or rewrites it under -update.
func golden(t *testing.T, path, got string) {
	t.Helper()
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run 'go test ./grammar -update' to create it)", err)
	}
	if d := cmp.Diff(string(want), got); d != "" {
		t.Errorf("%s mismatch (-want +got):\n%s", path, d)
	}
}

func TestABIVersion(t *testing.T) {
	if err := grammar.Check(); err != nil {
		t.Fatal(err)
	}
	// The committed parser is generated with --abi 14 (generate.sh).
	if v := grammar.ABIVersion(); v != 14 {
		t.Errorf("ABIVersion() = %d, want 14", v)
	}
}

// TestRuntimeABIRange keeps MinABI/MaxABI in step with the api.h of the
// go-tree-sitter version in go.mod, so a runtime upgrade that drops ABI 14
// is caught here rather than by garbage trees.
func TestRuntimeABIRange(t *testing.T) {
	dir := moduleDir(t, "github.com/smacker/go-tree-sitter")
	api, err := os.ReadFile(filepath.Join(dir, "api.h"))
	if err != nil {
		t.Skipf("cannot read go-tree-sitter's api.h: %v", err)
	}
	for name, want := range map[string]int{
		"TREE_SITTER_LANGUAGE_VERSION":                grammar.MaxABI,
		"TREE_SITTER_MIN_COMPATIBLE_LANGUAGE_VERSION": grammar.MinABI,
	} {
		m := regexp.MustCompile(`#define ` + name + ` (\d+)`).FindSubmatch(api)
		if m == nil {
			t.Fatalf("api.h has no %s", name)
		}
		if string(m[1]) != strconv.Itoa(want) {
			t.Errorf("runtime %s = %s, grammar assumes %d", name, m[1], want)
		}
	}
}

func TestParseCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	// Large enough that the parser checks the cancellation flag.
	src := bytes.Repeat([]byte("__global__ void k(float *a) { a[threadIdx.x] = 0; }\n"), 20000)
	tree, err := grammar.Parse(ctx, src)
	if err == nil {
		tree.Close()
		t.Fatal("Parse with a cancelled context: err = nil, want context.Canceled")
	}
	if !strings.Contains(err.Error(), "context canceled") {
		t.Errorf("err = %v, want it to wrap context.Canceled", err)
	}
}

// TestSExpressions checks the tree of each testdata/sexp/*.cu against its
// .golden file (NoRanges format).
func TestSExpressions(t *testing.T) {
	files, _ := filepath.Glob("testdata/sexp/*.cu")
	if len(files) == 0 {
		t.Fatal("no testdata/sexp/*.cu files")
	}
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			src, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			root := parse(t, src).RootNode()
			if root.HasError() {
				t.Errorf("syntax errors: %+v", grammar.SyntaxErrors(root, src))
			}
			golden(t, strings.TrimSuffix(f, ".cu")+".golden", treeString(t, root, grammar.NoRanges))
		})
	}
}

// TestTreeSitterCorpus parses the inputs of the tree-sitter corpus tests
// (test/corpus/*.txt) with the Go binding and compares with their expected
// trees, so CI checks them without the tree-sitter CLI.
func TestTreeSitterCorpus(t *testing.T) {
	files, _ := filepath.Glob("test/corpus/*.txt")
	if len(files) == 0 {
		t.Fatal("no test/corpus/*.txt files")
	}
	header := regexp.MustCompile(`(?m)^={3,}\n(.*)\n={3,}\n`)
	divider := regexp.MustCompile(`(?m)^-{3,}\n`)
	space := regexp.MustCompile(`\s+`)
	n := 0
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		text := string(data)
		heads := header.FindAllStringSubmatchIndex(text, -1)
		for i, h := range heads {
			name := text[h[2]:h[3]]
			end := len(text)
			if i+1 < len(heads) {
				end = heads[i+1][0]
			}
			body := text[h[1]:end]
			d := divider.FindStringIndex(body)
			if d == nil {
				t.Fatalf("%s: test %q has no ---- divider", f, name)
			}
			// tree-sitter strips the newline that precedes the divider.
			input := strings.TrimSuffix(body[:d[0]], "\n")
			want := space.ReplaceAllString(strings.TrimSpace(body[d[1]:]), " ")
			n++
			t.Run(filepath.Base(f)+"/"+name, func(t *testing.T) {
				got := treeString(t, parse(t, []byte(input)).RootNode(), grammar.NoRanges)
				got = space.ReplaceAllString(strings.TrimSpace(got), " ")
				got = strings.ReplaceAll(strings.ReplaceAll(got, "( ", "("), " )", ")")
				if got != want {
					t.Errorf("tree mismatch\n got: %s\nwant: %s", got, want)
				}
			})
		}
	}
	if n < 20 {
		t.Errorf("found %d corpus tests, want at least 20 (parser of test/corpus broken?)", n)
	}
}

// moduleDir is the directory of a module in the build list (go.mod).
func moduleDir(t *testing.T, mod string) string {
	t.Helper()
	out, err := exec.Command("go", "list", "-m", "-f", "{{.Dir}}", mod).Output()
	if err != nil {
		t.Skipf("go list -m %s: %v", mod, err)
	}
	return strings.TrimSpace(string(out))
}
