package stream

// The store side. A StoreUnAlignPost in a loop is redundant when the
// stores on its register form one stream that goes on, unbroken, from one
// iteration into the next: the register carries the partial block into the
// next StoreUnAlign, and one Post after the loop flushes it.
//
// The stream's stores may sit anywhere in the loop that is compiled
// together with the Post, as long as they run whenever the iteration does:
//
//   - in an inner loop: each store moves the post-updated pointer past what
//     it wrote, however many times the inner loop runs;
//   - in a branch of an if constexpr: exactly one branch is compiled, so a
//     store in each branch of a constexpr if/else chain is one stream, and a
//     store in a branch the Post's own branch excludes is never compiled
//     with it;
//   - before or after the Post, and beside further Posts of the same
//     stream at its pointer (each only flushes).
//
// A store or Post under a runtime if is not: whether the stream goes on
// depends on data. The pointer must go on too: not assigned in the loop,
// and when it is declared in the loop, re-derived from the loop variable
// exactly where the previous iteration's stores ended:
//
//	for (i = 0; i < n; ++i) {
//	    T* d = dst + i * 48;            // advances 48 per iteration
//	    StoreUnAlign(d, v, u, 16);      // stores 16 + 32 = 48: contiguous
//	    StoreUnAlign(d, w, u, 32);
//	    StoreUnAlignPost(d, u, 0);      // redundant
//	}
//
//	for (i = 0; i < n; ++i) {
//	    T* d = dst + i * rowStride;     // padded rows: the Post is needed
//	    ...
//	}

import (
	"fmt"

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
	var out []Site
	var ex *ir.Func // fn with its helpers inlined, made on first use
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
		s.Verdict, s.Why, s.Stream = postVerdict(fn, lp, post, u)
		if s.Verdict != Contiguous && passesReg(fn, lp, u) {
			// The stream goes on in a helper the loop calls with the
			// register: judged again on the code the compiler builds,
			// the helper inlined (its stores through a pointer it takes
			// by reference advance the caller's pointer; one it takes
			// by value is its own copy).
			if ex == nil {
				ex = fn.Expand(fn.SoleInstance())
			}
			if es, ok := inExpanded(ex, s); ok && es.Verdict == Contiguous {
				s = es
			}
		}
		out = append(out, s)
	}
	return out
}

// passesReg reports whether a call of a helper whose body is known, in lp,
// is passed register u.
func passesReg(fn *ir.Func, lp *ir.Loop, u ir.RegID) bool {
	for _, in := range fn.InstrsIn(lp) {
		if in.Op == ir.OpCall && in.Target != nil && fn.Within(in.Loop, lp.ID) && (hasReg(in.Uses, u) || hasReg(in.Defs, u)) {
			return true
		}
	}
	return false
}

// inExpanded returns site s judged on ex, fn as the compiler builds it
// (ir.Func.Expand): the Post and its loop are found there by position (the
// caller's own instructions keep theirs, and its registers their IDs).
func inExpanded(ex *ir.Func, s Site) (Site, bool) {
	if ex == s.Func || int(s.Reg) >= len(ex.Regs) {
		return s, false
	}
	var post *ir.Instr
	for _, in := range ex.Instrs {
		if in.Pos == s.Instr.Pos && in.Op == s.Instr.Op && in.Loop != ir.NoLoop {
			post = in
			break
		}
	}
	if post == nil || ex.Loops[post.Loop].Pos != s.Loop.Pos {
		return s, false
	}
	lp := ex.Loops[post.Loop]
	es := Site{Func: ex, Loop: lp, Instr: post, Reg: s.Reg}
	es.Verdict, es.Why, es.Stream = postVerdict(ex, lp, post, s.Reg)
	return es, true
}

// choice is one branch of an if constexpr.
type choice struct {
	cond *ir.If // the if constexpr
	then bool   // the then branch (else: the else branch)
}

// where is where an instruction sits inside a loop: what decides whether
// it runs in an iteration.
type where struct {
	runtime bool     // under a runtime if (inside the loop)
	inner   bool     // in an inner loop
	cx      []choice // the if constexpr branches around it, outermost first
}

// compiled reports whether an instruction at w is compiled together with
// one at v: no if constexpr puts them in different branches. Two if
// constexpr on the same condition, as written (if constexpr (Mode == 2)
// twice in a body), are one choice: an instantiation takes the same
// branch of both.
func (w where) compiled(v where) bool {
	for _, a := range w.cx {
		for _, b := range v.cx {
			if sameCond(a.cond, b.cond) && a.then != b.then {
				return false
			}
		}
	}
	return true
}

// sameCond reports whether two if constexpr test the same condition: the
// same statement, or the same condition text.
func sameCond(a, b *ir.If) bool {
	return a == b || a.CondText != "" && a.CondText == b.CondText
}

// wheres maps the instructions of lp (inner loops included) to where they
// sit.
func wheres(lp *ir.Loop) map[ir.InstrID]where {
	m := map[ir.InstrID]where{}
	var walk func(b *ir.Block, w where)
	walk = func(b *ir.Block, w where) {
		if b == nil {
			return
		}
		for _, n := range b.Nodes {
			switch n := n.(type) {
			case *ir.Instr:
				m[n.ID] = w
			case *ir.Loop:
				v := w
				v.inner = true
				walk(n.Body, v)
			case *ir.If:
				if !n.Constexpr {
					v := w
					v.runtime = true
					walk(n.Then, v)
					walk(n.Else, v)
					continue
				}
				for _, then := range []bool{true, false} {
					v := w
					v.cx = append(append([]choice(nil), w.cx...), choice{n, then})
					if then {
						walk(n.Then, v)
					} else {
						walk(n.Else, v)
					}
				}
			}
		}
	}
	walk(lp.Body, where{})
	return m
}

func postVerdict(fn *ir.Func, lp *ir.Loop, post *ir.Instr, u ir.RegID) (Verdict, string, []*ir.Instr) {
	if lp.AtMostOnce {
		return NotContiguous, "the loop runs at most once", nil
	}
	ws := wheres(lp)
	wp := ws[post.ID]
	if wp.runtime {
		return NotContiguous, "the Post is conditional", nil
	}
	// The stream: every use of the register compiled with the Post.
	var stores, posts []*ir.Instr
	for _, in := range fn.InstrsIn(lp) {
		if !fn.Within(in.Loop, lp.ID) || !(hasReg(in.Uses, u) || hasReg(in.Defs, u)) || in == post {
			continue
		}
		w := ws[in.ID]
		if !w.compiled(wp) {
			continue
		}
		if w.runtime {
			return NotContiguous, "the register is also used under an if", nil
		}
		switch in.Op {
		case ir.OpStoreUnAlign:
			stores = append(stores, in)
		case ir.OpStoreUnAlignPost:
			posts = append(posts, in)
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
	for _, q := range append([]*ir.Instr{post}, posts...) {
		k := ptrArg(q)
		if k < 0 {
			return Unknown, "the Post has no address", stores
		}
		if pe := q.Args[k].Expr; pe == nil || pe.Kind != ir.ExprSym || pe.Name != p {
			if q != post {
				return NotContiguous, "the register serves more than one stream", stores
			}
			return NotContiguous, "the Post flushes at another address than the stream's pointer", stores
		}
		if st := strideArg(q); st != nil {
			if v, ok := st.Value(); !ok || v != 0 {
				if q != post {
					return NotContiguous, "another Post on the register moves the pointer", stores
				}
				return NotContiguous, "the Post moves the pointer", stores
			}
		}
	}
	if contains(lp.Assigns, p) {
		return NotContiguous, "the pointer is reset in the loop", stores
	}
	bases := []string{p}
	if contains(lp.Decls, p) {
		v, why, init := rederived(fn, lp, post, p, stores, ws)
		if v != Contiguous {
			return v, why, stores
		}
		// The buffer is also reached through the initialiser's base
		// (dst in T* d = dst + i*48), not only through p.
		if a, ok := linear.Of(init); ok {
			bases = append(bases, candidates(a, lp.Var)...)
		}
	}
	// A loop that reads back through the stream's pointer needs the bytes
	// flushed every iteration, unless it reads only at or after where the
	// stream stands (the pending bytes lie before it).
	for _, in := range fn.InstrsIn(lp) {
		if !fn.Within(in.Loop, lp.ID) || !ws[in.ID].compiled(wp) {
			continue
		}
		if in.Op.Info().Cat.IsLoad() {
			if k := ptrArg(in); k >= 0 && reaches(in.Args[k], bases) && !readsAhead(in, k, p) {
				return NotContiguous, "the loop reads back through the stream's pointer", stores
			}
		}
		if in.Op == ir.OpCall || in.Op == ir.OpUnknown {
			for _, a := range in.Args {
				if reaches(a, bases) && helperTouches(fn, in, bases, p, 0) {
					return NotContiguous, "the pointer is passed to a call in the loop", stores
				}
			}
		}
	}
	for _, in := range fn.InstrsIn(lp) {
		if fn.Within(in.Loop, lp.ID) && ws[in.ID].compiled(wp) && contains(in.PtrDefs, p) && !containsInstr(stores, in) && !containsInstr(posts, in) && in != post {
			return NotContiguous, "the pointer is advanced by other instructions too", stores
		}
	}
	return Contiguous, "", stores
}

// helperTouches reports whether a call that is passed the stream's
// buffer may read bytes a Post would flush, write it, or move its pointer:
// always for a function whose body is not known; for a helper whose body
// is (Instr.Target), what its body, inlined with the call's arguments,
// does to the buffer: a load behind the stream's pointer, a store, a
// post-update of the pointer, or a call that may (to 4 helpers deep).
func helperTouches(fn *ir.Func, in *ir.Instr, bases []string, p string, depth int) bool {
	if in.Op != ir.OpCall || in.Target == nil || depth >= 4 {
		return true
	}
	body, _, _, ok := ir.Inline(in, fn.Regs, fn.SoleInstance())
	if !ok {
		return true
	}
	return blockTouches(fn, body, bases, p, depth)
}

func blockTouches(fn *ir.Func, b *ir.Block, bases []string, p string, depth int) bool {
	if b == nil {
		return false
	}
	for _, n := range b.Nodes {
		switch n := n.(type) {
		case *ir.Loop:
			if blockTouches(fn, n.Body, bases, p, depth) {
				return true
			}
		case *ir.If:
			if blockTouches(fn, n.Then, bases, p, depth) || blockTouches(fn, n.Else, bases, p, depth) {
				return true
			}
		case *ir.Instr:
			for _, b := range bases {
				if contains(n.PtrDefs, b) {
					return true
				}
			}
			for k, a := range n.Args {
				if !reaches(a, bases) {
					continue
				}
				switch cat := n.Op.Info().Cat; {
				case n.Op == ir.OpCall || n.Op == ir.OpUnknown:
					if helperTouches(fn, n, bases, p, depth+1) {
						return true
					}
				case cat.IsLoad():
					if !readsAhead(n, k, p) {
						return true
					}
				default:
					return true // a store, or any other use of the buffer
				}
			}
		}
	}
	return false
}

// readsAhead reports whether the load in reads at the stream's pointer p
// plus a constant that is not negative: at or after the first byte the
// stream has not written yet, so never one a Post would flush. Only loads
// that read forward from their address qualify.
func readsAhead(in *ir.Instr, k int, p string) bool {
	switch in.Op {
	case ir.OpLoadAlign, ir.OpLoadUnAlign, ir.OpLoadUnAlignPre:
	default:
		return false
	}
	l, ok := linear.Of(in.Args[k].Expr)
	if !ok || l.Terms[p] != 1 {
		return false
	}
	d := l.Add(linear.Form{Terms: map[string]int64{p: 1}}, -1)
	return d.IsConst() && d.C >= 0
}

// reaches reports whether an operand names one of the stream's bases (its
// pointer, or the base of the pointer's initialiser): a load or a helper
// through it may read the bytes a Post would have flushed.
func reaches(a ir.Operand, bases []string) bool {
	for _, b := range bases {
		if a.Expr.Mentions(b) || linear.MentionsWord(a.Text, b) {
			return true
		}
	}
	return false
}

// maxSums caps the per-iteration store totals tried, one per combination
// of if constexpr branches.
const maxSums = 64

// rederived decides a stream whose pointer p is declared in the loop: the
// pointer starts each iteration at its initialiser, which the first store
// shows (the front end folds the initialiser into that store's address).
// The stream is contiguous when the initialiser advances, from one
// iteration to the next, by exactly what the stores of an iteration write,
// for every combination of if constexpr branches and every element size.
func rederived(fn *ir.Func, lp *ir.Loop, post *ir.Instr, p string, stores []*ir.Instr, ws map[ir.InstrID]where) (Verdict, string, *ir.Expr) {
	if lp.Var == "" || contains(lp.Assigns, lp.Var) {
		return NotContiguous, "the pointer is reset in the loop", nil
	}
	step, ok := lp.Step.Value()
	if !ok || step == 0 {
		return NotContiguous, "the pointer is reset in the loop", nil
	}
	var init *ir.Expr // the initialiser, as the first store of an iteration shows it
	for _, st := range stores {
		if ws[st.ID].inner {
			return NotContiguous, "the pointer is reset in the loop and stored in an inner loop", nil
		}
		e := st.Args[ptrArg(st)].Expr
		if e == nil || e.Kind == ir.ExprSym && e.Name == p {
			continue
		}
		if init == nil {
			init = e
		} else if e.String() != init.String() {
			return NotContiguous, "the pointer is reset in the loop", nil
		}
	}
	if init == nil {
		return NotContiguous, "the pointer is reset in the loop", nil
	}
	wp := ws[post.ID]
	v, why := decide(fn, stores, func(size int64) (Verdict, string) {
		a, ok := linear.Of(bound(init, size))
		if !ok {
			return Unknown, "the pointer's initialiser does not fold"
		}
		if x := changedIn(fn, lp, a); x != "" {
			return NotContiguous, fmt.Sprintf("the address uses %s, which the loop changes", x)
		}
		adv, ok := advance(bound(init, size), lp.Var, step)
		if !ok {
			return NotContiguous, "the pointer is reset in the loop"
		}
		sums, ok := storedSums(lp.Body, stores, wp, size)
		if !ok {
			return Unknown, "the stores of an iteration do not fold"
		}
		for _, s := range sums {
			if !s.Equal(adv) {
				return NotContiguous, "the pointer is re-derived per iteration at another place than where the stores ended"
			}
		}
		return Contiguous, ""
	})
	return v, why, init
}

// advance returns how far e moves when v goes from one iteration to the
// next (v = 0, step, 2*step), when e is affine in v.
func advance(e *ir.Expr, v string, step int64) (linear.Form, bool) {
	at := func(x int64) (linear.Form, bool) {
		return linear.Of(e.Subst(func(k ir.ExprKind, name string) *ir.Expr {
			if k == ir.ExprSym && name == v {
				return ir.Const(x)
			}
			return nil
		}))
	}
	a0, ok0 := at(0)
	a1, ok1 := at(step)
	a2, ok2 := at(2 * step)
	if !ok0 || !ok1 || !ok2 {
		return linear.Form{}, false
	}
	d := a1.Add(a0, -1)
	if !a2.Add(a1, -1).Equal(d) {
		return linear.Form{}, false
	}
	return d, true
}

// storedSums returns what the stores of one iteration write in total
// (the sum of their post-update strides), once per combination of the if
// constexpr branches compiled with the Post at wp.
func storedSums(b *ir.Block, stores []*ir.Instr, wp where, size int64) ([]linear.Form, bool) {
	sums := []linear.Form{linear.Const(0)}
	if b == nil {
		return sums, true
	}
	for _, n := range b.Nodes {
		switch n := n.(type) {
		case *ir.Instr:
			if !containsInstr(stores, n) {
				continue
			}
			s, ok := linear.Of(bound(strideArg(n), size))
			if !ok {
				return nil, false
			}
			for i := range sums {
				sums[i] = sums[i].Add(s, 1)
			}
		case *ir.If:
			var alts []linear.Form
			for _, then := range []bool{true, false} {
				if !(where{cx: []choice{{n, then}}}).compiled(wp) {
					continue
				}
				br := n.Then
				if !then {
					br = n.Else
				}
				sub, ok := storedSums(br, stores, wp, size)
				if !ok {
					return nil, false
				}
				alts = append(alts, sub...)
			}
			var next []linear.Form
			for _, s := range sums {
				for _, a := range alts {
					next = append(next, s.Add(a, 1))
				}
			}
			if len(next) > maxSums {
				return nil, false
			}
			sums = next
		}
	}
	return sums, true
}
