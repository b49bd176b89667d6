// Package tsutil holds what the two tree-sitter front ends (cppfront for
// C++, cppfront/pyfront for the pypto_pro Python DSL) share: the interned
// node-kind and field-name tables of a grammar, the chunked read callback
// and the line table of a source file.
package tsutil

import (
	"bytes"

	sitter "github.com/tree-sitter/go-tree-sitter"
)

// Kinds is a grammar's node kinds and field names, read once through cgo
// and then looked up from Go.
type Kinds struct {
	names  []string
	named  []bool
	fields []string
}

// NewKinds reads the tables of lang.
func NewKinds(lang *sitter.Language) *Kinds {
	nk := lang.NodeKindCount()
	k := &Kinds{names: make([]string, nk), named: make([]bool, nk)}
	for i := uint32(0); i < nk; i++ {
		k.names[i] = lang.NodeKindForId(uint16(i))
		k.named[i] = lang.NodeKindIsNamed(uint16(i))
	}
	nf := lang.FieldCount()
	k.fields = make([]string, nf+1)
	for i := uint32(1); i <= nf; i++ {
		k.fields[i] = lang.FieldNameForId(uint16(i))
	}
	return k
}

// Of returns the kind of a node kind id and whether it is named; an id the
// grammar does not know is an ERROR.
func (k *Kinds) Of(id uint16) (string, bool) {
	if int(id) < len(k.names) {
		return k.names[id], k.named[id]
	}
	return "ERROR", true
}

// Field returns the name of a field id, "" for none.
func (k *Kinds) Field(id uint16) string {
	if int(id) < len(k.fields) {
		return k.fields[id]
	}
	return ""
}

// LineStarts returns the offsets at which the lines of src start. A line
// ends with "\n", "\r\n" or a lone "\r" (old Mac files, and Python reads it
// so too): go/token's SetLinesForContent knows only "\n", which would put a
// CR-only file on one line. As there, a line break at the very end starts
// no line.
func LineStarts(src []byte) []int {
	lines := make([]int, 1, 1+bytes.Count(src, []byte{'\n'}))
	for i, c := range src {
		if c == '\n' || c == '\r' && (i+1 == len(src) || src[i+1] != '\n') {
			if i+1 < len(src) {
				lines = append(lines, i+1)
			}
		}
	}
	return lines
}
