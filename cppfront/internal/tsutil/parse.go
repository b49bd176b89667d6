package tsutil

/*
#include <stdint.h>
#include <stdbool.h>
#include <time.h>

// The layouts of tree-sitter's input and parse options (api.h, v0.25),
// and the function of the library linked in by go-tree-sitter.
typedef struct { uint32_t row, column; } av_point;
typedef struct {
	void *payload;
	const char *(*read)(void *payload, uint32_t byte_index, av_point position, uint32_t *bytes_read);
	int encoding; // TSInputEncodingUTF8
	void *decode;
} av_input;
typedef struct { void *payload; uint32_t current_byte_offset; bool has_error; } av_parse_state;
typedef struct { void *payload; bool (*progress_callback)(av_parse_state *state); } av_parse_options;

extern void *ts_parser_parse_with_options(void *parser, const void *old_tree, av_input input, av_parse_options options);

typedef struct { const char *text; uint32_t len; } av_text;

// av_read hands tree-sitter the rest of the text from byte_index, in place.
static const char *av_read(void *payload, uint32_t byte_index, av_point position, uint32_t *bytes_read) {
	av_text *t = payload;
	if (byte_index >= t->len) {
		*bytes_read = 0;
		return "";
	}
	*bytes_read = t->len - byte_index;
	return t->text + byte_index;
}

static int64_t av_now(void) {
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

// av_late stops the parse once the deadline (monotonic nanoseconds) has passed.
static bool av_late(av_parse_state *st) {
	return av_now() > *(int64_t *)st->payload;
}

// av_parse parses len bytes of text with parser; within limit
// nanoseconds when limit > 0. It returns the tree, NULL when stopped.
static void *av_parse(void *parser, const char *text, uint32_t len, int64_t limit) {
	av_text t = {text, len};
	av_input in = {&t, av_read, 0, NULL};
	int64_t deadline = 0;
	av_parse_options opts = {NULL, NULL};
	if (limit > 0) {
		deadline = av_now() + limit;
		opts.payload = &deadline;
		opts.progress_callback = av_late;
	}
	return ts_parser_parse_with_options(parser, NULL, in, opts);
}
*/
import "C"

import (
	"math"
	"time"
	"unsafe"

	sitter "github.com/tree-sitter/go-tree-sitter"
)

// The layout of go-tree-sitter's Parser and Tree: one C pointer each.
var (
	_ [unsafe.Sizeof(sitter.Parser{}) - unsafe.Sizeof(uintptr(0))]byte
	_ [unsafe.Sizeof(uintptr(0)) - unsafe.Sizeof(sitter.Parser{})]byte
	_ [unsafe.Sizeof(sitter.Tree{}) - unsafe.Sizeof(uintptr(0))]byte
	_ [unsafe.Sizeof(uintptr(0)) - unsafe.Sizeof(sitter.Tree{})]byte
)

// Parse parses src with p, as p.Parse does, stopping at deadline (never
// when it is zero); nil when the parse stopped.
//
// go-tree-sitter's Parse and ParseWithOptions read the text through a Go
// callback that copies what it hands to tree-sitter into C memory, the
// whole rest of the text at each call for Parse. Parse here hands
// tree-sitter the text in place, from C, and checks the time from C: no
// copy, no call back into Go. src must not change during the call (the
// cgo rules keep it in place for the call's duration; tree-sitter keeps
// no pointer to it in the tree).
func Parse(p *sitter.Parser, src []byte, deadline time.Time) *sitter.Tree {
	if len(src) > math.MaxUint32 {
		return nil
	}
	inner := *(*unsafe.Pointer)(unsafe.Pointer(p))
	var text *C.char
	if len(src) > 0 {
		text = (*C.char)(unsafe.Pointer(unsafe.SliceData(src)))
	}
	var limit time.Duration
	if !deadline.IsZero() {
		limit = max(time.Until(deadline), 1) // past: stop at the first check
	}
	done := timed(&parseCPU, &parseCalls)
	tree := C.av_parse(inner, text, C.uint32_t(len(src)), C.int64_t(limit))
	done()
	if tree == nil {
		return nil
	}
	t := new(sitter.Tree)
	*(*unsafe.Pointer)(unsafe.Pointer(t)) = tree
	return t
}
