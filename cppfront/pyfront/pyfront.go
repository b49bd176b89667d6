// Package pyfront lowers the vector functions of the pypto_pro Python DSL
// into the VF IR (package ir) with tree-sitter-python, so that every rule,
// the register allocator and the simulator read Python kernels exactly as
// they read Ascend C.
//
// A function decorated with @pl.vector_function is a VF region
// (RegionSimdVF; with mode="simt" a recorded, unanalysed RegionSimtVF). Its
// body lowers the way an Ascend C body does:
//
//		@pl.vector_function                          __simd_vf__ void k(T* src, T* dst, n) {
//		def k(src, dst, n):                              MaskReg m = CreateMask<float>();
//		    m = vf.create_mask(dtype=pl.DT_FP32)         for (i = 0; i < n; i += 1) {
//		    for i in pl.range(n):                            RegTensor x; LoadAlign(x, src + i * 64);
//		        x = vf.load_align(src, i * 64)               StoreAlign(dst, x, m);
//		        vf.store_align(dst, x, m, post_update=True)  ...
//
//	  - A name bound to the result of a vf.* call is a register, with the class
//	    the op returns (the op table's ResolveDSL); binding the name again
//	    writes the same register, as assigning a C++ variable does, except for
//	    vf.load_unalign_init() and vf.unalign_reg_for_store(), which declare a
//	    new (unprimed, empty) register each time. A register whose type the
//	    code never states gets the one its masks and dtype= arguments agree on
//	    (elem.go), else an unknown element type ("").
//	  - The instruction is the Reg form of the call: its returned registers are
//	    written operands first (zero-width at the call's start, since the
//	    assignment target lies outside the call), a tile and its element
//	    offset make one address operand (Expr tile + offset), and modes,
//	    dtypes and post_update become Instr fields (Dist, Elem, Post, Merging,
//	    TArgs). Keyword and positional arguments bind by the DSL signature.
//	  - for over range() or pl.range() is a counted loop with the header of
//	    for (i = start; i < stop; i += step); any other for, and while, is a
//	    loop with an unknown trip count. if/elif/else is an ir.If chain.
//	  - Module-level integer constants fold (File.Consts), so do locals bound
//	    once to a constant value (Func.Locals); other names stay symbolic.
//	  - post_update=True (for vf.load_unalign also a stride) post-updates the
//	    tile: the operand is ArgPtrRW and Instr.PtrDefs names the tile, as for
//	    a C++ pointer. The DSL's backend advances a cursor kept apart from the
//	    tile's base, so reading the tile as moved afterwards is conservative.
//	    An AddrReg where an unaligned access takes its stride is its offset
//	    (ArgAddr, no post-update); vf.store_unalign with a stride but without
//	    post_update=True is StoreUnAlign<T, POST_MODE_NORMAL>, as pypto emits it.
//	  - A call of a function defined in the file is an OpCall; non-VF
//	    functions that VF code calls are lowered too, as File.Helpers.
//	    pl.* scalar helpers and Python builtins are scalar code (OpScalar);
//	    vf.* names the table does not know, and anything else, are OpUnknown.
//
// Positions are byte-exact in the original file: the only bytes changed
// before parsing are a UTF-8 byte order mark, blanked with spaces, and lone
// CR line ends, made LF. File.Aliases records the names the file imports the
// DSL under ("pl" -> "pypto_pro.language", "vf" -> "pypto_pro.language.Vf").
package pyfront

import (
	"bytes"
	"go/token"
	"time"

	"github.com/ascvet/ascvet/cppfront/internal/tsutil"

	sitter "github.com/tree-sitter/go-tree-sitter"
	tspy "github.com/tree-sitter/tree-sitter-python/bindings/go"

	"github.com/ascvet/ascvet/cppfront"
	"github.com/ascvet/ascvet/cppfront/ir"
)

var language = sitter.NewLanguage(tspy.Language())

// parsers is a free list of parsers (see cppfront: a sync.Pool would drop
// parsers without closing them, and go-tree-sitter sets no finalizer).
var parsers = make(chan *sitter.Parser, 64)

func getParser() *sitter.Parser {
	select {
	case p := <-parsers:
		return p
	default:
	}
	p := sitter.NewParser()
	if err := p.SetLanguage(language); err != nil {
		panic("internal error: tree-sitter-python language: " + err.Error())
	}
	return p
}

func putParser(p *sitter.Parser) {
	select {
	case parsers <- p:
	default:
		p.Close()
	}
}

// marker is the byte string every file with a DSL vector function holds.
var marker = []byte("vector_function")

// HasVFMarker reports, from a byte scan alone, whether src may define a
// pypto_pro vector function. Files for which it is false need no parse.
func HasVFMarker(src []byte) bool { return bytes.Contains(src, marker) }

// ParseFile parses src and lowers its vector functions, with the default
// limits. The file is added to fset under name. Bad Python never makes an
// error: it shows as Func.Errors and OpUnknown instructions. The error
// result is a *cppfront.LimitError for a file beyond the limits, or reports
// a parser that could not run.
func ParseFile(fset *token.FileSet, name string, src []byte) (*ir.File, error) {
	return ParseFileOptions(fset, name, src, cppfront.Options{})
}

// ParseFileOptions is ParseFile with the limits of cppfront.Options. A file
// beyond them returns a *cppfront.LimitError, with the file (added to fset)
// but no region; a parse stopped by Options.Stop returns
// cppfront.ErrStopped, with no region either.
func ParseFileOptions(fset *token.FileSet, name string, src []byte, opts cppfront.Options) (f *ir.File, err error) {
	start := time.Now()
	tf := fset.AddFile(name, -1, len(src))
	tf.SetLines(tsutil.LineStarts(src))
	f = &ir.File{Name: name, Lang: ir.Python, Tok: tf, Src: src, Consts: map[string]int64{}, Aliases: map[string]string{}}
	f.Relower = func(other []byte, _ [][2]int) (*ir.File, error) {
		return ParseFileOptions(token.NewFileSet(), name, other, opts)
	}
	if !HasVFMarker(src) {
		return f, nil
	}
	maxDepth := opts.MaxDepth
	if maxDepth <= 0 {
		maxDepth = cppfront.DefaultMaxDepth
	}
	if d := nesting(src); d > maxDepth {
		return f, &cppfront.LimitError{Limit: "depth", Msg: depthMsg(d, maxDepth)}
	}
	clean := cleanCopy(src)
	b := &budget{stop: opts.Stop, cut: min(4*maxDepth+1000, maxTreeCut)}
	if opts.Timeout > 0 {
		b.deadline = start.Add(opts.Timeout)
	}
	if b.stopped() {
		return f, cppfront.ErrStopped
	}
	p := getParser()
	defer putParser(p)
	tree := tsutil.Parse(p, clean, b.deadline)
	if tree == nil {
		p.Reset()
		if b.over() {
			return f, b.err(opts.Timeout)
		}
		return f, errParse
	}
	defer tsutil.Free(tree)
	defer func() {
		if r := recover(); r != nil {
			if _, ok := r.(overTime); !ok {
				panic(r)
			}
			f.Funcs, f.Helpers, f.Defined = nil, nil, nil
			err = b.err(opts.Timeout)
		}
	}()
	root := tree.RootNode()
	fl := flatten(root, clean, root.HasError(), b)
	newLowerer(f, fl, b).run()
	return f, nil
}

var bom = []byte{0xEF, 0xBB, 0xBF}

// cleanCopy returns src as tree-sitter should read it, every byte at its
// offset: a byte order mark blanked with spaces, and a lone CR (an old Mac
// line end, which Python reads as a line end and tree-sitter-python does
// not) made LF. src itself is returned when nothing needs changing.
func cleanCopy(src []byte) []byte {
	out := src
	if bytes.HasPrefix(src, bom) {
		out = append([]byte("   "), src[len(bom):]...)
	}
	for i, c := range out {
		if c == '\r' && (i+1 == len(out) || out[i+1] != '\n') {
			if &out[0] == &src[0] {
				out = bytes.Clone(src)
			}
			out[i] = '\n'
		}
	}
	return out
}

type parseError string

func (e parseError) Error() string { return string(e) }

const errParse = parseError("tree-sitter returned no tree")
