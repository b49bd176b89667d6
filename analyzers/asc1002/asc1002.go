// Package asc1002 defines an Analyzer that reports StoreUnAlignPost calls
// that flush an unaligned store stream inside a loop although the stream is
// contiguous: the unaligned register carries the partial block into the
// next StoreUnAlign, so one Post after the loop is enough.
package asc1002

import (
	"fmt"

	"golang.org/x/tools/go/analysis"

	"github.com/ascvet/ascvet/analyzers/cppir"
	"github.com/ascvet/ascvet/analyzers/internal/stream"
	"github.com/ascvet/ascvet/analyzers/settings"
	"github.com/ascvet/ascvet/analyzers/simcost"
	"github.com/ascvet/ascvet/cppfront/ir"
	"github.com/ascvet/ascvet/ruleset"
)

// Rule is ASC1002 unalign-post-in-loop.
var Rule = ruleset.Define(&ruleset.Rule{
	ID:    "ASC1002",
	Name:  "unalign-post-in-loop",
	Title: "unaligned store stream flushed every iteration",
	Text: "StoreUnAlign writes everything up to the last 32-byte boundary and keeps the tail in the unaligned register; " +
		"the next StoreUnAlign merges it. StoreUnAlignPost writes the tail out and is needed once, when the stream ends. " +
		"Inside the loop of a contiguous stream (a post-update pointer that nothing else moves) it costs one single-issue " +
		"store-port instruction per iteration. Flush once, after the loop. Flushes through a raw builtin (vstas), " +
		"inside a helper function, under an if, or at another address than the stream's pointer are not reported. " +
		"The fix (sink the Post) is offered only when a byte-exact replay of the loop on a model of UB and of the " +
		"unaligned registers shows that it writes the same bytes and the loop loads the same data in every case " +
		"tried; otherwise the finding says why there is no automatic fix. " +
		"Source: seed 000, the best practice for contiguous unaligned access; the examples are its counter-example (反例) and correct example (正例).",
	Before: `AscendC::Reg::RegTensor<float> srcReg;
AscendC::Reg::UnalignRegForLoad ureg0;
AscendC::Reg::UnalignRegForStore ureg1;
constexpr uint32_t postUpdateStride = AscendC::VECTOR_REG_WIDTH / sizeof(float);
for (uint16_t i = 0; i < repeatTimes; ++i) {
    AscendC::Reg::LoadUnAlignPre(ureg0, srcAddr + i * postUpdateStride);
    AscendC::Reg::LoadUnAlign(srcReg, ureg0, srcAddr + i * postUpdateStride);
    AscendC::Reg::StoreUnAlign(dstAddr, srcReg, ureg1, postUpdateStride);
    AscendC::Reg::StoreUnAlignPost(dstAddr, ureg1, 0);
}`,
	After: `AscendC::Reg::RegTensor<float> srcReg;
AscendC::Reg::UnalignRegForLoad ureg0;
AscendC::Reg::UnalignRegForStore ureg1;
constexpr uint32_t postUpdateStride = AscendC::VECTOR_REG_WIDTH / sizeof(float);
// initialise the load stream once, before the loop
AscendC::Reg::LoadUnAlignPre(ureg0, srcAddr);
for (uint16_t i = 0; i < repeatTimes; ++i) {
    AscendC::Reg::LoadUnAlign(srcReg, ureg0, srcAddr + i * postUpdateStride);
    AscendC::Reg::StoreUnAlign(dstAddr, srcReg, ureg1, postUpdateStride);
}
// flush the store stream once, after the loop
AscendC::Reg::StoreUnAlignPost(dstAddr, ureg1, 0);`,
	Severity:  ruleset.Warning,
	Since:     "0.1.0",
	Tags:      []string{"performance", "unaligned", "best-practice"},
	Precision: "high",
	Options:   []ruleset.Option{ruleset.OptionConfidence, ruleset.OptionChip, ruleset.OptionMachine, ruleset.OptionIterations},
}, &analysis.Analyzer{
	Requires:         []*analysis.Analyzer{cppir.Analyzer, simcost.Analyzer, settings.Analyzer},
	RunDespiteErrors: true,
	Run:              run,
})

// Analyzer is the analyzer of Rule.
var Analyzer = Rule.Analyzer

func run(pass *analysis.Pass) (any, error) {
	pkg := pass.ResultOf[cppir.Analyzer].(*ir.Package)
	for _, f := range pkg.Files {
		for _, fn := range f.Funcs {
			if !fn.Kind.Analysed() {
				continue
			}
			for _, s := range stream.PostSites(fn) {
				report(pass, f, s)
			}
		}
	}
	return nil, nil
}

// advice says how to move the Post; a register declared in the loop has to
// move out with it.
func advice(s stream.Site, u string) string {
	for _, d := range s.Loop.Decls {
		if d == u {
			return "declare " + u + " before the loop and sink the Post after it"
		}
	}
	return "sink it after the loop"
}

func report(pass *analysis.Pass, f *ir.File, s stream.Site) {
	u := s.Func.Regs[s.Reg].Name
	d := analysis.Diagnostic{Pos: s.Instr.Pos, End: s.Instr.End}
	noFix := "" // why the replay withheld the fix
	switch s.Verdict {
	case stream.Contiguous:
		d.Message = fmt.Sprintf("StoreUnAlignPost on %s flushes a contiguous store stream each iteration; %s", u, advice(s, u))
		fix, why := stream.SinkFix(f, s)
		if fix != nil {
			d.SuggestedFixes = []analysis.SuggestedFix{*fix}
		}
		noFix = why
	case stream.Unknown:
		if settings.Of(pass).Confidence != "low" {
			return
		}
		d.Message = fmt.Sprintf("StoreUnAlignPost on %s may flush a contiguous store stream each iteration (not proven: %s); sink it after the loop if the stream is contiguous", u, s.Why)
	default:
		return
	}
	// The price: the loop simulated with and without the instruction.
	md := pass.ResultOf[simcost.Analyzer].(*simcost.Model)
	cost := md.Loop(s.Func, s.Loop, func(in *ir.Instr) bool { return in == s.Instr })
	d.Message += ": " + cost.Phrase()
	simcost.Attach(&d, cost)
	if noFix != "" {
		d.Message += "; no automatic fix: " + noFix
	}
	for _, st := range s.Stream {
		d.Related = append(d.Related, analysis.RelatedInformation{Pos: st.Pos, End: st.End, Message: "the stream is written by this store"})
	}
	pass.Report(d)
}
