package report

// lineHashes is a port of the rolling hash with which GitHub's codeql-action
// (src/fingerprints.ts, function hash) computes SARIF
// partialFingerprints.primaryLocationLineHash when upload-sarif finds none.
// Emitting the same values ourselves keeps alerts matched across runs when
// SARIF is uploaded through the REST API (which computes nothing), and keeps
// upload-sarif from warning that our value disagrees with its own.
//
// The hash of a line is a polynomial hash (base 37, wrapping 64-bit
// arithmetic) of the 100 characters that start at the line, counted in
// UTF-16 code units, spaces and tabs skipped, every line ending (\r\n, \r,
// \n) read as \n, the end of the file as the character 0xFFFF and then
// zeros. So the hash depends on the line and on what follows it, never on
// what precedes it: inserting lines above a finding keeps its hash. The
// value is written "<hex>:<n>", n counting how often the same hex value has
// been seen in the file so far, so identical stretches of code still differ.
//
//	src:  "a\nb\n"
//	line 1 hashes "a\nb\n\uffff" + 95 zeros, line 2 "b\n\uffff" + 97 zeros,
//	line 3 (the empty line after the last \n) "\uffff" + 99 zeros.

import (
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

const (
	hashBlock = 100 // characters hashed from the start of each line
	hashMod   = 37  // the polynomial's base
	hashEOF   = 0xFFFF
)

// lineHashes returns the primaryLocationLineHash of every line of src:
// hashes[i] is the hash of line i+1. Lines are split as codeql-action splits
// them (\r\n, \r or \n), so a file ending in a line ending has one more,
// empty, line; an empty file has one line.
func lineHashes(src []byte) []string {
	t := LineHashTable(src)
	out := make([]string, len(t.raw))
	for i := range out {
		out[i] = t.At(i + 1)
	}
	return out
}

// HashTable is lineHashes before formatting: a big file has a million
// lines and a few findings.
type HashTable struct {
	raw []uint64 // the hash of each line
	n   []int32  // its occurrence, from 1
}

// At returns line's primaryLocationLineHash ("" beyond the file).
func (t HashTable) At(line int) string {
	if line < 1 || line > len(t.raw) || t.n[line-1] == 0 {
		return ""
	}
	return strconv.FormatUint(t.raw[line-1], 16) + ":" + strconv.Itoa(int(t.n[line-1]))
}

// LineHashTable computes the hashes of every line of src.
func LineHashTable(src []byte) HashTable {
	var h lineHasher
	h.init()
	for len(src) > 0 {
		r, size := utf8.DecodeRune(src)
		src = src[size:]
		// Node decodes the file as UTF-8 into UTF-16 code units; an
		// invalid byte becomes U+FFFD, as it does here.
		if r >= 0x10000 {
			hi, lo := utf16.EncodeRune(r)
			h.char(int64(hi))
			h.char(int64(lo))
			continue
		}
		h.char(int64(r))
	}
	h.char(hashEOF)
	for range hashBlock {
		if h.lines[h.index] != -1 {
			h.output()
		}
		h.update(0)
	}
	return h.table
}

// lineHash returns a primaryLocationLineHash computed from one line alone:
// the hash lineHashes gives the line when nothing follows it, and
// occurrence+1 (occurrence counts the earlier findings of the file on lines
// with the same text, from 0). It is stable when the line moves, but it
// differs from the value GitHub computes, which also hashes the lines that
// follow; prefer lineHashes(src)[line-1] where the file's source is at hand.
func lineHash(text string, occurrence int) string {
	h := lineHashes([]byte(strings.TrimRight(text, "\r\n")))[0]
	return h[:strings.IndexByte(h, ':')+1] + strconv.Itoa(occurrence+1)
}

// lineHasher is the state of fingerprints.ts's hash function.
type lineHasher struct {
	window    [hashBlock]int64 // the last hashBlock characters, a ring
	lines     [hashBlock]int   // line number starting at the ring slot, or -1
	index     int              // next ring slot
	raw       uint64           // the rolling hash
	firstMod  uint64           // hashMod^hashBlock, wrapped
	line      int              // line number of the character being read
	lineStart bool             // the next character starts a line
	prevCR    bool             // the previous character was \r
	counts    map[uint64]int32 // how often each hash value was output
	table     HashTable        // by line number - 1
}

func (h *lineHasher) init() {
	for i := range h.lines {
		h.lines[i] = -1
	}
	h.firstMod = 1
	for range hashBlock {
		h.firstMod *= hashMod
	}
	h.lineStart = true
	h.counts = map[uint64]int32{}
}

func (h *lineHasher) char(c int64) {
	if c == ' ' || c == '\t' || (h.prevCR && c == '\n') {
		h.prevCR = false
		return
	}
	h.prevCR = c == '\r'
	if c == '\r' {
		c = '\n'
	}
	if h.lines[h.index] != -1 {
		h.output()
	}
	if h.lineStart {
		h.lineStart = false
		h.line++
		h.lines[h.index] = h.line
	}
	if c == '\n' {
		h.lineStart = true
	}
	h.update(c)
}

func (h *lineHasher) update(c int64) {
	begin := h.window[h.index]
	h.window[h.index] = c
	h.raw = hashMod*h.raw + uint64(c) - h.firstMod*uint64(begin)
	h.index = (h.index + 1) % hashBlock
}

func (h *lineHasher) output() {
	h.counts[h.raw]++
	line := h.lines[h.index]
	for len(h.table.raw) < line {
		h.table.raw = append(h.table.raw, 0)
		h.table.n = append(h.table.n, 0)
	}
	h.table.raw[line-1], h.table.n[line-1] = h.raw, h.counts[h.raw]
	h.lines[h.index] = -1
}
