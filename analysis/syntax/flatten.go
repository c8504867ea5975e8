package syntax

/*
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include "tsruntime.h"

// cp_node is Node's layout (node.go); Go checks every offset at compile
// time against the constants below.
typedef struct {
	void *t;
	uint16_t sym;
	uint32_t start_row, start_col, end_row, end_col;
	uint32_t start_byte, end_byte;
	int32_t parent, index, kids, nkids, nnamed, pos, sub_end;
	uint16_t field;
	uint8_t flags;
} cp_node;

enum {
	CP_SIZE = sizeof(cp_node),
	CP_OFF_SYM = offsetof(cp_node, sym),
	CP_OFF_START = offsetof(cp_node, start_row),
	CP_OFF_END = offsetof(cp_node, end_row),
	CP_OFF_START_BYTE = offsetof(cp_node, start_byte),
	CP_OFF_END_BYTE = offsetof(cp_node, end_byte),
	CP_OFF_PARENT = offsetof(cp_node, parent),
	CP_OFF_INDEX = offsetof(cp_node, index),
	CP_OFF_KIDS = offsetof(cp_node, kids),
	CP_OFF_NKIDS = offsetof(cp_node, nkids),
	CP_OFF_NNAMED = offsetof(cp_node, nnamed),
	CP_OFF_POS = offsetof(cp_node, pos),
	CP_OFF_SUB_END = offsetof(cp_node, sub_end),
	CP_OFF_FIELD = offsetof(cp_node, field),
	CP_OFF_FLAGS = offsetof(cp_node, flags),
};

enum { CP_NAMED = 1, CP_MISSING = 2, CP_EXTRA = 4, CP_HAS_ERROR = 8 };

// cp_frame is a node whose children the walk is going through: a visible
// node, or an invisible one (a hidden rule, a repetition) whose visible
// children are children of the nearest visible ancestor, as tree-sitter's
// cursor shows them.
typedef struct {
	const Subtree *children;
	uint32_t count, next;  // children, the next one to visit
	uint32_t structural;   // structural index (extras take none) of the next child
	Length position;       // end of the previous child (the node's start before the first)
	const TSSymbol *aliases;  // the production's alias sequence, or NULL
	const TSFieldMapEntry *fields, *fields_end;  // the production's field map
	int32_t parent;        // the record the frame's visible children belong to
	TSFieldId inherited;   // invisible frame: the field of its visible children that have none of their own
	bool hidden;
} cp_frame;

// cp_stack is the walk's stack of frames: on the C stack up to 64 deep,
// then on the heap.
typedef struct {
	cp_frame *frames;
	int64_t depth, cap;
	cp_frame local[64];
} cp_stack;

// cp_push returns a new top frame for the caller to fill in place
// (building a frame and copying it in stalled on store forwarding), or
// NULL when out of memory.
static inline cp_frame *cp_push(cp_stack *s) {
	if (s->depth == s->cap) {
		int64_t ncap = s->cap * 2;
		cp_frame *grown = malloc(sizeof(cp_frame) * ncap);
		if (!grown) return NULL;
		memcpy(grown, s->frames, sizeof(cp_frame) * s->depth);
		if (s->frames != s->local) free(s->frames);
		s->frames = grown;
		s->cap = ncap;
	}
	return &s->frames[s->depth++];
}

// cp_frame_init makes f the frame of subtree s (which has children).
static inline void cp_frame_init(cp_frame *f, const TSLanguage *lang, Subtree s, Length position,
	int32_t parent, TSFieldId inherited, bool hidden) {
	f->children = ts_subtree_children(s);
	f->count = s.ptr->child_count;
	f->next = 0;
	f->structural = 0;
	f->position = position;
	f->parent = parent;
	f->inherited = inherited;
	f->hidden = hidden;
	uint16_t production = s.ptr->production_id;
	f->aliases = production ? &lang->alias_sequences[production * lang->max_alias_sequence_length] : NULL;
	if (lang->field_count == 0) {
		f->fields = f->fields_end = NULL;
	} else {
		TSFieldMapSlice slice = lang->field_map_slices[production];
		f->fields = &lang->field_map_entries[slice.index];
		f->fields_end = f->fields + slice.length;
	}
	// Each child's heap data is an allocation of its own, which the walk
	// reads in turn: asking for all of them now overlaps the cache misses.
	for (uint32_t i = 0; i < f->count; i++) {
		if (!f->children[i].data.is_inline) __builtin_prefetch(f->children[i].ptr);
	}
}

// cp_field is the field of the child at structural index i of frame f, as
// ts_tree_cursor_current_field_id reads the production's field map: entries
// inherited from hidden children do not count (the walk finds those fields
// by going into the hidden child).
static inline TSFieldId cp_field(const cp_frame *f, uint32_t i) {
	for (const TSFieldMapEntry *m = f->fields; m < f->fields_end; m++) {
		if (!m->inherited && m->child_index == i) return m->field_id;
	}
	return 0;
}

// cp_write fills node r for subtree s, shown as symbol alias (0: its own),
// starting at pos.
static inline void cp_write(cp_node *r, const TSLanguage *lang, Subtree s, TSSymbol alias, Length pos, uint32_t nsym) {
	TSSymbol sym;
	uint8_t flags;
	Length size;
	if (s.data.is_inline) {
		sym = s.data.symbol;
		flags = (s.data.named ? CP_NAMED : 0) | (s.data.extra ? CP_EXTRA : 0) |
			(s.data.is_missing ? CP_MISSING | CP_HAS_ERROR : 0);
		size = (Length){s.data.size_bytes, {0, s.data.size_bytes}};
	} else {
		sym = s.ptr->symbol;
		flags = (s.ptr->named ? CP_NAMED : 0) | (s.ptr->extra ? CP_EXTRA : 0) |
			(s.ptr->is_missing ? CP_MISSING | CP_HAS_ERROR : 0) | (s.ptr->error_cost > 0 ? CP_HAS_ERROR : 0);
		size = s.ptr->size;
	}
	if (alias) {
		sym = alias;
		flags = (flags & ~CP_NAMED) | (lang->symbol_metadata[alias].named ? CP_NAMED : 0);
	}
	if (sym != ts_builtin_sym_error) sym = lang->public_symbol_map[sym];
	// Node.sym is an index in names.types (see typeIndex).
	r->sym = sym < nsym ? sym : sym == ts_builtin_sym_error ? nsym : nsym + 1;
	r->flags = flags;
	r->start_byte = pos.bytes;
	r->start_row = pos.extent.row;
	r->start_col = pos.extent.column;
	Length end = length_add(pos, size);
	r->end_byte = end.bytes;
	r->end_row = end.extent.row;
	r->end_col = end.extent.column;
}

// cp_count is the number of nodes the walk of root writes, by the
// runtime's own count.
static int64_t cp_count(TSNode root) {
	Subtree s = *(const Subtree *)root.id;
	if (s.data.is_inline || s.ptr->child_count == 0) return 1;
	return 1 + (int64_t)s.ptr->visible_descendant_count;
}

// cp_flatten writes the nodes under root in preorder into out (zeroed, room
// for cap nodes) and the children lists into kids (room for cap-1) and
// returns the number of nodes, or -1 when out of memory. When there are more
// than cap nodes it writes none past cap and fills no children lists.
//
// It goes over the runtime's subtrees as ts_tree_cursor_goto_first_child,
// goto_next_sibling, current_node and current_field_id do, in one pass with
// its own stack instead of several cursor calls per node: invisible nodes
// are walked through and not written, aliases come from the parent
// production's alias sequence by structural index (extras take none), and
// a node without a field of its own gets the field of the invisible
// ancestors it sits in, up to the first visible one.
static int64_t cp_flatten(TSNode root, uintptr_t out_addr, int32_t *kids, int64_t cap, uint32_t nsym) {
	cp_node *out = (cp_node *)out_addr;
	const TSLanguage *lang = root.tree->language;
	Subtree rs = *(const Subtree *)root.id;
	Length rpos = {root.context[0], {root.context[1], root.context[2]}};
	int64_t n = 1;
	if (cap > 0) {
		cp_write(&out[0], lang, rs, (TSSymbol)root.context[3], rpos, nsym);
		out[0].parent = -1;
		out[0].sub_end = 1;
	}
	if (!rs.data.is_inline && rs.ptr->child_count > 0) {
		cp_stack st;
		st.frames = st.local;
		st.depth = 0;
		st.cap = 64;
		cp_frame_init(cp_push(&st), lang, rs, rpos, 0, 0, false);
		while (st.depth > 0) {
			cp_frame *f = &st.frames[st.depth - 1];
			if (f->next == f->count) {
				if (!f->hidden && f->parent < cap) out[f->parent].sub_end = (int32_t)n;
				st.depth--;
				continue;
			}
			uint32_t i = f->next++;
			Subtree child = f->children[i];
			bool inl = child.data.is_inline;
			if (i > 0) {
				Length padding = inl ? (Length){child.data.padding_bytes, {child.data.padding_rows, child.data.padding_columns}}
					: child.ptr->padding;
				f->position = length_add(f->position, padding);
			}
			Length pos = f->position;
			f->position = length_add(pos, inl ? (Length){child.data.size_bytes, {0, child.data.size_bytes}} : child.ptr->size);
			bool extra = inl ? child.data.extra : child.ptr->extra;
			TSSymbol alias = 0;
			TSFieldId field = 0;
			if (!extra) {
				uint32_t si = f->structural++;
				if (f->aliases) alias = f->aliases[si];
				field = cp_field(f, si);
				if (!field && f->hidden) field = f->inherited;
			}
			uint32_t grandchildren = inl ? 0 : child.ptr->child_count;
			int32_t parent = f->parent;
			if ((inl ? child.data.visible : child.ptr->visible) || alias) {
				int32_t self = (int32_t)n++;
				if (self < cap) {
					cp_node *r = &out[self];
					cp_write(r, lang, child, alias, pos, nsym);
					r->parent = parent;
					r->field = field;
					r->sub_end = self + 1;
					r->pos = out[parent].nkids++;
					if (r->flags & CP_NAMED) out[parent].nnamed++;
				}
				if (grandchildren > 0) {
					cp_frame *g = cp_push(&st);
					if (!g) break;
					cp_frame_init(g, lang, child, pos, self, 0, false);
				}
			} else if (grandchildren > 0 && child.ptr->visible_child_count > 0) {
				cp_frame *g = cp_push(&st);
				if (!g) break;
				cp_frame_init(g, lang, child, pos, parent, field, true);
			}
		}
		if (st.frames != st.local) free(st.frames);
		if (st.depth > 0) return -1;  // cp_push ran out of memory
	}
	if (n > cap) return n;
	// Children of node i are kids[out[i].kids : out[i].kids+out[i].nkids],
	// in order: each node's children follow those of the nodes before it.
	int32_t off = 0;
	for (int64_t i = 0; i < n; i++) {
		out[i].index = (int32_t)i;
		out[i].kids = off;
		off += out[i].nkids;
	}
	for (int64_t i = 1; i < n; i++) {
		kids[out[out[i].parent].kids + out[i].pos] = (int32_t)i;
	}
	return n;
}
*/
import "C"

import (
	"fmt"
	"runtime"
	"sync"
	"unsafe"

	sitter "github.com/smacker/go-tree-sitter"
)

// Node.flags, as the walk writes them.
const (
	flagNamed    = C.CP_NAMED
	flagMissing  = C.CP_MISSING
	flagExtra    = C.CP_EXTRA
	flagHasError = C.CP_HAS_ERROR
)

// names holds the symbol and field names of a language.
type names struct {
	symbols []string // by symbol id
	// types is symbols, then "ERROR" and "" (for any other symbol outside
	// the table): a node keeps an index in it (Node.sym, which the walk
	// computes) instead of a string, which made Node 72 bytes instead of 88
	// and leaves the collector one pointer per node to scan instead of two.
	types  []string
	fields []string // by field id
}

var (
	langsMu sync.Mutex
	langs   = map[*sitter.Language]*names{}
)

func namesOf(lang *sitter.Language) *names {
	langsMu.Lock()
	defer langsMu.Unlock()
	if nm, ok := langs[lang]; ok {
		return nm
	}
	nm := &names{}
	count := lang.SymbolCount()
	nm.symbols = make([]string, count)
	for i := uint32(0); i < count; i++ {
		nm.symbols[i] = lang.SymbolName(sitter.Symbol(i))
	}
	nm.fields = []string{""}
	for id := 1; id < 1<<16; id++ {
		name := lang.FieldName(id)
		if name == "" {
			break
		}
		nm.fields = append(nm.fields, name)
	}
	nm.types = append(append([]string(nil), nm.symbols...), "ERROR", "")
	langs[lang] = nm
	return nm
}

// The walk writes Node values itself (cp_node is their layout); each line
// fails to compile when the two disagree.
const (
	_ = uint(unsafe.Sizeof(Node{})-C.CP_SIZE) + uint(C.CP_SIZE-unsafe.Sizeof(Node{}))
	_ = uint(unsafe.Offsetof(Node{}.t)) + uint(-unsafe.Offsetof(Node{}.t))
	_ = uint(unsafe.Offsetof(Node{}.sym)-C.CP_OFF_SYM) + uint(C.CP_OFF_SYM-unsafe.Offsetof(Node{}.sym))
	_ = uint(unsafe.Offsetof(Node{}.start)-C.CP_OFF_START) + uint(C.CP_OFF_START-unsafe.Offsetof(Node{}.start))
	_ = uint(unsafe.Offsetof(Node{}.end)-C.CP_OFF_END) + uint(C.CP_OFF_END-unsafe.Offsetof(Node{}.end))
	_ = uint(unsafe.Offsetof(Node{}.startByte)-C.CP_OFF_START_BYTE) + uint(C.CP_OFF_START_BYTE-unsafe.Offsetof(Node{}.startByte))
	_ = uint(unsafe.Offsetof(Node{}.endByte)-C.CP_OFF_END_BYTE) + uint(C.CP_OFF_END_BYTE-unsafe.Offsetof(Node{}.endByte))
	_ = uint(unsafe.Offsetof(Node{}.parent)-C.CP_OFF_PARENT) + uint(C.CP_OFF_PARENT-unsafe.Offsetof(Node{}.parent))
	_ = uint(unsafe.Offsetof(Node{}.index)-C.CP_OFF_INDEX) + uint(C.CP_OFF_INDEX-unsafe.Offsetof(Node{}.index))
	_ = uint(unsafe.Offsetof(Node{}.kids)-C.CP_OFF_KIDS) + uint(C.CP_OFF_KIDS-unsafe.Offsetof(Node{}.kids))
	_ = uint(unsafe.Offsetof(Node{}.nkids)-C.CP_OFF_NKIDS) + uint(C.CP_OFF_NKIDS-unsafe.Offsetof(Node{}.nkids))
	_ = uint(unsafe.Offsetof(Node{}.nnamed)-C.CP_OFF_NNAMED) + uint(C.CP_OFF_NNAMED-unsafe.Offsetof(Node{}.nnamed))
	_ = uint(unsafe.Offsetof(Node{}.pos)-C.CP_OFF_POS) + uint(C.CP_OFF_POS-unsafe.Offsetof(Node{}.pos))
	_ = uint(unsafe.Offsetof(Node{}.subEnd)-C.CP_OFF_SUB_END) + uint(C.CP_OFF_SUB_END-unsafe.Offsetof(Node{}.subEnd))
	_ = uint(unsafe.Offsetof(Node{}.field)-C.CP_OFF_FIELD) + uint(C.CP_OFF_FIELD-unsafe.Offsetof(Node{}.field))
	_ = uint(unsafe.Offsetof(Node{}.flags)-C.CP_OFF_FLAGS) + uint(C.CP_OFF_FLAGS-unsafe.Offsetof(Node{}.flags))
)

// Flatten copies the tree under root (a node of a tree parsed with lang)
// into Go memory. src is the source the tree was parsed from.
func Flatten(root *sitter.Node, lang *sitter.Language, src []byte) (*Tree, error) {
	if root == nil {
		return nil, fmt.Errorf("syntax: no root node")
	}
	// The TSNode is the first field of sitter.Node.
	cnode := *(*C.TSNode)(unsafe.Pointer(root))
	nm := namesOf(lang)
	n := int64(C.cp_count(cnode))
	t := &Tree{src: src, names: nm, types: nm.types, nodes: make([]Node, n), kids: make([]int32, n)}
	// The walk writes the nodes and the children lists straight into Go
	// memory: no scratch copy to convert, and nothing for the collector
	// but the two slices. Passing the nodes keeps to cgo's rule (memory
	// passed to C holds no Go pointers): Node.t is still nil there and is
	// set below. They go as an address all the same, because cgo's check
	// of that rule read every node, which cost as much as the copy and made
	// each fresh page fault twice (a read, then C's write). The slice is on
	// the heap, which does not move, and t keeps it alive.
	got := int64(C.cp_flatten(cnode, C.uintptr_t(uintptr(unsafe.Pointer(&t.nodes[0]))), (*C.int32_t)(&t.kids[0]),
		C.int64_t(n), C.uint32_t(len(nm.symbols))))
	runtime.KeepAlive(t)
	if got < 0 {
		return nil, fmt.Errorf("syntax: out of C memory copying a tree of %d nodes", n)
	}
	if got != n {
		// The walk reads the runtime's subtrees through the declarations
		// in tsruntime.h; a count that disagrees with the runtime's own
		// means they no longer match it.
		return nil, fmt.Errorf("syntax: copied %d nodes where tree-sitter counts %d: tsruntime.h no longer matches the tree-sitter runtime (was github.com/smacker/go-tree-sitter upgraded? compare tsruntime.h with its headers and run TestParity)", got, n)
	}
	t.kids = t.kids[:n-1]
	for i := range t.nodes {
		t.nodes[i].t = t
	}
	return t, nil
}
