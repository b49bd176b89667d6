// Package asc1006 defines an Analyzer that reports unaligned registers mixed
// up between the load and the store side of a stream.
//
// Two mistakes compile, because UnalignRegForLoad and UnalignRegForStore can
// both be the one alias UnalignReg:
//
//   - one register used by load-side ops (LoadUnAlignPre, LoadUnAlign) and by
//     store-side ops (StoreUnAlign, StoreUnAlignPost): reported at the first
//     instruction that uses it in the role opposite to its first use;
//
//   - a StoreUnAlignPost flushing a register that no StoreUnAlign in the region
//     wrote, typically the load register (u0) while the stores went through
//     u1: the real tail is never flushed. Parameters, references and
//     registers handed to a helper or unknown call are not reported, since
//     the stores may happen elsewhere.
//
//     LoadUnAlign(v, u0, src, VL); StoreUnAlign(dst, v, u1, VL);
//     StoreUnAlignPost(dst, u0, 0);   // reported: flush u1
package asc1006

import (
	"fmt"
	"sort"
	"strings"

	"golang.org/x/tools/go/analysis"

	"github.com/ascvet/ascvet/analyzers/cppir"
	"github.com/ascvet/ascvet/analyzers/internal/ureg"
	"github.com/ascvet/ascvet/cppfront/ir"
	"github.com/ascvet/ascvet/ruleset"
)

// Rule is ASC1006 unalign-register-mixup.
var Rule = ruleset.Define(&ruleset.Rule{
	ID:    "ASC1006",
	Name:  "unalign-register-mixup",
	Title: "unaligned register used on the wrong side of a stream",
	Text: "An unaligned load stream (LoadUnAlignPre, LoadUnAlign) and an unaligned store stream (StoreUnAlign, " +
		"StoreUnAlignPost) each need their own register: UnalignRegForLoad and UnalignRegForStore are separate " +
		"hardware registers, and the load register holds the next input block while the store register holds the " +
		"pending output tail. Because both types can be the same alias (UnalignReg), the compiler accepts one " +
		"variable used on both sides, and it accepts a StoreUnAlignPost that flushes a register no StoreUnAlign " +
		"wrote, for example the load register u0 when the stores went through u1; the real tail in u1 is then " +
		"never written to UB. Fix: give each stream its own register and flush the register the stores used. " +
		"Source: seed 000, which describes the load and the store unaligned registers.",
	Before: `AscendC::Reg::RegTensor<float> srcReg;
AscendC::Reg::UnalignReg ureg0, ureg1;
constexpr uint32_t postUpdateStride = AscendC::VECTOR_REG_WIDTH / sizeof(float);
AscendC::Reg::LoadUnAlignPre(ureg0, srcAddr);
for (uint16_t i = 0; i < repeatTimes; ++i) {
    AscendC::Reg::LoadUnAlign(srcReg, ureg0, srcAddr, postUpdateStride);
    AscendC::Reg::StoreUnAlign(dstAddr, srcReg, ureg1, postUpdateStride);
}
AscendC::Reg::StoreUnAlignPost(dstAddr, ureg0, 0);  // flushes the load register`,
	After: `AscendC::Reg::RegTensor<float> srcReg;
AscendC::Reg::UnalignRegForLoad ureg0;
AscendC::Reg::UnalignRegForStore ureg1;
constexpr uint32_t postUpdateStride = AscendC::VECTOR_REG_WIDTH / sizeof(float);
AscendC::Reg::LoadUnAlignPre(ureg0, srcAddr);
for (uint16_t i = 0; i < repeatTimes; ++i) {
    AscendC::Reg::LoadUnAlign(srcReg, ureg0, srcAddr, postUpdateStride);
    AscendC::Reg::StoreUnAlign(dstAddr, srcReg, ureg1, postUpdateStride);
}
AscendC::Reg::StoreUnAlignPost(dstAddr, ureg1, 0);`,
	Severity:  ruleset.Error,
	Since:     "0.1.0",
	Tags:      []string{"correctness", "unaligned", "registers"},
	Precision: "high",
}, &analysis.Analyzer{
	Requires:         []*analysis.Analyzer{cppir.Analyzer},
	RunDespiteErrors: true, // go list flags C++ files in a non-cgo package; see STYLE §5
	Run:              run,
})

// Analyzer is the analyzer of Rule.
var Analyzer = Rule.Analyzer

func run(pass *analysis.Pass) (any, error) {
	pkg := pass.ResultOf[cppir.Analyzer].(*ir.Package)
	for _, f := range pkg.Files {
		for _, fn := range f.Funcs {
			if fn.Kind.Analysed() && fn.Body != nil {
				check(pass, f, fn)
			}
		}
	}
	return nil, nil
}

// use is the first use of a register in one role.
type use struct {
	in   *ir.Instr
	role ureg.Role
}

func check(pass *analysis.Pass, f *ir.File, fn *ir.Func) {
	untracked := ureg.Untracked(fn)
	// Flow-insensitive facts, in program order.
	var storeKeys []ureg.Key             // keys some StoreUnAlign writes, in order of first store
	stored := map[ureg.Key]bool{}        // the same, as a set
	var passed []ureg.Key                // keys handed to helper or unknown calls
	first := map[ureg.Key]use{}          // first unaligned op on each key
	opposite := map[ureg.Key]*ir.Instr{} // first op on each key in the role opposite to its first
	for _, in := range fn.Instrs {
		passed = append(passed, ureg.Passed(fn, in)...)
		role := ureg.RoleOf(in.Op)
		if role == ureg.RoleNone {
			continue
		}
		_, k, found := ureg.Operand(fn, in)
		if !found || untracked[k.Reg] {
			continue
		}
		if in.Op == ir.OpStoreUnAlign && !stored[k] {
			stored[k] = true
			storeKeys = append(storeKeys, k)
		}
		u, ok := first[k]
		switch {
		case !ok:
			first[k] = use{in, role}
		case u.role != role && opposite[k] == nil:
			opposite[k] = in
		}
	}
	isPassed := func(k ureg.Key) bool {
		for _, p := range passed {
			if ureg.Covers(p, k) {
				return true
			}
		}
		return false
	}
	// (b) flushes of registers no store wrote.
	flushReported := map[ir.InstrID]bool{}
	for _, in := range fn.Instrs {
		if in.Op != ir.OpStoreUnAlignPost {
			continue
		}
		_, k, found := ureg.Operand(fn, in)
		if !found || untracked[k.Reg] || stored[k] || ureg.Exempt(fn.Regs[k.Reg]) || isPassed(k) {
			continue
		}
		flushReported[in.ID] = true
		pass.Report(analysis.Diagnostic{Pos: in.Pos, End: in.End, Message: flushMessage(fn, in, k, first[k], storeKeys)})
	}
	// (a) one register on both sides.
	var mixed []ureg.Key
	for k := range opposite {
		mixed = append(mixed, k)
	}
	sort.Slice(mixed, func(i, j int) bool { return opposite[mixed[i]].ID < opposite[mixed[j]].ID })
	for _, k := range mixed {
		in := opposite[k]
		if flushReported[in.ID] {
			continue // (b) said it, naming the register to flush instead
		}
		u := first[k]
		pass.Report(analysis.Diagnostic{
			Pos:     in.Pos,
			End:     in.End,
			Message: mixedMessage(f, fn, in, k, u),
			Related: []analysis.RelatedInformation{{
				Pos:     u.in.Pos,
				End:     u.in.End,
				Message: fmt.Sprintf("%s first used as a %s register here", ureg.Name(fn, k), u.role),
			}},
		})
	}
}

func flushMessage(fn *ir.Func, in *ir.Instr, k ureg.Key, u use, storeKeys []ureg.Key) string {
	name := ureg.Name(fn, k)
	what := name
	if u.in != nil && u.role == ureg.RoleLoad {
		what = name + " (the load register)"
	}
	if len(storeKeys) == 0 {
		return fmt.Sprintf("%s flushes %s, which no StoreUnAlign in this VF wrote, so it flushes nothing; remove it, or flush the register the stores use",
			ureg.Called(in), what)
	}
	var names []string
	for _, s := range storeKeys {
		names = append(names, ureg.Name(fn, s))
	}
	fix := "flush that register instead"
	if len(names) > 1 {
		fix = "flush the one this stream used instead"
	}
	return fmt.Sprintf("%s flushes %s, which no StoreUnAlign wrote; the stores went through %s: %s",
		ureg.Called(in), what, strings.Join(names, " and "), fix)
}

func mixedMessage(f *ir.File, fn *ir.Func, in *ir.Instr, k ureg.Key, u use) string {
	role := ureg.RoleOf(in.Op)
	line := 0
	if f.Tok != nil {
		line = f.Tok.Line(u.in.Pos)
	}
	want := "UnalignRegForLoad"
	if role == ureg.RoleStore {
		want = "UnalignRegForStore"
	}
	return fmt.Sprintf("%s uses %s as a %s register, but %s on line %d used it as a %s register; give the %s stream its own %s",
		ureg.Called(in), ureg.Name(fn, k), role, ureg.Called(u.in), line, u.role, role, want)
}
