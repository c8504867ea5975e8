// The generated parser lives in src/ (tree-sitter's layout, written by
// generate.sh); cgo compiles only the package directory, so include it here.
#include "src/parser.c"
