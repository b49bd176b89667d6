package cppfront

import (
	"go/token"
	"slices"
	"sort"
	"strings"

	sitter "github.com/tree-sitter/go-tree-sitter"

	"github.com/ascvet/ascvet/cppfront/internal/tsutil"
	"github.com/ascvet/ascvet/cppfront/ir"
)

// Values passed by callers.
//
// A VF function often takes its vector length or stride as a parameter
// from a caller that computes it from constants:
//
//	uint32_t vfLen = platform::GetVRegSize() / sizeof(float);   // in the caller
//	ComputeVf(dst, src, n, vfLen);
//
//	__simd_vf__ void ComputeVf(..., uint32_t vfLen) { ... src + i * vfLen ... }
//
// When every call of a function in its file is found, and each passes the
// same value for a parameter, fixed for the whole run (built from constants
// and element sizes), the function is lowered again with that parameter
// bound to the value, as a local initialised with it would be: an
// assignment to the parameter in a loop still takes the value away
// (localValue). A call ascvet cannot find or evaluate leaves the parameter
// unknown. The caller is evaluated the way a __VEC_SCOPE__ block sees its
// function (funcBuilder.enclosing): parameters, and the variables declared
// on the way down to the call.

// callSite is one call of a region's function, evaluated in its caller.
type callSite struct {
	fb     *funcBuilder // a quiet builder holding the caller's names at the call
	fl     *flat        // the caller, flattened
	call   int32        // the call_expression in fl
	targs  []string     // the callee's template arguments as written (F<T, 4>)
	guards []guard      // the is_same guards of the if constexpr branches around the call
}

// callSiteFacts lowers again each region whose calls in the file pass it
// fixed values (parameters, non-type template parameters), and records the
// element types its template parameters take (Func.Instances).
func (lw *lowerer) callSiteFacts(regions []region) {
	flats := map[uint]*flat{} // caller definitions, flattened once, by start byte
	for _, r := range regions {
		fn := lw.f.Funcs[r.at]
		if !r.kind.Analysed() || !usesParams(fn, r.fd.own) {
			continue
		}
		own := len(lw.callOffsets(lastComponent(r.fd.name), int(r.fd.start), int(r.fd.end))) > 0
		var sites []callSite
		if own {
			var ok bool
			if sites, ok = lw.callSites(r.fd, flats); !ok {
				continue
			}
		}
		ext, extOK := lw.includerCalls(r.fd)
		if !own && len(ext) == 0 {
			continue
		}
		var vals map[string]*ir.Expr
		var zo map[string]bool
		var inst map[string][]string
		var tuples []ir.Bindings
		if own {
			vals = paramAgreement(sites, fn.Params, r.fd)
			inst = instancesOf(sites, r.fd.own, vals, fn.Params)
			tuples = siteTuples(sites, r.fd.own, vals, fn.Params)
			zo = zeroOneParams(sites, fn.Params, vals)
		}
		if len(ext) > 0 || !extOK {
			vals, zo = lw.withIncluderCalls(ext, extOK, own, fn.Params, vals, zo)
		}
		if len(zo) > 0 {
			if lw.zeroOne == nil {
				lw.zeroOne = map[token.Pos]map[string]bool{}
			}
			lw.zeroOne[fn.Pos] = zo
		}
		if len(vals) > 0 || len(zo) > 0 {
			fn = lw.lowerFunc(r.fd, r.kind, vals)
			lw.f.Funcs[r.at] = fn
		}
		if len(inst) > 0 {
			fn.Instances = inst
		}
		if len(tuples) > 0 {
			fn.Tuples = tuples
		}
	}
}

// siteTuples returns the instantiations the call sites make, one per
// distinct site, when they differ in a value template argument that no
// agreement binds (F<float, 8>(...) and F<float, 32>(...)): each site binds
// the value parameters its arguments fold to a constant (a number, a
// constant in scope) and the type parameters instancesOf reads one type
// for at that site alone. Instances alone would give the types, not the
// values, and would pair every type with every value. nil when no value
// parameter differs, or when the sites make more than
// ir.MaxInstantiations.
func siteTuples(sites []callSite, own []string, vals map[string]*ir.Expr, params []ir.Param) []ir.Bindings {
	differs := false
	var out []ir.Bindings
	seen := map[string]bool{}
	first := map[string]string{} // a value parameter's value at the first site that folds it
	for _, s := range sites {
		b := ir.Bindings{Types: map[string]string{}, Values: map[string]*ir.Expr{}}
		var types map[string][]string
		for j, p := range own {
			if p == "" || vals[p] != nil || j >= len(s.targs) {
				continue
			}
			if v := s.fb.constant(s.targs[j]); v != nil {
				b.Values[p] = v
				if f, ok := first[p]; !ok {
					first[p] = v.String()
				} else if f != v.String() {
					differs = true
				}
				continue
			}
			if types == nil {
				types = instancesOf([]callSite{s}, own, vals, params)
			}
			if ts := types[p]; len(ts) == 1 {
				b.Types[p] = ts[0]
			}
		}
		if k := b.String(); !seen[k] {
			seen[k] = true
			out = append(out, b)
		}
	}
	if !differs || len(out) > ir.MaxInstantiations {
		return nil
	}
	return out
}

// zeroOneParams returns the scalar parameters to which every call passes
// a value that is 0 or 1 and not fixed (a comparison, a bool, c ? 1 : 0,
// a local initialised with one): a loop they bound runs at most once
// (hasTail = tail > 0 ? 1 : 0; Fold(..., hasTail) and in Fold,
// for (i = 0; i < hasTail; ++i)).
func zeroOneParams(sites []callSite, params []ir.Param, vals map[string]*ir.Expr) map[string]bool {
	var out map[string]bool
	for k, p := range params {
		if p.Reg != ir.NoReg || p.Ptr || p.Name == "" || vals[p.Name] != nil {
			continue
		}
		all := true
		for _, s := range sites {
			args := s.args()
			if len(args) != len(params) {
				all = false
				break
			}
			a := args[k]
			zo := s.fb.zeroOne(a)
			if !zo && s.fl.n[a].kind() == "identifier" {
				b, ok := s.fb.lookup(s.fl.text(a))
				zo = ok && b.bool01
			}
			if !zo {
				all = false
				break
			}
		}
		if all {
			if out == nil {
				out = map[string]bool{}
			}
			out[p.Name] = true
		}
	}
	return out
}

// usesParams reports whether what the call sites could tell matters to the
// analyses: a scalar parameter or a template parameter of the function is
// in an instruction's operand, element type or a loop's header.
func usesParams(fn *ir.Func, own []string) bool {
	var names []string
	for _, p := range fn.Params {
		if p.Reg == ir.NoReg && p.Name != "" {
			names = append(names, p.Name)
		}
	}
	for _, p := range own {
		if p != "" {
			names = append(names, p)
		}
	}
	if len(names) == 0 {
		return false
	}
	mentions := func(e *ir.Expr) bool {
		for _, n := range names {
			if e.Mentions(n) {
				return true
			}
		}
		return false
	}
	for _, l := range fn.Loops {
		if mentions(l.Bound) || mentions(l.Init) || mentions(l.Step) {
			return true
		}
	}
	for _, in := range fn.Instrs {
		if slices.Contains(names, in.Elem) {
			return true
		}
		for _, a := range in.Args {
			if mentions(a.Expr) {
				return true
			}
		}
	}
	return false
}

// callSites finds every call of fd's function in the file, outside its own
// definition; ok is false when there is none, too many, or one that is not
// inside a function definition.
func (lw *lowerer) callSites(fd funcDef, flats map[uint]*flat) ([]callSite, bool) {
	name := lastComponent(fd.name)
	offs := lw.callOffsets(name, int(fd.start), int(fd.end))
	if len(offs) == 0 || len(offs) > 64 {
		return nil, false
	}
	sites := make([]callSite, 0, len(offs))
	for _, off := range offs {
		at, seen := lw.siteAt[off]
		if !seen {
			at.site, at.ok = lw.callSite(off, name, flats)
			if lw.siteAt == nil {
				lw.siteAt = map[int]siteAt{}
			}
			lw.siteAt[off] = at
		}
		if !at.ok {
			return nil, false
		}
		sites = append(sites, at.site)
	}
	return sites, true
}

// siteAt is a call evaluated in its caller, kept by the offset of the
// name called: functions of one name (overloads, specialisations, methods
// of several classes) share their call sites, as a call is found by name.
// Over the CANN repositories 17,887 call sites are asked for and 9,704
// evaluated. A site's readers only evaluate in its builder, so one
// evaluation serves every function of the name, and every __VEC_SCOPE__
// block of a function, each of which asks twice (scopeCallerFacts,
// scopeInstances).
type siteAt struct {
	site callSite
	ok   bool
}

// callSite evaluates the call of name at off in its caller.
func (lw *lowerer) callSite(off int, name string, flats map[uint]*flat) (callSite, bool) {
	path := tsutil.Path(lw.rootAt(off), uint(off), uint(off+len(name)))
	var call, def *sitter.Node
	for k := len(path) - 1; k >= 0; k-- {
		n := &path[k]
		kind, _ := kindOf(n.KindId())
		if kind == "call_expression" && call == nil {
			if f := n.ChildByFieldName("function"); f != nil && f.StartByte() <= uint(off) && uint(off) < f.EndByte() {
				call = n
			}
		}
		if kind == "function_definition" {
			def = n
			break
		}
	}
	if call == nil || def == nil {
		return callSite{}, false
	}
	fl := flats[def.StartByte()]
	if fl == nil {
		fl = lw.flats.flatten(def, lw.src, def.HasError(), lw.budget)
		flats[def.StartByte()] = fl
	}
	ci := int32(-1)
	cs, ce := uint32(call.StartByte()), uint32(call.EndByte())
	// The flat tree is in pre-order: its nodes' starts never decrease.
	for i := sort.Search(len(fl.n), func(i int) bool { return fl.n[i].start >= cs }); i < len(fl.n) && fl.n[i].start == cs; i++ {
		if fl.n[i].end == ce && fl.n[i].kind() == "call_expression" {
			ci = int32(i)
			break
		}
	}
	for i := 0; ci < 0 && i < len(fl.n); i++ { // not found: the order did not hold
		if fl.n[i].start == cs && fl.n[i].end == ce && fl.n[i].kind() == "call_expression" {
			ci = int32(i)
		}
	}
	if ci < 0 {
		return callSite{}, false
	}
	fb := newFuncBuilder(lw, &ir.Func{}, fl)
	fb.noNames = true // the call's values are what is read, not the caller's IR
	fb.enclosing(ci)
	fb.quiet = true
	s := callSite{fb: fb, fl: fl, call: ci}
	if j := skipSpace(lw.src, off+len(name)); j < len(lw.src) && lw.src[j] == '<' {
		if k := matchAngle(lw.src, j); k > j {
			s.targs = splitTargs(name + string(lw.src[j:k+1]))
		}
	}
	// The is_same guards of the if constexpr branches around the call.
	for c, p := ci, fl.n[ci].parent; p >= 0; c, p = p, fl.n[p].parent {
		if fl.n[p].kind() != "if_statement" || !fl.hasToken(p, "constexpr") || fl.child(p, "consequence") != c {
			continue
		}
		cond := fl.ifCondition(p)
		if cond < 0 {
			continue
		}
		if m := sameRE.FindStringSubmatch(normSpace(fl.text(cond))); m != nil {
			s.guards = append(s.guards, guard{m[1], m[2]}, guard{m[2], m[1]})
		}
	}
	return s, true
}

// matchAngle returns the index of the > that closes the < at j, or -1.
func matchAngle(src []byte, j int) int {
	return angleEnd(j, len(src), func(k int) byte { return src[k] })
}

// angleEnd returns the index of the > that closes the < at j in a sequence
// of n items, each of them the punctuator at(k) (0 for none), or -1 when
// a ; { or } or the end comes first.
func angleEnd(j, n int, at func(k int) byte) int {
	depth := 0
	for k := j; k < n; k++ {
		switch at(k) {
		case '<':
			depth++
		case '>':
			if depth--; depth == 0 {
				return k
			}
		case ';', '{', '}':
			return -1
		}
	}
	return -1
}

// paramAgreement returns, by name, the value every call site passes to a
// scalar parameter, and to a non-type template parameter, where the sites
// agree and the value is fixed for the run.
func paramAgreement(sites []callSite, params []ir.Param, fd funcDef) map[string]*ir.Expr {
	type slot struct {
		name string
		val  func(s callSite) *ir.Expr
	}
	var slots []slot
	for k, p := range params {
		if p.Reg != ir.NoReg || p.Name == "" {
			continue
		}
		slots = append(slots, slot{p.Name, func(s callSite) *ir.Expr {
			args := s.args()
			if len(args) != len(params) {
				return nil
			}
			return calleeTerms(s.fb.env.expr(s.fl, args[k]), fd, s.targs)
		}})
	}
	for j, p := range fd.own {
		if p == "" {
			continue
		}
		slots = append(slots, slot{p, func(s callSite) *ir.Expr {
			if j >= len(s.targs) {
				return nil
			}
			return s.fb.constant(s.targs[j])
		}})
	}
	vals := map[string]*ir.Expr{}
	for _, sl := range slots {
		var agreed *ir.Expr
		for n, s := range sites {
			v := sl.val(s)
			if v == nil || n > 0 && v.String() != agreed.String() {
				agreed = nil
				break
			}
			agreed = v
		}
		if agreed != nil {
			vals[sl.name] = agreed
		}
	}
	return vals
}

// args returns the argument nodes of the call.
func (s callSite) args() []int32 {
	var out []int32
	if al := s.fl.child(s.call, "arguments"); al >= 0 {
		for _, a := range s.fl.named(al) {
			if s.fl.n[a].kind() != "comment" {
				out = append(out, a)
			}
		}
	}
	return out
}

// instancesOf returns the element types each template parameter takes at
// the call sites, or nil when a site does not say (see callSiteFacts).
func instancesOf(sites []callSite, own []string, vals map[string]*ir.Expr, params []ir.Param) map[string][]string {
	inst := map[string][]string{}
	for j, p := range own {
		if p == "" || vals[p] != nil {
			continue // a non-type parameter
		}
		var types []string
		for _, s := range sites {
			t := p // no template arguments: a member of the same class template
			if len(s.targs) == 0 {
				if d := s.deduce(p, params); d != "" {
					t = d // deduced from the type of an argument
				}
			} else {
				if j >= len(s.targs) {
					types = nil
					break
				}
				t = s.targs[j]
			}
			ts := s.typesOf(t)
			for k := range ts {
				ts[k] = narrow(ts[k], s.guards)
				if _, ok := ir.ElemSize(ts[k]); !ok {
					ts = nil
					break
				}
			}
			if len(ts) == 0 {
				types = nil
				break
			}
			for _, t := range ts {
				if !slices.Contains(types, t) {
					types = append(types, t)
				}
			}
		}
		if len(types) > 0 {
			inst[p] = types
		}
	}
	return inst
}

// typesOf returns the types a template argument t written at the call may
// be: t itself, or, for a type alias the caller declares before the call
// (using OFFSET_T = typename std::conditional<C, uint16_t, uint32_t>::type;)
// or the file declares, what the alias names; both arms of a
// std::conditional whose condition the call does not decide.
func (s callSite) typesOf(t string) []string {
	for range 4 {
		def, ok := s.localAlias(t)
		if !ok {
			def, ok = s.fb.lw.tyAlias[t]
		}
		if !ok {
			break
		}
		t = def
	}
	return conditionalArms(t, 0)
}

// localAlias finds the last alias declaration of name in the caller
// before the call.
func (s callSite) localAlias(name string) (string, bool) {
	fl := s.fl
	at := fl.n[s.call].start
	def, found := "", false
	for i := range fl.n {
		if fl.n[i].start >= at {
			break
		}
		if k := fl.n[i].kind(); k != "alias_declaration" && k != "type_definition" {
			continue
		}
		m := map[string]string{}
		aliasText(fl.text(int32(i)), m)
		if v, ok := m[name]; ok {
			def, found = v, true
		}
	}
	return def, found
}

// conditionalArms splits typename std::conditional<C, A, B>::type (or
// std::conditional_t<C, A, B>) into the types it may name.
func conditionalArms(t string, depth int) []string {
	_, a, b, ok := ir.SplitConditional(t)
	if !ok || depth > 4 {
		return []string{strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(t), "typename "))}
	}
	out := conditionalArms(a, depth+1)
	for _, b := range conditionalArms(b, depth+1) {
		if !slices.Contains(out, b) {
			out = append(out, b)
		}
	}
	return out
}

// deduce returns the type the template parameter p takes at the call from
// the declared type of an argument, as the compiler deduces it: an
// argument passed to a parameter T* (a pointer to an element type, a cast
// (__ubuf__ float*)..., x.GetPhyAddr() of a LocalTensor<float>) or to a
// parameter Tensor<T> (a variable declared Tensor<float>). It returns ""
// when no argument says.
func (s callSite) deduce(p string, params []ir.Param) string {
	args := s.args()
	if len(args) != len(params) {
		return ""
	}
	for k, prm := range params {
		pat := bareType(prm.Type)
		var got argType
		switch {
		case pat == p && prm.Ptr:
			got = s.argType(args[k])
			if got.ptrs != 1 {
				continue
			}
		case strings.HasSuffix(pat, "<"+p+">") && !prm.Ptr:
			got = s.argType(args[k])
			if got.ptrs != 0 || lastComponent(got.tmpl) != lastComponent(strings.TrimSuffix(pat, "<"+p+">")) {
				continue
			}
		default:
			continue
		}
		if got.elem != "" {
			return got.elem
		}
	}
	return ""
}

// argType is what deduce reads of an argument's type: the pointers, and
// either the element type (float*) or a template and its one argument
// (LocalTensor<float>: tmpl LocalTensor, elem float).
type argType struct {
	tmpl, elem string
	ptrs       int
}

// argType returns the type of the argument a as the caller declares it.
func (s callSite) argType(a int32) argType {
	fl := s.fl
	switch fl.n[a].kind() {
	case "cast_expression":
		if ty := fl.child(a, "type"); ty >= 0 {
			return splitType(fl.text(ty), 0)
		}
	case "identifier":
		return s.declType(fl.text(a))
	case "parenthesized_expression":
		if ch := fl.named(a); len(ch) == 1 {
			return s.argType(ch[0])
		}
	case "binary_expression": // p + off: the pointer's type
		if op := fl.operator(a); op == "+" || op == "-" {
			if l := fl.child(a, "left"); l >= 0 {
				if t := s.argType(l); t.ptrs == 1 && t.tmpl == "" {
					return t
				}
			}
		}
	case "call_expression": // x.GetPhyAddr()
		f := fl.child(a, "function")
		if f < 0 || fl.n[f].kind() != "field_expression" {
			break
		}
		if fld := fl.child(f, "field"); fld < 0 || fl.text(fld) != "GetPhyAddr" {
			break
		}
		if x := fl.child(f, "argument"); x >= 0 && fl.n[x].kind() == "identifier" {
			if t := s.declType(fl.text(x)); t.tmpl != "" && t.ptrs == 0 {
				return argType{elem: t.elem, ptrs: 1}
			}
		}
	}
	return argType{}
}

// declType returns the declared type of name in the caller: the last
// declaration or parameter of that name before the call.
func (s callSite) declType(name string) argType {
	fl := s.fl
	var out argType
	at := fl.n[s.call].start
	for i := range fl.n {
		n := &fl.n[i]
		if n.start >= at {
			break
		}
		if n.kind() != "declaration" && n.kind() != "parameter_declaration" {
			continue
		}
		ty := fl.child(int32(i), "type")
		if ty < 0 {
			continue
		}
		for _, d := range fl.fields(int32(i), "declarator") {
			dn, ptrs := declPtrs(fl, d)
			if dn == name {
				out = splitType(fl.text(ty), ptrs)
			}
		}
	}
	return out
}

// declPtrs returns the name a declarator declares and its pointer depth.
func declPtrs(fl *flat, d int32) (string, int) {
	ptrs := 0
	for i := 0; i < 32 && d >= 0; i++ {
		switch fl.n[d].kind() {
		case "identifier":
			return fl.text(d), ptrs
		case "pointer_declarator":
			ptrs++
			d = fl.child(d, "declarator")
		case "init_declarator", "reference_declarator":
			if c := fl.child(d, "declarator"); c >= 0 {
				d = c
			} else if ch := fl.named(d); len(ch) > 0 {
				d = ch[len(ch)-1]
			} else {
				return "", 0
			}
		default:
			return "", 0
		}
	}
	return "", 0
}

// splitType reads a type as written ("__ubuf__ float *", "LocalTensor<half>",
// "const AscendC::LocalTensor<float>") plus ptrs pointers from its
// declarator into an argType; qualifiers and references are dropped.
func splitType(text string, ptrs int) argType {
	ptrs += strings.Count(text, "*")
	t := bareType(strings.ReplaceAll(text, "*", " "))
	if k := strings.IndexByte(t, '<'); k > 0 && strings.HasSuffix(t, ">") {
		arg := strings.TrimSpace(t[k+1 : len(t)-1])
		if strings.ContainsAny(arg, "<>,") {
			return argType{}
		}
		return argType{tmpl: t[:k], elem: arg, ptrs: ptrs}
	}
	if strings.ContainsAny(t, " <>,()") {
		return argType{}
	}
	return argType{elem: t, ptrs: ptrs}
}

// bareType drops the qualifiers and references of a type as written.
func bareType(text string) string {
	var keep []string
	for _, w := range strings.Fields(strings.ReplaceAll(text, "&", " ")) {
		switch w {
		case "const", "volatile", "__ubuf__", "__gm__", "__local_mem__", "__restrict__", "__aicore__":
			continue
		}
		keep = append(keep, w)
	}
	return strings.Join(keep, " ")
}

// narrow resolves a template argument that is a parameter of the caller
// by the guards around the call.
func narrow(t string, gs []guard) string {
	if _, ok := ir.ElemSize(t); ok {
		return t
	}
	for _, g := range gs {
		if g.param == t {
			if _, ok := ir.ElemSize(g.typ); ok {
				return g.typ
			}
		}
	}
	return ""
}

// constant folds a template argument as written in the caller: a literal,
// or a name whose value the caller or the file knows.
func (fb *funcBuilder) constant(text string) *ir.Expr {
	if v, ok := parseInt(text); ok {
		return ir.Const(v)
	}
	if !isIdentifier(text) {
		return nil
	}
	if v, isConst, ok := fb.env.lookup(text); ok && isConst {
		return ir.Const(v)
	}
	return nil
}

// calleeTerms returns v, a value computed in the caller, in the callee's
// terms, or nil when it is not fixed for the run: its element sizes must
// be of known types, or of a template argument of the call that names a
// parameter of the callee (or, with no template arguments, a parameter of
// the same name, as in a member of the same class template).
func calleeTerms(v *ir.Expr, callee funcDef, targs []string) *ir.Expr {
	if !v.Known() || !v.Pure() {
		return nil
	}
	ok := true
	out := v.Subst(func(k ir.ExprKind, name string) *ir.Expr {
		if _, sized := ir.ElemSize(name); k != ir.ExprSizeof || sized {
			return nil
		}
		for j, a := range targs {
			if a == name && j < len(callee.own) && callee.own[j] != "" {
				return &ir.Expr{Kind: ir.ExprSizeof, Name: callee.own[j]}
			}
		}
		if len(targs) > 0 || !callee.tparams[name] {
			ok = false
		}
		return nil
	})
	if !ok {
		return nil
	}
	return out
}

// splitTargs returns the template arguments of a callee as written
// (F<T, 4>), or nil.
func splitTargs(callee string) []string {
	k := strings.IndexByte(callee, '<')
	if k < 0 || !strings.HasSuffix(callee, ">") {
		return nil
	}
	var out []string
	for _, a := range splitTop(callee[k+1 : len(callee)-1]) {
		out = append(out, normSpace(a))
	}
	return out
}
