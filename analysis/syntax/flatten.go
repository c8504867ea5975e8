package syntax

/*
#include <stdint.h>
#include <stdbool.h>
#include <stdlib.h>

// Declarations of the tree-sitter runtime linked in by
// github.com/smacker/go-tree-sitter (its api.h, ABI 14). TestParity checks
// that they match by comparing every node with the smacker API.
typedef struct { uint32_t row; uint32_t column; } cp_point;
typedef struct { uint32_t context[4]; const void *id; const void *tree; } cp_node;
typedef struct { const void *tree; const void *id; uint32_t context[3]; } cp_cursor;
typedef uint16_t cp_symbol;
typedef uint16_t cp_field;

extern cp_cursor ts_tree_cursor_new(cp_node);
extern void ts_tree_cursor_delete(cp_cursor *);
extern cp_node ts_tree_cursor_current_node(const cp_cursor *);
extern cp_field ts_tree_cursor_current_field_id(const cp_cursor *);
extern bool ts_tree_cursor_goto_first_child(cp_cursor *);
extern bool ts_tree_cursor_goto_next_sibling(cp_cursor *);
extern bool ts_tree_cursor_goto_parent(cp_cursor *);
extern cp_symbol ts_node_symbol(cp_node);
extern uint32_t ts_node_start_byte(cp_node);
extern uint32_t ts_node_end_byte(cp_node);
extern cp_point ts_node_start_point(cp_node);
extern cp_point ts_node_end_point(cp_node);
extern bool ts_node_is_named(cp_node);
extern bool ts_node_is_missing(cp_node);
extern bool ts_node_is_extra(cp_node);
extern bool ts_node_has_error(cp_node);

typedef struct {
	uint32_t start_byte, end_byte;
	uint32_t start_row, start_col, end_row, end_col;
	int32_t parent;
	uint16_t symbol;
	uint16_t field;
	uint8_t flags;
} cp_record;

enum { CP_NAMED = 1, CP_MISSING = 2, CP_EXTRA = 4, CP_HAS_ERROR = 8 };

// cp_flatten writes the nodes under root in preorder into out (at most cap
// records) and returns how many there are; when that is more than cap the
// caller grows out and calls again.
static int64_t cp_flatten(cp_node root, cp_record *out, int64_t cap) {
	cp_cursor c = ts_tree_cursor_new(root);
	int64_t n = 0;
	int32_t parent = -1;
	// parents[depth] is the record index of the node at that depth.
	int64_t depth = 0, pcap = 256;
	int32_t *stack = malloc(sizeof(int32_t) * pcap);
	for (;;) {
		cp_node node = ts_tree_cursor_current_node(&c);
		if (n < cap) {
			cp_record *r = &out[n];
			cp_point s = ts_node_start_point(node), e = ts_node_end_point(node);
			r->start_byte = ts_node_start_byte(node);
			r->end_byte = ts_node_end_byte(node);
			r->start_row = s.row; r->start_col = s.column;
			r->end_row = e.row; r->end_col = e.column;
			r->parent = parent;
			r->symbol = ts_node_symbol(node);
			r->field = ts_tree_cursor_current_field_id(&c);
			r->flags = (ts_node_is_named(node) ? CP_NAMED : 0) | (ts_node_is_missing(node) ? CP_MISSING : 0) |
				(ts_node_is_extra(node) ? CP_EXTRA : 0) | (ts_node_has_error(node) ? CP_HAS_ERROR : 0);
		}
		int32_t self = (int32_t)n;
		n++;
		if (ts_tree_cursor_goto_first_child(&c)) {
			if (depth == pcap) {
				pcap *= 2;
				stack = realloc(stack, sizeof(int32_t) * pcap);
			}
			stack[depth++] = parent;
			parent = self;
			continue;
		}
		while (!ts_tree_cursor_goto_next_sibling(&c)) {
			if (!ts_tree_cursor_goto_parent(&c)) {
				free(stack);
				ts_tree_cursor_delete(&c);
				return n;
			}
			parent = stack[--depth];
		}
	}
}
*/
import "C"

import (
	"fmt"
	"sync"
	"unsafe"

	sitter "github.com/smacker/go-tree-sitter"
)

const (
	flagNamed    = 1
	flagMissing  = 2
	flagExtra    = 4
	flagHasError = 8
)

// names holds the symbol and field names of a language.
type names struct {
	symbols []string // by symbol id
	types   []string // symbols, then "ERROR" and "" (see typeIndex)
	fields  []string // by field id
}

// errorSymbol is tree-sitter's ts_builtin_sym_error, outside the table.
const errorSymbol = 0xFFFF

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

// typeIndex is the index in types of symbol s's name: a node keeps this
// two-byte index instead of a string, which made Node 72 bytes instead of 88
// and leaves the collector one pointer per node to scan instead of two.
func (nm *names) typeIndex(s uint16) uint16 {
	if int(s) < len(nm.symbols) {
		return s
	}
	if s == errorSymbol {
		return uint16(len(nm.symbols))
	}
	return uint16(len(nm.symbols) + 1)
}

// Flatten copies the tree under root (a node of a tree parsed with lang)
// into Go memory. src is the source the tree was parsed from.
func Flatten(root *sitter.Node, lang *sitter.Language, src []byte) (*Tree, error) {
	if root == nil {
		return nil, fmt.Errorf("syntax: no root node")
	}
	// The TSNode is the first field of sitter.Node.
	cnode := *(*C.cp_node)(unsafe.Pointer(root))
	// The records are scratch space in C memory: as a Go slice they were
	// the largest allocation of a lint run (16 bytes per source byte,
	// zeroed, then garbage), and the collections they caused showed up
	// in every pass.
	capacity := int64(len(src)/2 + 64)
	var recs []C.cp_record
	var n int64
	for {
		buf := C.malloc(C.size_t(capacity) * C.size_t(unsafe.Sizeof(C.cp_record{})))
		n = int64(C.cp_flatten(cnode, (*C.cp_record)(buf), C.int64_t(capacity)))
		if n <= capacity {
			defer C.free(buf)
			recs = unsafe.Slice((*C.cp_record)(buf), n)
			break
		}
		C.free(buf)
		capacity = n
	}
	nm := namesOf(lang)
	t := &Tree{src: src, names: nm, types: nm.types, nodes: make([]Node, n)}
	childCount := make([]int32, n)
	for i := int64(0); i < n; i++ {
		r := &recs[i]
		if r.parent >= 0 {
			childCount[r.parent]++
		}
	}
	// Children of node i are kids[kidStart[i] : kidStart[i]+childCount[i]].
	t.kids = make([]int32, 0, n)
	kidStart := make([]int32, n)
	off := int32(0)
	for i := int64(0); i < n; i++ {
		kidStart[i] = off
		off += childCount[i]
	}
	t.kids = t.kids[:off]
	fill := make([]int32, n)
	for i := int64(0); i < n; i++ {
		r := &recs[i]
		nd := &t.nodes[i]
		*nd = Node{
			t: t, sym: nm.typeIndex(uint16(r.symbol)), field: uint16(r.field), flags: uint8(r.flags),
			startByte: uint32(r.start_byte), endByte: uint32(r.end_byte),
			start:  sitter.Point{Row: uint32(r.start_row), Column: uint32(r.start_col)},
			end:    sitter.Point{Row: uint32(r.end_row), Column: uint32(r.end_col)},
			parent: int32(r.parent), index: int32(i), subEnd: int32(i) + 1,
			kids: kidStart[i], nkids: childCount[i],
		}
		if p := r.parent; p >= 0 {
			t.kids[kidStart[p]+fill[p]] = int32(i)
			nd.pos = fill[p]
			fill[p]++
			if nd.flags&flagNamed != 0 {
				t.nodes[p].nnamed++
			}
		}
	}
	// Children come after their parent in preorder: going backwards, each
	// node's subtree end is final before it extends its parent's.
	for i := n - 1; i > 0; i-- {
		nd := &t.nodes[i]
		if p := &t.nodes[nd.parent]; p.subEnd < nd.subEnd {
			p.subEnd = nd.subEnd
		}
	}
	return t, nil
}
