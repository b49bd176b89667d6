// Package ir defines the pure-Go intermediate representation of Ascend C
// vector-function (VF) code that every ascvet analysis reads.
//
// A Package holds Files; a File holds the VF regions (Func) found in it. A
// Func owns dense tables of registers (Regs), instructions (Instrs) and loops
// (Loops), and a structured body (Block) whose nodes are *Instr, *Loop and *If
// in program order. Dense IDs let liveness use bitsets instead of maps.
//
// Every node carries token.Pos/End into the real file, byte-exact: the
// front end blanks Ascend qualifiers with spaces of the same length before
// parsing, so offsets never move. No node holds a tree-sitter object.
//
// The op table (op.go) is the single place that knows the Ascend C API.
package ir

import (
	"cmp"
	"go/token"
	"slices"
	"strings"
)

// Package is the IR of one analysis unit (one run over a set of files).
type Package struct {
	Fset  *token.FileSet // positions of every File
	Files []*File        // in the order they were added
}

// File is one lowered source file.
type File struct {
	Name    string            // path as given to the front end
	Lang    Lang              // the source language: C++, or the pypto_pro Python DSL
	Tok     *token.File       // position table of the file in Package.Fset
	Src     []byte            // original bytes (not the blanked copy)
	Funcs   []*Func           // VF regions, in source order
	Helpers []*Func           // same-file __simd_callee__/__aicore__ functions that VF code calls but that are not VF regions themselves
	Quals   []Qualifier       // Ascend spellings blanked before parsing, in source order
	Consts  map[string]int64  // file-scope integer constants (constexpr/const globals, static constexpr members)
	Aliases map[string]string // namespace aliases: alias -> target ("MAPI" -> "AscendC::MicroAPI")
	Usings  []string          // namespaces named by using-directives, in source order
	Defined []string          // names of every function and function-like macro defined in the file, sorted

	Expansions []Expansion // same-file macro invocations expanded before parsing, in source order, disjoint

	// Relower lowers other bytes for the same file as the front end
	// lowered these: same options, same project index. A fix checks the
	// text it writes with it (translation validation). only, when not
	// nil, are the byte ranges of src whose regions are wanted: the front
	// end may leave the other regions' bodies empty (their helpers and
	// callers kept), which keeps a big file's check cheap. Nil when the
	// front end offers none.
	Relower func(src []byte, only [][2]int) (*File, error)
}

// Expansion is a macro invocation that the front end expanded before
// parsing. Every IR node made from its expansion spans the invocation (Pos
// its start, End its end), so its text is not the node's own: a fix must
// never edit it.
type Expansion struct {
	Pos, End token.Pos // the invocation NAME(args) in the file
	Name     string    // the macro
}

// InExpansion reports whether pos lies inside (or at the start of) a macro
// invocation the front end expanded. It searches the sorted Expansions.
func (f *File) InExpansion(pos token.Pos) bool {
	i, _ := slices.BinarySearchFunc(f.Expansions, pos, func(x Expansion, p token.Pos) int { return cmp.Compare(x.End, p+1) })
	return i < len(f.Expansions) && f.Expansions[i].Pos <= pos
}

// Lang is the language a File was written in. Rules are the same for both;
// what differs is the text a fix writes (statement syntax, indentation).
type Lang uint8

const (
	CPP    Lang = iota // Ascend C (C++): AscendC::Reg / MicroAPI / asc_* calls
	Python             // the pypto_pro DSL: @pl.vector_function with vf.* calls
)

func (l Lang) String() string {
	if l == Python {
		return "python"
	}
	return "c++"
}

// Func returns the region defined in f under name (or, when name is not
// qualified, under any qualified name ending in ::name): how an analysis
// follows an OpCall into a same-file helper. It returns nil when there is
// none. It scans the regions; an analysis that follows every call of a
// file looks them up in a FuncIndex instead.
func (f *File) Func(name string) *Func {
	for _, fn := range f.Funcs {
		if fn.Name == name {
			return fn
		}
	}
	if !strings.Contains(name, "::") {
		for _, fn := range f.Funcs {
			if strings.HasSuffix(fn.Name, "::"+name) {
				return fn
			}
		}
	}
	return nil
}

// FuncIndex finds the regions of a file by name as File.Func does, in
// constant time. It is a snapshot: regions added to the file later are not
// in it.
type FuncIndex struct {
	exact map[string]*Func // the first region of each name
	last  map[string]*Func // the first qualified region of each last component ("B" for "A::B")
}

// NewFuncIndex indexes the regions of f.
func NewFuncIndex(f *File) *FuncIndex {
	x := &FuncIndex{exact: make(map[string]*Func, len(f.Funcs)), last: map[string]*Func{}}
	for _, fn := range f.Funcs {
		if _, ok := x.exact[fn.Name]; !ok {
			x.exact[fn.Name] = fn
		}
		if i := strings.LastIndex(fn.Name, "::"); i >= 0 {
			if _, ok := x.last[fn.Name[i+2:]]; !ok {
				x.last[fn.Name[i+2:]] = fn
			}
		}
	}
	return x
}

// Func is File.Func.
func (x *FuncIndex) Func(name string) *Func {
	if fn := x.exact[name]; fn != nil {
		return fn
	}
	if !strings.Contains(name, "::") {
		return x.last[name]
	}
	return nil
}

// Qualifier records one Ascend spelling that the front end blanked.
type Qualifier struct {
	Pos  token.Pos // start in the original file
	Text string    // exactly what was there, e.g. "__simd_vf__" or "LAUNCH_BOUND(256)"
}

// RegionKind says why a Func is a VF region.
type RegionKind uint8

const (
	RegionSimdVF     RegionKind = iota // __simd_vf__ function
	RegionSimdCallee                   // __simd_callee__ function
	RegionSimdCaller                   // __simd_caller__ function (legacy spelling)
	RegionVecScope                     // __VEC_SCOPE__ { ... } block inside any function
	RegionAicoreRegs                   // __aicore__ (or unmarked) function that takes or declares register types
	RegionSimtVF                       // __simt_vf__ function: recorded, not analysed
	RegionSimtCallee                   // __simt_callee__ function: recorded, not analysed
)

var regionNames = [...]string{"simd_vf", "simd_callee", "simd_caller", "vec_scope", "aicore_regs", "simt_vf", "simt_callee"}

func (k RegionKind) String() string {
	if int(k) < len(regionNames) {
		return regionNames[k]
	}
	return "region?"
}

// Analysed reports whether the register-level analyses apply to the region.
// SIMT regions use a different programming model and are only recorded.
func (k RegionKind) Analysed() bool { return k != RegionSimtVF && k != RegionSimtCallee }

// Func is one VF region: a function or a __VEC_SCOPE__ block.
type Func struct {
	Name     string           // function name; for a __VEC_SCOPE__ block, "<enclosing>.vec_scope#N"
	Kind     RegionKind       // why this is a region
	Pos, End token.Pos        // whole definition (or block)
	BodyPos  token.Pos        // opening brace of the body
	Template bool             // defined inside a template declaration
	Params   []Param          // parameters, in order (none for a block)
	Regs     []*Reg           // dense: Regs[i].ID == i
	Instrs   []*Instr         // dense, in program order: Instrs[i].ID == i
	Loops    []*Loop          // dense, in pre-order: Loops[i].ID == i
	Body     *Block           // structured body
	Errors   []token.Pos      // positions of tree-sitter ERROR/MISSING nodes inside the region
	Locals   map[string]int64 // folded integer constants visible in the region (locals and parameters bound by constexpr)
	Names    []NameDef        // writes of scalar names, in source order

	// Scoped maps a register an inlined helper declares (ir.Func.Expand)
	// to the loop around the call: each iteration calls the helper anew,
	// so its registers carry no value around that loop's back edge, as a
	// register declared in a loop's body does not (regalloc finds those by
	// position). Nil when nothing was inlined.
	Scoped map[RegID]LoopID

	// Foreign marks a function lowered from another file (a header whose
	// helper a call of this file's code calls): its positions are not this
	// file's, and an inlined copy takes the call's.
	Foreign bool
	// Fset resolves a Foreign function's positions in its own file; nil
	// for the functions of the file analysed.
	Fset *token.FileSet
	// Ret is the register every return statement of the function
	// returns (return reg;), when RetKnown; RetMixed when a return
	// returns something else, or another register.
	Ret      RegID
	RetKnown bool
	RetMixed bool

	// CalledFrom lists, for a helper, the files of its folder that
	// include its file and call it by name: the compiler builds it there
	// too, with what those callers keep live (cppfront's siblings.go).
	CalledFrom []string

	// TParams are the function template's own parameters, in order.
	TParams []string
	// Instances maps a template parameter to the element types it is
	// instantiated with, when every call site of the function in its file
	// is known and names one (explicitly, or under an
	// if constexpr (std::is_same<T, X>::value) guard); nil otherwise.
	Instances map[string][]string
	// Tuples are instantiations that files including this one write
	// explicitly (Class<half, 1>), when the file itself gives none, or
	// that the file's call sites make when they differ in a value
	// argument (F<float, 8> and F<float, 32>): each binds the parameters
	// its arguments fix (cppfront's includers.go, callers.go).
	// Instantiations returns them.
	Tuples []Bindings

	// Class and ClassTParams name the class template a method defined in
	// its class's body belongs to, with the class's parameters in order:
	// the method is instantiated with the class (a method defined outside
	// the body says so in its Name, C<T, U>::M). Empty otherwise.
	Class        string
	ClassTParams []string
	// TypeAliases are the type aliases the region's element types name
	// (using R = std::conditional_t<sizeof(T) == 2, half, float>; in the
	// file, the class or the function), by name: an instantiation resolves
	// them (Bindings.Type). Nil when none is used.
	TypeAliases map[string]string
}

// Param is one function parameter.
type Param struct {
	Name string // may be empty
	Type string // as written, qualifiers blanked
	Ptr  bool   // declared as a pointer (T* p)
	Ref  bool   // declared by reference (T& x, T*& p)
	// Default marks a parameter declared with a default argument (int n = 1).
	Default bool
	Reg     RegID     // register declared by this parameter, or NoReg
	Pos     token.Pos // start of the parameter
}

// RegID indexes Func.Regs.
type RegID int32

// NoReg marks an operand or parameter that is not a register.
const NoReg RegID = -1

// RegClass is the hardware register class of a declaration.
type RegClass uint8

const (
	ClassNone         RegClass = iota // not a register
	ClassVReg                         // RegTensor<T>
	ClassMask                         // MaskReg
	ClassUnalignLoad                  // UnalignRegForLoad
	ClassUnalignStore                 // UnalignRegForStore
	ClassUnalign                      // UnalignReg: role inferred from use (Reg.Role)
	ClassAddr                         // AddrReg
	ClassSpecial                      // special-purpose register (AR), implicit
)

var classNames = [...]string{"none", "vreg", "mask", "ureg_load", "ureg_store", "ureg", "areg", "spr"}

func (c RegClass) String() string {
	if int(c) < len(classNames) {
		return classNames[c]
	}
	return "class?"
}

// IsUnalign reports whether c is one of the unaligned-register classes.
func (c RegClass) IsUnalign() bool {
	return c == ClassUnalignLoad || c == ClassUnalignStore || c == ClassUnalign
}

// UnalignRole is the inferred role of an unaligned register.
type UnalignRole uint8

const (
	RoleNone  UnalignRole = iota // not used by any unaligned op
	RoleLoad                     // used only by load-side ops (Pre, LoadUnAlign)
	RoleStore                    // used only by store-side ops (StoreUnAlign, Post)
	RoleMixed                    // used by both: a bug (ASC1006)
)

var roleNames = [...]string{"none", "load", "store", "mixed"}

func (r UnalignRole) String() string { return roleNames[r] }

// Reg is one declared register (or register array, or reference parameter).
type Reg struct {
	ID       RegID       // index in Func.Regs
	Name     string      // declared name; "AR" for the implicit special register
	Class    RegClass    // hardware class
	Elem     string      // element type of RegTensor<T> as written ("float", "T"); "" when not applicable
	TwoRegs  bool        // RegTraitNumTwo: occupies two physical registers (a 64-bit RegTraitNumOne tensor is one)
	ArrayLen int         // number of elements for an array declaration, 1 for a scalar register, -1 when unknown
	Param    bool        // declared as a function parameter
	Ref      bool        // declared by reference (parameter or local reference)
	Implicit bool        // not declared in source (AR)
	Role     UnalignRole // for unaligned registers: how it is used
	Pos, End token.Pos   // the declarator
}

// Width is the number of physical registers one element of r occupies.
func (r *Reg) Width() int {
	if r.TwoRegs {
		return 2
	}
	return 1
}

// Node is an element of a structured body: *Instr, *Loop, *If or *Jump.
type Node interface {
	Span() (token.Pos, token.Pos)
}

// Block is a sequence of nodes in program order.
type Block struct {
	Nodes []Node
}

// LoopKind is the statement a loop came from.
type LoopKind uint8

const (
	LoopFor LoopKind = iota
	LoopWhile
	LoopDo
)

var loopNames = [...]string{"for", "while", "do"}

func (k LoopKind) String() string { return loopNames[k] }

// LoopID indexes Func.Loops.
type LoopID int32

// NoLoop marks an instruction outside every loop.
const NoLoop LoopID = -1

// Loop is a for, while or do loop.
type Loop struct {
	ID         LoopID    // index in Func.Loops
	Kind       LoopKind  // statement kind
	Parent     LoopID    // enclosing loop or NoLoop
	Depth      int       // 1 for an outermost loop
	Var        string    // induction variable ("" when none was recognised)
	VarType    string    // its declared type ("uint16_t"), "" when not declared in the init
	Init       *Expr     // initial value of Var (nil when unknown)
	Bound      *Expr     // right-hand side of the condition (nil when unknown)
	CmpOp      string    // comparison of the condition: "<", "<=", "!=", ">", ">=", "" when unknown
	Step       *Expr     // signed increment per iteration (nil when unknown)
	Trip       int64     // folded trip count, valid when TripKnown
	TripKnown  bool      // whether Trip could be folded
	Cond       bool      // nested under an if
	AtMostOnce bool      // provably runs at most once: a folded trip count <= 1, or a 0/1 bound (for (i = 0; i < hasTail; ++i))
	Unroll     int       // N of a #pragma unroll N just before the loop (-1 for a bare #pragma unroll: unroll fully), 0 when none
	Decls      []string  // names declared inside the loop (its header included), in order
	Assigns    []string  // names assigned inside the loop by statements (=, +=, ++); post-updates by instructions are in Instr.PtrDefs
	Pos, End   token.Pos // whole statement
	Body       *Block    // loop body
}

// Span implements Node.
func (l *Loop) Span() (token.Pos, token.Pos) { return l.Pos, l.End }

// If is an if or if constexpr statement; both branches are kept.
type If struct {
	Constexpr bool      // if constexpr
	Cond      *Expr     // condition
	CondText  string    // the condition as written, white space normalised
	Pos, End  token.Pos // whole statement
	Then      *Block    // taken branch
	Else      *Block    // nil when there is no else
}

// Span implements Node.
func (s *If) Span() (token.Pos, token.Pos) { return s.Pos, s.End }

// JumpKind is the statement a Jump came from.
type JumpKind uint8

const (
	JumpBreak    JumpKind = iota // break out of Loop
	JumpContinue                 // continue with Loop's next iteration
	JumpReturn                   // return (Python: also raise): leaves the region
	JumpGoto                     // goto: anywhere
)

var jumpNames = [...]string{"break", "continue", "return", "goto"}

func (k JumpKind) String() string { return jumpNames[k] }

// Jump is a statement that leaves the straight line of its block. A break
// that leaves a switch is not one: it stays in the loop.
type Jump struct {
	Kind     JumpKind
	Loop     LoopID    // the loop a break or continue leaves or continues (the innermost one); NoLoop for return and goto
	Cond     bool      // nested under an if, a switch or a preprocessor conditional (inside the region)
	Pos, End token.Pos // the statement
}

// Span implements Node.
func (j *Jump) Span() (token.Pos, token.Pos) { return j.Pos, j.End }

// NameDef is one write of a scalar (not register) name in a region, or in
// the function around a __VEC_SCOPE__ block before it: a declaration with
// its initialiser, an assignment, or an increment. The replay uses them to
// tell which pointers may address the same buffer.
type NameDef struct {
	Name string
	Decl bool      // a declaration (else an assignment or ++/--)
	Type string    // declared type as written, white space normalised ("" for an assignment)
	Ptr  bool      // declared as a pointer (T* p)
	Op   string    // the assignment operator ("=", "+=", "++"); "=" for a declaration with an initialiser, "" without
	Init *Expr     // the value assigned ("=" only; nil when none)
	From []string  // the variables the value names (not types or members), sorted
	Pos  token.Pos // the declarator or the assignment
}

// InstrID indexes Func.Instrs.
type InstrID int32

// Form is how an instruction was spelled.
type Form uint8

const (
	FormReg     Form = iota // AscendC::Reg / MicroAPI / bare current name
	FormLegacy              // a legacy alias (DataCopy, DataCopyUnAlign, MaskAnd, ...)
	FormCAPI                // an asc_* C call
	FormRaw                 // a raw CCE intrinsic (vlds, vadd, ...)
	FormCall                // a call of a user helper defined in the same file
	FormUnknown             // none of the above
)

var formNames = [...]string{"reg", "legacy", "capi", "raw", "call", "unknown"}

func (f Form) String() string { return formNames[f] }

// Instr is one call inside a VF region.
type Instr struct {
	ID       InstrID   // index in Func.Instrs
	Op       Op        // canonical op; OpUnknown for calls the table does not know, OpCall for user helpers
	Form     Form      // spelling family
	Callee   string    // the callee as written, without template arguments ("AscendC::Reg::LoadAlign")
	Name     string    // last component of the callee ("LoadAlign")
	TArgs    []string  // template arguments as written, whitespace-normalised
	Elem     string    // element type: first type template argument, else the destination register's element type
	Post     bool      // post-update form (POST_MODE_UPDATE or an implied update)
	Dist     string    // LoadDist/StoreDist/MaskDist enumerator, "" when default
	Merging  bool      // MaskMergeMode::MERGING (destination also read)
	Args     []Operand // arguments in call order
	Defs     []RegID   // registers written (including implicit ones: AR)
	Uses     []RegID   // registers read (including implicit ones and RW destinations)
	PtrDefs  []string  // scalars written: post-updated pointers, UpdateMask counts
	Loop     LoopID    // innermost enclosing loop, NoLoop when none
	Cond     bool      // nested under an if (inside the region)
	Assign   string    // name assigned from the call's return value ("m" in m = CreateMask()), "" when none
	Pos, End token.Pos // the whole call expression, byte-exact

	// Target is the lowered definition of the helper an OpCall calls, when
	// the project defines it (a __simd_callee__ or register-taking function
	// of the file) and the call picks one definition; nil when the helper's
	// body is not known (Inline expands it).
	Target *Func

	// Origin is set on a copy that Func.Expand inlined from a helper of
	// another file (a Foreign function): the copy takes the call's
	// position, Origin says where the instruction is written.
	Origin *Origin
}

// Origin is where an instruction inlined from a helper of another file is
// written: the innermost such helper, and the position in its file
// (Func.Fset resolves it).
type Origin struct {
	Func *Func
	Pos  token.Pos
}

// Position resolves the origin's position in the helper's file; the zero
// Position when the helper has no file set.
func (o *Origin) Position() token.Position {
	if o == nil || o.Func == nil || o.Func.Fset == nil {
		return token.Position{}
	}
	return o.Func.Fset.Position(o.Pos)
}

// Span implements Node.
func (in *Instr) Span() (token.Pos, token.Pos) { return in.Pos, in.End }

// ArgRole is what an instruction does with one argument.
type ArgRole uint8

const (
	ArgNone     ArgRole = iota // not classified (unknown op)
	ArgW                       // register written
	ArgR                       // register read
	ArgRW                      // register read and written
	ArgMask                    // governing mask predicate (read)
	ArgPtr                     // UB address (pointer value read)
	ArgPtrRW                   // UB address advanced by the call (post-update)
	ArgScalar                  // scalar read (stride, count, immediate)
	ArgScalarRW                // scalar read and written (UpdateMask count)
	ArgAddr                    // AddrReg offset (read)
	ArgPassed                  // register passed to a helper whose body does not touch it
)

var argRoleNames = [...]string{"?", "w", "r", "rw", "mask", "ptr", "ptr&", "s", "s&", "areg", "passed"}

func (r ArgRole) String() string { return argRoleNames[r] }

// Operand is one argument of an Instr.
type Operand struct {
	Role     ArgRole   // what the instruction does with it
	Reg      RegID     // the register reached (through casts, .reg[k], subscripts), or NoReg
	Part     int       // for x.reg[k]: k; for v[k] with a constant k: k; otherwise -1
	Expr     *Expr     // symbolic value: addresses, strides, scalars
	Text     string    // source text
	Pos, End token.Pos // byte-exact
}

// InferUnalignRoles sets the Role of every unaligned register of fn from
// the instructions that use it: load (Pre, LoadUnAlign, generic Load),
// store (StoreUnAlign, Post, generic Store), or mixed when both do. The
// front ends call it once a region is lowered.
func InferUnalignRoles(fn *Func) {
	for _, in := range fn.Instrs {
		var role UnalignRole
		switch in.Op {
		case OpLoadUnAlignPre, OpLoadUnAlign, OpLoad:
			role = RoleLoad
		case OpStoreUnAlign, OpStoreUnAlignPost, OpStore:
			role = RoleStore
		default:
			continue
		}
		for _, a := range in.Args {
			if a.Reg == NoReg {
				continue
			}
			r := fn.Regs[a.Reg]
			if !r.Class.IsUnalign() {
				continue
			}
			switch {
			case r.Role == RoleNone:
				r.Role = role
			case r.Role != role:
				r.Role = RoleMixed
			}
		}
	}
}

// Within reports whether loop l (an instruction's innermost loop, or
// NoLoop) is id or nested in it.
func (fn *Func) Within(l, id LoopID) bool {
	for ; l != NoLoop; l = fn.Loops[l].Parent {
		if l == id {
			return true
		}
	}
	return false
}

// InstrsIn returns the instructions of loop l, those of its inner loops
// included: a run of Instrs, since the body holds instructions in ID order.
// A scan of a loop's instructions costs the loop, not the region.
func (fn *Func) InstrsIn(l *Loop) []*Instr {
	first, last := edgeInstr(l.Body, false), edgeInstr(l.Body, true)
	if first == nil {
		return nil
	}
	return fn.Instrs[first.ID : last.ID+1]
}

// edgeInstr returns the first (or the last) instruction of b in program
// order, nil when it has none.
func edgeInstr(b *Block, last bool) *Instr {
	if b == nil {
		return nil
	}
	for k := range b.Nodes {
		if last {
			k = len(b.Nodes) - 1 - k
		}
		var in *Instr
		switch n := b.Nodes[k].(type) {
		case *Instr:
			in = n
		case *Loop:
			in = edgeInstr(n.Body, last)
		case *If:
			if last {
				in = cmp.Or(edgeInstr(n.Else, last), edgeInstr(n.Then, last))
			} else {
				in = cmp.Or(edgeInstr(n.Then, last), edgeInstr(n.Else, last))
			}
		}
		if in != nil {
			return in
		}
	}
	return nil
}

// SharedLoop reports whether loops a and b (innermost loops, or NoLoop)
// have an enclosing loop in common.
func (fn *Func) SharedLoop(a, b LoopID) bool {
	for x := a; x != NoLoop; x = fn.Loops[x].Parent {
		if fn.Within(b, x) {
			return true
		}
	}
	return false
}

// FoldTrip sets the trip count of a counted loop when its start, bound and
// step are all constants.
func (l *Loop) FoldTrip() {
	init, ok1 := l.Init.Value()
	bound, ok2 := l.Bound.Value()
	step, ok3 := l.Step.Value()
	if !ok1 || !ok2 || !ok3 || step == 0 {
		return
	}
	var n int64
	switch {
	case l.CmpOp == "<" && step > 0:
		n = ceilDiv(bound-init, step)
	case l.CmpOp == "<=" && step > 0:
		n = ceilDiv(bound-init+1, step)
	case l.CmpOp == ">" && step < 0:
		n = ceilDiv(init-bound, -step)
	case l.CmpOp == ">=" && step < 0:
		n = ceilDiv(init-bound+1, -step)
	case l.CmpOp == "!=":
		d := bound - init
		if d%step != 0 || d/step < 0 {
			return
		}
		n = d / step
	default:
		return
	}
	l.Trip, l.TripKnown = max(n, 0), true
	if l.Trip <= 1 {
		l.AtMostOnce = true
	}
}

func ceilDiv(a, b int64) int64 {
	if a <= 0 {
		return 0
	}
	return (a + b - 1) / b
}
