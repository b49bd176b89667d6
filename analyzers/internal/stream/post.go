package stream

import (
	"github.com/ascvet/ascvet/analyzers/internal/linear"
	"github.com/ascvet/ascvet/cppfront/ir"
)

// PostSites returns every StoreUnAlignPost inside a loop of fn with its
// verdict. A store stream through a post-updated pointer is contiguous
// whatever its stride: each StoreUnAlign writes stride elements and moves
// the pointer past them, keeping the partial block in the register for the
// next one. So the Post only has to flush once, after the loop, provided
// it flushes at the stream's own pointer and does not move it.
func PostSites(fn *ir.Func) []Site {
	ps := places(fn)
	var out []Site
	for _, post := range fn.Instrs {
		if post.Op != ir.OpStoreUnAlignPost || post.Form == ir.FormRaw || post.Loop == ir.NoLoop {
			continue
		}
		u, ok := uregOf(fn, post)
		if !ok {
			continue
		}
		lp := fn.Loops[post.Loop]
		s := Site{Func: fn, Loop: lp, Instr: post, Reg: u}
		s.Verdict, s.Why, s.Stream = postVerdict(fn, lp, post, u, ps)
		out = append(out, s)
	}
	return out
}

func postVerdict(fn *ir.Func, lp *ir.Loop, post *ir.Instr, u ir.RegID, ps []place) (Verdict, string, []*ir.Instr) {
	if lp.AtMostOnce {
		return NotContiguous, "the loop runs at most once", nil
	}
	if !ps[post.ID].direct {
		return NotContiguous, "the Post is conditional", nil
	}
	touch, ok := collect(fn, lp, u, ps)
	if !ok {
		return NotContiguous, "the register is also used under an if or in an inner loop", nil
	}
	var stores []*ir.Instr
	for _, in := range touch {
		switch {
		case in == post:
		case in.Op == ir.OpStoreUnAlign && in.ID < post.ID:
			stores = append(stores, in)
		default:
			return NotContiguous, "the register serves more than one stream", nil
		}
	}
	if len(stores) == 0 {
		return NotContiguous, "no store on the register in the loop", nil
	}
	p := ptrName(stores[0])
	if p == "" {
		// AR-addressed or explicit-address stores: where the next
		// iteration starts is not visible in the code.
		return Unknown, "the stores do not advance a pointer", stores
	}
	for _, st := range stores {
		if ptrName(st) != p {
			return NotContiguous, "the stores advance different pointers", stores
		}
	}
	k := ptrArg(post)
	if k < 0 {
		return Unknown, "the Post has no address", stores
	}
	if pe := post.Args[k].Expr; pe == nil || pe.Kind != ir.ExprSym || pe.Name != p {
		return NotContiguous, "the Post flushes at another address than the stream's pointer", stores
	}
	if st := strideArg(post); st != nil {
		if v, ok := st.Value(); !ok || v != 0 {
			return NotContiguous, "the Post moves the pointer", stores
		}
	}
	if contains(lp.Assigns, p) || contains(lp.Decls, p) {
		return NotContiguous, "the pointer is reset in the loop", stores
	}
	// A loop that reads back through the stream's pointer needs the bytes
	// flushed every iteration.
	for _, in := range fn.Instrs {
		if !inLoop(fn, in.Loop, lp) || !in.Op.Info().Cat.IsLoad() {
			continue
		}
		if k := ptrArg(in); k >= 0 && (in.Args[k].Expr.Mentions(p) || linear.MentionsWord(in.Args[k].Text, p)) {
			return NotContiguous, "the loop reads back through the stream's pointer", stores
		}
	}
	for _, in := range fn.Instrs {
		if inLoop(fn, in.Loop, lp) && contains(in.PtrDefs, p) && !containsInstr(stores, in) && in != post {
			return NotContiguous, "the pointer is advanced by other instructions too", stores
		}
	}
	return Contiguous, "", stores
}
