package grammar_test

import (
	"context"
	"fmt"
	"os"

	"github.com/cudaperf/cudaperf/grammar"
)

func ExampleParse() {
	src := []byte("void run(float *x) { scale<<<blocks, 256, 0, stream>>>(x); }\n")
	tree, err := grammar.Parse(context.Background(), src)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer tree.Close()
	// A kernel launch is a call_expression with a config field.
	call := tree.RootNode().NamedChild(0).ChildByFieldName("body").NamedChild(0).NamedChild(0)
	cfg := call.ChildByFieldName("config")
	fmt.Println(call.ChildByFieldName("function").Content(src))
	fmt.Println(cfg.ChildByFieldName("block").Content(src), cfg.ChildByFieldName("stream").Content(src))
	// Output:
	// scale
	// 256 stream
}

func ExampleSyntaxErrors() {
	src := []byte("__global__ void k(float *a) {\n  a[threadIdx.x] = ;\n}\n")
	tree, err := grammar.Parse(context.Background(), src)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer tree.Close()
	for _, e := range grammar.SyntaxErrors(tree.RootNode(), src) {
		fmt.Printf("k.cu:%d:%d: error: %s\n", e.Line, e.Column, e.Message())
	}
	// Output:
	// k.cu:2:18: error: syntax error near '='
}

func ExampleWriteTree() {
	src := []byte("__shared__ float tile[32];\n")
	tree, err := grammar.Parse(context.Background(), src)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer tree.Close()
	if err := grammar.WriteTree(os.Stdout, tree.RootNode(), grammar.NoRanges); err != nil {
		fmt.Println(err)
	}
	// Output:
	// (translation_unit
	//   (declaration
	//     (cuda_qualifier)
	//     type: (primitive_type)
	//     declarator: (array_declarator
	//       declarator: (identifier)
	//       size: (number_literal))))
}
