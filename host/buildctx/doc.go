// Package buildctx finds the preprocessor flags a source file is built
// with, so that lint reads #if branches and macros (WARP_SIZE) as the
// build does: the -D/-U/-I flags of its compile_commands.json entry, found
// as clang-tidy and clangd find the database (the nearest
// compile_commands.json in the file's folder or a parent, or in a build/
// folder there), plus those given on the command line.
//
// Only the preprocessor flags are kept; include folders are made absolute
// against the entry's directory (itself taken against the database's folder
// when relative, as clang does), so the analyzer plugin can read headers
// wherever it runs.
package buildctx
