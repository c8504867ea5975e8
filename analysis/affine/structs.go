package affine

import (
	"strings"

	"github.com/cudaperf/cudaperf/analysis/syntax"
)

// Field is one member of a struct laid out by Layout: its offset and size
// in bytes and its element type (for an array member, the array's).
type Field struct {
	Type   string
	Offset int64
	Size   int64 // of one element
	Count  int64 // elements: 1, or the array's length
}

// Layout is a struct of the file whose members all have known sizes: its
// size (padded to its alignment) and its members by name.
type Layout struct {
	Size   int64
	Fields map[string]Field
}

// StructLayout returns the layout of the file's struct named name (struct
// name or typedef name), false when the file defines none or a member's
// size is not known (a nested struct, a template parameter). Members are
// placed at their natural alignment, as nvcc does for device code; an
// __align__(N) or alignas(N) with a constant N raises the struct's.
func (f *File) StructLayout(name string) (Layout, bool) {
	f.structsOnce.Do(func() {
		f.structs = map[string]*Layout{}
		f.collectStructs()
	})
	name = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(name), "const "))
	l, ok := f.structs[strings.TrimSpace(strings.TrimPrefix(name, "struct "))]
	if !ok || l == nil {
		return Layout{}, false
	}
	return *l, true
}

func (f *File) collectStructs() {
	syntax.Inspect(f.root, func(n *syntax.Node) bool {
		switch n.Type() {
		case "function_definition":
			return false
		case "struct_specifier":
			body := n.ChildByFieldName("body")
			if body == nil {
				return false
			}
			l := f.layout(n, body)
			if nm := n.ChildByFieldName("name"); nm != nil {
				f.structs[nm.Content(f.src)] = l
			}
			if p := n.Parent(); p != nil && p.Type() == "type_definition" {
				for i := 0; i < int(p.NamedChildCount()); i++ {
					if d := p.NamedChild(i); d.FieldName() == "declarator" && d.Type() == "type_identifier" {
						f.structs[d.Content(f.src)] = l
					}
				}
			}
			return false
		}
		return true
	})
}

// layout lays out one struct body; nil when a member's size is unknown.
func (f *File) layout(spec, body *syntax.Node) *Layout {
	l := &Layout{Fields: map[string]Field{}}
	align := int64(1)
	for i := 0; i < int(spec.NamedChildCount()); i++ {
		if q := spec.NamedChild(i); q.Type() == "alignas_qualifier" && q.NamedChildCount() == 1 {
			if v, ok := f.constant(q.NamedChild(0)); ok && v > align {
				align = v
			}
		}
	}
	for i := 0; i < int(body.NamedChildCount()); i++ {
		fd := body.NamedChild(i)
		if fd.Type() == "comment" {
			continue
		}
		t := fd.ChildByFieldName("type")
		if fd.Type() != "field_declaration" || t == nil {
			return nil
		}
		typ := t.Content(f.src)
		size, ok := SizeOf(typ)
		if !ok || size <= 0 {
			return nil
		}
		a := alignOf(typ, size)
		align = max(align, a)
		for j := 0; j < int(fd.NamedChildCount()); j++ {
			d := fd.NamedChild(j)
			if d.FieldName() != "declarator" {
				continue
			}
			count := int64(1)
			for d.Type() == "array_declarator" {
				n, ok := f.constant(d.ChildByFieldName("size"))
				if !ok || n <= 0 {
					return nil
				}
				count *= n
				d = d.ChildByFieldName("declarator")
			}
			if d == nil || d.Type() != "field_identifier" {
				return nil // a pointer or function member: left alone
			}
			l.Size = (l.Size + a - 1) / a * a
			l.Fields[d.Content(f.src)] = Field{Type: typ, Offset: l.Size, Size: size, Count: count}
			l.Size += size * count
		}
	}
	if len(l.Fields) == 0 {
		return nil
	}
	l.Size = (l.Size + align - 1) / align * align
	return l
}

// constant evaluates a file-level integer constant expression (a macro, a
// constexpr, a literal); false when e is nil or not one.
func (f *File) constant(e *syntax.Node) (int64, bool) {
	if e == nil {
		return 0, false
	}
	return f.Scope(nil).Eval(e).Int()
}

// alignOf is a member type's natural alignment: its size for scalars and
// the power-of-two vector types, a component's for float3 and its kin.
func alignOf(typ string, size int64) int64 {
	if w := VectorWidth(typ); w == 3 {
		return size / 3
	}
	if size&(size-1) == 0 && size <= 16 {
		return size
	}
	return 4
}
