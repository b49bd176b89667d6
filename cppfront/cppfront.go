// Package cppfront lowers Ascend C sources into the VF IR (package ir) with
// tree-sitter-cpp. It is the only cgo package of ascvet: it closes every C
// object it creates, and no tree-sitter object escapes it.
//
// Lowering is cheap on purpose. The pre-pass (prepass.go) already knows the
// byte offsets of every Ascend marker, so only the functions that contain one
// (or that mention a register type) are walked; the rest of the tree is never
// visited from Go.
package cppfront

import (
	"bytes"
	"go/token"
	"sync"

	sitter "github.com/tree-sitter/go-tree-sitter"
	tscpp "github.com/tree-sitter/tree-sitter-cpp/bindings/go"

	"github.com/ascvet/ascvet/cppfront/ir"
)

var language = sitter.NewLanguage(tscpp.Language())

// parserPool reuses parsers across files; a parser is not safe for
// concurrent use, so each goroutine takes its own.
var parserPool = sync.Pool{New: func() any {
	p := sitter.NewParser()
	if err := p.SetLanguage(language); err != nil {
		panic("internal error: tree-sitter-cpp language: " + err.Error())
	}
	return p
}}

// vfMarkers are byte strings of which at least one occurs in every file that
// can hold VF code. HasVFMarker looks for them without parsing.
var vfMarkers = [][]byte{
	[]byte("__simd_vf__"), []byte("__simd_callee__"), []byte("__simd_caller__"), []byte("__VEC_SCOPE__"),
	[]byte("__simt_vf__"), []byte("__simt_callee__"),
	[]byte("RegTensor"), []byte("MaskReg"), []byte("UnalignReg"), []byte("AddrReg"),
	[]byte("vector_float"), []byte("vector_half"), []byte("vector_bool"), []byte("vector_int"), []byte("vector_uint"),
	[]byte("vector_bfloat16"), []byte("vector_load_unalign"), []byte("vector_store_unalign"), []byte("vector_align"),
}

// HasVFMarker reports, from a byte scan alone, whether src may contain VF
// code. Files for which it is false hold no VF region and need no parse.
func HasVFMarker(src []byte) bool {
	for _, m := range vfMarkers {
		if bytes.Contains(src, m) {
			return true
		}
	}
	return false
}

// ParseFile parses src and lowers its VF regions. The file is added to fset
// under name. Bad C++ never makes an error: it shows as Func.Errors and as
// OpUnknown instructions. The error result is reserved for a parser that
// could not run.
func ParseFile(fset *token.FileSet, name string, src []byte) (*ir.File, error) {
	tf := fset.AddFile(name, -1, len(src))
	tf.SetLinesForContent(src)
	f := &ir.File{Name: name, Tok: tf, Src: src, Consts: map[string]int64{}, Aliases: map[string]string{}}
	if !HasVFMarker(src) {
		return f, nil
	}
	clean, blanks := prepass(src)
	for _, b := range blanks {
		f.Quals = append(f.Quals, ir.Qualifier{Pos: tf.Pos(b.start), Text: b.text})
	}
	p := parserPool.Get().(*sitter.Parser)
	defer parserPool.Put(p)
	tree := p.Parse(clean, nil)
	if tree == nil {
		p.Reset()
		return f, errParse
	}
	defer tree.Close()
	lw := newLowerer(f, clean, blanks, tree)
	lw.run()
	return f, nil
}

type parseError string

func (e parseError) Error() string { return string(e) }

const errParse = parseError("tree-sitter returned no tree")
