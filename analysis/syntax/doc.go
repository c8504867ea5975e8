// Package syntax is a Go copy of a tree-sitter syntax tree, for analyses
// that walk a tree many times.
//
// Every method of github.com/smacker/go-tree-sitter's Node is a cgo call
// (and Type allocates a string); passes that walk the tree again and again
// spend most of their time crossing into C. Flatten copies a whole tree in
// one cgo call — a C loop over a tree cursor that writes one record per node
// in preorder — and Node then answers the same questions (Type,
// ChildByFieldName, NamedChild, Parent, StartByte, Content, ...) with the
// same method names and meanings from Go memory, so that code moves over by
// changing *sitter.Node to *syntax.Node.
//
// The copy is read-only and safe for concurrent use. Node values live in
// the Tree's slice: compare nodes by pointer or with Equal.
package syntax
