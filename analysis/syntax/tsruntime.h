// Declarations of the tree-sitter runtime's internal data, for Flatten's
// walk over subtrees (flatten.go).
//
// Copied, not guessed, from the runtime that github.com/smacker/go-tree-sitter
// v0.0.0-20240827094217-dd81d9e9be82 (the version go.mod pins) compiles in:
// its api.h (TSPoint, TSNode), length.h (Length), subtree.h (Subtree and its
// inline and heap forms, the little-endian 64-bit variant), parser.h
// (TSLanguage up to alias_sequences, TSFieldMapEntry, TSFieldMapSlice,
// TSSymbolMetadata) and tree.h (TSTree). The tree-sitter runtime is
// Copyright (c) 2018-2024 Max Brunsfeld and its bindings Copyright (c) 2019
// Maxim Sukharev, both under the MIT licence.
//
// A cgo package cannot include another module's headers portably, hence the
// copy. When go.mod moves to another version of the module, compare these
// with its headers again: TestParity and FuzzFlatten compare every node the
// walk writes with the runtime's public API, and Flatten refuses a tree whose
// node count disagrees with the runtime's own.
#ifndef CUDAPERF_SYNTAX_TSRUNTIME_H_
#define CUDAPERF_SYNTAX_TSRUNTIME_H_

#include <stdbool.h>
#include <stdint.h>

#if !defined(__BYTE_ORDER__) || __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__ || UINTPTR_MAX == 0xFFFFFFFF
#error "analysis/syntax declares tree-sitter's Subtree for little-endian 64-bit targets only"
#endif

typedef uint16_t TSStateId;
typedef uint16_t TSSymbol;
typedef uint16_t TSFieldId;

#define ts_builtin_sym_error ((TSSymbol)-1)

// api.h
typedef struct TSPoint {
  uint32_t row;
  uint32_t column;
} TSPoint;

typedef struct TSTree TSTree;

typedef struct TSNode {
  uint32_t context[4];
  const void *id;
  const TSTree *tree;
} TSNode;

// length.h, point.h
typedef struct {
  uint32_t bytes;
  TSPoint extent;
} Length;

static inline TSPoint point_add(TSPoint a, TSPoint b) {
  if (b.row > 0)
    return (TSPoint){a.row + b.row, b.column};
  else
    return (TSPoint){a.row, a.column + b.column};
}

static inline Length length_add(Length len1, Length len2) {
  Length result;
  result.bytes = len1.bytes + len2.bytes;
  result.extent = point_add(len1.extent, len2.extent);
  return result;
}

// parser.h
typedef struct {
  TSFieldId field_id;
  uint8_t child_index;
  bool inherited;
} TSFieldMapEntry;

typedef struct {
  uint16_t index;
  uint16_t length;
} TSFieldMapSlice;

typedef struct {
  bool visible;
  bool named;
  bool supertype;
} TSSymbolMetadata;

// The fields of struct TSLanguage up to alias_sequences, the last one read
// here; the rest are never reached through this declaration. Pointer types
// that only the parser reads are void here (the same size and alignment).
typedef struct TSLanguage {
  uint32_t version;
  uint32_t symbol_count;
  uint32_t alias_count;
  uint32_t token_count;
  uint32_t external_token_count;
  uint32_t state_count;
  uint32_t large_state_count;
  uint32_t production_id_count;
  uint32_t field_count;
  uint16_t max_alias_sequence_length;
  const uint16_t *parse_table;
  const uint16_t *small_parse_table;
  const uint32_t *small_parse_table_map;
  const void *parse_actions;
  const char *const *symbol_names;
  const char *const *field_names;
  const TSFieldMapSlice *field_map_slices;
  const TSFieldMapEntry *field_map_entries;
  const TSSymbolMetadata *symbol_metadata;
  const TSSymbol *public_symbol_map;
  const uint16_t *alias_map;
  const TSSymbol *alias_sequences;
} TSLanguage;

// subtree.h (TS_BIG_ENDIAN 0, TS_PTR_SIZE 64)
typedef struct {
  union {
    char *long_data;
    char short_data[24];
  };
  uint32_t length;
} ExternalScannerState;

typedef struct {
  bool is_inline : 1;
  bool visible : 1;
  bool named : 1;
  bool extra : 1;
  bool has_changes : 1;
  bool is_missing : 1;
  bool is_keyword : 1;
  uint8_t symbol;
  uint16_t parse_state;
  uint8_t padding_columns;
  uint8_t padding_rows : 4;
  uint8_t lookahead_bytes : 4;
  uint8_t padding_bytes;
  uint8_t size_bytes;
} SubtreeInlineData;

typedef struct {
  volatile uint32_t ref_count;
  Length padding;
  Length size;
  uint32_t lookahead_bytes;
  uint32_t error_cost;
  uint32_t child_count;
  TSSymbol symbol;
  TSStateId parse_state;

  bool visible : 1;
  bool named : 1;
  bool extra : 1;
  bool fragile_left : 1;
  bool fragile_right : 1;
  bool has_changes : 1;
  bool has_external_tokens : 1;
  bool has_external_scanner_state_change : 1;
  bool depends_on_column : 1;
  bool is_missing : 1;
  bool is_keyword : 1;

  union {
    struct {
      uint32_t visible_child_count;
      uint32_t named_child_count;
      uint32_t visible_descendant_count;
      int32_t dynamic_precedence;
      uint16_t repeat_depth;
      uint16_t production_id;
      struct {
        TSSymbol symbol;
        TSStateId parse_state;
      } first_leaf;
    };
    ExternalScannerState external_scanner_state;
    int32_t lookahead_char;
  };
} SubtreeHeapData;

typedef union {
  SubtreeInlineData data;
  const SubtreeHeapData *ptr;
} Subtree;

_Static_assert(sizeof(SubtreeInlineData) == 8, "SubtreeInlineData is one word, as in subtree.h");
_Static_assert(sizeof(Subtree) == 8, "Subtree is one word, as in subtree.h");

// Children are allocated immediately before the subtree's heap data.
#define ts_subtree_children(self) \
  ((self).data.is_inline ? NULL : (Subtree *)((self).ptr) - (self).ptr->child_count)

// tree.h
struct TSTree {
  Subtree root;
  const TSLanguage *language;
};

#endif  // CUDAPERF_SYNTAX_TSRUNTIME_H_
