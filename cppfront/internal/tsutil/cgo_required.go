//go:build !cgo

package tsutil

// ascvet parses with tree-sitter, a C library that cgo builds. Without cgo
// (CGO_ENABLED=0, or no C compiler found) the tree-sitter bindings are
// empty and the build fails with "undefined: sitter.Language"; this
// reference fails it first, with the fix as the name. The compiler sorts
// errors by file name, and this file sorts before tsutil.go.
var _ = ascvet_needs_cgo__install_a_C_compiler_and_set_CGO_ENABLED_1
