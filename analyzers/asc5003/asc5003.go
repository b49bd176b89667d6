// Package asc5003 defines an Analyzer that reports a block-strided
// (DataCopyMode::DATA_BLOCK_COPY) LoadAlign or StoreAlign whose block
// stride is a positive multiple of 8 blocks: its eight 32-byte blocks are
// a multiple of 256 bytes apart and all fall in one bank group of the 950
// UB (arch 3510), which serialises them.
//
//	StoreAlign<T, DataCopyMode::DATA_BLOCK_COPY>(dst + i * 8, v, 8, mask);  // reported: 8 blocks, one group
//	StoreAlign<T, DataCopyMode::DATA_BLOCK_COPY>(dst + i * 8, v, 9, mask);  // rows padded by a block: 8 groups
//
// The stride is read as the simulator reads it (simcheck.DataBlockStride,
// the first scalar after the pointer), under each instantiation of the
// function the file makes, so that the finding and its price agree.
package asc5003

import (
	"fmt"
	"slices"
	"strings"

	"golang.org/x/tools/go/analysis"

	"github.com/ascvet/ascvet/analyzers/cppir"
	"github.com/ascvet/ascvet/analyzers/simcost"
	"github.com/ascvet/ascvet/cppfront/ir"
	"github.com/ascvet/ascvet/ruleset"
	"github.com/ascvet/ascvet/simcheck"
)

// Rule is ASC5003 datablock-bank-group.
var Rule = ruleset.Define(&ruleset.Rule{
	ID:    "ASC5003",
	Name:  "datablock-bank-group",
	Title: "DataBlock stride puts all eight blocks in one UB bank group",
	Text: "In DataBlock mode (DataCopyMode::DATA_BLOCK_COPY) a LoadAlign or StoreAlign moves eight 32-byte blocks, " +
		"block k at the address plus k x blockStride x 32 bytes: the scalar after the pointer is the block stride, in " +
		"blocks (in the post-update form the repeat stride follows it; the C API's asc_loadalign and asc_storealign with " +
		"two scalars are the same instruction). The UB of the Ascend 950 (arch 3510) interleaves 32-byte blocks over 16 " +
		"banks in 8 bank groups, so block k falls in group ((address >> 5) + k x blockStride) mod 8. A block stride that " +
		"is a multiple of 8 puts all eight blocks in one group, and a multiple of 16 in one bank. A bank group takes one " +
		"write a cycle: such a StoreAlign writes its blocks one after the other, 8 cycles instead of 1. A group serves two " +
		"reads a cycle and a bank one: such a LoadAlign takes 4 cycles (8 when the stride is a multiple of 16). This is " +
		"the column-wise access of a tile whose rows are a multiple of 256 bytes long. Pad each row by one 32-byte " +
		"block, so that the stride is one more (8 to 9, 144 to 145): the blocks then step one group at a time and cover " +
		"all eight; or access the tile row-wise. No automatic fix is offered: the padding changes the buffer's size and " +
		"layout, the copy-in that fills it and every other access to it. " +
		"Not reported: a stride of 0 (the same block eight times, read once by the hardware), a stride that is not a " +
		"multiple of 8, the NORM mode, and a stride that does not fold (a runtime value). A stride that is a template " +
		"argument or a constexpr is folded for each instantiation the file makes, and a finding that holds for only " +
		"some of them names them. A stride of 4 modulo 8 (four blocks in each of two groups, a 4-cycle write) is not " +
		"reported either: the documented bank rules predict half the cost, and no measurement shows it. The published " +
		"measurements show the conflict on the store side (STU); a LoadAlign is reported by the documented read rules, " +
		"and its price is the model's. The price simulates the loop as written and with the reported access's blocks " +
		"spread over the eight groups, nothing else changed." +
		"\n\nSource: the asc-devkit examples \"UB Bank Conflict Scenario Verification and Analysis (Architecture 3510)\" (bank_conflict_3510), cases 11 and 12: " +
		"the same copy row-wise (block stride 1) takes 443,135 cycles and column-wise (block stride 8) 1,510,497, with " +
		"an STU conflict ratio of 53.5%, 3.4x slower; and \"ND2NZ Bank Conflict Tuning Example\" (bank_conflict_nd2nz), where on the Ascend " +
		"950 a StoreAlign with block stride 144 takes 45.25 us of vector time and with 145 (one block of padding) 9.14 us." +
		" https://gitcode.com/cann/asc-devkit/blob/master/examples/01_simd_cpp_api/05_best_practices/04_memory_access/bank_conflict_3510/README.md" +
		" https://gitcode.com/cann/asc-devkit/blob/master/examples/01_simd_cpp_api/05_best_practices/04_memory_access/bank_conflict_3510/README_en.md" +
		" https://gitcode.com/cann/asc-devkit/blob/master/examples/01_simd_cpp_api/05_best_practices/04_memory_access/bank_conflict_nd2nz/README_en.md",
	Before: `// a 64 x 8 float tile, rows of 256 bytes, read and written column-wise
AscendC::Reg::RegTensor<float> reg;
AscendC::Reg::MaskReg mask = AscendC::Reg::CreateMask<float>();
for (uint16_t i = 0; i < 8; ++i) {
    AscendC::Reg::LoadAlign<float, AscendC::Reg::DataCopyMode::DATA_BLOCK_COPY>(reg, srcAddr + i * 8, 8, mask);
    AscendC::Reg::Adds(reg, reg, 1.0f, mask);
    AscendC::Reg::StoreAlign<float, AscendC::Reg::DataCopyMode::DATA_BLOCK_COPY>(dstAddr + i * 8, reg, 8, mask);
}`,
	After: `// rows padded to 288 bytes (72 floats) in UB: block stride 9
AscendC::Reg::RegTensor<float> reg;
AscendC::Reg::MaskReg mask = AscendC::Reg::CreateMask<float>();
for (uint16_t i = 0; i < 8; ++i) {
    AscendC::Reg::LoadAlign<float, AscendC::Reg::DataCopyMode::DATA_BLOCK_COPY>(reg, srcAddr + i * 8, 9, mask);
    AscendC::Reg::Adds(reg, reg, 1.0f, mask);
    AscendC::Reg::StoreAlign<float, AscendC::Reg::DataCopyMode::DATA_BLOCK_COPY>(dstAddr + i * 8, reg, 9, mask);
}`,
	Severity:  ruleset.Warning,
	Since:     "0.2.0",
	Tags:      []string{"performance", "memory", "bank-conflict", "best-practice"},
	Precision: "high",
	Options:   []ruleset.Option{ruleset.OptionChip, ruleset.OptionMachine, ruleset.OptionIterations},
}, &analysis.Analyzer{
	Requires:         []*analysis.Analyzer{cppir.Analyzer, simcost.Analyzer},
	RunDespiteErrors: true,
	Run:              run,
})

// Analyzer is the analyzer of Rule.
var Analyzer = Rule.Analyzer

// groups is the number of UB bank groups of the 3510: a block stride that
// is a multiple of it sends every block to the group of the first.
const groups = 8

func run(pass *analysis.Pass) (any, error) {
	pkg := pass.ResultOf[cppir.Analyzer].(*ir.Package)
	md, _ := pass.ResultOf[simcost.Analyzer].(*simcost.Model)
	for _, f := range pkg.Files {
		for _, fn := range f.Funcs {
			if !fn.Kind.Analysed() {
				continue
			}
			insts := fn.Instantiations()
			for _, in := range fn.Instrs {
				if in.Op != ir.OpLoadAlign && in.Op != ir.OpStoreAlign {
					continue
				}
				check(pass, md, fn, in, insts)
			}
		}
	}
	return nil, nil
}

// check reports in when, under some instantiation of fn, it is a
// block-strided access whose stride folds to a positive multiple of 8:
// once per such stride (instantiations may fold it to different ones).
func check(pass *analysis.Pass, md *simcost.Model, fn *ir.Func, in *ir.Instr, insts []ir.Bindings) {
	var strides []int64
	holds := map[int64][]ir.Bindings{}
	for _, b := range insts {
		stride, _, ok := simcheck.DataBlockStride(in, b)
		if !ok || stride <= 0 || stride%groups != 0 {
			continue
		}
		if _, seen := holds[stride]; !seen {
			strides = append(strides, stride)
		}
		holds[stride] = append(holds[stride], b)
	}
	slices.Sort(strides)
	store := in.Op == ir.OpStoreAlign
	pos, end := in.Pos, in.End
	if a, ok := strideArg(in); ok {
		pos, end = a.Pos, a.End
	}
	why := "which serves two reads a cycle, one per bank"
	if store {
		why = "which takes one write a cycle"
	}
	for _, stride := range strides {
		msg := fmt.Sprintf("%s in DataBlock mode with block stride %d%s: its eight 32-byte blocks are a multiple of 256 bytes apart, all in one UB bank group, %s, so it holds its port %d cycles instead of 1; pad the rows by one 32-byte block (block stride %d) to spread the blocks over the eight groups, or access the data row-wise (no automatic fix: the padding changes the buffer's layout)",
			called(in), stride, instancesNote(holds[stride], insts), why, simcheck.StrideBanks(store, stride), stride+1)
		d := analysis.Diagnostic{Pos: pos, End: end, Message: msg}
		if md != nil {
			if cost := md.Spread(fn, in, holds[stride]); cost.Iterations > 0 {
				d.Message += ": " + cost.Phrase() + cost.CallPhrase()
				simcost.Attach(&d, cost)
			}
		}
		pass.Report(d)
	}
}

// strideArg returns the block-stride operand of in: its first scalar.
func strideArg(in *ir.Instr) (ir.Operand, bool) {
	for _, a := range in.Args {
		if a.Role == ir.ArgScalar {
			return a, true
		}
	}
	return ir.Operand{}, false
}

// called names the instruction as the finding speaks of it.
func called(in *ir.Instr) string {
	if in.Form == ir.FormCAPI {
		return in.Name
	}
	return in.Op.String()
}

// instancesNote names the instantiations the finding holds for when they
// are not all of fn's: " (instantiated with T=float; T=int32_t)".
func instancesNote(holds, all []ir.Bindings) string {
	if len(holds) == len(all) {
		return ""
	}
	names := make([]string, len(holds))
	for i, b := range holds {
		names[i] = b.String()
	}
	return " (instantiated with " + strings.Join(names, "; ") + ")"
}
