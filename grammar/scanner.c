// tree-sitter-cpp's external scanner (raw string literals), renamed for this
// grammar by generate.sh; compiled by cgo from here, see parser.c.
#include "src/scanner.c"
