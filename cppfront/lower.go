package cppfront

import (
	"bytes"
	"go/token"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"

	sitter "github.com/tree-sitter/go-tree-sitter"

	"github.com/ascvet/ascvet/cppfront/internal/tsutil"
	"github.com/ascvet/ascvet/cppfront/ir"
)

// lowerer lowers one file.
type lowerer struct {
	f      *ir.File
	src    []byte // blanked source
	blanks []blank
	trees  []*sitter.Tree // the whole file's tree, or one per segment (segments.go)
	segs   []segment      // the segments, nil for a whole tree

	funcs     []funcDef                            // every function definition found at declaration level
	defined   map[string]bool                      // names of functions defined in the file (last component and qualified)
	macroFns  map[string]bool                      // the function-like macros the file defines (also in defined)
	refMu     *sync.Mutex                          // guards refs (lowerParallel's copies share both)
	refs      map[string][]bool                    // a helper of the file's name -> which parameters may be written through (refParams)
	tyAlias   map[string]string                    // file-level type aliases (using X = ...; typedef ... X;)
	clAlias   map[string]map[string]string         // class -> the type aliases its body declares
	clParams  map[string][]string                  // class template -> its parameters, in order
	regUsing  bool                                 // a using-directive brings Reg/MicroAPI names into scope
	knownNS   map[string]bool                      // namespaces and classes declared in the file
	symConsts map[string]*ir.Expr                  // file-scope constants with a fixed symbolic value (static constexpr VL = 256 / sizeof(T))
	fields    map[string]map[string]bool           // class -> its data members
	members   map[string]map[string]*ir.Expr       // class -> data members set once, with their value (memberValues)
	budget    *budget                              // the file's clock and tree-depth cut (limits.go)
	index     *Index                               // the project index, nil for none
	ixScope   *Scope                               // what the file sees through it, made on first use
	idents    map[string][]int                     // where a name starts as an identifier (callOffsets), per name on first use
	toks      *tokens                              // the tokens of src, made on first use (callOffsets)
	selfDefs  [][2]string                          // the file\'s object-like #defines: name, value
	includes  []string                             // the file\'s "..." includes, as written
	mac       *macroMap                            // same-file macro expansion (macro.go); nil when src is the file's own text
	classes   map[uint]string                      // the class of the first definition starting at each offset (classAt), made on first use
	membersMu *sync.Mutex                          // guards members (lowerParallel)
	flats     *flatCache                           // the flat trees made so far
	siteAt    map[int]siteAt                       // the call evaluated at each offset so far (callSites)
	declMemo  map[nodeKey]*blockDecl               // what neededDecls reads of each declaration before a call site, on first use
	kills     map[nodeKey][]killTarget             // what each statement before a call site may change (killAssigned), on first use
	regParams map[token.Pos]map[string]ir.RegClass // parameters of a template type that the callers pass registers of one class (deduceRegParams), by region
	zeroOne   map[token.Pos]map[string]bool        // scalar parameters every call passes 0 or 1 (zeroOneParams), by region
	noForeign bool                                 // link no call to a helper of another header (foreign.go)
	foreign   map[string][]*ir.Func                // the helpers of other headers by name, looked up once (foreignHelpers)
	includers map[string]includerSrc               // texts of files that include this one, read once (includerText), with their constants' memo
	xfiles    *[]string                            // the files of the folder and the one above that include this one (includerFiles), once found
}

// funcDef is a function definition found by the declaration-level walk.
type funcDef struct {
	node     *sitter.Node
	name     string
	start    uint32 // start of the definition, including blanked qualifiers before it
	end      uint32
	body     uint32 // start of the body
	template bool
	own      []string        // the function template's own parameters, in order
	class    string          // enclosing class for members ("" at namespace scope)
	tparams  map[string]bool // template parameters in scope (function and class)
}

func newLowerer(f *ir.File, src []byte, blanks []blank, trees []*sitter.Tree, segs []segment, b *budget) *lowerer {
	return &lowerer{f: f, src: src, blanks: blanks, trees: trees, segs: segs, defined: map[string]bool{}, tyAlias: map[string]string{}, clAlias: map[string]map[string]string{}, clParams: map[string][]string{}, knownNS: map[string]bool{}, symConsts: map[string]*ir.Expr{}, budget: b,
		fields: map[string]map[string]bool{}, members: map[string]map[string]*ir.Expr{}, membersMu: &sync.Mutex{}, flats: &flatCache{}, refMu: &sync.Mutex{}, refs: map[string][]bool{}}
}

// rootAt returns the root of the tree that holds the bytes at off: the
// whole file's, or its segment's.
func (lw *lowerer) rootAt(off int) *sitter.Node {
	return lw.trees[segmentOf(lw.segs, off)].RootNode()
}

// hasError reports whether a tree of the file has an error.
func (lw *lowerer) hasError() bool {
	for _, t := range lw.trees {
		if t.RootNode().HasError() {
			return true
		}
	}
	return false
}

func (lw *lowerer) pos(off uint32) token.Pos {
	if lw.mac != nil {
		return lw.f.Tok.Pos(lw.mac.toOrig(int(off)))
	}
	return lw.f.Tok.Pos(int(off))
}

func (lw *lowerer) run() {
	for _, t := range lw.trees {
		lw.walkDecls(t.RootNode(), false, "", nil, 0)
	}
	// Region discovery.
	scopeBlanks := map[int]bool{} // blanks that are __VEC_SCOPE__ markers
	for i, b := range lw.blanks {
		if b.text == "__VEC_SCOPE__" {
			scopeBlanks[i] = true
		}
	}
	var regions []region
	for _, fd := range lw.funcs {
		kind, ok := lw.regionKind(fd)
		if !ok {
			continue
		}
		if lw.noForeign && kind != ir.RegionSimdCallee && kind != ir.RegionSimdVF && kind != ir.RegionSimdCaller && kind != ir.RegionAicoreRegs {
			continue // a header lowered for its helpers (foreign.go): only functions a call can link to
		}
		regions = append(regions, region{fd: fd, kind: kind, at: len(lw.f.Funcs) + len(regions)})
	}
	if len(lw.segs) > 1 {
		lw.f.Funcs = append(lw.f.Funcs, lw.lowerParallel(regions)...)
	} else {
		for _, r := range regions {
			lw.f.Funcs = append(lw.f.Funcs, lw.lowerFunc(r.fd, r.kind, nil))
		}
	}
	if len(scopeBlanks) > 0 && !lw.noForeign {
		lw.lowerVecScopes(scopeBlanks)
	}
	lw.deduceRegParams(regions)
	if !lw.noForeign {
		// A header's helpers are lowered for another file's calls: what
		// the header's own callers pass them is not what that call does.
		lw.callSiteFacts(regions)
		lw.lowerOrphans()
	}
	sort.SliceStable(lw.f.Funcs, func(i, j int) bool { return lw.f.Funcs[i].Pos < lw.f.Funcs[j].Pos })
	linkCalls(lw.f, lw.foreignHelpers)
	lw.siblingCallers()
	lw.includerInstances()
	for name := range lw.defined {
		lw.f.Defined = append(lw.f.Defined, name)
	}
	sort.Strings(lw.f.Defined)
}

// lowerParallel lowers the regions of a big file (one parsed in segments)
// on GOMAXPROCS goroutines, and returns their functions in order. Each
// goroutine lowers with its own copy of the lowerer and of its clock;
// what lowering fills in on first use is made before (the project scope)
// or locked (its memo of values, class members). A panic in one (the
// clock's too) is raised again here, after the others stopped.
func (lw *lowerer) lowerParallel(regions []region) []*ir.Func {
	if lw.index != nil {
		lw.scope()
	}
	out := make([]*ir.Func, len(regions))
	var (
		mu      sync.Mutex
		stopped any
	)
	inParallel(len(regions), func(next <-chan int) {
		defer func() {
			if r := recover(); r != nil {
				mu.Lock()
				if stopped == nil {
					stopped = r
				}
				mu.Unlock()
			}
		}()
		w := *lw
		clock := *lw.budget
		w.budget = &clock
		for k := range next {
			mu.Lock()
			stop := stopped != nil
			mu.Unlock()
			if stop {
				return
			}
			out[k] = w.lowerFunc(regions[k].fd, regions[k].kind, nil)
		}
	})
	if stopped != nil {
		panic(stopped)
	}
	return out
}

// containers are node kinds the declaration-level walk descends into.
var containers = map[string]bool{
	"translation_unit": true, "namespace_definition": true, "declaration_list": true, "linkage_specification": true,
	"class_specifier": true, "struct_specifier": true, "union_specifier": true, "field_declaration_list": true,
	"preproc_if": true, "preproc_ifdef": true, "preproc_else": true, "preproc_elif": true, "preproc_elifdef": true,
	"declaration": true, "field_declaration": true, "ERROR": true, "export_declaration": true,
}

// walkDecls finds function definitions, constants, aliases and using
// directives at declaration level. It never enters function bodies, nor
// containers deeper than the budget's cut (depth counts its recursion).
func (lw *lowerer) walkDecls(n *sitter.Node, inTemplate bool, class string, tparams map[string]bool, depth int) {
	if depth > lw.budget.cut {
		return
	}
	c := n.Walk()
	defer c.Close()
	if !c.GotoFirstChild() {
		return
	}
	for {
		lw.budget.tick()
		ch := c.Node()
		kind, _ := kindOf(ch.KindId())
		switch kind {
		case "function_definition":
			lw.addFunc(ch, inTemplate, class, tparams)
		case "template_declaration":
			lw.walkDecls(ch, true, class, lw.templateParams(ch, tparams), depth+1)
			fdef := ch.NamedChild(ch.NamedChildCount() - 1)
			if fdef != nil && len(lw.funcs) > 0 && lw.funcs[len(lw.funcs)-1].node.Id() == fdef.Id() {
				lw.funcs[len(lw.funcs)-1].own = lw.ownParams(ch)
			}
			if fdef != nil {
				lw.classTemplate(fdef, ch)
			}
		case "namespace_alias_definition":
			lw.nsAlias(ch)
		case "preproc_def":
			// #define NAME value: the file's own definitions for the index.
			if nn, v := ch.ChildByFieldName("name"), ch.ChildByFieldName("value"); nn != nil && v != nil {
				lw.selfDefs = append(lw.selfDefs, [2]string{nn.Utf8Text(lw.src), strings.TrimSpace(v.Utf8Text(lw.src))})
			}
		case "preproc_include":
			if p := ch.ChildByFieldName("path"); p != nil {
				if t := p.Utf8Text(lw.src); len(t) > 2 && t[0] == '"' {
					lw.includes = append(lw.includes, t[1:len(t)-1])
				}
			}
		case "preproc_function_def":
			if nn := ch.ChildByFieldName("name"); nn != nil {
				lw.defined[nn.Utf8Text(lw.src)] = true
				if lw.macroFns == nil {
					lw.macroFns = map[string]bool{}
				}
				lw.macroFns[nn.Utf8Text(lw.src)] = true
			}
		case "using_declaration":
			lw.usingDecl(ch)
		case "alias_declaration", "type_definition":
			lw.typeAlias(ch, lw.tyAlias)
			if class != "" {
				if lw.clAlias[class] == nil {
					lw.clAlias[class] = map[string]string{}
				}
				lw.typeAlias(ch, lw.clAlias[class])
			}
		case "class_specifier", "struct_specifier", "union_specifier":
			name := ""
			if nn := ch.ChildByFieldName("name"); nn != nil {
				name = nn.Utf8Text(lw.src)
				lw.knownNS[name] = true
			}
			lw.walkDecls(ch, inTemplate, name, tparams, depth+1)
		case "namespace_definition":
			if nn := ch.ChildByFieldName("name"); nn != nil {
				lw.knownNS[strings.ReplaceAll(nn.Utf8Text(lw.src), " ", "")] = true
			}
			lw.walkDecls(ch, inTemplate, class, tparams, depth+1)
		default:
			if kind == "declaration" || kind == "field_declaration" {
				lw.constDecl(ch, class)
			}
			if kind == "field_declaration" && class != "" && ch.EndByte()-ch.StartByte() < 4096 {
				lw.recordFields(flatten(ch, lw.src, false, lw.budget), class)
			}
			if containers[kind] {
				lw.walkDecls(ch, inTemplate, class, tparams, depth+1)
			}
		}
		if !c.GotoNextSibling() {
			return
		}
	}
}

// templateParams adds the parameter names of a template declaration to outer.
// ownParams returns the parameter names of one template declaration, in order.
func (lw *lowerer) ownParams(n *sitter.Node) []string {
	var out []string
	pl := n.ChildByFieldName("parameters")
	if pl == nil {
		return nil
	}
	t := pl.Utf8Text(lw.src)
	if len(t) < 2 {
		return nil
	}
	for _, p := range splitTop(t[1 : len(t)-1]) {
		if k := strings.IndexByte(p, '='); k >= 0 {
			p = strings.TrimSpace(p[:k])
		}
		f := strings.Fields(paramPunct.Replace(p))
		if len(f) < 2 {
			out = append(out, "") // unnamed: keeps the positions of the others
			continue
		}
		out = append(out, f[len(f)-1])
	}
	return out
}

// paramPunct blanks the punctuation around a template parameter's name.
var paramPunct = strings.NewReplacer("...", " ", "&", " ", "*", " ")

func (lw *lowerer) templateParams(n *sitter.Node, outer map[string]bool) map[string]bool {
	m := map[string]bool{}
	for k := range outer {
		m[k] = true
	}
	for _, p := range lw.ownParams(n) {
		if p != "" {
			m[p] = true
		}
	}
	return m
}

func (lw *lowerer) addFunc(n *sitter.Node, inTemplate bool, class string, tparams map[string]bool) {
	body := n.ChildByFieldName("body")
	if body == nil {
		return
	}
	name := ""
	if d := n.ChildByFieldName("declarator"); d != nil {
		name = declName(d, lw.src)
	}
	start := uint32(n.StartByte())
	// Extend the start backwards over white space (blanked qualifiers are spaces).
	s := int(start)
	for s > 0 && isSpaceByte(lw.src[s-1]) {
		s--
	}
	// ... then forward to the first byte that was not white space in the
	// original: the first blanked qualifier, or the definition itself.
	// The directives and dropped groups of a conditional the file decides
	// (selectConditionals) are passed over too: blank now, and no blank
	// the pre-pass recorded.
	for s < int(start) && (isSpaceByte(lw.f.Src[s]) || s < bomLen(lw.f.Src) || isSpaceByte(lw.src[s]) && !lw.inBlank(s)) {
		s++
	}
	fd := funcDef{node: n, name: name, start: uint32(s), end: uint32(n.EndByte()), body: uint32(body.StartByte()), template: inTemplate, class: class, tparams: tparams}
	lw.funcs = append(lw.funcs, fd)
	lw.defined[name] = true
	if k := strings.LastIndex(name, "::"); k >= 0 {
		lw.defined[name[k+2:]] = true
	}
}

// declName digs the declared name out of a (function) declarator.
func declName(d *sitter.Node, src []byte) string {
	for i := 0; i < 16 && d != nil; i++ {
		kind, _ := kindOf(d.KindId())
		switch kind {
		case "function_declarator", "pointer_declarator", "reference_declarator", "parenthesized_declarator", "attributed_declarator":
			inner := d.ChildByFieldName("declarator")
			if inner == nil {
				inner = d.NamedChild(0)
			}
			d = inner
		default:
			return normSpace(d.Utf8Text(src))
		}
	}
	return ""
}

// bomLen is the length of the UTF-8 byte order mark at the start of src,
// which the pre-pass blanks: 3 or 0.
func bomLen(src []byte) int {
	if bytes.HasPrefix(src, utf8BOM) {
		return len(utf8BOM)
	}
	return 0
}

func isSpaceByte(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

func (lw *lowerer) nsAlias(n *sitter.Node) {
	name := n.ChildByFieldName("name")
	if name == nil {
		return
	}
	t := strings.TrimSpace(n.Utf8Text(lw.src))
	if k := strings.IndexByte(t, '='); k >= 0 {
		target := strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(t[k+1:]), ";"))
		lw.f.Aliases[name.Utf8Text(lw.src)] = strings.ReplaceAll(target, " ", "")
	}
}

func (lw *lowerer) usingDecl(n *sitter.Node) {
	t := normSpace(n.Utf8Text(lw.src))
	t = strings.TrimSuffix(t, ";")
	if rest, ok := strings.CutPrefix(t, "using namespace "); ok {
		ns := strings.ReplaceAll(rest, " ", "")
		lw.f.Usings = append(lw.f.Usings, ns)
		if lw.isRegNS(ns) {
			lw.regUsing = true
		}
		return
	}
	// using AscendC::Reg::LoadAlign; brings one name.
	if rest, ok := strings.CutPrefix(t, "using "); ok {
		rest = strings.ReplaceAll(rest, " ", "")
		if k := strings.LastIndex(rest, "::"); k >= 0 && lw.isRegNS(rest[:k]) {
			lw.regUsing = true
		}
	}
}

// isRegNS reports whether a namespace path names the register API.
func (lw *lowerer) isRegNS(ns string) bool {
	ns = strings.TrimPrefix(strings.ReplaceAll(ns, " ", ""), "::")
	for i := 0; i < 4; i++ {
		if t, ok := lw.f.Aliases[ns]; ok {
			ns = strings.TrimPrefix(t, "::")
			continue
		}
		break
	}
	switch ns {
	case "AscendC::Reg", "Reg", "AscendC::MicroAPI", "MicroAPI", "AscendC::MicroAPI::Impl":
		return true
	}
	return false
}

// classTemplate records the parameters of a class template, in order, when
// def (the declaration a template declaration tmpl introduces) is a class
// or struct with a body: its methods defined in the body are instantiated
// with the class (includers.go).
func (lw *lowerer) classTemplate(def, tmpl *sitter.Node) {
	kind, _ := kindOf(def.KindId())
	if kind != "class_specifier" && kind != "struct_specifier" || def.ChildByFieldName("body") == nil {
		return
	}
	if nn := def.ChildByFieldName("name"); nn != nil && nn.Kind() != "template_type" {
		lw.clParams[nn.Utf8Text(lw.src)] = lw.ownParams(tmpl)
	}
}

func (lw *lowerer) typeAlias(n *sitter.Node, into map[string]string) {
	aliasText(n.Utf8Text(lw.src), into)
}

// aliasText records the alias a declaration's text makes (using X = T;
// typedef T X;) in into.
func aliasText(t string, into map[string]string) {
	t = normSpace(t)
	t = strings.TrimSuffix(t, ";")
	if rest, ok := strings.CutPrefix(t, "using "); ok {
		if k := strings.IndexByte(rest, '='); k >= 0 {
			into[strings.TrimSpace(rest[:k])] = strings.TrimSpace(rest[k+1:])
		}
		return
	}
	if rest, ok := strings.CutPrefix(t, "typedef "); ok {
		if k := strings.LastIndexByte(rest, ' '); k >= 0 {
			into[strings.TrimSpace(rest[k+1:])] = strings.TrimSpace(rest[:k])
		}
	}
}

// constDecl records file-scope integer constants: constexpr/const globals and
// static constexpr members (also under Class::Name).
func (lw *lowerer) constDecl(n *sitter.Node, class string) {
	t := n.Utf8Text(lw.src)
	if !strings.Contains(t, "const") || strings.Contains(t, "(") && !strings.Contains(t, "=") && !strings.Contains(t, "{") {
		return
	}
	if len(t) > 4096 {
		return
	}
	fl := flatten(n, lw.src, false, lw.budget)
	env := &env{lw: lw}
	for _, d := range fl.fields(0, "declarator") {
		name, val := initDeclarator(fl, d)
		if name == "" || val < 0 {
			if fl.n[d].kind() == "field_identifier" || fl.n[d].kind() == "identifier" {
				// static constexpr int X{4}; parses with a default_value or initializer_list sibling
				if dv := fl.child(0, "default_value"); dv >= 0 {
					name, val = fl.text(d), dv
				}
			}
		}
		if name == "" || val < 0 {
			continue
		}
		e := env.expr(fl, val)
		if v, ok := e.Value(); ok {
			lw.f.Consts[name] = v
			if class != "" {
				lw.f.Consts[class+"::"+name] = v
			}
		} else if e.Pure() {
			lw.symConsts[name] = e
			if class != "" {
				lw.symConsts[class+"::"+name] = e
			}
		}
	}
}

// initDeclarator returns the name and the value node of an init_declarator
// (or a field declarator with a default value), or "", -1.
func initDeclarator(fl *flat, d int32) (string, int32) {
	if fl.n[d].kind() != "init_declarator" {
		return "", -1
	}
	nd := fl.child(d, "declarator")
	val := fl.child(d, "value")
	if nd < 0 || val < 0 {
		return "", -1
	}
	if fl.n[val].kind() == "initializer_list" || fl.n[val].kind() == "argument_list" {
		ch := fl.named(val)
		if len(ch) != 1 {
			return "", -1
		}
		val = ch[0]
	}
	if fl.n[nd].kind() != "identifier" && fl.n[nd].kind() != "field_identifier" {
		return "", -1
	}
	return fl.text(nd), val
}

// blankAt returns the index of the first blank that starts at or after
// off (the blanks are in source order).
func (lw *lowerer) blankAt(off uint32) int {
	return sort.Search(len(lw.blanks), func(i int) bool { return uint32(lw.blanks[i].start) >= off })
}

// inBlank reports whether the byte at off is in a span the pre-pass
// blanked and recorded (a qualifier, a macro's arguments).
func (lw *lowerer) inBlank(off int) bool {
	k := lw.blankAt(uint32(off)+1) - 1
	return k >= 0 && lw.blanks[k].start <= off && off < lw.blanks[k].end
}

// regionKind decides whether a function is a VF region, and which kind.
func (lw *lowerer) regionKind(fd funcDef) (ir.RegionKind, bool) {
	var simd, simt, aicore bool
	var kind ir.RegionKind
	for _, b := range lw.blanks[lw.blankAt(fd.start):] {
		if uint32(b.start) >= fd.body {
			break
		}
		switch b.text {
		case "__simd_vf__":
			kind, simd = ir.RegionSimdVF, true
		case "__simd_callee__":
			if !simd {
				kind, simd = ir.RegionSimdCallee, true
			}
		case "__simd_caller__":
			if !simd {
				kind, simd = ir.RegionSimdCaller, true
			}
		case "__simt_vf__":
			kind, simt = ir.RegionSimtVF, true
		case "__simt_callee__":
			if !simt {
				kind, simt = ir.RegionSimtCallee, true
			}
		case "__aicore__":
			aicore = true
		}
	}
	if simt || simd {
		return kind, true
	}
	_ = aicore
	text := lw.src[fd.start:fd.end]
	if bytes.Contains(text, []byte("__VEC_SCOPE__")) {
		return 0, false
	}
	// Blanked __VEC_SCOPE__ no longer shows in src: check the blanks.
	for _, b := range lw.blanks[lw.blankAt(fd.body):] {
		if uint32(b.start) >= fd.end {
			break
		}
		if b.text == "__VEC_SCOPE__" {
			return 0, false
		}
	}
	if macroCall(lastComponent(fd.name)) {
		// TEST_F(Suite, Case) { ... }, MOCKER_CPP(...), REGISTER_X(...);
		// at file scope: a macro invocation tree-sitter read as a function
		// definition, not a function holding VF code.
		return 0, false
	}
	if strings.Contains(fd.name, "::") {
		// A member defined outside its class: the class name is not a use
		// of a register type (RegTensor<T>::Print is host-side debug code).
		name := []byte(lastComponent(fd.name))
		if k := bytes.LastIndex(text[:fd.body-fd.start], name); k >= 0 {
			text = text[k+len(name):]
		}
	}
	if hasRegType(text) {
		return ir.RegionAicoreRegs, true
	}
	return 0, false
}

// macroCall reports whether name is spelled as a macro (upper case, digits
// and underscores, with a letter), as a function named by a definition is not.
func macroCall(name string) bool {
	letter := false
	for i := 0; i < len(name); i++ {
		switch c := name[i]; {
		case c >= 'A' && c <= 'Z':
			letter = true
		case c >= '0' && c <= '9', c == '_':
		default:
			return false
		}
	}
	return letter
}

var regTypeMarkers = [][]byte{[]byte("RegTensor"), []byte("MaskReg"), []byte("UnalignReg"), []byte("UnalignRegForLoad"),
	[]byte("UnalignRegForStore"), []byte("AddrReg"), []byte("vector_bool"), []byte("vector_load_unalign"),
	[]byte("vector_store_unalign"), []byte("vector_align")}

// hasRegType reports whether b names a register type as a whole word: host
// code such as NMSWithMaskRegbaseTiling only contains one.
func hasRegType(b []byte) bool {
	for _, m := range regTypeMarkers {
		for off := 0; ; {
			k := bytes.Index(b[off:], m)
			if k < 0 {
				break
			}
			k += off
			e := k + len(m)
			if (k == 0 || !isIdentChar(b[k-1])) && (e == len(b) || !isIdentChar(b[e])) {
				return true
			}
			off = e
		}
	}
	return false
}

// lowerVecScopes lowers each __VEC_SCOPE__ { ... } block as a region.
func (lw *lowerer) lowerVecScopes(scopeBlanks map[int]bool) {
	idx := make([]int, 0, len(scopeBlanks))
	for i := range scopeBlanks {
		idx = append(idx, i)
	}
	sort.Ints(idx)
	type scopeBlock struct {
		b   blank        // the __VEC_SCOPE__ marker
		n   *sitter.Node // the block
		def *sitter.Node // the function definition around it, or nil
	}
	var blocks []scopeBlock
	for _, i := range idx {
		b := lw.blanks[i]
		k := skipSpace(lw.src, b.end)
		if k >= len(lw.src) || lw.src[k] != '{' {
			continue
		}
		path := tsutil.Path(lw.rootAt(k), uint(k), uint(k+1))
		j := len(path) - 1
		for ; j >= 0; j-- {
			if kind, _ := kindOf(path[j].KindId()); kind == "compound_statement" && int(path[j].StartByte()) == k {
				break
			}
		}
		if j < 0 {
			continue
		}
		sb := scopeBlock{b: b, n: &path[j]}
		for j--; j >= 0; j-- {
			if kind, _ := kindOf(path[j].KindId()); kind == "function_definition" {
				sb.def = &path[j]
				break
			}
		}
		blocks = append(blocks, sb)
	}
	counts := map[string]int{}
	callers := map[uint]*flat{} // callers of the functions around the blocks, flattened once
	for _, sb := range blocks {
		b, n, def := sb.b, sb.n, sb.def // def: the enclosing function definition
		outer := "vec_scope"
		if def != nil {
			if d := def.ChildByFieldName("declarator"); d != nil {
				outer = declName(d, lw.src)
			}
		}
		counts[outer]++
		name := outer + ".vec_scope#" + strconv.Itoa(counts[outer])
		// The block sees the parameters, constants and variables of its
		// function: flatten the function and lower the block from there.
		fl, blk := lw.flats.flatten(n, lw.src, n.HasError(), lw.budget), int32(0)
		start, end := fl.n[blk].start, fl.n[blk].end
		var names *funcBuilder // the names of the function around the block, for both passes
		if def != nil {
			names = newFuncBuilder(lw, &ir.Func{}, fl)
			names.setClass(lw.classAt(def.StartByte()))
			names.enclosingNodes(n, def)
			if vals, zo := lw.scopeCallerFacts(def, names.outer, callers); len(vals) > 0 || len(zo) > 0 {
				// Again, with what the callers pass bound.
				names = newFuncBuilder(lw, &ir.Func{}, fl)
				names.setClass(lw.classAt(def.StartByte()))
				names.outerVals, names.outerZO = vals, zo
				names.enclosingNodes(n, def)
			}
		}
		fn := lw.twice(func(prev *firstPass) *funcBuilder {
			fn := &ir.Func{Name: name, Kind: ir.RegionVecScope, Pos: lw.pos(uint32(b.start)), End: lw.pos(end), BodyPos: lw.pos(start)}
			fb := newFuncBuilder(lw, fn, fl)
			fb.prev = prev
			fb.errFrom, fb.errTo = start, end
			if names != nil {
				fb.adopt(names)
			}
			fn.Body = fb.block(blk, ir.NoLoop, false)
			return fb
		})
		if def != nil {
			lw.scopeInstances(fn, def, callers)
		}
		lw.f.Funcs = append(lw.f.Funcs, fn)
	}
}

// scopeInstances records the element types the template parameters of the
// function around a __VEC_SCOPE__ block take at its calls in the file
// (Func.Instances), as callSiteFacts does for a VF function.
func (lw *lowerer) scopeInstances(fn *ir.Func, def *sitter.Node, flats map[uint]*flat) {
	for _, fd := range lw.funcs {
		if fd.node.StartByte() != def.StartByte() {
			continue
		}
		if len(fd.own) == 0 || !usesParams(fn, fd.own) {
			return
		}
		if sites, ok := lw.callSites(fd, flats); ok {
			if inst := instancesOf(sites, fd.own, nil, nil); len(inst) > 0 {
				fn.Instances = inst
			}
		}
		return
	}
}

// ancestors returns the ancestors of n strictly inside stop, outermost
// first, from one descent (tsutil.Path) rather than a walk up by Parent.
func (lw *lowerer) ancestors(n, stop *sitter.Node) []*sitter.Node {
	path := tsutil.Path(lw.rootAt(int(n.StartByte())), n.StartByte(), n.EndByte())
	var out []*sitter.Node
	inside := false
	for k := range path {
		switch id := path[k].Id(); {
		case id == n.Id():
			return out
		case id == stop.Id():
			inside = true
		case inside:
			out = append(out, &path[k])
		}
	}
	// n is an ancestor of the smallest node of its range: walk up.
	out = out[:0]
	for p := n.Parent(); p != nil && p.Id() != stop.Id(); p = p.Parent() {
		out = append(out, p)
	}
	slices.Reverse(out)
	return out
}

// scope returns what the file sees through the project index, or nil.
func (lw *lowerer) scope() *Scope {
	if lw.index == nil {
		return nil
	}
	if lw.ixScope == nil {
		self := newHeader()
		for _, d := range lw.selfDefs {
			if _, dup := self.defs[d[0]]; dup {
				self.defs[d[0]] = "" // defined twice (#if branches): no value
				continue
			}
			self.defs[d[0]] = d[1]
		}
		for _, fd := range lw.funcs {
			if f, ok := lw.constFn(fd); ok {
				self.funcs[lastComponent(fd.name)] = f
			}
		}
		scanHelpers(stripComments(string(lw.src)), func(name string, f pureFn) { addHelper(self.helpers, name, f) })
		lw.ixScope = lw.index.Scope(lw.f.Name, filepath.Dir(lw.f.Name), self, lw.includes, lw.outOfClass()...)
	}
	return lw.ixScope
}

// constFn returns a constexpr function of the file whose body is one
// return statement.
func (lw *lowerer) constFn(fd funcDef) (constFn, bool) {
	if !bytes.Contains(lw.src[fd.start:fd.body], []byte("constexpr")) {
		return constFn{}, false
	}
	body := fd.node.ChildByFieldName("body")
	if body == nil || body.NamedChildCount() != 1 {
		return constFn{}, false
	}
	ret := body.NamedChild(0)
	if kind, _ := kindOf(ret.KindId()); kind != "return_statement" || ret.NamedChildCount() != 1 {
		return constFn{}, false
	}
	d := fd.node.ChildByFieldName("declarator")
	if d == nil || !strings.HasSuffix(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(d.Utf8Text(lw.src)), "const")), "()") {
		return constFn{}, false // parameters: not a call without arguments
	}
	return constFn{tparams: fd.own, ret: ret.NamedChild(0).Utf8Text(lw.src)}, true
}

// classAt returns the class of the function definition that starts at off.
func (lw *lowerer) classAt(off uint) string {
	if lw.classes == nil {
		lw.classes = make(map[uint]string, len(lw.funcs))
		for _, fd := range lw.funcs {
			if _, ok := lw.classes[fd.node.StartByte()]; !ok {
				lw.classes[fd.node.StartByte()] = classOf(fd)
			}
		}
	}
	return lw.classes[off]
}

// region is a function region lowered from a definition.
type region struct {
	fd   funcDef
	kind ir.RegionKind
	at   int // index in File.Funcs
}

// lowerFunc lowers one function region; vals are values its callers pass
// to its parameters (callSiteFacts), or nil.
func (lw *lowerer) lowerFunc(fd funcDef, kind ir.RegionKind, vals map[string]*ir.Expr) *ir.Func {
	fn := &ir.Func{Name: fd.name, Kind: kind, Pos: lw.pos(fd.start), End: lw.pos(fd.end), BodyPos: lw.pos(fd.body), Template: fd.template, TParams: fd.own}
	if !kind.Analysed() {
		return fn
	}
	fl := lw.flats.flatten(fd.node, lw.src, fd.node.HasError(), lw.budget)
	return lw.twice(func(prev *firstPass) *funcBuilder {
		fn := &ir.Func{Name: fd.name, Kind: kind, Pos: lw.pos(fd.start), End: lw.pos(fd.end), BodyPos: lw.pos(fd.body), Template: fd.template, TParams: fd.own}
		fb := newFuncBuilder(lw, fn, fl)
		fb.prev = prev
		fb.setClass(classOf(fd))
		for k := range fd.tparams {
			fb.tparams[k] = true
		}
		if d := fl.child(0, "declarator"); d >= 0 {
			fb.params(d)
		}
		fb.paramValues(vals)
		body := fl.child(0, "body")
		if body >= 0 {
			fn.Body = fb.block(body, ir.NoLoop, false)
		} else {
			fn.Body = &ir.Block{}
		}
		// Errors outside the body (in the header) count too.
		fb.collectErrors()
		return fb
	})
}

// twice lowers a region with build, and once more when the first pass
// used a variable's value that an assignment later in a loop invalidates
// (see localValue).
func (lw *lowerer) twice(build func(prev *firstPass) *funcBuilder) *ir.Func {
	fb := build(nil)
	if fb.secondPass() {
		fb = build(&firstPass{muts: fb.muts, loops: fb.fn.Loops, steps: fb.steps})
	}
	fb.finish()
	return fb.fn
}
