package cppfront

import (
	"bytes"
	"slices"
	"sort"
	"sync"
	"time"
	"unsafe"

	sitter "github.com/tree-sitter/go-tree-sitter"

	"github.com/ascvet/ascvet/cppfront/internal/tsutil"
)

// Statements that tree-sitter does not parse.
//
// Most tokens of a VF body are simple statements: calls of the API, the
// declarations of registers, assignments.
//
//	MicroAPI::RegTensor<float> vSrc0, vSrc1, vDst;
//	MicroAPI::Add<float>(vDst, vSrc0, vSrc1, mask);
//	AscendC::Reg::StoreAlign(dstAddr, vDst, count, mask);
//
// Tree-sitter has no symbol table: the subtree it builds for a statement
// depends on the statement's tokens (what each is, not which identifier
// or number it is) and on the parser's state where the statement starts,
// which at the start of a statement in a block is mostly one. So the
// lazy plan (lazy.go) blanks such a statement but for its ';', which
// tree-sitter reads as an empty statement, and flatten puts in the flat
// tree the subtree the statement has: the one tree-sitter built the first
// time the run met a statement of its shape (shapeKey), parsed in three
// blocks, first, between two statements and after a declaration
// (learnShapes: a shape on which they disagree, as on A::B::C;, is never
// used), with this statement's offsets. The flat trees, and so the IR,
// are those of the parse with the statement in it: TestSpliceCorpus
// compares the 164,983 statements left out of the CANN repositories' VF
// files with tree-sitter's subtrees for them in place, node by node (5,761
// shapes), TestLazyCorpus the IR of every file, FuzzLazy that of any text.
// Tree-sitter reads 24.95 MB of the 47.1 MB instead of 34.0 MB, and a cold
// check of them takes about a tenth less CPU.
//
// A statement is left out only where nothing reads it in the tree-sitter
// tree, which keeps an empty statement there:
//   - it is in the body of a hot function (classify), outside parentheses,
//     right after a ';', or a '{' or '}' of a statement block (a function
//     or lambda body, a block of a statement), and ends with a ';': no
//     statement that holds others, no label;
//   - it holds no brace, directive, literal other than a number, or
//     backslash, and names no function or function-like macro the file
//     defines: the call sites of the file's functions are found in the
//     tree (callSite);
//   - in a __simd_* function or a __VEC_SCOPE__ block that holds no other,
//     whose statements lowering reads from the flat tree alone, that is
//     all. Elsewhere (before a __VEC_SCOPE__ block, whose declarations and
//     writes enclosingNodes reads in the tree) it is also an expression
//     statement that starts with a plain identifier, ends with ");",
//     writes no name (writtenNames) and holds no VF marker or register
//     type (orphans look for markers).
//
// When the tree has an error, a statement left out of a function with
// one, or of an ERROR node, makes the file parsed again with every
// statement in (spliceHolds): tree-sitter's recovery could have read it
// otherwise.

// maxSpliceToks bounds the tokens of a statement spliced, and maxShapes
// the shapes a run keeps: a file of a million different statements is
// parsed as before once the table is full.
const (
	maxSpliceToks = 96
	maxShapes     = 1 << 16
	maxShapeNodes = 1 << 21 // 32 MB of shapeNode
)

// splice is a statement the plan left out of the parse.
type splice struct {
	semi  int32      // offset of its ';': the empty statement tree-sitter reads
	shape *stmtShape // its subtree
	offs  []int32    // start and end of each of its tokens, in the text
}

// splices are a file's, in the order of their offsets.
type splices []splice

// at returns the splice whose ';' is at off, or nil.
func (s splices) at(off uint32) *splice {
	k := sort.Search(len(s), func(k int) bool { return uint32(s[k].semi) >= off })
	if k < len(s) && uint32(s[k].semi) == off {
		return &s[k]
	}
	return nil
}

// within reports whether a splice's ';' lies in [from, to).
func (s splices) within(from, to uint32) bool {
	k := sort.Search(len(s), func(k int) bool { return uint32(s[k].semi) >= from })
	return k < len(s) && uint32(s[k].semi) < to
}

// stmtShape is the subtree of a statement, in preorder, node 0 its root.
type stmtShape struct {
	nodes []shapeNode
	depth int  // of its deepest node, the root's 0
	expr  bool // an expression statement (not a declaration, say)
}

// shapeNode is a node of a shape; from, to are the statement's tokens it
// covers, [from, to).
type shapeNode struct {
	sym, fid            uint16
	from, to            int16
	first, next, parent int16
	depth               int16
}

// shapeTable holds the shapes learned in the run; nil for one that cannot
// be spliced.
var shapeTable = struct {
	sync.Mutex
	m     map[string]*stmtShape
	nodes int // of the shapes in m
}{m: map[string]*stmtShape{}}

// wordTokens are the words tree-sitter-cpp does not read as an
// identifier where it may: its keywords, and the words of its tokens
// primitive_type, true, false and null (all the identifier-like strings
// of its grammar; TestWordTokens derives them again from grammar.json). A
// statement's shape spells them.
var wordTokens = func() map[string]bool {
	m := map[string]bool{}
	for _, w := range []string{
		"FALSE", "NULL", "TRUE", "_Alignas", "_Alignof", "_Atomic", "_Generic", "_Nonnull", "_Noreturn",
		"__alignof", "__alignof__", "__asm", "__asm__", "__attribute", "__attribute__", "__based", "__cdecl",
		"__clrcall", "__declspec", "__except", "__extension__", "__fastcall", "__finally", "__forceinline",
		"__inline", "__inline__", "__leave", "__restrict", "__restrict__", "__sptr", "__stdcall", "__thiscall",
		"__thread", "__try", "__unaligned", "__uptr", "__vectorcall", "__volatile__", "_alignof", "_unaligned",
		"alignas", "alignof", "and", "and_eq", "asm", "auto", "bitand", "bitor", "bool", "break", "case",
		"catch", "char", "char16_t", "char32_t", "char64_t", "char8_t", "charptr_t", "class", "co_await",
		"co_return", "co_yield", "compl", "concept", "const", "consteval", "constexpr", "constinit", "continue",
		"decltype", "default", "defined", "delete", "do", "double", "else", "enum", "explicit", "extern",
		"false", "final", "float", "for", "friend", "goto", "if", "inline", "int", "int16_t", "int32_t",
		"int64_t", "int8_t", "intptr_t", "long", "max_align_t", "mutable", "namespace", "new", "noexcept",
		"noreturn", "not", "not_eq", "nullptr", "nullptr_t", "offsetof", "operator", "or", "or_eq", "override",
		"private", "protected", "ptrdiff_t", "public", "register", "requires", "restrict", "return", "short",
		"signed", "size_t", "sizeof", "ssize_t", "static", "static_assert", "struct", "switch", "template",
		"this", "thread_local", "throw", "true", "try", "typedef", "typename", "uint16_t", "uint32_t",
		"uint64_t", "uint8_t", "uintptr_t", "union", "unsigned", "using", "virtual", "void", "volatile",
		"while", "xor", "xor_eq",
	} {
		m[w] = true
	}
	return m
}()

// controlWords start a statement that holds others, or leaves the block:
// never left out of the parse.
var controlWords = map[string]bool{
	"if": true, "else": true, "for": true, "while": true, "do": true, "switch": true, "case": true, "default": true,
	"return": true, "break": true, "continue": true, "goto": true, "try": true, "catch": true, "throw": true,
	"co_return": true, "co_yield": true, "co_await": true, "namespace": true, "template": true, "asm": true, "__asm__": true, "__asm": true,
}

// plainIdent reports whether w is an identifier of ASCII letters, digits
// and underscores that tree-sitter reads as an identifier.
func plainIdent(w []byte) bool {
	if len(w) == 0 || w[0] >= '0' && w[0] <= '9' {
		return false
	}
	for _, c := range w {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_') {
			return false
		}
	}
	return !wordTokens[string(w)]
}

// plainNumber reports whether w is a decimal or hexadecimal integer with
// an optional u/l suffix, or a decimal fraction with an optional f: a
// number tree-sitter reads as one number_literal, as the lexer does.
func plainNumber(w []byte) bool {
	i := 0
	hex := len(w) > 2 && w[0] == '0' && (w[1] == 'x' || w[1] == 'X')
	if hex {
		i = 2
	}
	d := i
	for i < len(w) && (w[i] >= '0' && w[i] <= '9' || hex && (w[i] >= 'a' && w[i] <= 'f' || w[i] >= 'A' && w[i] <= 'F')) {
		i++
	}
	if i == d {
		return false
	}
	if !hex && i < len(w) && w[i] == '.' {
		i++
		f := i
		for i < len(w) && w[i] >= '0' && w[i] <= '9' {
			i++
		}
		if i == f {
			return false
		}
		if i < len(w) && (w[i] == 'f' || w[i] == 'F') {
			i++
		}
		return i == len(w)
	}
	for i < len(w) && (w[i] == 'u' || w[i] == 'U' || w[i] == 'l' || w[i] == 'L') {
		i++
	}
	return i == len(w)
}

// shapeKey is what decides the subtree of the statement of tokens
// toks[from:to] of src: each token's class (an identifier, a number, a
// punctuator), the words and numbers that are not plain, the punctuators,
// and whether white space separates each token from the one before. ok is
// false for a token no shape holds (a literal, a directive).
func shapeKey(src []byte, toks []tok, from, to int, buf []byte) (key []byte, ok bool) {
	key = buf[:0]
	for k := from; k < to; k++ {
		tk := toks[k]
		w := src[tk.start:tk.end]
		if k > from && toks[k-1].end == tk.start &&
			(tk.kind == 'p' && toks[k-1].kind == 'p' || tk.kind == '0' || toks[k-1].kind == '0') {
			// Adjacent to the token before, where white space between
			// them could change tree-sitter's tokens (- - and --, 1. 5
			// and 1.5); between an identifier and a punctuator it cannot.
			key = append(key, 1)
		}
		switch tk.kind {
		case 'a':
			if plainIdent(w) {
				key = append(key, 'a')
			} else {
				key = append(key, 'w')
				key = append(key, w...)
			}
		case '0':
			if plainNumber(w) {
				key = append(key, '0')
			} else {
				key = append(key, 'n')
				key = append(key, w...)
			}
		case 'p':
			key = append(key, 'p', w[0])
		default:
			return nil, false
		}
		key = append(key, 0)
	}
	return key, true
}

// findSplices returns the statements of the hot blocks of t (classify's
// blocks and reasons) that the plan may leave out, their shapes learned
// (see above); hits are vfHits', defined the names of the functions and
// function-like macros the file defines.
func (t *tokens) findSplices(blocks []lazyBlock, why []string, hits []int, blanks []blank, defined map[string]bool, deadline time.Time) splices {
	type cand struct {
		from, semi int  // token indices
		vf         bool // in a body read from the flat tree alone (bodyStatements)
	}
	var cands []cand
	// The { of each __VEC_SCOPE__ block, true for a block whose
	// statements are read from the flat tree alone: one that holds no
	// other (enclosingNodes reads the declarations before a block in the
	// tree of each block around it).
	scopes := map[int]bool{}
	var opens []int
	for _, bl := range blanks {
		if bl.text == "__VEC_SCOPE__" {
			if j := skipSpace(t.src, bl.end); j < len(t.src) && t.src[j] == '{' {
				scopes[j] = true
				opens = append(opens, j)
			}
		}
	}
	holdsScope := func(open, close int) bool {
		k := sort.SearchInts(opens, open+1)
		return k < len(opens) && opens[k] < close
	}
	for k := range blocks {
		if b := &blocks[k]; scopes[b.open] && holdsScope(b.open, b.close) {
			scopes[b.open] = false
		}
	}
	for k := range blocks {
		if why[k] != "hot" {
			continue
		}
		b := &blocks[k]
		vf := marksOf(t.src, blanks, b).simdHead && !holdsScope(b.open, b.close)
		t.bodyStatements(blocks[k].open, blocks[k].close, vf, scopes, hits, defined, func(from, semi int, vf bool) {
			cands = append(cands, cand{from, semi, vf})
		})
	}
	if len(cands) == 0 {
		return nil
	}
	// Look the shapes up, learn the new ones (one parse for all), and
	// keep the statements whose shape splices.
	keys := make([]string, len(cands))
	var buf []byte
	var learn []int // indices into cands of the first statement of each new shape
	fresh := map[string]bool{}
	// A file learns the shapes of at most a quarter of its statements
	// (or 32): learning parses a statement three times, and a file whose
	// statements all differ is parsed as before, not slower.
	maxLearn := max(32, len(cands)/4)
	shapeTable.Lock()
	full := len(shapeTable.m) >= maxShapes || shapeTable.nodes >= maxShapeNodes
	for i, c := range cands {
		key, ok := shapeKey(t.src, t.toks, c.from, c.semi+1, buf)
		buf = key
		if !ok {
			continue
		}
		keys[i] = string(key)
		if _, known := shapeTable.m[keys[i]]; !known && !fresh[keys[i]] && !full && len(learn) < maxLearn {
			fresh[keys[i]] = true
			learn = append(learn, i)
		}
	}
	shapeTable.Unlock()
	if len(learn) > 0 {
		stmts := make([][]byte, len(learn))
		for j, i := range learn {
			c := cands[i]
			stmts[j] = t.src[t.toks[c.from].start:t.toks[c.semi].end]
		}
		shapes, learned := learnShapes(stmts, deadline)
		shapeTable.Lock()
		for j, i := range learn {
			if learned[j] && len(shapeTable.m) < maxShapes && shapeTable.nodes < maxShapeNodes {
				shapeTable.m[keys[i]] = shapes[j]
				if shapes[j] != nil {
					shapeTable.nodes += len(shapes[j].nodes)
				}
			}
		}
		shapeTable.Unlock()
	}
	var out splices
	shapeTable.Lock()
	defer shapeTable.Unlock()
	for i, c := range cands {
		if keys[i] == "" {
			continue
		}
		sh := shapeTable.m[keys[i]]
		if sh == nil || !sh.expr && !c.vf {
			continue // before a __VEC_SCOPE__ block only an expression statement: enclosingNodes reads declarations
		}
		offs := make([]int32, 0, 2*(c.semi-c.from+1))
		for k := c.from; k <= c.semi; k++ {
			offs = append(offs, t.toks[k].start, t.toks[k].end)
		}
		out = append(out, splice{semi: t.toks[c.semi].start, shape: sh, offs: offs})
	}
	return out
}

// bodyStatements calls f with the first and last (';') token of each
// statement of the body of the block [open, close] that may be left out
// of the parse, its shape aside (see above), and whether it is in a body
// lowering reads from the flat tree alone (vf: a __simd_* function's, a
// __VEC_SCOPE__ block's of scopes, true for those that hold no other).
func (t *tokens) bodyStatements(open, close int, vf bool, scopes map[int]bool, hits []int, defined map[string]bool, f func(from, semi int, vf bool)) {
	toks, src := t.toks, t.src
	type frame struct {
		stmt   bool // a statement block
		vf     bool // in a __VEC_SCOPE__ block or a function with a __simd_* marker
		parens int  // ( and [ depth inside it
	}
	stack := []frame{{stmt: true, vf: vf}}
	lastClosedStmt := false // the last } closed a statement block
	first, last := t.at(open+1), t.at(close)
	for k := first; k < last; k++ {
		tk := toks[k]
		top := &stack[len(stack)-1]
		if tk.kind == 'p' {
			switch src[tk.start] {
			case '{':
				stack = append(stack, frame{stmt: t.stmtBrace(k, first), vf: top.vf || scopes[int(tk.start)]})
				continue
			case '}':
				if len(stack) == 1 {
					return // unbalanced: leave the rest alone
				}
				lastClosedStmt = top.stmt
				stack = stack[:len(stack)-1]
				continue
			case '(', '[':
				top.parens++
				continue
			case ')', ']':
				top.parens--
				continue
			}
		}
		if tk.kind != 'a' || top.parens != 0 || !top.stmt {
			continue
		}
		if w := src[tk.start:tk.end]; !plainIdent(w) && (!top.vf || controlWords[string(w)]) {
			continue
		}
		// A statement starts here after ; or a statement block's { or }.
		if k > first {
			p := toks[k-1]
			c := src[p.start]
			switch {
			case p.kind != 'p':
				continue
			case c == ';', c == '{':
			case c == '}' && lastClosedStmt:
			default:
				continue
			}
		}
		semi := t.statementEnd(k, last, top.vf, hits, defined)
		if semi < 0 {
			continue
		}
		f(k, semi, top.vf)
		k = semi
	}
}

// stmtBrace reports whether the { of toks[k] opens a statement block: it
// follows ) ; { or } (a function, lambda or control statement's body, a
// block), else, do, try or mutable, or nothing in the body.
func (t *tokens) stmtBrace(k, first int) bool {
	if k == first {
		return true
	}
	p := t.toks[k-1]
	w := t.src[p.start:p.end]
	if p.kind == 'p' {
		switch w[0] {
		case ')', ';', '{', '}':
			return true
		}
		return false
	}
	switch string(w) {
	case "else", "do", "try", "mutable":
		return true
	}
	return false
}

// statementEnd returns the index of the ';' that ends the statement
// starting at toks[k] when it may be left out of the parse (see above; vf:
// in a body lowering reads from the flat tree alone), else -1.
func (t *tokens) statementEnd(k, last int, vf bool, hits []int, defined map[string]bool) int {
	toks, src := t.toks, t.src
	parens := 0
	for j := k; j < last && j-k < maxSpliceToks; j++ {
		tk := toks[j]
		w := src[tk.start:tk.end]
		switch tk.kind {
		case 'a':
			if defined[string(w)] {
				return -1
			}
		case '0':
		case 'p':
			switch w[0] {
			case '{', '}', '\\':
				return -1
			case '(', '[':
				parens++
			case ')', ']':
				parens--
				if parens < 0 {
					return -1
				}
			case ';':
				if parens != 0 || j == k || !vf && !t.punct(j-1, ')') {
					return -1
				}
				from, to := int(toks[k].start), int(tk.end)
				if h := sort.SearchInts(hits, from); !vf && h < len(hits) && hits[h] < to {
					return -1 // a VF marker or register type outside a VF body (orphans look for markers)
				}
				if bytes.IndexByte(src[from:to], '\\') >= 0 || !vf && len(writtenNames(src[from:to])) > 0 {
					return -1 // a line continued; a name written (enclosingNodes)
				}
				return j
			}
		default:
			return -1 // a literal, a directive
		}
	}
	return -1
}

// learnShapes parses the statements stmts, each alone in a block, and
// returns the shape of each: nil for one that is not a call statement, or
// whose subtree's bounds are not its tokens' (the lexer and tree-sitter
// cut it differently), or that has an error.
func learnShapes(stmts [][]byte, deadline time.Time) (out []*stmtShape, learned []bool) {
	out, learned = make([]*stmtShape, len(stmts)), make([]bool, len(stmts))
	// Batches of at most 256 KB: a statement with an error could only
	// spoil its batch, which is then learned one by one.
	for i := 0; i < len(stmts); {
		j, size := i, len(learnHead)
		for j < len(stmts) && (j == i || size+len(stmts[j])+1 < 256<<10) {
			size += len(stmts[j]) + 1
			j++
		}
		switch learnBatch(stmts[i:j], out[i:j], deadline) {
		case batchLearned:
			for k := i; k < j; k++ {
				learned[k] = true
			}
		case batchError:
			for k := i; k < j; k++ {
				learned[k] = learnBatch(stmts[k:k+1], out[k:k+1], deadline) != batchStopped
			}
		}
		i = j
	}
	return out, learned
}

// The outcomes of learnBatch.
const (
	batchLearned = iota // shapes made (nil for a statement without one)
	batchError          // the parse has an error: out untouched
	batchStopped        // the parse ran out of time: out untouched
)

// learnHead opens the function whose body the statements are learned in.
const learnHead = "void f(){\n"

// shapeContexts are the blocks each statement is learned in, before and
// after it. Tree-sitter's choice between two readings of an ambiguous
// statement can depend on what came before (A::B::C; reads as an
// expression statement first in a block, otherwise not): a shape is kept
// only when it is the same in each.
var shapeContexts = [][2]string{
	{"", ""},
	{"x = 1;\n", "\ny = 2;"},
	{"int y = 0;\n", ""},
}

// learnBatch learns the shapes of stmts from one parse into out, and
// says how it went.
func learnBatch(stmts [][]byte, out []*stmtShape, deadline time.Time) int {
	text := []byte(learnHead)
	at := make([]int, 0, len(stmts)*len(shapeContexts))
	for _, s := range stmts {
		for _, c := range shapeContexts {
			text = append(text, "{\n"...)
			text = append(text, c[0]...)
			at = append(at, len(text))
			text = append(text, s...)
			text = append(text, c[1]...)
			text = append(text, "\n}\n"...)
		}
	}
	text = append(text, '}', '\n')
	p := getParser()
	tree := tsutil.Parse(p, text, deadline)
	if tree == nil {
		p.Reset()
		putParser(p)
		return batchStopped
	}
	putParser(p)
	defer tree.Close()
	root := tree.RootNode()
	if root.HasError() {
		return batchError
	}
	raw := tsutil.Flatten(root, 1<<30, false, nil)
	fl := &flat{src: text, n: rawNodes(raw)}
	// translation_unit > function_definition > body: compound_statement
	// > a block for each statement in each context.
	def := fl.n[0].first
	if def < 0 || fl.n[def].kind() != "function_definition" {
		return batchError
	}
	body := fl.child(def, "body")
	if body < 0 {
		return batchError
	}
	shapes := make([]*stmtShape, len(stmts))
	k := 0 // the block: statement k / len(shapeContexts)
	for blk := fl.n[body].first; blk >= 0; blk = fl.n[blk].next {
		if !fl.n[blk].named() {
			continue // { }
		}
		if k >= len(at) || fl.n[blk].kind() != "compound_statement" {
			return batchError
		}
		i := k / len(shapeContexts)
		var sh *stmtShape
		for c := fl.n[blk].first; c >= 0; c = fl.n[c].next {
			if int(fl.n[c].start) == at[k] && int(fl.n[c].end) == at[k]+len(stmts[i]) {
				sh = shapeOf(fl, c, stmts[i], at[k])
				break
			}
		}
		switch {
		case k%len(shapeContexts) == 0:
			shapes[i] = sh
		case !shapes[i].same(sh):
			shapes[i] = nil
		}
		k++
	}
	if k != len(at) {
		return batchError
	}
	copy(out, shapes)
	return batchLearned
}

// same reports whether two shapes, neither nil, are one.
func (sh *stmtShape) same(o *stmtShape) bool {
	return sh != nil && o != nil && sh.expr == o.expr && slices.Equal(sh.nodes, o.nodes)
}

// shapeOf returns the shape of the subtree of fl at c, the statement stmt
// at offset base of fl's text, or nil (see learnShapes).
func shapeOf(fl *flat, c int32, stmt []byte, base int) *stmtShape {
	if int(fl.n[c].end) != base+len(stmt) {
		return nil
	}
	toks := lexText(stmt).toks
	startTok := make(map[int]int16, len(toks))
	endTok := make(map[int]int16, len(toks))
	for k, tk := range toks {
		startTok[base+int(tk.start)] = int16(k)
		endTok[base+int(tk.end)] = int16(k + 1)
	}
	sh := &stmtShape{expr: fl.n[c].kind() == "expression_statement"}
	idx := map[int32]int16{}
	var walk func(i int32, parent int16, depth int16) bool
	walk = func(i int32, parent int16, depth int16) bool {
		n := &fl.n[i]
		if n.bad() {
			return false
		}
		from, ok1 := startTok[int(n.start)]
		to, ok2 := endTok[int(n.end)]
		if !ok1 || !ok2 || to <= from {
			return false
		}
		me := int16(len(sh.nodes))
		idx[i] = me
		sh.nodes = append(sh.nodes, shapeNode{sym: n.sym, fid: n.fid, from: from, to: to, first: -1, next: -1, parent: parent, depth: depth})
		sh.depth = max(sh.depth, int(depth))
		prev := int16(-1)
		for ch := n.first; ch >= 0; ch = fl.n[ch].next {
			k := int16(len(sh.nodes))
			if prev < 0 {
				sh.nodes[me].first = k
			} else {
				sh.nodes[prev].next = k
			}
			if !walk(ch, me, depth+1) {
				return false
			}
			prev = k
		}
		return true
	}
	if !walk(c, -1, 0) {
		return nil
	}
	return sh
}

// rawNodes views tsutil's copy as flat nodes (same layout, flat.go).
func rawNodes(raw []tsutil.Raw) []fnode {
	return unsafe.Slice((*fnode)(unsafe.Pointer(unsafe.SliceData(raw))), len(raw))
}

// spliceFlat returns the flat tree nodes with the statements of sp in the
// range they cover put in place of the empty statements tree-sitter read
// (cut as Flatten cuts: at depth cut from node 0). ok is false when an
// empty statement is not where the plan left it.
func spliceFlat(nodes []fnode, sp splices, cut int) (_ []fnode, ok bool) {
	if len(nodes) == 0 || !sp.within(nodes[0].start, nodes[0].end) {
		return nodes, true
	}
	type hit struct {
		i     int32
		s     *splice
		depth int
	}
	var hits []hit
	extra := 0
	for i := range nodes {
		n := &nodes[i]
		if n.end != n.start+1 {
			continue
		}
		s := sp.at(n.start)
		if s == nil || n.kind() != "expression_statement" {
			continue
		}
		d := 0
		for p := n.parent; p >= 0; p = nodes[p].parent {
			d++
		}
		if n.flags&tsutil.RawCut == 0 && (n.first != int32(i)+1 || nodes[i+1].next != -1 || nodes[i+1].first != -1) {
			return nodes, false
		}
		hits = append(hits, hit{int32(i), s, d})
		extra += s.shape.count(cut-d) - 1 - childCount(n)
	}
	if len(hits) == 0 {
		return nodes, true
	}
	// Old index -> new index (-1: the empty statement's ; child).
	remap := make([]int32, len(nodes))
	pos, h := int32(0), 0
	for i := 0; i < len(nodes); i++ {
		if h < len(hits) && int32(i) == hits[h].i {
			remap[i] = pos
			pos += int32(hits[h].s.shape.count(cut - hits[h].depth))
			if nodes[i].first >= 0 {
				i++
				remap[i] = -1
			}
			h++
			continue
		}
		remap[i] = pos
		pos++
	}
	re := func(k int32) int32 {
		if k < 0 {
			return -1
		}
		return remap[k]
	}
	out := make([]fnode, 0, len(nodes)+extra)
	h = 0
	for i := 0; i < len(nodes); i++ {
		n := nodes[i]
		if h < len(hits) && int32(i) == hits[h].i {
			s := hits[h].s
			out = s.shape.emit(out, s.offs, n.fid, re(n.parent), re(n.next), cut-hits[h].depth)
			if n.first >= 0 {
				i++
			}
			h++
			continue
		}
		n.first, n.next, n.parent = re(n.first), re(n.next), re(n.parent)
		out = append(out, n)
	}
	return out, true
}

// childCount is the number of children of n copied (0 or 1 for an empty
// statement).
func childCount(n *fnode) int {
	if n.first >= 0 {
		return 1
	}
	return 0
}

// count returns the nodes of the shape kept when its root is room levels
// above the cut: a node at the cut is kept (marked cut when it has
// children), its descendants are not.
func (sh *stmtShape) count(room int) int {
	if room > sh.depth {
		return len(sh.nodes)
	}
	n := 0
	for _, nd := range sh.nodes {
		if int(nd.depth) <= room {
			n++
		}
	}
	return n
}

// emit appends the shape's nodes to out with the offsets of the
// statement's tokens (offs), the root given the empty statement's field,
// parent and next sibling (indices in out), cut room levels below the
// root.
func (sh *stmtShape) emit(out []fnode, offs []int32, fid uint16, parent, next int32, room int) []fnode {
	base := int32(len(out))
	if room > sh.depth {
		for k, nd := range sh.nodes {
			n := fnode{sym: nd.sym, fid: nd.fid, start: uint32(offs[2*nd.from]), end: uint32(offs[2*nd.to-1]), first: -1, next: -1, parent: -1}
			if nd.first >= 0 {
				n.first = base + int32(nd.first)
			}
			if nd.next >= 0 {
				n.next = base + int32(nd.next)
			}
			if nd.parent >= 0 {
				n.parent = base + int32(nd.parent)
			}
			if k == 0 {
				n.fid, n.parent, n.next = fid, parent, next
			}
			out = append(out, n)
		}
		return out
	}
	// The rare cut: renumber the nodes kept.
	idx := make([]int32, len(sh.nodes))
	j := base
	for k, nd := range sh.nodes {
		idx[k] = -1
		if int(nd.depth) <= room {
			idx[k] = j
			j++
		}
	}
	for k, nd := range sh.nodes {
		if idx[k] < 0 {
			continue
		}
		n := fnode{sym: nd.sym, fid: nd.fid, start: uint32(offs[2*nd.from]), end: uint32(offs[2*nd.to-1]), first: -1, next: -1, parent: -1}
		if nd.first >= 0 {
			if int(nd.depth) == room {
				n.flags = tsutil.RawCut
			} else {
				n.first = idx[nd.first]
			}
		}
		if nd.next >= 0 {
			n.next = idx[nd.next]
		}
		if nd.parent >= 0 {
			n.parent = idx[nd.parent]
		}
		if k == 0 {
			n.fid, n.parent, n.next = fid, parent, next
		}
		out = append(out, n)
	}
	return out
}

// spliceHolds reports whether each statement of sp left out of the parse
// of trees (segs: their segments) reads as an empty statement in a block,
// where the plan put it, in a function without an error.
func spliceHolds(sp splices, trees []*sitter.Tree, segs []segment) bool {
	errs := make([]bool, len(trees)) // a tree with an error
	someErr := false
	for k, tr := range trees {
		errs[k] = tr.RootNode().HasError()
		someErr = someErr || errs[k]
	}
	if !someErr {
		// In a tree without an error the ';' the plan left after a
		// statement or a block's '{' is an empty statement of that
		// block (or of its case): tree-sitter has no other reading of
		// it. spliceFlat finds each there.
		return true
	}
	for _, s := range sp {
		k := segmentOf(segs, int(s.semi))
		if !errs[k] {
			continue
		}
		n := trees[k].RootNode().DescendantForByteRange(uint(s.semi), uint(s.semi+1))
		if n == nil || n.StartByte() != uint(s.semi) || n.EndByte() != uint(s.semi+1) {
			return false
		}
		if kind, _ := kindOf(n.KindId()); kind == ";" {
			n = n.Parent()
		}
		if n == nil || n.StartByte() != uint(s.semi) || n.EndByte() != uint(s.semi+1) || n.ChildCount() != 1 {
			return false
		}
		if kind, _ := kindOf(n.KindId()); kind != "expression_statement" {
			return false
		}
		p := n.Parent()
		if p == nil {
			return false
		}
		if kind, _ := kindOf(p.KindId()); kind != "compound_statement" && kind != "case_statement" {
			return false
		}
		// In a function with an error, the statement might not have
		// been a statement of its own: tree-sitter's recovery takes
		// tokens into an ERROR node as it sees fit.
		for a := p; a != nil; a = a.Parent() {
			if a.IsError() {
				return false
			}
			if kind, _ := kindOf(a.KindId()); kind == "function_definition" {
				if a.HasError() {
					return false
				}
				break
			}
		}
	}
	return true
}
