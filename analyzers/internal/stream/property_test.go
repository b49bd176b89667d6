package stream

import (
	"fmt"
	"go/token"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis"

	"github.com/ascvet/ascvet/cppfront/ir"
	"github.com/ascvet/ascvet/simcheck/replay"
)

// TestFixesKeepEveryPath is the property behind -fix: a kernel generated
// at random, combining the shapes that break naive hoists and sinks (early
// return, break and continue at any point of the body, reads back through
// another name for the stream's buffer, stores into it, registers declared
// in the loop, names the moved declaration would clash with, loops that
// start at 2, count down or run zero times), gets every fix ascvet offers
// applied, one at a time; the fixed text is parsed again, and both
// functions are run, whole, on the byte-exact UB model by an interpreter
// written for this test (not the replay's), for every binding of the trip
// count, the count stored, the iterations the ifs fire in and the
// buffers' offsets. Every run must write the same UB bytes.
func TestFixesKeepEveryPath(t *testing.T) {
	rng := rand.New(rand.NewPCG(15, 2026))
	programs, fixes, withheld, hazards := 400, 0, 0, 0
	if testing.Short() {
		programs = 60
	}
	for k := range programs {
		src, hazard := genKernel(rng)
		f := lower(t, src)
		fn := f.Funcs[0]
		type offer struct {
			fix  *analysis.SuggestedFix
			what string
		}
		var offers []offer
		for _, s := range PreSites(fn) {
			if s.Verdict != Contiguous {
				continue
			}
			fix, _ := HoistFix(f, s)
			if fix != nil {
				offers = append(offers, offer{fix, "hoist"})
			} else {
				withheld++
			}
		}
		for _, s := range PostSites(fn) {
			if s.Verdict != Contiguous {
				continue
			}
			fix, why := checkedSinkFix(f, s)
			if fix != nil {
				offers = append(offers, offer{fix, "sink"})
			} else if why != "" {
				withheld++
			}
		}
		if hazard != "" && len(offers) > 0 {
			t.Fatalf("program %d: a %s is offered although %s:\n%s\nfixed:\n%s", k, offers[0].what, hazard, src, apply(f, offers[0].fix))
		}
		if hazard != "" {
			hazards++
		}
		for _, o := range offers {
			fixes++
			if strings.Contains(src, "#pragma unroll\n    for") && !strings.Contains(apply(f, o.fix), "#pragma unroll\n    for") {
				t.Fatalf("program %d: the %s separates the #pragma unroll from its loop:\n%s", k, o.what, apply(f, o.fix))
			}
			fixed := apply(f, o.fix)
			g := lower(t, fixed)
			if len(g.Funcs) != 1 || len(g.Funcs[0].Errors) > 0 {
				t.Fatalf("program %d: the %s does not parse:\n%s", k, o.what, fixed)
			}
			if name := redeclared(g.Funcs[0]); name != "" {
				t.Fatalf("program %d: the %s declares %s twice in one scope:\n%s", k, o.what, name, fixed)
			}
			if why := samePaths(fn, g.Funcs[0]); why != "" {
				t.Fatalf("program %d: the %s changes what a path writes: %s\noriginal:\n%s\nfixed:\n%s", k, o.what, why, src, fixed)
			}
		}
	}
	t.Logf("%d programs, %d fixes applied and checked, %d withheld with a reason, %d programs whose pointer escapes (none fixed)", programs, fixes, withheld, hazards)
	if fixes < programs/10 || withheld < programs/10 || hazards < programs/10 {
		t.Errorf("the generator exercises too little: %d fixes, %d withheld", fixes, withheld)
	}
}

// redeclared returns a name that fn declares twice in one scope (the same
// loops and ifs around both), counting parameters, registers and
// variables, or "".
func redeclared(fn *ir.Func) string {
	type decl struct {
		name  string
		scope string
	}
	seen := map[decl]bool{}
	scope := func(pos token.Pos) string {
		var b strings.Builder
		for _, n := range enclosing(fn.Body, pos) {
			a, _ := n.Span()
			fmt.Fprintf(&b, "%d.", a)
		}
		return b.String()
	}
	add := func(name string, pos token.Pos, param bool) string {
		d := decl{name, ""}
		if !param {
			d.scope = scope(pos)
		}
		if seen[d] {
			return name
		}
		seen[d] = true
		return ""
	}
	for _, p := range fn.Params {
		add(p.Name, p.Pos, true)
	}
	for _, r := range fn.Regs {
		if !r.Param && !r.Implicit {
			if n := add(r.Name, r.Pos, false); n != "" {
				return n
			}
		}
	}
	for _, d := range fn.Names {
		if d.Decl {
			if n := add(d.Name, d.Pos, false); n != "" {
				return n
			}
		}
	}
	return ""
}

// genKernel writes one random kernel with a store stream (its Post in the
// loop) or a load stream (its Pre in the loop). When it puts before the
// loop a statement through which the stream's pointer escapes the IR (a
// lambda, a reference, its address, a helper, an integer, #if, a macro,
// the loop's initialiser, a member),
// hazard says which: no fix may be offered then, since neither the
// analysis nor this test's interpreter sees what it does.
func genKernel(rng *rand.Rand) (string, string) {
	var b strings.Builder
	store := rng.IntN(2) == 0
	ptr := "src"
	if store {
		ptr = "dst"
	}
	hazard, before, macro := "", "", ""
	switch rng.IntN(18) {
	case 0:
		hazard, before = "a lambda captures the pointer by reference", "    auto adv = [&]() { "+ptr+" += 64; };\n    adv();\n"
	case 1:
		hazard, before = "a reference is bound to the pointer", "    __ubuf__ float*& again = "+ptr+";\n    again += 64;\n"
	case 2:
		hazard, before = "the pointer's address is taken", "    Bump(&"+ptr+");\n"
	case 3:
		hazard, before = "the pointer goes to an unknown helper", "    Advance("+ptr+", keep);\n"
	case 4:
		hazard, before = "the pointer is converted to an integer", "    uint64_t raw = (uint64_t)"+ptr+";\n    Keep(raw);\n"
	case 5:
		hazard, before = "the pointer is written under #if", "#if EXTRA\n    "+ptr+" += 64;\n#endif\n    keep = keep + 0;\n"
	case 6:
		hazard, macro, before = "a macro names the pointer", "#define SHIFT "+ptr+" += 64\n", "    SHIFT;\n"
	case 7:
		hazard = "the stream reads a member"
	}
	b.WriteString(macro)
	declIn := rng.IntN(3) == 0
	clash := declIn && rng.IntN(3) == 0
	b.WriteString("__simd_vf__ inline void K(__ubuf__ float* dst, __ubuf__ float* src, __ubuf__ float* out, uint16_t n, uint32_t keep, uint16_t c0, uint16_t c1, uint16_t c2)\n{\n")
	b.WriteString("    Reg::RegTensor<float> v;\n    Reg::RegTensor<float> w;\n")
	ureg := "Reg::UnalignRegForLoad u;"
	if store {
		ureg = "Reg::UnalignRegForStore u;"
	}
	if clash {
		b.WriteString("    uint32_t u = 0;\n")
	}
	if !declIn {
		b.WriteString("    " + ureg + "\n")
	}
	alias := []string{"dst", "src"}[rng.IntN(2)]
	aliasOff := []int{0, 8, 64, -64}[rng.IntN(4)]
	fmt.Fprintf(&b, "    __ubuf__ float* rd = %s + %d;\n", alias, aliasOff)
	b.WriteString(before)
	if rng.IntN(4) == 0 {
		b.WriteString("#pragma unroll\n")
	}
	header := []string{
		"for (uint16_t i = 0; i < n; ++i)",
		"for (uint16_t i = 2; i < n; ++i)",
		"for (int16_t i = n - 1; i >= 0; --i)",
		"for (uint16_t i = 0; i < n; i += 2)",
	}[rng.IntN(4)]
	if hazard == "" && rng.IntN(10) == 0 {
		// The loop's initialiser moves the stream's pointer.
		hazard = "the loop's initialiser assigns the pointer"
		header = "for (i = 0, " + ptr + " = " + ptr + " + 64; i < n; ++i)"
		b.WriteString("    uint16_t i;\n")
	}
	b.WriteString("    " + header + " {\n")
	var body []string
	if declIn {
		body = append(body, ureg)
	}
	if store {
		body = append(body,
			"Reg::LoadAlign(v, src + i * 64);",
			"Reg::StoreUnAlign(dst, v, u, keep);",
			"Reg::StoreUnAlignPost(dst, u, 0);")
	} else {
		a := []int{0, 1, 3, 8}[rng.IntN(4)]
		body = append(body,
			fmt.Sprintf("Reg::LoadUnAlignPre(u, src + i * 64 + %d);", a),
			fmt.Sprintf("Reg::LoadUnAlign(v, u, src + i * 64 + %d);", a),
			"Reg::StoreAlign(out + i * 64, v, Reg::CreateMask<float>());")
	}
	// Extra accesses: reads back, writes through the alias.
	for range rng.IntN(3) {
		at := rng.IntN(len(body) + 1)
		var s string
		switch rng.IntN(4) {
		case 0:
			s = "Reg::LoadAlign(w, rd + i * 64);\n        Reg::StoreAlign(out + i * 64 + 4096, w, Reg::CreateMask<float>());"
		case 1:
			s = "Reg::LoadAlign(w, rd);\n        Reg::StoreAlign(out + i * 64 + 4096, w, Reg::CreateMask<float>());"
		case 2:
			s = "Reg::StoreAlign(rd + i * 64 + 64, w, Reg::CreateMask<float>());"
		default:
			s = "Reg::LocalMemBar<Reg::MemType::VEC_STORE, Reg::MemType::VEC_LOAD>();"
		}
		body = append(body[:at], append([]string{s}, body[at:]...)...)
	}
	// Jumps.
	for range rng.IntN(3) {
		at := rng.IntN(len(body) + 1)
		j := []string{"return;", "break;", "continue;"}[rng.IntN(3)]
		s := fmt.Sprintf("if (i == c%d) {\n            %s\n        }", rng.IntN(3), j)
		body = append(body[:at], append([]string{s}, body[at:]...)...)
	}
	for _, s := range body {
		if hazard == "the stream reads a member" {
			// The count or the address is a member of the kernel's class.
			s = strings.ReplaceAll(s, "u, keep)", "u, this->keep_)")
			s = strings.ReplaceAll(s, "(u, src + i", "(u, this->src_ + i")
		}
		b.WriteString("        " + s + "\n")
	}
	b.WriteString("    }\n")
	if clash {
		b.WriteString("    dst[0] = u;\n")
	}
	b.WriteString("}\n")
	return b.String(), hazard
}

// samePaths runs both functions for every binding and returns where the
// UB they leave differs, or "".
func samePaths(a, b *ir.Func) string {
	ma, mb := replay.NewMachine(testImage), replay.NewMachine(testImage)
	for _, n := range []int64{0, 1, 2, 3, 5} {
		for _, keep := range []int64{1, 7, 8, 33, 64} {
			for _, cs := range [][3]int64{{99, 99, 99}, {0, 99, 99}, {1, 2, 99}, {2, 1, 0}, {99, 3, 1}, {4, 4, 4}} {
				for _, off := range []int64{0, 4, 12, 28} {
					env := map[string]int64{"n": n, "keep": keep, "c0": cs[0], "c1": cs[1], "c2": cs[2]}
					ea := runFunc(a, ma, env, off)
					eb := runFunc(b, mb, env, off)
					if ea != "" || eb != "" {
						if ea != eb {
							return fmt.Sprintf("n=%d keep=%d c=%v off=%d: %q vs %q", n, keep, cs, off, ea, eb)
						}
						continue
					}
					if addr, differ := replay.FirstDiff(ma, mb); differ {
						return fmt.Sprintf("n=%d keep=%d c=%v off=%d: UB byte %d differs", n, keep, cs, off, addr)
					}
				}
			}
		}
	}
	return ""
}

var testImage = func() []byte {
	b := make([]byte, replay.UBSize)
	r := rand.New(rand.NewPCG(1, 2))
	for i := range b {
		b[i] = byte(r.Uint32())
	}
	return b
}()

// interp runs one function on the model.
type interp struct {
	fn    *ir.Func
	m     *replay.Machine
	env   map[string]int64 // scalars, and pointers as byte addresses
	vals  map[ir.RegID][]byte
	lregs map[ir.RegID]*replay.LoadReg
	sregs map[ir.RegID]*replay.StoreReg
	steps int
	err   string
}

type ctl uint8

const (
	ctlNext ctl = iota
	ctlBreak
	ctlContinue
	ctlReturn
)

// runFunc runs fn with the scalars of env and the buffers dst, src and out
// at 32 KB apart plus off; it returns "" or why the run is not comparable
// (a fault, which both sides must share).
func runFunc(fn *ir.Func, m *replay.Machine, env map[string]int64, off int64) string {
	m.Reset()
	in := &interp{fn: fn, m: m, env: map[string]int64{}, vals: map[ir.RegID][]byte{}, lregs: map[ir.RegID]*replay.LoadReg{}, sregs: map[ir.RegID]*replay.StoreReg{}}
	for k, v := range env {
		in.env[k] = v
	}
	in.env["dst"] = 64<<10 + off
	in.env["src"] = 96<<10 + off
	in.env["out"] = 128 << 10
	for _, d := range fn.Names { // rd = dst + k, declared before the loop
		if d.Decl && d.Init != nil && d.Name == "rd" {
			v, ok := in.eval(d.Init)
			if !ok {
				return "rd does not fold"
			}
			in.env["rd"] = v * 4 // eval counts floats
		}
	}
	in.block(fn.Body)
	if m.Fault != nil {
		return "fault"
	}
	return in.err
}

func (in *interp) eval(e *ir.Expr) (int64, bool) {
	v := e.Subst(func(kind ir.ExprKind, name string) *ir.Expr {
		if x, ok := in.env[name]; ok {
			if name == "dst" || name == "src" || name == "out" || name == "rd" {
				return ir.Const(x / 4) // pointers count floats
			}
			return ir.Const(x)
		}
		return nil
	})
	return v.Value()
}

// addr evaluates a pointer operand in bytes.
func (in *interp) addr(o ir.Operand) int {
	v, ok := in.eval(o.Expr)
	if !ok {
		in.err = "address " + o.Text + " does not fold"
	}
	return int(v * 4)
}

func (in *interp) scalar(o ir.Operand) int64 {
	v, ok := in.eval(o.Expr)
	if !ok {
		in.err = "scalar " + o.Text + " does not fold"
	}
	return v
}

func (in *interp) block(b *ir.Block) ctl {
	if b == nil {
		return ctlNext
	}
	for _, n := range b.Nodes {
		if in.err != "" || in.m.Fault != nil {
			return ctlReturn
		}
		switch n := n.(type) {
		case *ir.Instr:
			in.instr(n)
		case *ir.Jump:
			switch n.Kind {
			case ir.JumpBreak:
				return ctlBreak
			case ir.JumpContinue:
				return ctlContinue
			default:
				return ctlReturn
			}
		case *ir.If:
			l, r, ok := strings.Cut(n.CondText, "==")
			x, okx := in.env[strings.TrimSpace(l)]
			y, oky := in.env[strings.TrimSpace(r)]
			if !ok || !okx || !oky {
				in.err = "condition " + n.CondText
				return ctlReturn
			}
			br := n.Else
			if x == y {
				br = n.Then
			}
			if c := in.block(br); c != ctlNext {
				return c
			}
		case *ir.Loop:
			if c := in.loop(n); c == ctlReturn {
				return c
			}
		}
	}
	return ctlNext
}

func (in *interp) loop(l *ir.Loop) ctl {
	start, ok1 := in.eval(l.Init)
	step, ok2 := in.eval(l.Step)
	if !ok1 || !ok2 {
		in.err = "loop header"
		return ctlReturn
	}
	for i := start; ; i += step {
		in.env[l.Var] = i
		bound, ok := in.eval(l.Bound)
		if !ok {
			in.err = "loop bound"
			return ctlReturn
		}
		if run := map[string]bool{"<": i < bound, "<=": i <= bound, ">": i > bound, ">=": i >= bound, "!=": i != bound}[l.CmpOp]; !run {
			return ctlNext
		}
		if in.steps++; in.steps > 10000 {
			in.err = "too long"
			return ctlReturn
		}
		// A register declared in the body is a new one each iteration.
		for _, r := range in.fn.Regs {
			if r.Pos >= l.Pos && r.Pos < l.End {
				delete(in.lregs, r.ID)
				delete(in.sregs, r.ID)
			}
		}
		switch in.block(l.Body) {
		case ctlBreak:
			return ctlNext
		case ctlReturn:
			return ctlReturn
		}
	}
}

func (in *interp) lreg(r ir.RegID) *replay.LoadReg {
	if u, ok := in.lregs[r]; ok {
		return u
	}
	u := replay.NewLoadReg()
	in.lregs[r] = u
	return u
}

func (in *interp) sreg(r ir.RegID) *replay.StoreReg {
	if u, ok := in.sregs[r]; ok {
		return u
	}
	u := &replay.StoreReg{}
	in.sregs[r] = u
	return u
}

// reg returns the value of a vector register (zeros before a write).
func (in *interp) reg(r ir.RegID) []byte {
	if v, ok := in.vals[r]; ok {
		return v
	}
	return make([]byte, replay.VLBytes)
}

// instr runs the few instructions the generator writes.
func (in *interp) instr(x *ir.Instr) {
	arg := func(role ...ir.ArgRole) ir.Operand {
		for _, a := range x.Args {
			for _, r := range role {
				if a.Role == r {
					return a
				}
			}
		}
		in.err = "operand of " + x.Name
		return ir.Operand{}
	}
	vreg := func() ir.RegID {
		for _, a := range x.Args {
			if a.Reg != ir.NoReg && !in.fn.Regs[a.Reg].Class.IsUnalign() {
				return a.Reg
			}
		}
		in.err = "register of " + x.Name
		return ir.NoReg
	}
	ureg := func() ir.RegID {
		for _, a := range x.Args {
			if a.Reg != ir.NoReg && in.fn.Regs[a.Reg].Class.IsUnalign() {
				return a.Reg
			}
		}
		in.err = "unaligned register of " + x.Name
		return ir.NoReg
	}
	advance := func(p ir.Operand, elems int64) {
		if p.Role == ir.ArgPtrRW && p.Expr != nil && p.Expr.Kind == ir.ExprSym {
			in.env[p.Expr.Name] += elems * 4
		}
	}
	switch x.Op {
	case ir.OpCreateMask, ir.OpLocalMemBar:
	case ir.OpLoadUnAlignPre:
		in.m.LoadUnAlignPre(in.lreg(ureg()), in.addr(arg(ir.ArgPtr, ir.ArgPtrRW)))
	case ir.OpLoadUnAlign:
		var v replay.Vec
		r, u := vreg(), ureg()
		in.m.LoadUnAlign(&v, in.lreg(u), in.addr(arg(ir.ArgPtr, ir.ArgPtrRW)))
		in.vals[r] = v[:]
	case ir.OpLoadAlign:
		var v replay.Vec
		r := vreg()
		in.m.LoadAlign(&v, in.addr(arg(ir.ArgPtr, ir.ArgPtrRW)))
		in.vals[r] = v[:]
	case ir.OpStoreAlign:
		var v replay.Vec
		copy(v[:], in.reg(vreg()))
		in.m.StoreAlign(in.addr(arg(ir.ArgPtr, ir.ArgPtrRW)), &v, nil, 4)
	case ir.OpStoreUnAlign:
		p := arg(ir.ArgPtr, ir.ArgPtrRW)
		count := in.scalar(arg(ir.ArgScalar))
		if count < 0 || count*4 > replay.VLBytes {
			in.err = "count " + strconv.FormatInt(count, 10)
			return
		}
		in.m.StoreUnAlign(in.addr(p), in.reg(vreg())[:count*4], in.sreg(ureg()))
		advance(p, count)
	case ir.OpStoreUnAlignPost:
		p := arg(ir.ArgPtr, ir.ArgPtrRW)
		off := in.scalar(arg(ir.ArgScalar))
		in.m.StoreUnAlignPost(in.sreg(ureg()), in.addr(p)+int(off*4))
		advance(p, off)
	default:
		in.err = "instruction " + x.Name
	}
}
