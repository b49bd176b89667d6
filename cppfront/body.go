package cppfront

import (
	"bytes"
	"go/token"
	"maps"
	"slices"
	"sort"
	"strconv"
	"strings"

	sitter "github.com/tree-sitter/go-tree-sitter"

	"github.com/ascvet/ascvet/cppfront/ir"
)

// binding is what a name means inside a region.
type binding struct {
	reg     ir.RegID // the register it names, or NoReg
	isConst bool     // a folded integer constant
	val     int64    // its value
	sym     *ir.Expr // a const/constexpr whose value is symbolic but fixed (256 / sizeof(T))
	ptr     bool     // a pointer
	bool01  bool     // initialised with a 0/1 value (a comparison, a bool): a loop bound that makes the loop run at most once
	local   int      // for the value of a variable that is not const: 1 + its index in funcBuilder.locals; 0 otherwise
	decl    int32    // 1 + the flat node of the declarator that declared it in the region (a variable), 0 when none
}

// A variable that is not const keeps the value of its initialiser
// (auto addr = src + i * VL) until it is assigned. Lowering follows source
// order, so an assignment later in a loop body, or of a name the value
// mentions, is seen only after uses that run after it on the next
// iteration. The region is therefore lowered twice when needed: the first
// pass records where every name is assigned (muts), and when a value it
// used turns out to be assigned in a loop that repeats its use, the second
// pass leaves that value out (valueOK).
//
//	uint32_t off = 0;                  // off: assigned in the loop below,
//	for (i...) {                       // so in the second pass it has no value
//	    Load(r, src + off);            // src + off, not src + 0
//	    off += VL;
//	}

// localValue is the record of one value given to a non-const variable.
type localValue struct {
	name string    // the variable
	loop ir.LoopID // the innermost loop of its declaration
	val  *ir.Expr  // its value
	used bool      // read by an expression (first pass)
	decl int32     // the variable's binding.decl
}

// mutation is one assignment of a name: the innermost loop around it, and
// the declaration the name stood for there (binding.decl), so that a
// variable declared again with the same name, in a sibling loop or an
// inner scope, is another variable.
type mutation struct {
	loop ir.LoopID
	decl int32
}

// mutations are the assignments of each name.
type mutations map[string][]mutation

// funcBuilder lowers the body of one region from its flat tree.
type funcBuilder struct {
	lw       *lowerer
	fn       *ir.Func
	fl       *flat
	scopes   []map[string]binding
	tyAlias  map[string]string
	ar       ir.RegID // the implicit AR register, NoReg until used
	env      *env
	tparams  map[string]bool // template parameter names in scope
	regUsing bool            // a function-local using-directive names the register API
	header   string          // the induction variable while its loop header's update is lowered

	loopNames map[loopName]bool // the names in every loop's Decls and Assigns (noteLoopName)

	locals []localValue       // values of non-const variables, by binding.local-1
	muts   mutations          // where each name is assigned (this pass)
	prev   *firstPass         // in the second pass: what the first found; nil in the first
	steps  map[string][]step  // the increments of each name by a loop-invariant amount (first pass)
	post   map[int32]*ir.Expr // second pass: the value an induction's increment (by node) leaves
	loopAt []int32            // the flat node of each loop, by LoopID

	class          string              // the class the region's function belongs to, for its members set once
	quiet          bool                // binding what precedes a __VEC_SCOPE__ block: no instructions, no registers
	outer          []ir.Param          // quiet: the scalar and pointer parameters of the function around the block
	outerVals      map[string]*ir.Expr // quiet: values its callers pass to them (scopeCallerFacts)
	outerZO        map[string]bool     // quiet: the ones every caller passes a 0/1 flag
	switches       int                 // switch statements around the statement inside its innermost loop (a break leaves the switch)
	lambdas        int                 // lambda bodies around the statement (a return leaves the lambda)
	errFrom, errTo uint32              // the byte range whose parse errors are the region's (errTo 0: all of fl)
}

// firstPass is what the first pass over a region leaves for the second.
type firstPass struct {
	muts  mutations         // where each name is assigned
	loops []*ir.Loop        // the loops, whose IDs the second pass gives again
	steps map[string][]step // the increments by a loop-invariant amount
}

func newFuncBuilder(lw *lowerer, fn *ir.Func, fl *flat) *funcBuilder {
	fb := &funcBuilder{lw: lw, fn: fn, fl: fl, ar: ir.NoReg, tyAlias: map[string]string{}, tparams: map[string]bool{}}
	for k, v := range lw.tyAlias {
		fb.tyAlias[k] = v
	}
	fb.scopes = []map[string]binding{{}}
	fb.env = &env{lw: lw, fb: fb}
	fn.Locals = map[string]int64{}
	return fb
}

func (fb *funcBuilder) push() { fb.scopes = append(fb.scopes, map[string]binding{}) }
func (fb *funcBuilder) pop()  { fb.scopes = fb.scopes[:len(fb.scopes)-1] }

func (fb *funcBuilder) bind(name string, b binding) {
	fb.scopes[len(fb.scopes)-1][name] = b
}

func (fb *funcBuilder) lookup(name string) (binding, bool) {
	for i := len(fb.scopes) - 1; i >= 0; i-- {
		if b, ok := fb.scopes[i][name]; ok {
			return b, true
		}
	}
	return binding{}, false
}

// returns records what a return statement of the function returns
// (ir.Func.Ret): the register its expression names, when every return
// names the same one.
func (fb *funcBuilder) returns(i int32) {
	fl := fb.fl
	reg := ir.NoReg
	if kids := fl.named(i); len(kids) == 1 && fl.n[kids[0]].kind() == "identifier" {
		if b, ok := fb.lookup(fl.text(kids[0])); ok {
			reg = b.reg
		}
	}
	switch {
	case fb.fn.RetMixed:
	case reg == ir.NoReg || fb.fn.RetKnown && fb.fn.Ret != reg:
		fb.fn.Ret, fb.fn.RetKnown, fb.fn.RetMixed = ir.NoReg, false, true
	default:
		fb.fn.Ret, fb.fn.RetKnown = reg, true
	}
}

// killValue forgets the value of a name without recording an assignment
// in the loop (a post-update by an instruction: Instr.PtrDefs says it).
func (fb *funcBuilder) killValue(name string, loop ir.LoopID) {
	fb.mutated(name, loop)
	for i := len(fb.scopes) - 1; i >= 0; i-- {
		if b, ok := fb.scopes[i][name]; ok {
			b.isConst, b.sym, b.bool01 = false, nil, false
			fb.scopes[i][name] = b
			return
		}
	}
}

// mutated records that name is assigned in loop, and forgets the values of
// the variables whose value mentions it (auto p = base + off; off += 8;).
// The update of a for loop's own variable is not recorded: a value that
// mentions it was computed in the same iteration.
func (fb *funcBuilder) mutated(name string, loop ir.LoopID) {
	if name == fb.header {
		return
	}
	if fb.muts == nil {
		fb.muts = mutations{}
	}
	b, _ := fb.lookup(name)
	fb.muts[name] = append(fb.muts[name], mutation{loop: loop, decl: b.decl})
	for _, sc := range fb.scopes {
		for k, b := range sc {
			if b.local > 0 && k != name && fb.locals[b.local-1].val.Mentions(name) {
				b.isConst, b.sym, b.local = false, nil, 0
				sc[k] = b
			}
		}
	}
}

// valueOK reports whether a non-const variable declared in loop (by the
// declarator decl, its binding.decl) may keep the value v for its uses,
// given where names are assigned (muts): it is assigned only in the loop
// of its declaration, where source order is execution order within one
// iteration and each iteration declares it anew, and no name that v
// mentions is assigned in a loop nested in that loop (whose next iteration
// would see the new value). Assignments of another variable of the same
// name (declared by another declarator) do not count; those of a name
// whose declaration is not known do.
func valueOK(name string, decl int32, loop ir.LoopID, v *ir.Expr, muts mutations, loops []*ir.Loop) bool {
	for _, m := range muts[name] {
		if m.loop != loop && (m.decl == decl || m.decl == 0 || decl == 0) {
			return false
		}
	}
	ok := true
	v.Subst(func(k ir.ExprKind, m string) *ir.Expr {
		if k != ir.ExprSym || !ok {
			return nil
		}
		for _, mu := range muts[m] {
			if l := mu.loop; l != loop && nestedIn(l, loop, loops) {
				ok = false
			}
		}
		return nil
	})
	return ok
}

// nestedIn reports whether loop l is inside loop outer (every loop is
// inside NoLoop, the region's top level).
func nestedIn(l, outer ir.LoopID, loops []*ir.Loop) bool {
	for ; l != ir.NoLoop; l = loops[l].Parent {
		if l == outer {
			return true
		}
	}
	return outer == ir.NoLoop
}

// paramValues gives parameters the values their callers pass (callSiteFacts),
// as locals initialised with them.
func (fb *funcBuilder) paramValues(vals map[string]*ir.Expr) {
	names := make([]string, 0, len(vals))
	for name := range vals {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, name := range names {
		v := vals[name]
		b, ok := fb.lookup(name)
		if !ok {
			b = binding{reg: ir.NoReg} // a non-type template parameter
		}
		if b.reg != ir.NoReg || b.ptr {
			continue
		}
		if fb.prev != nil && !valueOK(name, b.decl, ir.NoLoop, v, fb.prev.muts, fb.prev.loops) {
			continue
		}
		fb.locals = append(fb.locals, localValue{name: name, loop: ir.NoLoop, val: v, decl: b.decl})
		b.local = len(fb.locals)
		if c, ok := v.Value(); ok {
			b.isConst, b.val = true, c
		} else {
			b.sym = v
		}
		fb.bind(name, b)
	}
}

// enclosing binds what the function around a __VEC_SCOPE__ block declares
// before the block (blk): its parameters, and the variables declared on the
// way down to the block, with their values as in decl. A name assigned
// before the block, or anywhere in a loop around it (where the next run of
// the block sees the new value), has no value.
func (fb *funcBuilder) enclosing(blk int32) {
	fl := fb.fl
	fb.quiet = true
	defer func() { fb.quiet = false }()
	if d := fl.child(0, "declarator"); d >= 0 {
		fb.params(d)
	}
	var path []int32 // the ancestors of blk, outermost first
	for i := fl.n[blk].parent; i >= 0; i = fl.n[i].parent {
		path = append(path, i)
	}
	slices.Reverse(path)
	keep := fb.neededDecls(blk, path)
	for k, p := range path {
		next := blk
		if k+1 < len(path) {
			next = path[k+1]
		}
		switch fl.n[p].kind() {
		case "for_statement", "for_range_loop", "while_statement", "do_statement":
			fb.killAssigned(p)
			if init := fl.child(p, "initializer"); init >= 0 && fl.n[init].kind() == "declaration" {
				fb.loopVars(init)
			}
		case "compound_statement":
			fb.push()
			for c := fl.n[p].first; c >= 0 && c != next; c = fl.n[c].next {
				switch {
				case !fl.n[c].named():
				case fl.n[c].kind() == "declaration":
					if !keep[c] {
						continue
					}
					var discard []ir.Node
					fb.decl(c, ir.NoLoop, false, &discard)
				default:
					fb.killAssigned(c)
				}
			}
		}
	}
}

// neededDecls returns the declarations before blk on its path (the
// ancestors, outermost first) that blk needs: those that mention a name
// blk's text does, or a name another needed declaration's text does, found
// from the last declaration back. Any other one declares only names blk
// never reads and cannot change one it reads (its text would mention it),
// so enclosing need not lower it: a caller's body declares most of its
// locals for other calls, and lowering them all before each call site was
// most of the cost of reading call sites.
func (fb *funcBuilder) neededDecls(blk int32, path []int32) map[int32]bool {
	fl := fb.fl
	var decls []int32 // in source order
	for k, p := range path {
		if fl.n[p].kind() != "compound_statement" {
			continue
		}
		next := blk
		if k+1 < len(path) {
			next = path[k+1]
		}
		for c := fl.n[p].first; c >= 0 && c != next; c = fl.n[c].next {
			if fl.n[c].named() && fl.n[c].kind() == "declaration" {
				decls = append(decls, c)
			}
		}
	}
	if len(decls) == 0 {
		return nil
	}
	// Only the names these declarations declare can be needed: a type
	// or a function every declaration mentions is not.
	declared := map[string]bool{}
	for _, c := range decls {
		for _, d := range fl.fields(c, "declarator") {
			if name, _, _, _, _ := fb.declShape(d); name != "" {
				declared[name] = true
			}
		}
	}
	text := func(i int32) []byte { return fl.src[fl.n[i].start:fl.n[i].end] }
	needed := map[string]bool{}
	need := func(t []byte) {
		eachIdent(t, func(k, e int) {
			if name := string(t[k:e]); declared[name] {
				needed[name] = true
			}
		})
	}
	need(text(blk))
	keep := make(map[int32]bool, len(decls))
	for j := len(decls) - 1; j >= 0; j-- {
		t := text(decls[j])
		hit := false
		eachIdent(t, func(k, e int) {
			if !hit && needed[string(t[k:e])] {
				hit = true
			}
		})
		if hit {
			keep[decls[j]] = true
			need(t)
		}
	}
	return keep
}

// loopVars binds the variables the initialiser declaration init of a loop
// around a __VEC_SCOPE__ block declares: they have no value in the block.
func (fb *funcBuilder) loopVars(init int32) {
	typ := ""
	if ty := fb.fl.child(init, "type"); ty >= 0 {
		typ = normSpace(fb.fl.text(ty))
	}
	for _, d := range fb.fl.fields(init, "declarator") {
		if name, _, ptr, _, _ := fb.declShape(d); name != "" {
			fb.bind(name, binding{reg: ir.NoReg})
			fb.nameDef(name, true, typ, ptr, -1, d)
		}
	}
}

// enclosingNodes is enclosing for a __VEC_SCOPE__ block lowered from its
// own flat tree: the function around it (def) is not flattened; only its
// declarator and the declarations on the way down to the block are, one by
// one, and any other statement before the block, or a loop around it,
// forgets the values of the names its text may write (writtenNames).
func (fb *funcBuilder) enclosingNodes(blk, def *sitter.Node) {
	fb.quiet = true
	defer func() { fb.quiet = false }()
	keep := fb.fl
	defer func() { fb.fl = keep }()
	lw := fb.lw
	small := func(n *sitter.Node) {
		fb.fl = lw.flats.flatten(n, lw.src, false, lw.budget)
	}
	if d := def.ChildByFieldName("declarator"); d != nil {
		small(d)
		fb.params(0)
		fb.paramValues(fb.outerVals)
	}
	path := lw.ancestors(blk, def) // the ancestors of blk inside def, outermost first
	var blkIDs map[string]bool     // the identifiers of blk
	forget := func(n *sitter.Node) {
		for name := range writtenNames(lw.src[n.StartByte():n.EndByte()]) {
			if b, ok := fb.lookup(name); ok && b.reg == ir.NoReg && (b.isConst || b.sym != nil) {
				fb.killValue(name, ir.NoLoop)
			}
		}
	}
	for k, p := range path {
		next := blk
		if k+1 < len(path) {
			next = path[k+1]
		}
		kind, _ := kindOf(p.KindId())
		switch kind {
		case "for_statement", "for_range_loop", "while_statement", "do_statement":
			forget(p)
			if init := p.ChildByFieldName("initializer"); init != nil {
				if ik, _ := kindOf(init.KindId()); ik == "declaration" {
					small(init)
					fb.loopVars(0)
				}
			}
		case "compound_statement":
			fb.push()
			var before []*sitter.Node
			c := p.Walk()
			for ok := c.GotoFirstChild(); ok; ok = c.GotoNextSibling() {
				if ch := c.Node(); ch.Id() == next.Id() {
					break
				} else if ch.IsNamed() {
					before = append(before, ch)
				}
			}
			c.Close()
			// Only the declarations of names the block needs, directly or
			// through another needed declaration, are lowered.
			if blkIDs == nil {
				blkIDs = identifiers(lw.src[blk.StartByte():blk.EndByte()], nil) // once, however deep the block
			}
			needed := maps.Clone(blkIDs)
			keep := make([]bool, len(before))
			for j := len(before) - 1; j >= 0; j-- {
				ch := before[j]
				if ck, _ := kindOf(ch.KindId()); ck != "declaration" {
					continue
				}
				text := lw.src[ch.StartByte():ch.EndByte()]
				for name := range identifiers(text, nil) {
					if needed[name] {
						keep[j] = true
						identifiers(text, needed)
						break
					}
				}
			}
			for j, ch := range before {
				if ck, _ := kindOf(ch.KindId()); ck == "declaration" {
					if keep[j] {
						small(ch)
						var discard []ir.Node
						fb.decl(0, ir.NoLoop, false, &discard)
					}
				} else {
					forget(ch)
				}
			}
		}
	}
}

// identifiers adds the identifiers of text to into (a new set when nil)
// and returns it.
func identifiers(text []byte, into map[string]bool) map[string]bool {
	if into == nil {
		into = map[string]bool{}
	}
	eachIdent(text, func(k, e int) { into[string(text[k:e])] = true })
	return into
}

// eachIdent calls f with the bounds [k, e) of every identifier of text, in
// order (a word starting with a digit is not one).
func eachIdent(text []byte, f func(k, e int)) {
	for k := 0; k < len(text); k++ {
		if !isIdentStart(text[k]) || k > 0 && isIdentChar(text[k-1]) {
			continue
		}
		e := k
		for e < len(text) && isIdentChar(text[e]) {
			e++
		}
		f(k, e)
		k = e - 1
	}
}

// adopt starts fb from the names outer bound (enclosingNodes), copied. In
// the second pass a value the first pass found invalid is left out.
func (fb *funcBuilder) adopt(outer *funcBuilder) {
	fb.class = outer.class
	for k, v := range outer.tyAlias {
		fb.tyAlias[k] = v // the class's, and the function's before the block
	}
	fb.fn.Names = slices.Clone(outer.fn.Names)
	fb.locals = slices.Clone(outer.locals)
	for name, ls := range outer.muts {
		if fb.muts == nil {
			fb.muts = mutations{}
		}
		fb.muts[name] = slices.Clone(ls)
	}
	fb.scopes = fb.scopes[:0]
	for _, sc := range outer.scopes {
		c := make(map[string]binding, len(sc))
		for name, b := range sc {
			if b.local > 0 && fb.prev != nil {
				if lv := fb.locals[b.local-1]; !valueOK(lv.name, lv.decl, lv.loop, lv.val, fb.prev.muts, fb.prev.loops) {
					b.isConst, b.sym, b.local = false, nil, 0
				}
			}
			c[name] = b
		}
		fb.scopes = append(fb.scopes, c)
	}
}

// killAssigned forgets the value of every name the subtree at i assigns,
// increments, takes the address of, or passes as a plain scalar to a
// helper defined in the file.
func (fb *funcBuilder) killAssigned(i int32) {
	fl := fb.fl
	forget := func(n int32) {
		if n >= 0 && fl.n[n].kind() == "identifier" {
			if b, ok := fb.lookup(fl.text(n)); ok && b.reg == ir.NoReg {
				fb.killValue(fl.text(n), ir.NoLoop)
			}
		}
	}
	for k := i; k < int32(len(fl.n)) && (k == i || fl.n[k].start < fl.n[i].end); k++ {
		switch fl.n[k].kind() {
		case "assignment_expression":
			forget(fl.child(k, "left"))
		case "update_expression":
			forget(fl.child(k, "argument"))
		case "pointer_expression":
			if fl.operator(k) == "&" {
				forget(fl.child(k, "argument"))
			}
		case "argument_list":
			if f := fl.child(fl.n[k].parent, "function"); f < 0 || !fb.lw.defined[lastComponent(fl.text(f))] {
				continue // not a helper of the file: see fillInstr
			}
			for _, a := range fl.named(k) {
				if fl.n[a].kind() == "identifier" {
					if b, ok := fb.lookup(fl.text(a)); ok && !b.ptr {
						forget(a)
					}
				}
			}
		}
	}
}

// usedValue notes that the value of b was read.
func (fb *funcBuilder) usedValue(b binding) {
	if b.local > 0 && (b.isConst || b.sym != nil) {
		fb.locals[b.local-1].used = true
	}
}

// isIdentifier reports whether s is a plain C++ identifier.
func isIdentifier(s string) bool {
	if s == "" || !isIdentStart(s[0]) {
		return false
	}
	for i := 1; i < len(s); i++ {
		if !isIdentChar(s[i]) {
			return false
		}
	}
	return true
}

// secondPass reports whether the region must be lowered again because a
// value it used is not valid for every use (see localValue).
func (fb *funcBuilder) secondPass() bool {
	if fb.prev != nil {
		return false
	}
	if len(fb.steps) > 0 {
		return true // inductions get their values in the second pass
	}
	for _, lv := range fb.locals {
		if lv.used && !valueOK(lv.name, lv.decl, lv.loop, lv.val, fb.muts, fb.fn.Loops) {
			return true
		}
	}
	return false
}

// kill makes a scalar name non-constant where it is bound (it was assigned).
func (fb *funcBuilder) kill(name string, loop ir.LoopID) {
	fb.mutated(name, loop)
	for l := loop; l != ir.NoLoop && name != fb.header; l = fb.fn.Loops[l].Parent {
		if !fb.noteLoopName(l, name, true) {
			break
		}
		fb.fn.Loops[l].Assigns = append(fb.fn.Loops[l].Assigns, name)
	}
	for i := len(fb.scopes) - 1; i >= 0; i-- {
		if b, ok := fb.scopes[i][name]; ok {
			b.isConst, b.sym, b.bool01 = false, nil, false
			fb.scopes[i][name] = b
			return
		}
	}
	if _, ok := fb.lw.f.Consts[name]; ok {
		fb.bind(name, binding{reg: ir.NoReg})
	}
}

// declared records a name declared inside loop (and its enclosing loops).
func (fb *funcBuilder) declared(name string, loop ir.LoopID) {
	for l := loop; l != ir.NoLoop; l = fb.fn.Loops[l].Parent {
		if !fb.noteLoopName(l, name, false) {
			break
		}
		fb.fn.Loops[l].Decls = append(fb.fn.Loops[l].Decls, name)
	}
}

// loopName is a name in a loop's Decls (assign false) or Assigns (true).
type loopName struct {
	loop   ir.LoopID // the loop
	name   string    // the variable
	assign bool      // Assigns rather than Decls
}

// noteLoopName records name in the set of loop's Decls or Assigns and
// reports whether it is new there. A name is always added to a loop and all
// the loops around it at once, so when a loop has it its parents do too and
// kill and declared stop early: nested loops cost linear time, not cubic.
func (fb *funcBuilder) noteLoopName(l ir.LoopID, name string, assign bool) bool {
	k := loopName{l, name, assign}
	if fb.loopNames[k] {
		return false
	}
	if fb.loopNames == nil {
		fb.loopNames = map[loopName]bool{}
	}
	fb.loopNames[k] = true
	return true
}

func (fb *funcBuilder) pos(off uint32) token.Pos { return fb.lw.pos(off) }

// newReg adds a register to the function.
func (fb *funcBuilder) newReg(name string, rt regType, arrayLen int, param, ref bool, n int32) ir.RegID {
	id := ir.RegID(len(fb.fn.Regs))
	r := &ir.Reg{ID: id, Name: name, Class: rt.class, Elem: rt.elem, TwoRegs: rt.two, ArrayLen: arrayLen, Param: param, Ref: ref}
	if n >= 0 {
		r.Pos, r.End = fb.pos(fb.fl.n[n].start), fb.pos(fb.fl.n[n].end)
	}
	fb.fn.Regs = append(fb.fn.Regs, r)
	return id
}

func (fb *funcBuilder) arReg() ir.RegID {
	if fb.ar == ir.NoReg {
		fb.ar = fb.newReg("AR", regType{class: ir.ClassSpecial}, 1, false, false, -1)
		fb.fn.Regs[fb.ar].Implicit = true
	}
	return fb.ar
}

// params lowers the parameter list of a function declarator.
func (fb *funcBuilder) params(d int32) {
	fl := fb.fl
	// Find the function_declarator.
	for i := 0; i < 16 && d >= 0 && fl.n[d].kind() != "function_declarator"; i++ {
		nd := fl.child(d, "declarator")
		if nd < 0 {
			return
		}
		d = nd
	}
	if d < 0 {
		return
	}
	pl := fl.child(d, "parameters")
	if pl < 0 {
		return
	}
	for _, p := range fl.named(pl) {
		switch fl.n[p].kind() {
		case "parameter_declaration", "optional_parameter_declaration":
		default:
			continue
		}
		ty := fl.child(p, "type")
		typ := ""
		if ty >= 0 {
			typ = normSpace(fb.typePrefix(p, ty))
		}
		decl := fl.child(p, "declarator")
		name, ref, ptr, arr, _ := fb.declShape(decl)
		prm := ir.Param{Name: name, Type: typ, Ptr: ptr, Ref: ref, Default: fl.n[p].kind() == "optional_parameter_declaration", Reg: ir.NoReg, Pos: fb.pos(fl.n[p].start)}
		rt := parseRegType(typ, fb.tyAlias)
		if c, ok := fb.lw.regParams[fb.fn.Pos][name]; ok && rt.class == ir.ClassNone && !ptr {
			rt = regType{class: c} // RegT& x, a register by its callers (deduceRegParams)
		}
		if fb.quiet {
			// The function around a __VEC_SCOPE__ block: its parameters
			// are names the block sees, not the block's own.
			if name != "" && (rt.class == ir.ClassNone || ptr) {
				fb.bind(name, binding{reg: ir.NoReg, ptr: ptr, bool01: fb.outerZO[name]})
				fb.nameDef(name, true, typ, ptr, -1, p)
			}
			if rt.class == ir.ClassNone || ptr {
				fb.outer = append(fb.outer, prm)
			} else {
				fb.outer = append(fb.outer, ir.Param{Name: name, Reg: 0}) // a register: no value to pass
			}
			continue
		}
		if rt.class != ir.ClassNone && !ptr {
			prm.Reg = fb.newReg(name, rt, arr, true, ref, decl)
			if name != "" {
				fb.bind(name, binding{reg: prm.Reg})
			}
		} else if name != "" {
			// bool01: every call in the file passes 0 or 1 (zeroOneParams)
			fb.bind(name, binding{reg: ir.NoReg, ptr: ptr, bool01: fb.lw.zeroOne[fb.fn.Pos][name]})
		}
		fb.fn.Params = append(fb.fn.Params, prm)
	}
}

// typePrefix returns the text of a declaration's type including its
// qualifiers (everything from the declaration's start to the end of the type).
func (fb *funcBuilder) typePrefix(decl, ty int32) string {
	return string(fb.fl.src[fb.fl.n[decl].start:fb.fl.n[ty].end])
}

// declShape unwraps a declarator: name, reference?, pointer?, array length
// (1 when not an array, -1 when unknown), and the init value node (-1).
func (fb *funcBuilder) declShape(d int32) (name string, ref, ptr bool, arr int, val int32) {
	fl := fb.fl
	arr, val = 1, -1
	for i := 0; i < 32 && d >= 0; i++ {
		switch fl.n[d].kind() {
		case "identifier", "field_identifier":
			return fl.text(d), ref, ptr, arr, val
		case "init_declarator":
			val = fl.child(d, "value")
			d = fl.child(d, "declarator")
		case "reference_declarator":
			ref = true
			ch := fl.named(d)
			if len(ch) == 0 {
				return "", ref, ptr, arr, val
			}
			d = ch[len(ch)-1]
		case "pointer_declarator":
			ptr = true
			d = fl.child(d, "declarator")
		case "array_declarator":
			if sz := fl.child(d, "size"); sz >= 0 {
				if v, ok := fb.env.expr(fl, sz).Value(); ok && arr >= 0 {
					arr *= int(v)
				} else {
					arr = -1
				}
			} else {
				arr = -1
			}
			d = fl.child(d, "declarator")
		case "parenthesized_declarator", "attributed_declarator":
			ch := fl.named(d)
			if len(ch) == 0 {
				return "", ref, ptr, arr, val
			}
			d = ch[0]
		default:
			return "", ref, ptr, arr, val
		}
	}
	return "", ref, ptr, arr, val
}

// block lowers a statement (usually a compound statement) into a Block.
func (fb *funcBuilder) block(i int32, loop ir.LoopID, cond bool) *ir.Block {
	b := &ir.Block{}
	if i < 0 {
		return b
	}
	fb.push()
	if fb.fl.n[i].kind() == "compound_statement" {
		for c := fb.fl.n[i].first; c >= 0; c = fb.fl.n[c].next {
			if fb.fl.n[c].named() {
				fb.stmt(c, loop, cond, &b.Nodes)
			}
		}
	} else {
		fb.stmt(i, loop, cond, &b.Nodes)
	}
	fb.pop()
	return b
}

func (fb *funcBuilder) stmt(i int32, loop ir.LoopID, cond bool, out *[]ir.Node) {
	fb.lw.budget.tick()
	fl := fb.fl
	switch fl.n[i].kind() {
	case "compound_statement":
		fb.push()
		for c := fl.n[i].first; c >= 0; c = fl.n[c].next {
			if fl.n[c].named() {
				fb.stmt(c, loop, cond, out)
			}
		}
		fb.pop()
	case "declaration":
		fb.decl(i, loop, cond, out)
	case "alias_declaration", "type_definition":
		t := normSpace(fl.text(i))
		fb.aliasText(t)
	case "expression_statement":
		for _, c := range fl.named(i) {
			fb.expr(c, loop, cond, out, ir.NoReg)
		}
	case "for_statement", "for_range_loop", "while_statement", "do_statement":
		fb.loop(i, loop, cond, out)
	case "if_statement":
		fb.ifStmt(i, loop, cond, out)
	case "using_declaration":
		t := normSpace(fl.text(i))
		if rest, ok := strings.CutPrefix(strings.TrimSuffix(t, ";"), "using namespace "); ok && fb.lw.isRegNS(rest) {
			fb.regUsing = true
		}
	case "break_statement":
		if fb.switches == 0 && loop != ir.NoLoop {
			fb.jump(i, ir.JumpBreak, loop, cond, out)
		}
	case "continue_statement":
		if loop != ir.NoLoop {
			fb.jump(i, ir.JumpContinue, loop, cond, out)
		}
	case "goto_statement":
		fb.jump(i, ir.JumpGoto, ir.NoLoop, cond, out)
	case "return_statement":
		fb.expr(i, loop, cond, out, ir.NoReg)
		if fb.lambdas == 0 {
			fb.returns(i)
			fb.jump(i, ir.JumpReturn, ir.NoLoop, cond, out)
		}
	case "comment", "preproc_call", "preproc_def",
		"preproc_function_def", "preproc_include", "namespace_alias_definition", "static_assert_declaration":
	case "preproc_if", "preproc_ifdef", "preproc_else", "preproc_elif", "preproc_elifdef":
		for _, c := range fl.named(i) {
			if fl.n[c].field() == "condition" || fl.n[c].field() == "name" {
				continue
			}
			fb.stmt(c, loop, true, out)
		}
	case "switch_statement":
		if c := fl.child(i, "condition"); c >= 0 {
			fb.expr(c, loop, cond, out, ir.NoReg)
		}
		if c := fl.child(i, "body"); c >= 0 {
			fb.switches++
			fb.stmt(c, loop, true, out)
			fb.switches--
		}
	case "case_statement", "labeled_statement", "ERROR":
		for _, c := range fl.named(i) {
			if fl.n[c].field() == "value" || fl.n[c].field() == "label" {
				continue
			}
			fb.stmt(c, loop, cond, out)
		}
	default:
		fb.expr(i, loop, cond, out, ir.NoReg)
	}
}

// nameDef records the declaration of a scalar name (val: its initialiser
// node, or -1) at the declarator d.
func (fb *funcBuilder) nameDef(name string, decl bool, typ string, ptr bool, val, d int32) {
	nd := ir.NameDef{Name: name, Decl: decl, Type: typ, Ptr: ptr, Pos: fb.pos(fb.fl.n[d].start)}
	if val >= 0 {
		nd.Op = "="
		nd.Init = fb.env.expr(fb.fl, val)
		nd.From = fb.variables(val)
	}
	fb.fn.Names = append(fb.fn.Names, nd)
}

// assignDef records an assignment (op "=", "+=", ...) or an increment (op
// "++", "--", right -1) of a scalar name at node i.
func (fb *funcBuilder) assignDef(name, op string, right, i int32) {
	if b, ok := fb.lookup(name); ok && b.reg != ir.NoReg {
		return
	}
	nd := ir.NameDef{Name: name, Op: op, Pos: fb.pos(fb.fl.n[i].start)}
	if right >= 0 {
		if op == "=" {
			nd.Init = fb.env.expr(fb.fl, right)
		}
		nd.From = fb.variables(right)
	}
	fb.fn.Names = append(fb.fn.Names, nd)
}

// variables returns the variables an expression names, sorted: its
// identifiers outside types, template arguments and member names.
func (fb *funcBuilder) variables(i int32) []string {
	fl := fb.fl
	var out []string
	var walk func(j int32, depth int)
	walk = func(j int32, depth int) {
		if depth > 64 {
			return
		}
		switch fl.n[j].kind() {
		case "type_descriptor", "template_argument_list", "sizeof_expression", "field_identifier":
			return
		case "identifier":
			if t := fl.text(j); !slices.Contains(out, t) {
				out = append(out, t)
			}
			return
		case "call_expression":
			// The callee is not a variable (reinterpret_cast, GetPhyAddr)
			// but the object a member is called on is (x.GetPhyAddr()).
			if f := fl.child(j, "function"); f >= 0 && fl.n[f].kind() == "field_expression" {
				if a := fl.child(f, "argument"); a >= 0 {
					walk(a, depth+1)
				}
			}
			if a := fl.child(j, "arguments"); a >= 0 {
				walk(a, depth+1)
			}
			return
		}
		for c := fl.n[j].first; c >= 0; c = fl.n[c].next {
			walk(c, depth+1)
		}
	}
	walk(i, 0)
	slices.Sort(out)
	return out
}

// jump records a break, continue, return or goto statement.
func (fb *funcBuilder) jump(i int32, kind ir.JumpKind, loop ir.LoopID, cond bool, out *[]ir.Node) {
	if fb.quiet {
		return
	}
	*out = append(*out, &ir.Jump{Kind: kind, Loop: loop, Cond: cond, Pos: fb.pos(fb.fl.n[i].start), End: fb.pos(fb.fl.n[i].end)})
}

func (fb *funcBuilder) aliasText(t string) {
	t = strings.TrimSuffix(t, ";")
	if rest, ok := strings.CutPrefix(t, "using "); ok {
		if k := strings.IndexByte(rest, '='); k >= 0 {
			fb.tyAlias[strings.TrimSpace(rest[:k])] = strings.TrimSpace(rest[k+1:])
		}
	} else if rest, ok := strings.CutPrefix(t, "typedef "); ok {
		if k := strings.LastIndexByte(rest, ' '); k >= 0 {
			fb.tyAlias[strings.TrimSpace(rest[k+1:])] = strings.TrimSpace(rest[:k])
		}
	}
}

// decl lowers a declaration statement: registers, constants, pointers, and
// the calls in initialisers.
func (fb *funcBuilder) decl(i int32, loop ir.LoopID, cond bool, out *[]ir.Node) {
	fl := fb.fl
	ty := fl.child(i, "type")
	typ := ""
	if ty >= 0 {
		typ = normSpace(fb.typePrefix(i, ty))
	}
	rt := parseRegType(typ, fb.tyAlias)
	isConst := strings.Contains(typ, "const")
	auto := ty >= 0 && fl.text(ty) == "auto"
	for _, d := range fl.fields(i, "declarator") {
		name, ref, ptr, arr, val := fb.declShape(d)
		if name == "" {
			if val >= 0 {
				fb.expr(val, loop, cond, out, ir.NoReg)
			}
			continue
		}
		fb.declared(name, loop)
		switch {
		case rt.class != ir.ClassNone && !ptr && fb.quiet:
			// A register outside the region is not the region's.
		case rt.class != ir.ClassNone && !ptr:
			if ref && val >= 0 {
				// A reference to an existing register is that register.
				if r, _ := fb.resolveReg(val); r != ir.NoReg {
					fb.bind(name, binding{reg: r})
					continue
				}
			}
			id := fb.newReg(name, rt, arr, false, ref, d)
			fb.bind(name, binding{reg: id})
			if val >= 0 {
				fb.expr(val, loop, cond, out, id)
			}
		case auto && val >= 0 && fb.retClass(val) != ir.ClassNone:
			id := fb.newReg(name, regType{class: fb.retClass(val)}, 1, false, ref, d)
			fb.bind(name, binding{reg: id})
			fb.expr(val, loop, cond, out, id)
		default:
			b := binding{reg: ir.NoReg, ptr: ptr, bool01: strings.HasPrefix(strings.TrimPrefix(typ, "const "), "bool"), decl: d + 1}
			fb.nameDef(name, true, typ, ptr, val, d)
			if val >= 0 {
				fb.expr(val, loop, cond, out, ir.NoReg)
				b.bool01 = b.bool01 || fb.zeroOne(val)
				e := fb.env.expr(fl, val)
				switch {
				case isConst && !ptr:
					if v, ok := e.Value(); ok {
						b.isConst, b.val = true, v
						fb.fn.Locals[name] = v
					} else if e.Pure() {
						b.sym = e
					}
				case ref || arr != 1 || !e.Known():
					// A reference, an array, or a value with a call or
					// anything else that can differ between evaluations.
				case fb.prev == nil || valueOK(name, b.decl, loop, e, fb.prev.muts, fb.prev.loops):
					fb.locals = append(fb.locals, localValue{name: name, loop: loop, val: e, decl: b.decl})
					b.local = len(fb.locals)
					if v, ok := e.Value(); ok && !ptr {
						b.isConst, b.val = true, v
					} else {
						b.sym = e
					}
				}
			}
			fb.bind(name, b)
		}
	}
}

// zeroOne reports whether an initialiser can only be 0 or 1: a comparison,
// a logical operator, a negation, true/false, or a conditional whose arms
// are 0/1 literals.
func (fb *funcBuilder) zeroOne(i int32) bool {
	fl := fb.fl
	for k := 0; k < 8 && i >= 0; k++ {
		switch fl.n[i].kind() {
		case "parenthesized_expression", "cast_expression":
			if fl.n[i].kind() == "cast_expression" {
				i = fl.child(i, "value")
				continue
			}
			ch := fl.named(i)
			if len(ch) != 1 {
				return false
			}
			i = ch[0]
		case "binary_expression":
			switch fl.operator(i) {
			case "<", ">", "<=", ">=", "==", "!=", "&&", "||":
				return true
			}
			return false
		case "unary_expression":
			return fl.operator(i) == "!"
		case "true", "false":
			return true
		case "call_expression":
			al := fl.child(i, "arguments")
			if !fb.callee(i).cast || al < 0 || len(fl.named(al)) != 1 {
				return false
			}
			i = fl.named(al)[0]
		case "conditional_expression":
			c, a := fl.child(i, "consequence"), fl.child(i, "alternative")
			if c < 0 || a < 0 {
				return false
			}
			cv, ok1 := fb.env.expr(fl, c).Value()
			av, ok2 := fb.env.expr(fl, a).Value()
			return ok1 && ok2 && (cv == 0 || cv == 1) && (av == 0 || av == 1)
		default:
			return false
		}
	}
	return false
}

// retClass returns the register class an initialiser call returns (for auto).
func (fb *funcBuilder) retClass(val int32) ir.RegClass {
	fl := fb.fl
	if fl.n[val].kind() != "call_expression" {
		return ir.ClassNone
	}
	c := fb.callee(val)
	op, _, ok := ir.Resolve(c.name, fb.nsOf(c.scope), true, nil)
	if !ok {
		return ir.ClassNone
	}
	return op.Info().Ret
}

// loop lowers a for, range-for, while or do loop.
func (fb *funcBuilder) loop(i int32, parent ir.LoopID, cond bool, out *[]ir.Node) {
	fl := fb.fl
	id := ir.LoopID(len(fb.fn.Loops))
	l := &ir.Loop{ID: id, Parent: parent, Depth: 1, Cond: cond, Pos: fb.pos(fl.n[i].start), End: fb.pos(fl.n[i].end), Unroll: pragmaUnroll(fb.lw.src, int(fl.n[i].start))}
	if parent != ir.NoLoop {
		l.Depth = fb.fn.Loops[parent].Depth + 1
	}
	fb.fn.Loops = append(fb.fn.Loops, l)
	fb.loopAt = append(fb.loopAt, i)
	fb.push()
	switches := fb.switches // a break in the body leaves this loop
	fb.switches = 0
	defer func() { fb.switches = switches }()
	switch fl.n[i].kind() {
	case "for_statement":
		l.Kind = ir.LoopFor
		if init := fl.child(i, "initializer"); init >= 0 {
			fb.forInit(l, init, parent, cond, out)
		}
		boundNode := int32(-1)
		if c := fl.child(i, "condition"); c >= 0 {
			boundNode = fb.forCond(l, c)
			fb.expr(c, parent, cond, out, ir.NoReg)
		}
		if u := fl.child(i, "update"); u >= 0 {
			fb.forStep(l, u)
		}
		if l.Var != "" {
			fb.bind(l.Var, binding{reg: ir.NoReg})
		}
		l.FoldTrip()
		l.AtMostOnce = l.TripKnown && l.Trip <= 1 || fb.boundZeroOne(l) || (boundNode >= 0 && fb.zeroOne(boundNode) && l.CmpOp == "<")
	case "for_range_loop":
		l.Kind = ir.LoopFor
		if r := fl.child(i, "right"); r >= 0 {
			fb.expr(r, parent, cond, out, ir.NoReg)
		}
	case "while_statement":
		l.Kind = ir.LoopWhile
		if c := fl.child(i, "condition"); c >= 0 {
			fb.expr(c, parent, cond, out, ir.NoReg)
		}
	case "do_statement":
		l.Kind = ir.LoopDo
		if c := fl.child(i, "condition"); c >= 0 {
			if v, ok := fb.env.expr(fl, c).Value(); ok && v == 0 {
				l.Trip, l.TripKnown, l.AtMostOnce = 1, true, true // do { ... } while (0), a macro's statement: the body once
			}
		}
	}
	fb.inductions(l)
	l.Body = fb.block(fl.child(i, "body"), id, cond)
	if fl.n[i].kind() == "do_statement" {
		if c := fl.child(i, "condition"); c >= 0 {
			fb.expr(c, id, cond, &l.Body.Nodes, ir.NoReg)
		}
	}
	if fl.n[i].kind() == "for_statement" {
		if u := fl.child(i, "update"); u >= 0 {
			fb.header = l.Var
			fb.expr(u, id, cond, &l.Body.Nodes, ir.NoReg)
			fb.header = ""
		}
	}
	fb.pop()
	*out = append(*out, l)
}

func (fb *funcBuilder) forInit(l *ir.Loop, init int32, loop ir.LoopID, cond bool, out *[]ir.Node) {
	fl := fb.fl
	switch fl.n[init].kind() {
	case "declaration":
		if ty := fl.child(init, "type"); ty >= 0 {
			l.VarType = normSpace(fl.text(ty))
		}
		ds := fl.fields(init, "declarator")
		for k, d := range ds {
			name, _, ptr, _, val := fb.declShape(d)
			if name != "" {
				fb.nameDef(name, true, l.VarType, ptr, val, d)
			}
			if val >= 0 {
				fb.expr(val, loop, cond, out, ir.NoReg)
			}
			if k == 0 {
				l.Var = name
				if val >= 0 {
					l.Init = fb.env.expr(fl, val)
				}
			}
			fb.bind(name, binding{reg: ir.NoReg})
			fb.declared(name, l.ID)
		}
	case "assignment_expression":
		if left := fl.child(init, "left"); left >= 0 && fl.n[left].kind() == "identifier" && fl.operator(init) == "=" {
			l.Var = fl.text(left)
			if r := fl.child(init, "right"); r >= 0 {
				l.Init = fb.env.expr(fl, r)
			}
		}
		fb.expr(init, loop, cond, out, ir.NoReg)
	default:
		fb.expr(init, loop, cond, out, ir.NoReg)
	}
}

// forCond reads the bound of a loop condition; it returns the bound's node, or -1.
func (fb *funcBuilder) forCond(l *ir.Loop, c int32) int32 {
	fl := fb.fl
	if fl.n[c].kind() != "binary_expression" || l.Var == "" {
		return -1
	}
	left, right := fl.child(c, "left"), fl.child(c, "right")
	op := fl.operator(c)
	if left < 0 || right < 0 {
		return -1
	}
	flip := map[string]string{"<": ">", ">": "<", "<=": ">=", ">=": "<=", "!=": "!="}
	switch {
	case fl.text(left) == l.Var:
		if _, ok := flip[op]; ok {
			l.CmpOp, l.Bound = op, fb.env.expr(fl, right)
			return right
		}
	case fl.text(right) == l.Var:
		if f, ok := flip[op]; ok {
			l.CmpOp, l.Bound = f, fb.env.expr(fl, left)
			return left
		}
	}
	return -1
}

// boundZeroOne reports whether a loop "for (i = 0; i < b; ++i)" runs at most
// once because b can only be 0 or 1 (for (i = 0; i < hasTail; ++i) used as an if).
func (fb *funcBuilder) boundZeroOne(l *ir.Loop) bool {
	init, ok := l.Init.Value()
	step, ok2 := l.Step.Value()
	if !ok || !ok2 || init != 0 || step != 1 || l.CmpOp != "<" || l.Bound == nil {
		return false
	}
	if l.Bound.Kind == ir.ExprBin {
		// A local's value that is a comparison (hasTail = (tail != 0)).
		switch l.Bound.Op {
		case "<", ">", "<=", ">=", "==", "!=", "&&", "||":
			return true
		}
	}
	if l.Bound.Kind != ir.ExprSym {
		return false
	}
	b, found := fb.lookup(l.Bound.Name)
	return found && b.bool01
}

func (fb *funcBuilder) forStep(l *ir.Loop, u int32) {
	fl := fb.fl
	if l.Var == "" {
		return
	}
	switch fl.n[u].kind() {
	case "update_expression":
		arg := fl.child(u, "argument")
		if arg < 0 || fl.text(arg) != l.Var {
			return
		}
		switch fl.operator(u) {
		case "++":
			l.Step = ir.Const(1)
		case "--":
			l.Step = ir.Const(-1)
		}
	case "assignment_expression":
		left, right := fl.child(u, "left"), fl.child(u, "right")
		if left < 0 || right < 0 || fl.text(left) != l.Var {
			return
		}
		switch fl.operator(u) {
		case "+=":
			l.Step = fb.env.expr(fl, right)
		case "-=":
			l.Step = ir.Neg(fb.env.expr(fl, right))
		case "=":
			// i = i + k
			e := fb.env.expr(fl, right)
			if base, coef, ok := e.Linear(l.Var); ok && coef == 1 {
				l.Step = base
			}
		}
	}
}

func (fb *funcBuilder) ifStmt(i int32, loop ir.LoopID, cond bool, out *[]ir.Node) {
	fl := fb.fl
	s := &ir.If{Constexpr: fl.hasToken(i, "constexpr"), Pos: fb.pos(fl.n[i].start), End: fb.pos(fl.n[i].end)}
	if c := fl.child(i, "condition"); c >= 0 {
		v := c
		if fl.n[c].kind() == "condition_clause" {
			if x := fl.child(c, "value"); x >= 0 {
				v = x
			}
		}
		fb.expr(c, loop, cond, out, ir.NoReg)
		s.Cond = fb.env.expr(fl, v)
		s.CondText = normSpace(fl.text(v))
	}
	s.Then = fb.block(fl.child(i, "consequence"), loop, true)
	if a := fl.child(i, "alternative"); a >= 0 {
		if fl.n[a].kind() == "else_clause" {
			ch := fl.named(a)
			if len(ch) > 0 {
				a = ch[0]
			}
		}
		s.Else = fb.block(a, loop, true)
	}
	*out = append(*out, s)
}

// expr lowers the calls in an expression, innermost first. assign is the
// register a call's return value is assigned to (declaration initialiser).
func (fb *funcBuilder) expr(i int32, loop ir.LoopID, cond bool, out *[]ir.Node, assign ir.RegID) {
	fb.lw.budget.tick()
	fl := fb.fl
	switch fl.n[i].kind() {
	case "call_expression":
		fb.call(i, loop, cond, out, assign)
		return
	case "assignment_expression":
		left, right := fl.child(i, "left"), fl.child(i, "right")
		target := ir.NoReg
		if left >= 0 {
			if r, _ := fb.resolveReg(left); r != ir.NoReg {
				target = r
			} else if fl.n[left].kind() == "identifier" {
				name := fl.text(left)
				fb.assignDef(name, fl.operator(i), right, i)
				if r := fl.child(i, "right"); r >= 0 {
					switch fl.operator(i) {
					case "+=":
						fb.noteStep(name, i, fb.env.expr(fl, r), loop, cond)
					case "-=":
						fb.noteStep(name, i, ir.Neg(fb.env.expr(fl, r)), loop, cond)
					case "=":
						// off = off + k
						if base, coef, ok := fb.env.expr(fl, r).Linear(name); ok && coef == 1 {
							fb.noteStep(name, i, base, loop, cond)
						}
					}
				}
				fb.kill(name, loop)
				fb.stepped(name, i)
			}
			fb.expr(left, loop, cond, out, ir.NoReg)
		}
		if right >= 0 {
			fb.expr(right, loop, cond, out, target)
		}
		return
	case "update_expression":
		if arg := fl.child(i, "argument"); arg >= 0 && fl.n[arg].kind() == "identifier" {
			by := ir.Const(1)
			if fl.operator(i) == "--" {
				by = ir.Const(-1)
			}
			if fb.header == "" {
				fb.noteStep(fl.text(arg), i, by, loop, cond)
			}
			fb.assignDef(fl.text(arg), fl.operator(i), -1, i)
			fb.kill(fl.text(arg), loop)
			fb.stepped(fl.text(arg), i)
		}
	case "pointer_expression":
		// &x lets anything change x.
		if arg := fl.child(i, "argument"); arg >= 0 && fl.n[arg].kind() == "identifier" && fl.operator(i) == "&" {
			if b, ok := fb.lookup(fl.text(arg)); ok && b.reg == ir.NoReg {
				fb.killValue(fl.text(arg), loop)
			}
		}
	case "lambda_expression":
		if body := fl.child(i, "body"); body >= 0 {
			fb.push()
			fb.lambdas++
			fb.stmt(body, loop, cond, out)
			fb.lambdas--
			fb.pop()
		}
		return
	case "compound_statement":
		fb.stmt(i, loop, cond, out)
		return
	case "string_literal", "raw_string_literal", "number_literal", "identifier", "comment":
		return
	}
	for c := fl.n[i].first; c >= 0; c = fl.n[c].next {
		if fl.n[c].named() {
			fb.expr(c, loop, cond, out, ir.NoReg)
		}
	}
}

// calleeInfo is a call's function, split.
type calleeInfo struct {
	full   string // callee without template arguments ("AscendC::Reg::LoadAlign")
	scope  string // qualification ("AscendC::Reg"), "." for a member call, "" when bare
	name   string // last component
	targs  []string
	cast   bool // a C++ cast keyword (static_cast<T>(x)): not a call
	simple bool // the callee is a plain or qualified name
}

var castKeywords = map[string]bool{"static_cast": true, "reinterpret_cast": true, "const_cast": true, "dynamic_cast": true, "bit_cast": true}

func (fb *funcBuilder) callee(call int32) calleeInfo {
	fl := fb.fl
	fn := fl.child(call, "function")
	if fn < 0 {
		return calleeInfo{}
	}
	start := fl.n[fn].start
	n := fn
	ci := calleeInfo{simple: true}
	for k := 0; k < 16; k++ {
		switch fl.n[n].kind() {
		case "qualified_identifier":
			nm := fl.child(n, "name")
			if nm < 0 {
				ci.simple = false
				ci.name = fl.text(n)
				ci.full = ci.name
				return ci
			}
			n = nm
			continue
		case "template_function", "template_method":
			nm := fl.child(n, "name")
			if a := fl.child(n, "arguments"); a >= 0 {
				t := fl.text(a)
				if len(t) >= 2 {
					ci.targs = splitTop(t[1 : len(t)-1])
				}
			}
			if nm >= 0 {
				ci.name = fl.text(nm)
			}
		case "field_expression":
			ci.scope = "."
			f := fl.child(n, "field")
			if f >= 0 && (fl.n[f].kind() == "template_method") {
				n = f
				continue
			}
			if f >= 0 {
				ci.name = fl.text(f)
			}
			ci.full = normSpace(fl.text(fn))
			return ci
		case "identifier", "field_identifier", "namespace_identifier", "type_identifier", "destructor_name", "operator_name":
			ci.name = fl.text(n)
		case "parenthesized_expression":
			// (RangeType)(x) parses as a call of a parenthesised name: a C-style cast.
			if ch := fl.named(n); len(ch) == 1 && (fl.n[ch[0]].kind() == "identifier" || fl.n[ch[0]].kind() == "qualified_identifier") {
				ci.cast = true
				ci.name = fl.text(ch[0])
				ci.full = ci.name
				return ci
			}
			ci.simple = false
			ci.name = normSpace(fl.text(n))
			ci.full = ci.name
			return ci
		default:
			ci.simple = false
			ci.name = normSpace(fl.text(n))
			ci.full = ci.name
			return ci
		}
		break
	}
	if ci.scope != "." {
		sc := strings.TrimSpace(string(fl.src[start:fl.n[n].start]))
		sc = strings.TrimSuffix(strings.ReplaceAll(sc, " ", ""), "::")
		ci.scope = strings.ReplaceAll(sc, "template", "")
		ci.scope = strings.TrimSuffix(ci.scope, "::")
	}
	switch ci.scope {
	case "":
		ci.full = ci.name
	case ".":
		ci.full = normSpace(fl.text(fn))
	default:
		ci.full = ci.scope + "::" + ci.name
	}
	ci.cast = castKeywords[ci.name] && (ci.scope == "" || ci.scope == "std")
	return ci
}

// simd reports whether the region is __simd_vf__/__simd_callee__ code.
func (fb *funcBuilder) simd() bool {
	switch fb.fn.Kind {
	case ir.RegionSimdVF, ir.RegionSimdCallee, ir.RegionSimdCaller:
		return true
	}
	return false
}

// isTypeCallee reports whether a "call" is a function-style cast or a
// temporary of a type: float(x), T(x), std::integral_constant<...>{}.
func (fb *funcBuilder) isTypeCallee(ci calleeInfo) bool {
	if ci.scope == "." {
		return false
	}
	name := ci.name
	if ci.scope == "std" || ci.scope == "AscendC::Std" || ci.scope == "Std" {
		switch name {
		case "integral_constant", "is_same", "conditional", "tuple", "pair", "enable_if", "make_tuple", "declval":
			return true
		}
	}
	if ci.scope != "" {
		return false
	}
	if _, ok := ir.ElemSize(name); ok {
		return true
	}
	if fb.tparams[name] {
		return true
	}
	if _, ok := fb.tyAlias[name]; ok {
		return true
	}
	return false
}

func (fb *funcBuilder) nsOf(scope string) ir.Namespace {
	switch {
	case scope == "":
		return ir.NSNone
	case scope == ".":
		return ir.NSOther
	case fb.lw.isRegNS(scope):
		return ir.NSReg
	case knownNonReg[scope], strings.HasPrefix(scope, "std::"), strings.Contains(scope, "<"), scope == "this":
		return ir.NSOther
	case fb.lw.knownNS[scope]:
		// A namespace or class declared in this file that is not the register API.
		return ir.NSOther
	}
	// A qualifier this file does not declare (typically a namespace alias
	// from an included header, such as MA = AscendC::MicroAPI): treat the
	// name as bare, so it resolves only with the evidence a bare name needs.
	return ir.NSNone
}

// knownNonReg are qualifiers that never name the register API.
var knownNonReg = map[string]bool{"std": true, "AscendC": true, "Std": true, "AscendC::Std": true, "::std": true}

// call lowers one call expression (after the calls in its arguments).
func (fb *funcBuilder) call(i int32, loop ir.LoopID, cond bool, out *[]ir.Node, assign ir.RegID) {
	if fb.quiet {
		fb.killAssigned(i)
		return
	}
	fl := fb.fl
	argList := fl.child(i, "arguments")
	var argNodes []int32
	if argList >= 0 {
		for _, a := range fl.named(argList) {
			if fl.n[a].kind() != "comment" {
				argNodes = append(argNodes, a)
			}
		}
	}
	for _, a := range argNodes {
		fb.expr(a, loop, cond, out, ir.NoReg)
	}
	fb.lw.budget.check()
	ci := fb.callee(i)
	if fn := fl.child(i, "function"); fn >= 0 && !ci.simple {
		fb.expr(fn, loop, cond, out, ir.NoReg)
	} else if fn >= 0 && ci.scope == "." {
		// obj.f(): calls inside obj are lowered too.
		if arg := fl.child(fn, "argument"); arg >= 0 {
			fb.expr(arg, loop, cond, out, ir.NoReg)
		}
	}
	if ci.cast || ci.name == "" || fb.isTypeCallee(ci) {
		return
	}
	in := &ir.Instr{ID: ir.InstrID(len(fb.fn.Instrs)), Callee: ci.full, Name: ci.name, TArgs: ci.targs, Loop: loop, Cond: cond,
		Pos: fb.pos(fl.n[i].start), End: fb.pos(fl.n[i].end)}
	args := make([]ir.ArgInfo, len(argNodes))
	in.Args = make([]ir.Operand, len(argNodes))
	anyReg := false
	for k, a := range argNodes {
		r, part := fb.resolveReg(a)
		op := ir.Operand{Reg: r, Part: part, Text: normSpace(fb.lw.text(fl.n[a].start, fl.n[a].end)), Pos: fb.pos(fl.n[a].start), End: fb.pos(fl.n[a].end)}
		if r != ir.NoReg {
			args[k].Class = fb.fn.Regs[r].Class
			anyReg = true
		} else {
			op.Expr = fb.env.expr(fl, a)
			args[k].Ptr = fb.isPtr(a)
		}
		in.Args[k] = op
	}
	ns := fb.nsOf(ci.scope)
	userDefined := fb.lw.defined[ci.full] || (ns == ir.NSNone || ci.scope == ".") && fb.lw.defined[ci.name]
	op, form, ok := ir.OpUnknown, ir.FormUnknown, false
	if !(userDefined && ns != ir.NSReg) {
		// A bare name may be the register API when a using-directive is in
		// force, when an argument or the assigned value is a register, when
		// the name exists only in the register API, or inside __simd_vf__ /
		// __simd_callee__ code, which cannot call anything else of AscendC.
		bareOK := fb.lw.regUsing || fb.regUsing || anyReg || assign != ir.NoReg || ir.Distinctive(ci.name) || fb.simd()
		op, form, ok = ir.Resolve(ci.name, ns, bareOK, args)
	}
	switch {
	case ok:
		in.Op, in.Form = op, form
	case userDefined:
		in.Op, in.Form = ir.OpCall, ir.FormCall
		fb.zeroOneArgs(in, argNodes)
	default:
		in.Op, in.Form = ir.OpUnknown, ir.FormUnknown
	}
	fb.fillInstr(in, args, assign)
	fb.fn.Instrs = append(fb.fn.Instrs, in)
	*out = append(*out, in)
}

// zeroOneArgs writes a helper's argument that is 0 or 1 (a comparison, a
// bool, c ? 1 : 0, or a local initialised with one) whose value does not
// fold as (x != 0): the same value, in a form that says it is 0 or 1, so
// that a loop the helper bounds by it is seen to run at most once when the
// helper is inlined (ir.Inline).
func (fb *funcBuilder) zeroOneArgs(in *ir.Instr, argNodes []int32) {
	for k, a := range argNodes {
		op := &in.Args[k]
		if op.Reg != ir.NoReg || op.Expr == nil || op.Expr.ZeroOne() {
			continue
		}
		if _, ok := op.Expr.Value(); ok {
			continue
		}
		zo := fb.zeroOne(a)
		if !zo && op.Expr.Kind == ir.ExprSym {
			b, found := fb.lookup(op.Expr.Name)
			zo = found && b.bool01
		}
		if zo {
			op.Expr = &ir.Expr{Kind: ir.ExprBin, Op: "!=", X: op.Expr, Y: ir.Const(0)}
		}
	}
}

// fillInstr derives template facts, roles, defs and uses.
func (fb *funcBuilder) fillInstr(in *ir.Instr, args []ir.ArgInfo, assign ir.RegID) {
	for _, t := range in.TArgs {
		switch {
		case strings.Contains(t, "POST_MODE_UPDATE"):
			in.Post = true
		case strings.Contains(t, "DIST_"):
			d := t
			if k := strings.LastIndex(d, "::"); k >= 0 {
				d = d[k+2:]
			}
			in.Dist = d
		case strings.Contains(t, "MERGING"):
			in.Merging = true
		}
	}
	if ir.PostSpelling(in.Name) {
		in.Post = true
	}
	if (in.Op == ir.OpMove || in.Op == ir.OpMaskMove) && len(args) == 3 && !anyContains(in.TArgs, "ZEROING") {
		in.Merging = true // Move defaults to MERGING when masked
	}
	if len(in.TArgs) > 0 && isTypeName(in.TArgs[0]) {
		in.Elem = in.TArgs[0]
	}
	addUse := func(r ir.RegID) {
		if r != ir.NoReg && !containsReg(in.Uses, r) {
			in.Uses = append(in.Uses, r)
		}
	}
	addDef := func(r ir.RegID) {
		if r != ir.NoReg && !containsReg(in.Defs, r) {
			in.Defs = append(in.Defs, r)
		}
	}
	switch in.Op {
	case ir.OpUnknown, ir.OpCall:
		for k := range in.Args {
			// A scalar variable passed to a helper of the file may be taken
			// by reference and changed. Functions from elsewhere (CeilDiv,
			// min, Align) are assumed to take scalars by value: an output
			// parameter of a library function is rare in kernels, and
			// assuming otherwise loses every value passed to one.
			if name := in.Args[k].Text; in.Op == ir.OpCall && in.Args[k].Reg == ir.NoReg && isIdentifier(name) {
				if b, ok := fb.lookup(name); ok && !b.ptr && b.reg == ir.NoReg {
					fb.killValue(name, in.Loop)
				}
			}
			if in.Op == ir.OpCall {
				in.Args[k].Role = ir.ArgScalar
			}
			if r := in.Args[k].Reg; r != ir.NoReg {
				if in.Op == ir.OpCall {
					in.Args[k].Role = ir.ArgRW
					addDef(r)
				} else {
					in.Args[k].Role = ir.ArgR
				}
				addUse(r)
			}
		}
		if assign != ir.NoReg {
			addDef(assign)
			in.Assign = fb.fn.Regs[assign].Name
		}
		return
	}
	roles := ir.AssignRoles(in.Op, in.Form, in.Post, in.Merging, args)
	for k := range in.Args {
		in.Args[k].Role = roles[k]
		r := in.Args[k].Reg
		switch roles[k] {
		case ir.ArgW:
			addDef(r)
		case ir.ArgRW:
			addUse(r)
			addDef(r)
		case ir.ArgR, ir.ArgMask, ir.ArgAddr:
			addUse(r)
		case ir.ArgPtrRW, ir.ArgScalarRW:
			if name := baseName(in.Args[k].Text); name != "" {
				in.PtrDefs = append(in.PtrDefs, name)
				fb.killValue(name, in.Loop)
			}
		}
		if in.Elem == "" && (roles[k] == ir.ArgW || roles[k] == ir.ArgR || roles[k] == ir.ArgRW) && r != ir.NoReg {
			in.Elem = fb.fn.Regs[r].Elem
		}
	}
	if assign != ir.NoReg {
		addDef(assign)
		in.Assign = fb.fn.Regs[assign].Name
	}
	// Implicit special-register effects (vf-api.md §3.6).
	switch in.Op {
	case ir.OpSqueeze:
		if anyContains(in.TArgs, "STORE_REG") && !anyContains(in.TArgs, "NO_STORE_REG") || in.Name == "asc_squeeze_with_status" {
			addDef(fb.arReg())
		}
	case ir.OpStoreUnAlign:
		if in.Form != ir.FormCAPI && len(in.Args) == 3 && roles[0] == ir.ArgPtr {
			addUse(fb.arReg())
		}
	case ir.OpClearSpr:
		addDef(fb.arReg())
	case ir.OpGetSpr:
		addUse(fb.arReg())
	}
}

func anyContains(ss []string, sub string) bool {
	for _, s := range ss {
		if strings.Contains(s, sub) {
			return true
		}
	}
	return false
}

func containsReg(rs []ir.RegID, r ir.RegID) bool {
	for _, x := range rs {
		if x == r {
			return true
		}
	}
	return false
}

// baseName returns the variable a post-updated argument names ("src" for
// "src", "&src", "(T*&)src"), or "".
func baseName(t string) string {
	t = strings.TrimSpace(t)
	if k := strings.LastIndexByte(t, ')'); k >= 0 && strings.HasPrefix(t, "(") {
		t = strings.TrimSpace(t[k+1:])
	}
	t = strings.TrimLeft(t, "&* ")
	for i := 0; i < len(t); i++ {
		if !isIdentChar(t[i]) && t[i] != '.' && !(t[i] == '-' && i+1 < len(t) && t[i+1] == '>') && !(t[i] == '>' && i > 0 && t[i-1] == '-') {
			return ""
		}
	}
	return t
}

// resolveReg finds the register an argument reaches, looking through casts,
// parentheses, &/*, x.reg[k] and array subscripts. part is the folded index,
// or -1: for an array element a[k] (a[k].reg[j] included) the array index
// k, for x.reg[k] of a single tensor k. A subscript that does not fold, or
// a second subscript of a multi-dimensional array (whose ArrayLen is the
// product of its dimensions), makes part -1: the operand may be any element.
func (fb *funcBuilder) resolveReg(i int32) (ir.RegID, int) {
	fl := fb.fl
	part := -1
	subs := 0 // subscripts applied directly to the innermost operand so far
	for k := 0; k < 16 && i >= 0; k++ {
		switch fl.n[i].kind() {
		case "identifier":
			if b, ok := fb.lookup(fl.text(i)); ok && b.reg != ir.NoReg {
				if subs > 1 {
					part = -1
				}
				return b.reg, part
			}
			return ir.NoReg, -1
		case "cast_expression":
			i = fl.child(i, "value")
		case "parenthesized_expression":
			ch := fl.named(i)
			if len(ch) != 1 {
				return ir.NoReg, -1
			}
			i = ch[0]
		case "pointer_expression":
			i = fl.child(i, "argument")
		case "call_expression":
			ci := fb.callee(i)
			if !ci.cast {
				return ir.NoReg, -1
			}
			al := fl.child(i, "arguments")
			if al < 0 {
				return ir.NoReg, -1
			}
			ch := fl.named(al)
			if len(ch) != 1 {
				return ir.NoReg, -1
			}
			i = ch[0]
		case "subscript_expression":
			part = -1
			if idx := fl.child(i, "indices"); idx >= 0 {
				ch := fl.named(idx)
				if len(ch) == 1 {
					if v, ok := fb.env.expr(fl, ch[0]).Value(); ok {
						part = int(v)
					}
				}
			} else if idx := fl.child(i, "index"); idx >= 0 {
				if v, ok := fb.env.expr(fl, idx).Value(); ok {
					part = int(v)
				}
			}
			subs++
			i = fl.child(i, "argument")
		case "field_expression":
			f := fl.child(i, "field")
			if f < 0 || fl.text(f) != "reg" {
				return ir.NoReg, -1
			}
			subs = 0
			i = fl.child(i, "argument")
		default:
			return ir.NoReg, -1
		}
	}
	return ir.NoReg, -1
}

// isPtr reports whether an argument is known to be a pointer: a pointer
// variable, pointer arithmetic on one, or &x.
func (fb *funcBuilder) isPtr(i int32) bool {
	fl := fb.fl
	for k := 0; k < 16 && i >= 0; k++ {
		switch fl.n[i].kind() {
		case "identifier":
			b, ok := fb.lookup(fl.text(i))
			return ok && b.ptr
		case "binary_expression":
			op := fl.operator(i)
			if op != "+" && op != "-" {
				return false
			}
			i = fl.child(i, "left")
		case "parenthesized_expression":
			ch := fl.named(i)
			if len(ch) != 1 {
				return false
			}
			i = ch[0]
		case "cast_expression":
			ty := fl.child(i, "type")
			if ty >= 0 && strings.Contains(fl.text(ty), "*") {
				return true
			}
			i = fl.child(i, "value")
		case "pointer_expression":
			return fl.operator(i) == "&"
		default:
			return false
		}
	}
	return false
}

// collectErrors records the ERROR and MISSING nodes of the flat tree. A
// MISSING node is zero-width and tree-sitter places it after any comment
// that follows the gap; it is reported at the end of the last real token
// before it instead, where the author has to type the missing text.
func (fb *funcBuilder) collectErrors() {
	fl := fb.fl
	var ends []uint32 // ends of the real leaf tokens, sorted; built on the first MISSING node
	for k := range fl.n {
		n := &fl.n[k]
		if !n.bad() || fb.errTo > 0 && (n.start < fb.errFrom || n.start > fb.errTo) {
			continue
		}
		off := n.start
		if n.start == n.end && n.kind() != "ERROR" {
			if ends == nil {
				ends = fb.leafEnds()
			}
			// The last real token ending at or before the gap.
			if j := sort.Search(len(ends), func(j int) bool { return ends[j] > n.start }); j > 0 && ends[j-1] > 0 {
				off = ends[j-1]
			}
		}
		fb.fn.Errors = append(fb.fn.Errors, fb.pos(off))
	}
}

// leafEnds returns the end offsets of the leaves of the flat tree that are
// real tokens (not empty, not comments, not errors), sorted: where a
// MISSING node is reported (collectErrors). One sort instead of a scan of
// the whole tree per MISSING node, which made a function with thousands of
// missing ';' quadratic.
func (fb *funcBuilder) leafEnds() []uint32 {
	ends := make([]uint32, 0, len(fb.fl.n)/2+1)
	for j := range fb.fl.n {
		m := &fb.fl.n[j]
		if m.first < 0 && m.start < m.end && m.kind() != "comment" && !m.bad() {
			ends = append(ends, m.end)
		}
	}
	slices.Sort(ends)
	return ends
}

// finish infers unaligned-register roles and normalises the error list.
func (fb *funcBuilder) finish() {
	if len(fb.fn.Errors) == 0 {
		fb.collectErrors()
	}
	if ps, ok := fb.lw.clParams[fb.class]; ok && fb.class != "" {
		fb.fn.Class, fb.fn.ClassTParams = fb.class, ps
	}
	fb.fn.TypeAliases = usedAliases(fb.fn, fb.tyAlias)
	sort.Slice(fb.fn.Errors, func(i, j int) bool { return fb.fn.Errors[i] < fb.fn.Errors[j] })
	ir.InferUnalignRoles(fb.fn)
}

// setClass makes class the class the region's function belongs to: the
// type aliases its body declares shadow the file's of the same name (two
// class templates of one file may each declare its own RangeType).
func (fb *funcBuilder) setClass(class string) {
	fb.class = class
	for k, v := range fb.lw.clAlias[class] {
		fb.tyAlias[k] = v
	}
}

// maxTypeAliases bounds the aliases one region keeps (usedAliases).
const maxTypeAliases = 64

// usedAliases returns the type aliases of aliases that the element types
// of fn's registers and instructions name, with those their definitions
// name in turn: what an instantiation resolves (ir.Bindings.Type). Nil
// when none is used.
func usedAliases(fn *ir.Func, aliases map[string]string) map[string]string {
	if len(aliases) == 0 {
		return nil
	}
	var out map[string]string
	var add func(name string)
	add = func(name string) {
		def, ok := aliases[name]
		if !ok || len(out) >= maxTypeAliases {
			return
		}
		if _, seen := out[name]; seen {
			return
		}
		if out == nil {
			out = map[string]string{}
		}
		out[name] = def
		for _, w := range identWords(def) {
			add(w)
		}
	}
	for _, r := range fn.Regs {
		add(r.Elem)
	}
	for _, in := range fn.Instrs {
		add(in.Elem)
		for _, t := range in.TArgs {
			add(strings.TrimSpace(t))
		}
	}
	return out
}

// identWords returns the identifiers (qualified names whole) of a type's
// text.
func identWords(t string) []string {
	var out []string
	for i := 0; i < len(t); {
		if !isIdentStart(t[i]) {
			i++
			continue
		}
		j := i
		for j < len(t) && (isIdentChar(t[j]) || t[j] == ':' && j+1 < len(t) && t[j+1] == ':' && j+2 < len(t) && isIdentStart(t[j+2])) {
			if t[j] == ':' {
				j += 2
				continue
			}
			j++
		}
		out = append(out, t[i:j])
		i = j
	}
	return out
}

// env folds expressions against the bindings of a region and the file.
type env struct {
	lw *lowerer
	fb *funcBuilder // nil at file scope
}

// step is one increment of a variable by an amount (off += VL).
type step struct {
	loop   ir.LoopID // the innermost loop around it
	node   int32     // the assignment or update expression
	by     *ir.Expr  // the amount
	from   *ir.Expr  // the variable's value just before it (first pass)
	direct bool      // a statement of the loop's own body, not under an if or in an inner loop
}

// An induction is a variable initialised before a counted loop and
// incremented once per iteration by a loop-invariant amount, by a statement
// of the loop's own body:
//
//	uint32_t off = 0;
//	for (uint16_t i = 0; i < n; ++i) {
//	    Load(r, u, src + off);         // off = 0 + i * 136
//	    off += 136;                    // after it: 0 + (i + 1) * 136
//	}
//
// In the second pass it has, in the loop, the value the iteration gives it.

// noteStep records, in the first pass, an increment of name by the amount
// by at node, when name has a value there.
func (fb *funcBuilder) noteStep(name string, node int32, by *ir.Expr, loop ir.LoopID, cond bool) {
	if fb.prev != nil || loop == ir.NoLoop || by == nil || !by.Known() {
		return
	}
	b, ok := fb.lookup(name)
	if !ok || b.local == 0 || b.reg != ir.NoReg || (!b.isConst && b.sym == nil) {
		return
	}
	from := b.sym
	if b.isConst {
		from = ir.Const(b.val)
	}
	fl := fb.fl
	st := fl.n[node].parent // the expression statement
	direct := !cond && st >= 0 && fl.n[st].kind() == "expression_statement" &&
		fl.n[st].parent >= 0 && fl.n[st].parent == fl.child(fb.loopAt[loop], "body")
	if fb.steps == nil {
		fb.steps = map[string][]step{}
	}
	fb.steps[name] = append(fb.steps[name], step{loop: loop, node: node, by: by, from: from, direct: direct})
}

// inductions binds, in the second pass, the inductions of loop l (see step)
// in the loop's scope, and notes the values their increments leave.
func (fb *funcBuilder) inductions(l *ir.Loop) {
	if fb.prev == nil || l.Var == "" || len(fb.prev.muts[l.Var]) > 0 {
		return
	}
	i0, ok := l.Init.Value()
	if s, ok2 := l.Step.Value(); !ok || !ok2 || s != 1 {
		return
	}
	names := make([]string, 0, len(fb.prev.steps))
	for name := range fb.prev.steps {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, name := range names {
		ss := fb.prev.steps[name]
		st := ss[0]
		if len(ss) != 1 || st.loop != l.ID || !st.direct || len(fb.prev.muts[name]) != 1 ||
			!fb.invariant(st.by, l.ID) || !fb.invariant(st.from, l.ID) {
			continue
		}
		k := ir.Bin("-", ir.Sym(l.Var), ir.Const(i0))
		if fb.post == nil {
			fb.post = map[int32]*ir.Expr{}
		}
		fb.post[st.node] = ir.Bin("+", st.from, ir.Bin("*", ir.Bin("+", k, ir.Const(1)), st.by))
		b, _ := fb.lookup(name)
		b.isConst, b.sym, b.local = false, ir.Bin("+", st.from, ir.Bin("*", k, st.by)), 0
		fb.bind(name, b)
	}
}

// invariant reports whether no name e mentions is assigned in loop l or a
// loop inside it (first pass).
func (fb *funcBuilder) invariant(e *ir.Expr, l ir.LoopID) bool {
	ok := e.Known()
	e.Subst(func(k ir.ExprKind, name string) *ir.Expr {
		for _, m := range fb.prev.muts[name] {
			if k == ir.ExprSym && nestedIn(m.loop, l, fb.prev.loops) {
				ok = false
			}
		}
		return nil
	})
	return ok
}

// stepped rebinds, in the second pass, an induction after its increment.
func (fb *funcBuilder) stepped(name string, node int32) {
	v, ok := fb.post[node]
	if !ok {
		return
	}
	for i := len(fb.scopes) - 1; i >= 0; i-- {
		if b, ok := fb.scopes[i][name]; ok {
			b.isConst, b.sym = false, v
			fb.scopes[i][name] = b
			return
		}
	}
}

// builtins are the documented vector-length constants (vf-api.md §5.1).
var builtins = map[string]int64{"VRegSize": ir.VectorBytes, "VECTOR_REG_WIDTH": ir.VectorBytes}

func (e *env) lookup(name string) (int64, bool, bool) {
	if e.fb != nil {
		if b, ok := e.fb.lookup(name); ok {
			e.fb.usedValue(b)
			return b.val, b.isConst, true
		}
	}
	if v, ok := e.lw.f.Consts[name]; ok {
		return v, true, true
	}
	last := name
	if k := strings.LastIndex(name, "::"); k >= 0 {
		last = name[k+2:]
	}
	if v, ok := builtins[last]; ok {
		return v, true, true
	}
	return 0, false, false
}

func (e *env) typeSize(t string) (int64, bool) {
	t = normSpace(t)
	aliases := e.lw.tyAlias
	if e.fb != nil {
		aliases = e.fb.tyAlias
	}
	for i := 0; i < 8; i++ {
		if sz, ok := ir.ElemSize(t); ok {
			return sz, true
		}
		d, ok := aliases[t]
		if !ok {
			return 0, false
		}
		t = d
	}
	return 0, false
}

// expr converts an expression node to a symbolic expression, folding what it can.
func (e *env) expr(fl *flat, i int32) *ir.Expr {
	return e.exprDepth(fl, i, 0)
}

func (e *env) exprDepth(fl *flat, i int32, depth int) *ir.Expr {
	if i < 0 {
		return nil
	}
	if depth > 200 {
		return unknownOf(fl, i)
	}
	n := &fl.n[i]
	switch n.kind() {
	case "number_literal":
		if v, ok := parseInt(fl.text(i)); ok {
			return ir.Const(v)
		}
	case "true":
		return ir.Const(1)
	case "false":
		return ir.Const(0)
	case "identifier", "qualified_identifier":
		name := strings.ReplaceAll(fl.text(i), " ", "")
		if e.fb != nil {
			if b, ok := e.fb.lookup(name); ok && b.sym != nil {
				e.fb.usedValue(b)
				return b.sym
			}
			if x := e.member(name); x != nil {
				return x
			}
		}
		if k := strings.IndexByte(name, '<'); k >= 0 && strings.Contains(name, ">::") {
			// Tiling<T>::VL names the member VL of the class template Tiling.
			name = name[:k] + name[strings.LastIndex(name, ">::")+1:]
		}
		if x, ok := e.lw.symConsts[name]; ok {
			if e.fb == nil {
				return x
			}
			if _, shadowed := e.fb.lookup(name); !shadowed {
				return x
			}
		}
		if v, isConst, ok := e.lookup(name); ok {
			if isConst {
				return ir.Const(v)
			}
			return ir.Sym(name)
		}
		if isIdentifier(lastComponent(name)) {
			if sc := e.lw.scope(); sc != nil {
				if x, ok := sc.Value(name); ok {
					return x
				}
			}
		}
		return ir.Sym(name)
	case "field_expression":
		name := strings.ReplaceAll(fl.text(i), " ", "")
		if m, ok := strings.CutPrefix(name, "this->"); ok {
			if x := e.member(m); x != nil {
				return x
			}
		}
		return ir.Sym(name)
	case "parenthesized_expression":
		ch := fl.named(i)
		if len(ch) == 1 {
			return e.exprDepth(fl, ch[0], depth+1)
		}
	case "condition_clause":
		if v := fl.child(i, "value"); v >= 0 {
			return e.exprDepth(fl, v, depth+1)
		}
	case "binary_expression":
		l, r := fl.child(i, "left"), fl.child(i, "right")
		if l >= 0 && r >= 0 {
			return ir.Bin(fl.operator(i), e.exprDepth(fl, l, depth+1), e.exprDepth(fl, r, depth+1))
		}
	case "unary_expression":
		arg := fl.child(i, "argument")
		x := e.exprDepth(fl, arg, depth+1)
		switch fl.operator(i) {
		case "-":
			return ir.Neg(x)
		case "+":
			return x
		case "!":
			if v, ok := x.Value(); ok {
				if v == 0 {
					return ir.Const(1)
				}
				return ir.Const(0)
			}
		case "~":
			if v, ok := x.Value(); ok {
				return ir.Const(^v)
			}
		}
	case "sizeof_expression":
		if t := fl.child(i, "type"); t >= 0 {
			tt := normSpace(fl.text(t))
			if sz, ok := e.typeSize(tt); ok {
				return ir.Const(sz)
			}
			return &ir.Expr{Kind: ir.ExprSizeof, Name: tt}
		}
		if v := fl.child(i, "value"); v >= 0 {
			tt := strings.Trim(normSpace(fl.text(v)), "() ")
			if sz, ok := e.typeSize(tt); ok {
				return ir.Const(sz)
			}
			return &ir.Expr{Kind: ir.ExprSizeof, Name: tt}
		}
	case "cast_expression":
		return e.exprDepth(fl, fl.child(i, "value"), depth+1)
	case "call_expression":
		if v, ok := sizeCall(fl, i); ok {
			return ir.Const(v)
		}
		if x := e.constCall(fl, i); x != nil {
			return x
		}
		if e.fb != nil {
			ci := e.fb.callee(i)
			if ci.cast {
				if al := fl.child(i, "arguments"); al >= 0 {
					if ch := fl.named(al); len(ch) == 1 {
						return e.exprDepth(fl, ch[0], depth+1)
					}
				}
			}
		}
	case "conditional_expression":
		c := e.exprDepth(fl, fl.child(i, "condition"), depth+1)
		if v, ok := c.Value(); ok {
			if v != 0 {
				return e.exprDepth(fl, fl.child(i, "consequence"), depth+1)
			}
			return e.exprDepth(fl, fl.child(i, "alternative"), depth+1)
		}
	}
	return unknownOf(fl, i)
}

// maxUnknownText bounds the text an expression the lowering does not fold
// keeps: each level of a deep expression would otherwise copy the text of
// all the levels under it (a = a = ... = 1, a megabyte of it, took 5 GB).
const maxUnknownText = 1 << 10

// unknownOf is the opaque value of node i: its text, white space
// normalised; a longer text is named by its offset, so that it equals no
// other expression (two long expressions are never taken for one).
func unknownOf(fl *flat, i int32) *ir.Expr {
	n := &fl.n[i]
	if n.end-n.start > maxUnknownText {
		return ir.Unknown("<expression of " + strconv.Itoa(int(n.end-n.start)) + " bytes at offset " + strconv.Itoa(int(n.start)) + ">")
	}
	return ir.Unknown(normSpace(fl.text(i)))
}

// sizeCall folds a call of a platform size query (ir.SizeCalls), at any
// scope: GetVRegSize(), platform::GetVRegSize(), Ops::Base::GetUbBlockSize(),
// and the host-side form that takes the tiling context.
func sizeCall(fl *flat, i int32) (int64, bool) {
	fn := fl.child(i, "function")
	if fn < 0 {
		return 0, false
	}
	name := fl.text(fn)
	if k := strings.IndexByte(name, '<'); k >= 0 {
		name = name[:k]
	}
	if k := strings.LastIndexAny(name, ":.>"); k >= 0 {
		name = name[k+1:]
	}
	v, ok := ir.SizeCalls[strings.TrimSpace(name)]
	if !ok {
		return 0, false
	}
	if al := fl.child(i, "arguments"); al >= 0 && len(fl.named(al)) > 1 {
		return 0, false
	}
	return v, true
}

// constCall folds a call without arguments of a constexpr function of
// the headers (GetVLEleNums<T>()) through the project index.
func (e *env) constCall(fl *flat, i int32) *ir.Expr {
	if al := fl.child(i, "arguments"); al < 0 || len(fl.named(al)) > 0 {
		return nil
	}
	fn := fl.child(i, "function")
	if fn < 0 {
		return nil
	}
	text := normSpace(fl.text(fn))
	name := lastComponent(text)
	if !isIdentifier(name) {
		return nil
	}
	// The scope last: making it reads the headers, which a call with
	// arguments never needs.
	sc := e.lw.scope()
	if sc == nil {
		return nil
	}
	x, _ := sc.Call(name, splitTargs(text))
	return x
}

// member returns the value of a data member of the region's class set
// once (memberValues), unless a local or parameter shadows it.
func (e *env) member(name string) *ir.Expr {
	if e.fb == nil || e.fb.class == "" {
		return nil
	}
	x := e.lw.memberValues(e.fb.class)[name]
	if x == nil {
		return nil
	}
	if _, shadowed := e.fb.lookup(name); shadowed {
		return nil
	}
	return x
}

// parseInt parses a C++ integer literal (decimal, hex, octal, binary, digit
// separators, u/l suffixes). Floating literals are not integers.
func parseInt(s string) (int64, bool) {
	s = strings.ReplaceAll(s, "'", "")
	s = strings.TrimRight(s, "uUlLzZ")
	if s == "" {
		return 0, false
	}
	base := 10
	switch {
	case strings.HasPrefix(s, "0x") || strings.HasPrefix(s, "0X"):
		base, s = 16, s[2:]
	case strings.HasPrefix(s, "0b") || strings.HasPrefix(s, "0B"):
		base, s = 2, s[2:]
	case len(s) > 1 && s[0] == '0':
		base, s = 8, s[1:]
	}
	v, err := strconv.ParseUint(s, base, 64)
	if err != nil || v > 1<<63-1 {
		return 0, false
	}
	return int64(v), true
}

// pragmaUnroll returns N of a "#pragma unroll N" on the line before the
// statement at start (-1 for a bare "#pragma unroll"), 0 when there is none.
func pragmaUnroll(src []byte, start int) int {
	i := start
	for i > 0 && (src[i-1] == ' ' || src[i-1] == '\t') {
		i--
	}
	if i == 0 || src[i-1] != '\n' {
		return 0 // something else before the loop on its line
	}
	end := i - 1
	begin := bytes.LastIndexByte(src[:end], '\n') + 1
	if line := bytes.TrimLeft(src[begin:end], " \t\v\f\r"); len(line) == 0 || line[0] != '#' && line[0] < 0x80 {
		return 0 // not a directive: the common case, without the copy
	}
	f := strings.Fields(string(src[begin:end]))
	switch {
	case len(f) >= 2 && f[0] == "#pragma" && f[1] == "unroll":
		f = f[2:]
	case len(f) >= 3 && f[0] == "#" && f[1] == "pragma" && f[2] == "unroll":
		f = f[3:]
	default:
		return 0
	}
	if len(f) == 0 {
		return -1
	}
	n, err := strconv.Atoi(strings.Trim(f[0], "()"))
	if err != nil || n < 1 {
		return 0
	}
	return n
}
