package tsutil

/*
#include <stdint.h>
#include <stdbool.h>
#include <stdlib.h>

// The layouts of tree-sitter's TSNode and TSTreeCursor (api.h, v0.25), and
// the functions of the library linked in by go-tree-sitter.
typedef struct { uint32_t context[4]; const void *id; const void *tree; } av_node;
typedef struct { const void *tree; const void *id; uint32_t context[3]; } av_cursor;

extern av_cursor ts_tree_cursor_new(av_node);
extern void ts_tree_cursor_delete(av_cursor *);
extern av_node ts_tree_cursor_current_node(const av_cursor *);
extern uint16_t ts_tree_cursor_current_field_id(const av_cursor *);
extern bool ts_tree_cursor_goto_first_child(av_cursor *);
extern bool ts_tree_cursor_goto_next_sibling(av_cursor *);
extern bool ts_tree_cursor_goto_parent(av_cursor *);
extern uint16_t ts_node_symbol(av_node);
extern uint32_t ts_node_start_byte(av_node);
extern uint32_t ts_node_end_byte(av_node);
extern bool ts_node_is_missing(av_node);
extern uint32_t ts_node_child_count(av_node);
extern av_node ts_node_descendant_for_byte_range(av_node, uint32_t, uint32_t);
extern av_node ts_node_child_with_descendant(av_node, av_node);
extern bool ts_node_eq(av_node, av_node);
extern bool ts_node_is_null(av_node);

// av_path writes the nodes from root down to the smallest node spanning
// [start, end) into out; it returns their number, or -1 when cap is too
// small.
static int64_t av_path(av_node root, uint32_t start, uint32_t end, av_node *out, int64_t cap) {
	av_node target = ts_node_descendant_for_byte_range(root, start, end);
	if (ts_node_is_null(target)) {
		return 0;
	}
	int64_t n = 0;
	av_node cur = root;
	for (;;) {
		if (n >= cap) {
			return -1;
		}
		out[n++] = cur;
		if (ts_node_eq(cur, target)) {
			return n;
		}
		cur = ts_node_child_with_descendant(cur, target);
		if (ts_node_is_null(cur)) {
			return n;
		}
	}
}

typedef struct {
	uint16_t sym, field;
	uint32_t start, end;
	int32_t first, next, parent;
	uint32_t flags;
} av_raw;

enum { AV_MISSING = 1, AV_CUT = 2 };

// av_flatten copies the subtree of root into out in preorder; it returns
// the number of nodes, -1 when cap is too small, -2 when out of memory.
static int64_t av_flatten(av_node root, av_raw *out, int64_t cap, int32_t cut, bool missing) {
	int32_t *stack = malloc(2 * ((size_t)cut + 1) * sizeof(int32_t));
	if (stack == NULL) {
		return -2;
	}
	int32_t *last = stack + cut + 1;
	av_cursor c = ts_tree_cursor_new(root);
	int32_t depth = 0;
	int64_t n = 0;
	for (;;) {
		if (n >= cap) {
			n = -1;
			break;
		}
		av_node nd = ts_tree_cursor_current_node(&c);
		av_raw *r = &out[n];
		r->sym = ts_node_symbol(nd);
		r->field = ts_tree_cursor_current_field_id(&c);
		r->start = ts_node_start_byte(nd);
		r->end = ts_node_end_byte(nd);
		r->first = r->next = r->parent = -1;
		r->flags = (missing && ts_node_is_missing(nd)) ? AV_MISSING : 0;
		int32_t idx = (int32_t)n++;
		if (depth > 0) {
			int32_t p = stack[depth-1];
			r->parent = p;
			if (last[depth-1] >= 0) out[last[depth-1]].next = idx; else out[p].first = idx;
			last[depth-1] = idx;
		}
		if (depth >= cut && ts_node_child_count(nd) > 0) {
			r->flags |= AV_CUT;
		} else if (ts_tree_cursor_goto_first_child(&c)) {
			stack[depth] = idx;
			last[depth] = -1;
			depth++;
			continue;
		}
		bool done = false;
		while (!ts_tree_cursor_goto_next_sibling(&c)) {
			if (depth == 0 || !ts_tree_cursor_goto_parent(&c) || --depth == 0) {
				done = true;
				break;
			}
		}
		if (done) {
			break;
		}
	}
	ts_tree_cursor_delete(&c);
	free(stack);
	return n;
}
*/
import "C"

import (
	"unsafe"

	sitter "github.com/tree-sitter/go-tree-sitter"
)

// The C mirrors of sitter.Node and Raw have their Go sizes.
var (
	_ [unsafe.Sizeof(sitter.Node{}) - C.sizeof_av_node]byte
	_ [C.sizeof_av_node - unsafe.Sizeof(sitter.Node{})]byte
	_ [unsafe.Sizeof(Raw{}) - C.sizeof_av_raw]byte
	_ [C.sizeof_av_raw - unsafe.Sizeof(Raw{})]byte
)

// Raw is one node of a subtree copied by Flatten.
type Raw struct {
	Sym, Field          uint16 // kind id and field id (Kinds.Of, Kinds.Field)
	Start, End          uint32 // byte offsets
	First, Next, Parent int32  // indices into the copy, -1 when none
	Flags               uint32 // RawMissing, RawCut
}

// Flags of a Raw node.
const (
	RawMissing = 1 // a MISSING node (only looked for when asked)
	RawCut     = 2 // has children, not copied: deeper than the cut
)

// Flatten copies the subtree rooted at root in preorder, in one cgo call:
// walking it from Go costs several cgo calls per node. Nodes deeper than
// cut are not copied; their ancestor at the cut is marked RawCut. Missing
// nodes are marked only when checkMissing is set (one more call per node).
// The copy is written into buf when it has room for it.
func Flatten(root *sitter.Node, cut int, checkMissing bool, buf []Raw) []Raw {
	node := *(*C.av_node)(unsafe.Pointer(root))
	out := buf[:cap(buf)]
	if need := int(root.DescendantCount()); len(out) < need {
		out = make([]Raw, need)
	}
	for {
		done := timed(&flattenCPU, &flattenCalls)
		n := C.av_flatten(node, (*C.av_raw)(unsafe.Pointer(unsafe.SliceData(out))), C.int64_t(len(out)), C.int32_t(cut), C.bool(checkMissing))
		done()
		if n >= 0 {
			return out[:n]
		}
		if n == -2 {
			panic("tsutil: out of memory")
		}
		out = make([]Raw, 2*len(out)+16)
	}
}

// Path returns the nodes from root down to the smallest node spanning
// [start, end), root first: the ancestors of that node, found in one cgo
// call (go-tree-sitter's Parent costs a descent from the root per step).
func Path(root *sitter.Node, start, end uint) []sitter.Node {
	node := *(*C.av_node)(unsafe.Pointer(root))
	out := make([]sitter.Node, 32)
	for {
		n := C.av_path(node, C.uint32_t(start), C.uint32_t(end), (*C.av_node)(unsafe.Pointer(unsafe.SliceData(out))), C.int64_t(len(out)))
		if n >= 0 {
			return out[:n]
		}
		out = make([]sitter.Node, 2*len(out))
	}
}
