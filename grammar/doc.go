// Package grammar is the CUDA grammar for tree-sitter: the generated parser
// for grammar.js (tree-sitter-cpp extended with CUDA's qualifiers, launch
// bounds and kernel launches) exposed to github.com/smacker/go-tree-sitter.
//
// Language returns the language for queries and parsers; Parse parses a
// source buffer; SyntaxErrors lists the ERROR and MISSING nodes of a tree with
// their positions. Node names are tree-sitter-cpp's plus the CUDA nodes
// documented in README.md (cuda_qualifier, launch_bounds, maxnreg,
// launch_config), which analyses may rely on.
//
// smacker's runtime loads only ABI versions 13 and 14 and its SetLanguage
// does not check; this package checks the generated parser's ABI before any
// use so that a parser regenerated with the wrong --abi fails loudly instead
// of producing garbage trees.
package grammar
