// Package asc1006 defines an Analyzer that reports one unaligned register
// serving a load stream and a store stream at the same time.
//
// UnalignRegForLoad, UnalignRegForStore and UnalignReg are one type
// (vector_align, kernel_reg_compute_common_intf.h), so one variable may
// carry a load stream and then a store stream; that is right as long as
// each stream is finished before the other touches the register. Two
// overlaps lose data, and are reported where they happen:
//
//   - a load-side op (LoadUnAlignPre, LoadUnAlign) on a register whose store
//     stream still holds an unflushed tail (a StoreUnAlign since the last
//     StoreUnAlignPost): the load overwrites the tail;
//
//   - a LoadUnAlign continuing a load stream whose register a store-side op
//     wrote since the Pre that primed it: the load merges the store's bytes.
//
// A StoreUnAlignPost flushing a register no StoreUnAlign wrote is reported
// here when no stream is left unflushed by it (it flushes nothing); when a
// stream is, ASC1005 reports the Post once, naming the register to flush.
//
//	LoadUnAlignPre(u, src);
//	for (...) { LoadUnAlign(v, u, src, VL); StoreUnAlign(dst, v, u, VL); } // reported at the LoadUnAlign
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
	Title: "one unaligned register serves a load and a store stream at once",
	Text: "An unaligned load stream (LoadUnAlignPre, LoadUnAlign) keeps the next input block in its register; an " +
		"unaligned store stream (StoreUnAlign, then StoreUnAlignPost) keeps the pending output tail in its register. " +
		"UnalignRegForLoad, UnalignRegForStore and UnalignReg are one type (vector_align in " +
		"kernel_reg_compute_common_intf.h), so one variable may serve a load stream and then a store stream, and that " +
		"is right when each stream is finished before the other touches the register (the read-modify-write of a " +
		"row: Pre, LoadUnAlign, StoreUnAlign, StoreUnAlignPost). What loses data is an overlap: a load-side op on the " +
		"register while a store's tail is still unflushed overwrites the tail, and the last partial block of the " +
		"output is lost; a LoadUnAlign after a store-side op wrote the register since its Pre merges the store's " +
		"bytes into the loaded data. Both are reported where they happen. A StoreUnAlignPost on a register no " +
		"StoreUnAlign wrote flushes nothing; when a store stream is left unflushed by it, ASC1005 reports it once, " +
		"naming the register to flush. Fix: give the two streams their own registers, or finish one stream (Post " +
		"after the last store, or the last load) before the other starts." +
		"\n\nSource: the Ascend C best practice \"Optimization in Contiguous Unaligned Scenarios\" (连续非对齐场景优化), which describes the load and the store unaligned registers, and the API reference \"UnalignRegForLoad and UnalignRegForStore\"; asc-devkit's kernel_reg_compute_common_intf.h for the types." +
		" https://www.hiascend.com/document/detail/en/CANNCommunityEdition/900/programug/Ascendcopdevg/atlas_ascendc_best_practices_10_00025.html" +
		" https://gitcode.com/cann/asc-devkit/blob/master/docs/zh/guide/算子实践参考/SIMD算子性能优化/矢量计算/VF性能优化/连续非对齐场景优化.md" +
		" https://www.hiascend.com/document/detail/en/CANNCommunityEdition/900/API/ascendcopapi/atlasascendc_api_07_0316.html" +
		" https://gitcode.com/cann/asc-devkit/blob/master/include/basic_api/reg_compute/kernel_reg_compute_common_intf.h",
	Before: `AscendC::Reg::RegTensor<float> srcReg;
AscendC::Reg::UnalignReg ureg;
constexpr uint32_t postUpdateStride = AscendC::VECTOR_REG_WIDTH / sizeof(float);
AscendC::Reg::LoadUnAlignPre(ureg, srcAddr);
for (uint16_t i = 0; i < repeatTimes; ++i) {
    AscendC::Reg::LoadUnAlign(srcReg, ureg, srcAddr, postUpdateStride);  // overwrites the store's tail
    AscendC::Reg::StoreUnAlign(dstAddr, srcReg, ureg, postUpdateStride);
}
AscendC::Reg::StoreUnAlignPost(dstAddr, ureg, 0);`,
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
	var storeKeys []ureg.Key      // keys some StoreUnAlign writes, in order of first store
	stored := map[ureg.Key]bool{} // the same, as a set
	var passed []ureg.Key         // keys handed to helper or unknown calls
	first := map[ureg.Key]use{}   // first unaligned op on each key
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
		if _, ok := first[k]; !ok {
			first[k] = use{in, role}
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
	// Posts through the wrong register of a stream left unflushed: ASC1005
	// reports those, naming the register to flush.
	misdirected := map[ir.InstrID]bool{}
	keys, last := ureg.Unflushed(fn)
	for _, k := range keys {
		if p := ureg.MisdirectedPost(fn, fn.Instrs[last[k]], k); p != nil {
			misdirected[p.ID] = true
		}
	}
	// (b) flushes of registers no store wrote.
	for _, in := range fn.Instrs {
		if in.Op != ir.OpStoreUnAlignPost || misdirected[in.ID] {
			continue
		}
		_, k, found := ureg.Operand(fn, in)
		if !found || untracked[k.Reg] || stored[k] || ureg.Exempt(fn.Regs[k.Reg]) || isPassed(k) {
			continue
		}
		pass.Report(analysis.Diagnostic{Pos: in.Pos, End: in.End, Message: flushMessage(fn, in, k, first[k], storeKeys)})
	}
	// (a) one register serving a load and a store stream while both live.
	for _, c := range clashes(fn, untracked) {
		pass.Report(analysis.Diagnostic{
			Pos:     c.in.Pos,
			End:     c.in.End,
			Message: clashMessage(f, fn, c),
			Related: []analysis.RelatedInformation{{
				Pos:     c.other.Pos,
				End:     c.other.End,
				Message: fmt.Sprintf("%s last written by the other stream here", ureg.Name(fn, c.k)),
			}},
		})
	}
}

// clash is a load-side op on a register whose store stream still holds an
// unflushed tail, or a LoadUnAlign continuing a load stream whose register
// a store-side op wrote since the Pre that primed it.
type clash struct {
	in, other *ir.Instr // the op, and the op of the other stream that still owns the register
	k         ureg.Key
	tail      bool // the store stream's tail is clobbered (else the load stream's cached block)
}

// clashes finds, with two may-analyses over the body, where the two
// streams sharing one register overlap. The unaligned register types are
// one type (UnalignRegForLoad, UnalignRegForStore and UnalignReg are all
// vector_align), so one variable may serve a load stream and then a store
// stream: that is right as long as each stream is finished before the
// other touches the register (the load's last LoadUnAlign before the first
// StoreUnAlign, the store's Post before the next Pre).
func clashes(fn *ir.Func, untracked []bool) []clash {
	// Both flows start at a store-side op and end at a load-side one: a
	// body without both has no clash (most bodies: the flows are the cost).
	var stores, loads bool
	for _, in := range fn.Instrs {
		switch in.Op {
		case ir.OpStoreUnAlign, ir.OpStoreUnAlignPost:
			stores = true
		case ir.OpLoadUnAlignPre, ir.OpLoadUnAlign:
			loads = true
		}
	}
	if !stores || !loads {
		return nil
	}
	tracked := func(k ureg.Key) bool { return !untracked[k.Reg] && !ureg.Exempt(fn.Regs[k.Reg]) }
	primed := map[ureg.Key]bool{} // load streams that a Pre primes somewhere (an unprimed load is ASC1004's)
	for _, in := range fn.Instrs {
		if in.Op == ir.OpLoadUnAlignPre {
			if _, k, ok := ureg.Operand(fn, in); ok {
				primed[k] = true
			}
		}
	}
	found := map[ir.InstrID]clash{}
	flows := []struct {
		tail bool
		// gen: the op leaves the other stream's state in the register;
		// kill: the op ends that state; hit: the op needs the register free
		// of it.
		gen, kill, hit func(op ir.Op) bool
	}{
		{true, // a pending store tail, until the Post
			func(op ir.Op) bool { return op == ir.OpStoreUnAlign },
			func(op ir.Op) bool { return op == ir.OpStoreUnAlignPost },
			func(op ir.Op) bool { return op == ir.OpLoadUnAlignPre || op == ir.OpLoadUnAlign }},
		{false, // a store-side write since the Pre, until the next Pre
			func(op ir.Op) bool { return op == ir.OpStoreUnAlign || op == ir.OpStoreUnAlignPost },
			func(op ir.Op) bool { return op == ir.OpLoadUnAlignPre },
			func(op ir.Op) bool { return op == ir.OpLoadUnAlign }},
	}
	for _, fl := range flows {
		ureg.Run(fn, ureg.NewState(), func(in *ir.Instr, s *ureg.State) {
			if in.Op == ir.OpCall || in.Op == ir.OpUnknown {
				for _, p := range ureg.Passed(fn, in) {
					s.Kill(func(x ureg.Key) bool { return ureg.Covers(p, x) })
				}
				return
			}
			_, k, ok := ureg.Operand(fn, in)
			if !ok || !tracked(k) {
				return
			}
			if fl.hit(in.Op) && (fl.tail || primed[k]) {
				if fs := s.Facts(k); len(fs) > 0 && fs[0].Origin != ureg.Entry {
					if _, dup := found[in.ID]; !dup {
						found[in.ID] = clash{in: in, other: fn.Instrs[fs[0].Origin], k: k, tail: fl.tail}
					}
				}
			}
			if fl.kill(in.Op) {
				s.Kill(func(x ureg.Key) bool { return ureg.Covers(k, x) })
			}
			if fl.gen(in.Op) {
				s.Gen(k, in.ID)
			}
		}, ureg.Options{LoopsRun: true})
	}
	out := make([]clash, 0, len(found))
	for _, c := range found {
		out = append(out, c)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].in.ID < out[j].in.ID })
	return out
}

func clashMessage(f *ir.File, fn *ir.Func, c clash) string {
	line := 0
	if f.Tok != nil {
		line = f.Tok.Line(c.other.Pos)
	}
	name := ureg.Name(fn, c.k)
	if c.tail {
		return fmt.Sprintf("%s uses %s while the store stream of %s on line %d still keeps its unflushed tail there: the load overwrites the tail, and the last partial block of the store is lost; flush it with StoreUnAlignPost first, or give the load stream its own UnalignRegForLoad",
			ureg.Called(c.in), name, ureg.Called(c.other), line)
	}
	return fmt.Sprintf("%s continues the load stream in %s, but %s on line %d wrote %s since the Pre primed it: the load merges the store's bytes into its data; prime it again with LoadUnAlignPre, or give the store stream its own UnalignRegForStore",
		ureg.Called(c.in), name, ureg.Called(c.other), line, name)
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
