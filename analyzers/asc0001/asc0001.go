// Package asc0001 defines an Analyzer that reports VF regions that
// tree-sitter could not parse completely (ERROR or MISSING nodes), so that a
// gap in what ascvet understood shows instead of hiding behind silence.
package asc0001

import (
	"fmt"

	"golang.org/x/tools/go/analysis"

	"github.com/ascvet/ascvet/analyzers/cppir"
	"github.com/ascvet/ascvet/cppfront/ir"
	"github.com/ascvet/ascvet/ruleset"
)

// Rule is ASC0001 vf-parse-error.
var Rule = ruleset.Define(&ruleset.Rule{
	ID:    "ASC0001",
	Name:  "vf-parse-error",
	Title: "VF region does not parse completely",
	Text: "The parser (C++, or Python for a pypto_pro @pl.vector_function) found a syntax error, or a token it had to assume, inside a VF region. " +
		"The statements around that point are lowered as unknown, so other rules may miss findings in the region. " +
		"Either the code does not compile, or it uses a spelling ascvet does not know yet (often a macro); " +
		"fix the code, or report the construct so ascvet can learn it.",
	Before: `__simd_vf__ inline void Add(__ubuf__ float* dst, __ubuf__ float* src, uint16_t n)
{
    AscendC::Reg::RegTensor<float> v;
    AscendC::Reg::MaskReg m = AscendC::Reg::CreateMask<float>();
    for (uint16_t i = 0; i < n; ++i {  // missing ')'
        AscendC::Reg::LoadAlign(v, src + i * 64);
        AscendC::Reg::StoreAlign(dst + i * 64, v, m);
    }
}`,
	After: `__simd_vf__ inline void Add(__ubuf__ float* dst, __ubuf__ float* src, uint16_t n)
{
    AscendC::Reg::RegTensor<float> v;
    AscendC::Reg::MaskReg m = AscendC::Reg::CreateMask<float>();
    for (uint16_t i = 0; i < n; ++i) {
        AscendC::Reg::LoadAlign(v, src + i * 64);
        AscendC::Reg::StoreAlign(dst + i * 64, v, m);
    }
}`,
	Severity:  ruleset.Info,
	Since:     "0.1.0",
	Tags:      []string{"tool", "parse"},
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
			if len(fn.Errors) == 0 || !fn.Kind.Analysed() {
				continue // SIMT regions are recorded, not analysed: no finding there can be missed
			}
			first := fn.Errors[0]
			for _, p := range fn.Errors[1:] {
				first = min(first, p)
			}
			pass.Report(analysis.Diagnostic{
				Pos:     first,
				End:     first,
				Message: fmt.Sprintf("VF region %s does not parse here; findings in it may be incomplete", fn.Name),
			})
		}
	}
	return nil, nil
}
