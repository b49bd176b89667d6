// Package asc1001 defines an Analyzer that reports LoadUnAlignPre calls that
// re-initialise an unaligned load stream inside a loop although the stream is
// contiguous: the unaligned register already holds the next partial block
// after each LoadUnAlign, so one Pre before the loop is enough.
package asc1001

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

// Rule is ASC1001 unalign-pre-in-loop.
var Rule = ruleset.Define(&ruleset.Rule{
	ID:    "ASC1001",
	Name:  "unalign-pre-in-loop",
	Title: "unaligned load stream re-initialised every iteration",
	Text: "LoadUnAlignPre primes an unaligned register with the 32-byte block at the start of a stream; each LoadUnAlign " +
		"then leaves the next partial block in the register. When the loads of iteration i+1 start exactly where " +
		"those of iteration i ended, the Pre inside the loop only repeats work: one more load-port instruction per " +
		"iteration and a serialising dependency on the register. Prime once, before the loop. " +
		"The rule decides contiguity from the address expressions and constant folding: a post-update pointer advanced " +
		"by one vector length, or src + i * n where n is what one iteration loads. Padded rows, pointers reset each " +
		"iteration, registers shared by two streams, data rewritten in the loop and loops that run at most once are " +
		"not reported; streams whose addresses do not fold are reported only with -confidence=low. " +
		"The fix (hoist the Pre, priming at the first iteration's address) is offered only when a byte-exact replay " +
		"of the loop on a model of UB and of the unaligned registers shows that it loads the same data in every case " +
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
			for _, s := range stream.PreSites(fn) {
				report(pass, f, s)
			}
		}
	}
	return nil, nil
}

// advice says how to move the Pre; a register declared in the loop has to
// move out with it.
func advice(s stream.Site, u string) string {
	for _, d := range s.Loop.Decls {
		if d == u {
			return "declare " + u + " before the loop and hoist the Pre with it"
		}
	}
	return "hoist it before the loop"
}

func report(pass *analysis.Pass, f *ir.File, s stream.Site) {
	u := s.Func.Regs[s.Reg].Name
	d := analysis.Diagnostic{Pos: s.Instr.Pos, End: s.Instr.End}
	noFix := "" // why the replay withheld the fix
	switch s.Verdict {
	case stream.Contiguous:
		d.Message = fmt.Sprintf("LoadUnAlignPre on %s re-initialises a contiguous stream each iteration; %s", u, advice(s, u))
		fix, why := stream.HoistFix(f, s)
		if fix != nil {
			d.SuggestedFixes = []analysis.SuggestedFix{*fix}
		}
		noFix = why
	case stream.Unknown:
		if settings.Of(pass).Confidence != "low" {
			return
		}
		d.Message = fmt.Sprintf("LoadUnAlignPre on %s may re-initialise a contiguous stream each iteration (not proven: %s); hoist it before the loop if the stream is contiguous", u, s.Why)
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
	for _, ld := range s.Stream {
		d.Related = append(d.Related, analysis.RelatedInformation{Pos: ld.Pos, End: ld.End, Message: "the stream continues with this load"})
	}
	pass.Report(d)
}
