// Package preproc does, on the bytes of one source file, the part of the C
// preprocessor that a grammar cannot: it picks conditional branches and
// removes macro-like annotations that the grammar does not know, so that
// valid CUDA parses. It never moves a byte: every change replaces code by
// spaces and keeps newlines, comments and string contents, so positions in
// the result are positions in the original file, and findings, suppression
// comments and fixes keep their places.
//
// Three functions, from always-safe to heuristic:
//
//   - Resolve keeps only the branch of an #if group that the build takes,
//     when the condition can be decided from -D definitions, earlier
//     #defines of the file and nvcc's predefined macros. A condition that
//     names anything else is unknown, never false: the macro may come from
//     a header.
//   - Recover rewrites only the lines around the parser's errors: a line
//     that is only a macro call (CUB_NAMESPACE_END, _CCCL_PRAGMA_UNROLL()),
//     upper-case macros before a declaration (CUTLASS_HOST_DEVICE void f,
//     void CUDART_CB cb), default arguments `= {}`, `typename` in an
//     expression, explicit instantiations, and #if groups inside a
//     declaration (the first branch is kept). The caller re-parses and keeps
//     the result only when it has fewer errors.
//   - Unbalanced finds the first bracket that does not match, with unknown
//     #if groups read through their first branch: a file where it finds
//     one is rejected by nvcc too, while other parse errors are the
//     grammar's limits.
package preproc
