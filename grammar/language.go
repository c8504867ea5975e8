package grammar

// #cgo CFLAGS: -std=c11
// #include <stdint.h>
// #include "src/tree_sitter/parser.h"
// const TSLanguage *tree_sitter_cuda(void);
// // Defined by smacker/go-tree-sitter's runtime (linked into the same binary):
// // the runtime's own reading of the language's ABI version.
// uint32_t ts_language_version(const TSLanguage *self);
import "C"

import (
	"context"
	"fmt"
	"sync"
	"unsafe"

	sitter "github.com/smacker/go-tree-sitter"
)

// The ABI versions that smacker/go-tree-sitter's runtime can load
// (TREE_SITTER_MIN_COMPATIBLE_LANGUAGE_VERSION and
// TREE_SITTER_LANGUAGE_VERSION in its api.h). TestRuntimeABIRange keeps these
// in step with the module in go.mod.
const (
	MinABI = 13
	MaxABI = 14
)

var (
	langOnce sync.Once
	lang     *sitter.Language
	langErr  error
)

func load() {
	ptr := C.tree_sitter_cuda()
	if v := ABIVersion(); v < MinABI || v > MaxABI {
		langErr = fmt.Errorf("grammar: the generated CUDA parser has ABI version %d but the tree-sitter runtime (github.com/smacker/go-tree-sitter) loads only %d..%d; regenerate it with grammar/generate.sh (tree-sitter generate --abi %d)", v, MinABI, MaxABI, MaxABI)
		return
	}
	lang = sitter.NewLanguage(unsafe.Pointer(ptr))
}

// ABIVersion is the ABI version of the generated parser as the runtime reads it.
func ABIVersion() uint32 {
	return uint32(C.ts_language_version(C.tree_sitter_cuda()))
}

// Check reports whether the generated parser can be loaded by the runtime.
func Check() error {
	langOnce.Do(load)
	return langErr
}

// Language returns the CUDA language. It panics if the generated parser's ABI
// is one the runtime cannot load (a build defect, not an input problem: the
// committed parser is generated with --abi 14); call Check first to get the
// error instead.
func Language() *sitter.Language {
	if err := Check(); err != nil {
		panic(err)
	}
	return lang
}

// NewParser returns a parser set to the CUDA language, for callers that parse
// many files and want to reuse one parser (a parser is not safe for concurrent
// use). Close it when done.
func NewParser() (*sitter.Parser, error) {
	if err := Check(); err != nil {
		return nil, err
	}
	p := sitter.NewParser()
	p.SetLanguage(lang)
	return p, nil
}

// Parse parses CUDA source. The tree is never nil when err is nil; syntax
// errors are nodes in the tree (see SyntaxErrors), not an error here. err is
// set when ctx is cancelled or the parser cannot be loaded. Close the tree
// when done to free its C memory promptly.
func Parse(ctx context.Context, src []byte) (*sitter.Tree, error) {
	p, err := NewParser()
	if err != nil {
		return nil, err
	}
	defer p.Close()
	tree, err := p.ParseCtx(ctx, nil, src)
	if err != nil {
		return nil, fmt.Errorf("grammar: parse: %w", err)
	}
	return tree, nil
}
