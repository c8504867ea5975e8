// Package syntax is a Go copy of a tree-sitter syntax tree, for analyses
// that walk a tree many times.
//
// Every method of github.com/smacker/go-tree-sitter's Node is a cgo call
// (and Type allocates a string); passes that walk the tree again and again
// spend most of their time crossing into C. Flatten copies a whole tree in
// one cgo call, and Node then answers the same questions (Type,
// ChildByFieldName, NamedChild, Parent, StartByte, Content, ...) with the
// same method names and meanings from Go memory, so that code moves over by
// changing *sitter.Node to *syntax.Node.
//
// The copy is read-only and safe for concurrent use. Node values live in
// the Tree's slice: compare nodes by pointer or with Equal.
//
// # Flatten
//
// Flatten walks the runtime's own subtrees in C, in one pass with an
// explicit stack, and writes the Node values (and each node's list of
// children) straight into the Go slices, in preorder. It shows the tree as
// tree-sitter's cursor does: invisible nodes (hidden rules, repetitions) are
// walked through but not copied, aliases come from the parent production's
// alias sequence, and a node with no field of its own takes the field of the
// invisible ancestors it sits in. Walking with a TSTreeCursor instead took
// a dozen cursor and node calls per node, several of which re-derive the
// alias, the field or the position from the cursor's stack: three times the
// CPU (BenchmarkFlatten, 108 corpus files, five alternating runs on the
// shared development VM: 13.0–13.9 cpu-ms before, 4.6–5.9 after).
//
// The subtree layout is declared in tsruntime.h, copied from the runtime
// in the pinned smacker module; TestParity and FuzzFlatten compare every
// node with tree-sitter's public API, and Flatten refuses a tree whose node
// count disagrees with the runtime's.
package syntax
