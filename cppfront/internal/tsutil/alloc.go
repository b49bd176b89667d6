package tsutil

/*
#include <stddef.h>

extern void ts_set_allocator(void *(*)(size_t), void *(*)(size_t, size_t), void *(*)(void *, size_t), void (*)(void *));

static void av_libc_allocator(void) { ts_set_allocator(NULL, NULL, NULL, NULL); }
*/
import "C"

// go-tree-sitter routes every allocation of the tree-sitter library
// through Go (a C-to-Go callback that calls C.malloc in turn), so that a
// program can supply its own allocator. ascvet does not: the two cgo
// crossings per malloc and per free cost a quarter of a parse, and freeing
// a big tree as much again. Tree-sitter's default allocator is the same
// libc malloc and free, so objects made before the switch are still freed
// right (ts_set_allocator's condition for a switch after first use). One
// difference: where the Go path would return NULL to the library, the
// default aborts with a message.
func init() {
	C.av_libc_allocator()
}
