package cppfront

import (
	"maps"
	"slices"

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
	// inLoopHeader counts the loop headers (initialiser, condition) being
	// lowered around the current node: a loop inside one is not lowered.
	inLoopHeader int

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
	noNames        bool                // record no Func.Names: the builder of a call site's caller, whose function no one reads (callSite)
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
				case fl.n[c].kind() == "if_statement" && fl.hasToken(c, "constexpr"):
					fb.foldedIf(c)
				default:
					fb.killAssigned(c)
				}
			}
		}
	}
}

// foldedIf is enclosing's reading of an if constexpr statement i before
// the block: when its condition folds, only the branch the compiler builds
// happens, and there an assignment of a constant to a scalar sets its
// value (uint32_t step = 64; if constexpr (kMode == 0) { step = 32; }
// leaves step 32 in mode 0, 64 otherwise); any other write kills the value
// as before. A condition that does not fold kills what either branch
// writes.
func (fb *funcBuilder) foldedIf(i int32) {
	fl := fb.fl
	var v int64
	ok := false
	if cond := fl.ifCondition(i); cond >= 0 {
		v, ok = fb.env.expr(fl, cond).Value()
	}
	if !ok {
		fb.killAssigned(i)
		return
	}
	branch := fl.child(i, "consequence")
	if v == 0 {
		branch = fl.child(i, "alternative")
		if branch >= 0 && fl.n[branch].kind() == "else_clause" {
			branch = -1
			if kids := fl.named(fl.child(i, "alternative")); len(kids) > 0 {
				branch = kids[0]
			}
		}
	}
	if branch < 0 {
		return
	}
	stmts := []int32{branch}
	if fl.n[branch].kind() == "compound_statement" {
		stmts = fl.named(branch)
	}
	for _, st := range stmts {
		switch {
		case fl.n[st].kind() == "if_statement" && fl.hasToken(st, "constexpr"):
			fb.foldedIf(st)
		case !fb.constAssign(st):
			fb.killAssigned(st)
		}
	}
}

// constAssign sets, for the expression statement st "name = constant;" of
// a scalar variable enclosing has bound, the variable's value, and reports
// whether st was one.
func (fb *funcBuilder) constAssign(st int32) bool {
	fl := fb.fl
	kids := fl.named(st)
	if fl.n[st].kind() != "expression_statement" || len(kids) != 1 || fl.n[kids[0]].kind() != "assignment_expression" || fl.operator(kids[0]) != "=" {
		return false
	}
	left, right := fl.child(kids[0], "left"), fl.child(kids[0], "right")
	if left < 0 || right < 0 || fl.n[left].kind() != "identifier" {
		return false
	}
	name := fl.text(left)
	if b, ok := fb.lookup(name); !ok || b.reg != ir.NoReg || b.ptr {
		return false
	}
	v, ok := fb.env.expr(fl, right).Value()
	if !ok {
		return false
	}
	fb.killValue(name, ir.NoLoop)
	for k := len(fb.scopes) - 1; k >= 0; k-- {
		if b, found := fb.scopes[k][name]; found {
			b.isConst, b.val, b.sym, b.bool01 = true, v, nil, false
			fb.scopes[k][name] = b
			break
		}
	}
	return true
}

// neededDecls returns the declarations before blk on its path (the
// ancestors, outermost first) that blk needs: those that mention a name
// blk's text does, or a name another needed declaration's text does, found
// from the last declaration back. Any other one declares only names blk
// never reads and cannot change one it reads (its text would mention it),
// so enclosing need not lower it: a caller's body declares most of its
// locals for other calls, and lowering them all before each call site was
// most of the cost of reading call sites. What each block declares is
// found once (declOf): the call sites of one caller share them.
func (fb *funcBuilder) neededDecls(blk int32, path []int32) map[int32]bool {
	fl := fb.fl
	var decls []*blockDecl // in source order
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
				decls = append(decls, fb.lw.declOf(fb, c))
			}
		}
	}
	if len(decls) == 0 {
		return nil
	}
	// Only the names these declarations declare can be needed: a type
	// or a function every declaration mentions is not.
	declared := map[string]bool{}
	for _, d := range decls {
		for _, name := range d.declared {
			declared[name] = true
		}
	}
	needed := map[string]bool{}
	t := fl.src[fl.n[blk].start:fl.n[blk].end]
	eachIdent(t, func(k, e int) {
		if name := string(t[k:e]); declared[name] {
			needed[name] = true
		}
	})
	keep := make(map[int32]bool, len(decls))
	for j := len(decls) - 1; j >= 0; j-- {
		d := decls[j]
		if !slices.ContainsFunc(d.idents, func(id string) bool { return needed[id] }) {
			continue
		}
		keep[d.node] = true
		for _, id := range d.idents {
			if declared[id] {
				needed[id] = true
			}
		}
	}
	return keep
}

// nodeKey names a node of a flat tree.
type nodeKey struct {
	fl *flat
	at int32
}

// blockDecl is a declaration in a block: its node, the names it declares,
// and the identifiers its text holds (each once).
type blockDecl struct {
	node     int32
	declared []string
	idents   []string
}

// declOf returns what neededDecls reads of the declaration c of fb's flat
// tree, found on first use: the call sites of one caller share the
// declarations before them.
func (lw *lowerer) declOf(fb *funcBuilder, c int32) *blockDecl {
	fl := fb.fl
	k := nodeKey{fl, c}
	if d, ok := lw.declMemo[k]; ok {
		return d
	}
	d := &blockDecl{node: c}
	for _, dd := range fl.fields(c, "declarator") {
		if name := fb.declaredName(dd); name != "" {
			d.declared = append(d.declared, name)
		}
	}
	t := fl.src[fl.n[c].start:fl.n[c].end]
	seen := map[string]bool{}
	eachIdent(t, func(i, e int) {
		if id := string(t[i:e]); !seen[id] {
			seen[id] = true
			d.idents = append(d.idents, id)
		}
	})
	if lw.declMemo == nil {
		lw.declMemo = map[nodeKey]*blockDecl{}
	}
	lw.declMemo[k] = d
	return d
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
// helper defined in the file. Which names those may be is found once for
// a subtree of a caller (killTargets): enclosing reads the statements
// before each call site, and a caller's sites share them.
func (fb *funcBuilder) killAssigned(i int32) {
	fl := fb.fl
	var ts []killTarget
	if fb.quiet {
		k := nodeKey{fl, i}
		var ok bool
		if ts, ok = fb.lw.kills[k]; !ok {
			ts = fb.killTargets(i)
			if fb.lw.kills == nil {
				fb.lw.kills = map[nodeKey][]killTarget{}
			}
			fb.lw.kills[k] = ts
		}
	} else {
		ts = fb.killTargets(i)
	}
	for _, t := range ts {
		name := fl.text(t.node)
		if b, ok := fb.lookup(name); ok && b.reg == ir.NoReg && (!t.arg || !b.ptr) {
			fb.killValue(name, ir.NoLoop)
		}
	}
}

// killTarget is an identifier whose value a subtree may change: assigned,
// incremented, its address taken, or (arg) passed to a helper of the file
// that may write that parameter, which changes it unless it is a pointer.
type killTarget struct {
	node int32
	arg  bool
}

// killTargets returns the identifiers killAssigned forgets in the subtree
// at i, in order.
func (fb *funcBuilder) killTargets(i int32) []killTarget {
	fl := fb.fl
	var out []killTarget
	add := func(n int32, arg bool) {
		if n >= 0 && fl.n[n].kind() == "identifier" {
			out = append(out, killTarget{n, arg})
		}
	}
	for k := i; k < int32(len(fl.n)) && (k == i || fl.n[k].start < fl.n[i].end); k++ {
		switch fl.n[k].kind() {
		case "assignment_expression":
			add(fl.child(k, "left"), false)
		case "update_expression":
			add(fl.child(k, "argument"), false)
		case "pointer_expression":
			if fl.operator(k) == "&" {
				add(fl.child(k, "argument"), false)
			}
		case "argument_list":
			f := fl.child(fl.n[k].parent, "function")
			if f < 0 || !fb.lw.defined[lastComponent(fl.text(f))] {
				continue // not a helper of the file: see fillInstr
			}
			j := -1
			for _, a := range fl.named(k) {
				if fl.n[a].kind() == "comment" {
					continue
				}
				j++
				if fl.n[a].kind() == "identifier" && fb.lw.mayWrite(fl.text(f), j) {
					add(a, true)
				}
			}
		}
	}
	return out
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
