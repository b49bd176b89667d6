package cppfront

import (
	"bytes"
	"sort"
)

// The front end's lexer. The pre-pass reads the tokens of the file, and
// the tokens it does not blank are those of its result (prepassLexed);
// the scans that read pre-passed text before tree-sitter does (the
// nesting limit, the lazy plan's blocks, the segment cuts, the
// identifiers of a function's code) read those, instead of skipping
// blanks, comments and literals each in its own way.

// tok is one significant token of a text: what is left once blanks and
// comments are skipped.
type tok struct {
	start, end int32
	kind       byte // 'a' identifier, '"' quoted or raw literal, '0' number, '#' directive, 'p' punctuator (one byte)
	dir        byte // of a directive: 'i' #if, #ifdef or #ifndef; 'e' #else or #elif*; 'n' #endif; 'o' another
}

// tokens are the tokens of one text.
type tokens struct {
	src  []byte
	toks []tok
	scan *blockScan // scanBlocks' result, made on first use (dropBlanked clears it)
	hits *textHits  // vfHits' result for one set of blanks, made on first use
}

// textHits is what vfHits finds in a text with its blanks.
type textHits struct {
	blanks []blank // the blanks it was found with
	at     []int
}

// blockScan is what scanBlocks finds in a text.
type blockScan struct {
	blocks  []lazyBlock
	classes map[string]bool
	ok      bool
}

// lexText returns the tokens of src. A # that starts a line (after
// blanks and comments) makes a directive token up to the end of its
// logical line; elsewhere it is a punctuator. An identifier followed by a
// quote, when it ends in R, is a raw literal with its prefix.
//
// The tokens are made room for at one per 5 bytes. The CANN operator
// repositories' VF files hold one per 6.06 bytes on average, and at one
// per 6 bytes 942 of their 2,449 files outgrew the room: grown by a
// quarter at a time, the lex of all of them allocated 157 MB for 88 MB of
// tokens, against 121 MB at one per 5 bytes (124 files grow) and 135 MB
// at one per 4 (4 grow).
func lexText(src []byte) *tokens {
	return &tokens{src: src, toks: lexInto(make([]tok, 0, len(src)/5+16), src)}
}

// lexInto is lexText appending the tokens of src to toks.
func lexInto(toks []tok, src []byte) []tok {
	return lexFrom(toks, src, true)
}

// lexFrom is lexInto, with lineStart false when src does not start a line
// (the rest of a directive's line): a # first in it is no directive.
func lexFrom(toks []tok, src []byte, lineStart bool) []tok {
	n := len(src)
	for i := 0; i < n; {
		c := src[i]
		// The common cases first, without a call: blanks, identifiers.
		switch {
		case c == ' ' || c == '\t':
			i++
			continue
		case c == '\n':
			i, lineStart = i+1, true
			continue
		case isIdentStart(c):
			lineStart = false
			j := i + 1
			for j < n && isIdentChar(src[j]) {
				j++
			}
			if j < n && src[j] == '"' && src[j-1] == 'R' {
				j = skipRawString(src, j) // a raw literal with its prefix
				toks = append(toks, tok{start: int32(i), end: int32(j), kind: '"'})
			} else {
				toks = append(toks, tok{start: int32(i), end: int32(j), kind: 'a'})
			}
			i = j
			continue
		}
		if next, newline := trivia(src, i); next != i {
			lineStart = lineStart || newline
			i = next
			continue
		}
		if c == '#' && lineStart {
			j := directiveLineEnd(src, i)
			toks = append(toks, tok{start: int32(i), end: int32(j), kind: '#', dir: directiveClass(directive(src[i+1 : j]))})
			i, lineStart = j, false
			continue
		}
		lineStart = false
		if j, class := literal(src, i); j != i {
			toks = append(toks, tok{start: int32(i), end: int32(min(j, n)), kind: class})
			i = j
			continue
		}
		toks = append(toks, tok{start: int32(i), end: int32(i + 1), kind: 'p'})
		i++
	}
	return toks
}

// at returns the index of the first token that starts at or after the
// offset i.
func (t *tokens) at(i int) int {
	return sort.Search(len(t.toks), func(k int) bool { return int(t.toks[k].start) >= i })
}

// directiveLineEnd returns the offset of the newline that ends the
// directive at b[i] (or len(b)): the end of its logical line, where a
// backslash-newline continues it and a /* */ comment is one blank, so that
// a comment running over lines continues it too (as the preprocessor reads
// it: comments go before directives).
func directiveLineEnd(b []byte, i int) int {
	for ; i < len(b); i++ {
		switch c := b[i]; {
		case c == '\n':
			return i
		case c == '/' && i+1 < len(b) && b[i+1] == '*':
			e := bytes.Index(b[i+2:], []byte("*/"))
			if e < 0 {
				return len(b)
			}
			i += e + 3
		case c == '/' && i+1 < len(b) && b[i+1] == '/':
			for i < len(b) && b[i] != '\n' {
				i++
			}
			return i
		case c == '"' || c == '\'':
			i = skipQuoted(b, i, c) - 1
		case c == '\\' && i+1 < len(b) && b[i+1] == '\n':
			i++
		case c == '\\' && i+2 < len(b) && b[i+1] == '\r' && b[i+2] == '\n':
			i += 2
		}
	}
	return len(b)
}

// directiveClass classifies a directive by name, as the block scans read
// conditionals: 'i' opens one, 'e' is an alternative, 'n' closes it, 'o'
// is any other directive.
func directiveClass(name string) byte {
	switch name {
	case "if", "ifdef", "ifndef":
		return 'i'
	case "else", "elif", "elifdef", "elifndef":
		return 'e'
	case "endif":
		return 'n'
	}
	return 'o'
}

// nesting returns the deepest nesting of ( [ { in the text, outside
// comments and string and character literals (directives included, whose
// brackets count too). Closing brackets never take it below zero.
func (t *tokens) nesting() int {
	depth, deepest := 0, 0
	count := func(c byte) {
		switch c {
		case '(', '[', '{':
			depth++
			deepest = max(deepest, depth)
		case ')', ']', '}':
			depth = max(depth-1, 0)
		}
	}
	for k := range t.toks {
		switch tk := &t.toks[k]; tk.kind {
		case 'p':
			count(t.src[tk.start])
		case '#':
			// A directive's line, lexed as code: its brackets count.
			d := lexText(t.src[tk.start+1 : tk.end])
			for _, dt := range d.toks {
				if dt.kind == 'p' {
					count(d.src[dt.start])
				}
			}
		}
	}
	return deepest
}
