// Package asc1005 defines an Analyzer that reports an unaligned store stream
// whose register is not flushed by StoreUnAlignPost before the VF ends.
//
// The check is a may-analysis of "u may hold an unflushed tail" over the
// structured body (see ureg/flow.go): StoreUnAlign (in any spelling) makes
// its register dirty, StoreUnAlignPost (raw vstas included) flushes it, and
// handing the register to a helper or an unknown call counts as a flush (the
// callee may do it). A register still possibly dirty at the end of the region
// is reported once, at the last StoreUnAlign that can leave it so; or, when
// a StoreUnAlignPost after that store flushes another register (on the same
// pointer, or one no store wrote: typically the load register), once at that
// Post, naming the register to flush instead. Parameters and references are
// the caller's to flush.
//
//	for (...) { StoreUnAlign(dst, v, u, VL); }  // reported: the tail stays in u
//	StoreUnAlignPost(dst, u, 0);                // fix: flush once after the loop
package asc1005

import (
	"fmt"

	"golang.org/x/tools/go/analysis"

	"github.com/ascvet/ascvet/analyzers/cppir"
	"github.com/ascvet/ascvet/analyzers/internal/ureg"
	"github.com/ascvet/ascvet/cppfront/ir"
	"github.com/ascvet/ascvet/ruleset"
)

// Rule is ASC1005 unalign-store-without-post.
var Rule = ruleset.Define(&ruleset.Rule{
	ID:    "ASC1005",
	Name:  "unalign-store-without-post",
	Title: "unaligned store stream is never flushed by StoreUnAlignPost",
	Text: "StoreUnAlign writes UB only up to the last 32-byte boundary it reaches and keeps the rest of the " +
		"vector in its unaligned register (UnalignRegForStore); the next StoreUnAlign merges that tail into its " +
		"own write. The last tail of a stream reaches UB only through StoreUnAlignPost. When a path leads from a " +
		"StoreUnAlign to the end of the VF without a StoreUnAlignPost on its register, the last partial block of " +
		"the output is silently lost. Registers that are parameters, or that are passed to a helper or unknown " +
		"function after the store, are assumed flushed there; a flush through a raw builtin (vstas) counts. " +
		"When a StoreUnAlignPost after the last store flushes another register (on the same pointer, or one no " +
		"StoreUnAlign wrote, such as the stream's load register), the finding is that Post, naming the register to " +
		"flush instead: one bug, one finding. " +
		"Fix: call StoreUnAlignPost(dst, u, 0) once after the last store of the stream, through the register the " +
		"stores used. When a Post flushes the wrong register, -fix renames it, a one-token change, offered only when " +
		"the text it writes, lowered again, holds the same instructions, flushes the stream's register (the same " +
		"declaration) and leaves no other stream unflushed; otherwise the finding says why not. " +
		"\n\nSource: the Ascend C best practice \"Optimization in Contiguous Unaligned Scenarios\" (连续非对齐场景优化): write an unaligned address with StoreUnAlign, then finish with StoreUnAlignPost." +
		" https://www.hiascend.com/document/detail/en/CANNCommunityEdition/900/programug/Ascendcopdevg/atlas_ascendc_best_practices_10_00025.html" +
		" https://gitcode.com/cann/asc-devkit/blob/master/docs/zh/guide/算子实践参考/SIMD算子性能优化/矢量计算/VF性能优化/连续非对齐场景优化.md",
	Before: `AscendC::Reg::RegTensor<float> srcReg;
AscendC::Reg::UnalignRegForStore ureg1;
constexpr uint32_t postUpdateStride = AscendC::VECTOR_REG_WIDTH / sizeof(float);
for (uint16_t i = 0; i < repeatTimes; ++i) {
    AscendC::Reg::LoadAlign(srcReg, srcAddr + i * postUpdateStride);
    AscendC::Reg::StoreUnAlign(dstAddr, srcReg, ureg1, postUpdateStride);
}`,
	After: `AscendC::Reg::RegTensor<float> srcReg;
AscendC::Reg::UnalignRegForStore ureg1;
constexpr uint32_t postUpdateStride = AscendC::VECTOR_REG_WIDTH / sizeof(float);
for (uint16_t i = 0; i < repeatTimes; ++i) {
    AscendC::Reg::LoadAlign(srcReg, srcAddr + i * postUpdateStride);
    AscendC::Reg::StoreUnAlign(dstAddr, srcReg, ureg1, postUpdateStride);
}
AscendC::Reg::StoreUnAlignPost(dstAddr, ureg1, 0);  // write the last tail to UB`,
	Severity:  ruleset.Error,
	Since:     "0.1.0",
	Tags:      []string{"correctness", "unaligned"},
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
		var renames []*rename
		for _, fn := range f.Funcs {
			if fn.Kind.Analysed() && fn.Body != nil {
				renames = append(renames, check(pass, f, fn)...)
			}
		}
		// The renames of a file are checked on one lowering of its fixed
		// text (fix.go), then reported.
		for i, why := range checkRenames(f, renames) {
			r := renames[i]
			if why == "" {
				r.d.SuggestedFixes = []analysis.SuggestedFix{*r.fix}
			} else {
				r.d.Message += "; no automatic fix: " + why
			}
			pass.Report(r.d)
		}
	}
	return nil, nil
}

// check reports the findings of fn, but for those with a rename to check
// (a misdirected Post), which it returns.
func check(pass *analysis.Pass, f *ir.File, fn *ir.Func) []*rename {
	var renames []*rename
	var posts []*ir.Instr // every StoreUnAlignPost, for the wording of a finding
	for _, in := range fn.Instrs {
		if in.Op == ir.OpStoreUnAlignPost {
			posts = append(posts, in)
		}
	}
	keys, last := ureg.Unflushed(fn)
	for _, k := range keys {
		in := fn.Instrs[last[k]]
		if p := ureg.MisdirectedPost(fn, in, k); p != nil {
			// The stream has its Post, through the wrong register: one
			// finding, at the Post, naming the register to flush.
			d := analysis.Diagnostic{Pos: p.Pos, End: p.End, Message: wrongMessage(f, fn, p, in, k),
				Related: []analysis.RelatedInformation{{Pos: in.Pos, End: in.End,
					Message: fmt.Sprintf("the stream's last store, through %s", ureg.Name(fn, k))}}}
			r, why := wrongFix(f, fn, p, k)
			if r != nil {
				r.d = d
				renames = append(renames, r)
				continue
			}
			if why != "" {
				d.Message += "; no automatic fix: " + why
			}
			pass.Report(d)
			continue
		}
		pass.Report(analysis.Diagnostic{Pos: in.Pos, End: in.End, Message: message(fn, in, k, laterPost(fn, in, k, posts))})
	}
	return renames
}

func wrongMessage(f *ir.File, fn *ir.Func, p, store *ir.Instr, k ureg.Key) string {
	_, pk, _ := ureg.Operand(fn, p)
	name, other := ureg.Name(fn, k), ureg.Name(fn, pk)
	line := 0
	if f.Tok != nil {
		line = f.Tok.Line(store.Pos)
	}
	return fmt.Sprintf("%s flushes %s, but the stream stored on line %d keeps its tail in %s, which nothing flushes: whatever its stores leave past a 32-byte boundary is lost; flush %s, not %s",
		ureg.Called(p), other, line, name, name, other)
}

// laterPost reports whether some StoreUnAlignPost on k can run after in:
// it follows in, or a loop encloses both.
func laterPost(fn *ir.Func, in *ir.Instr, k ureg.Key, posts []*ir.Instr) bool {
	for _, p := range posts {
		if _, pk, found := ureg.Operand(fn, p); found && !ureg.Covers(pk, k) {
			continue
		}
		if p.ID > in.ID || fn.SharedLoop(p.Loop, in.Loop) {
			return true
		}
	}
	return false
}

func message(fn *ir.Func, in *ir.Instr, k ureg.Key, later bool) string {
	sp := ureg.SpellingOf(in)
	name := ureg.Name(fn, k)
	where := "after the last store"
	if in.Loop != ir.NoLoop {
		where = "after the loop"
	}
	dst := ureg.Pointer(in)
	if dst == "" {
		dst = "dst"
	}
	fact := fmt.Sprintf("no %s flushes %s after it before the VF ends, so the last partial block is lost", sp.Post, name)
	if later {
		fact = fmt.Sprintf("some path from it reaches the end of the VF without a %s on %s, losing the last partial block", sp.Post, name)
	}
	return fmt.Sprintf("%s keeps the tail of its stream in %s, but %s; call %s(%s, %s, 0) %s",
		ureg.Called(in), name, fact, sp.Post, dst, name, where)
}
