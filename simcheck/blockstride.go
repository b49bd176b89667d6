package simcheck

import (
	"strings"

	"github.com/ascvet/ascvet/cppfront/ir"
)

// Block-strided (DataBlock) accesses, for the rules: what the simulator
// reads of them (blockStride, blockBanks), exported, and the same reading
// under an instantiation's bindings.

// BlockCopy reports a DataCopyMode::DATA_BLOCK_COPY access, as the
// simulator recognises one (its template arguments as written).
func BlockCopy(in *ir.Instr) bool { return blockCopy(in) }

// BlockStride returns the block stride (in 32-byte blocks) of a
// DataBlock-mode LoadAlign or StoreAlign as the simulator reads it: the
// first scalar argument, the one after the pointer in both the plain form
// (LoadAlign<T, DATA_BLOCK_COPY>(dst, src, blockStride, mask)) and the
// post-update form (..., blockStride, repeatStride, mask). ok is false for
// any other access, or a stride that does not fold as written.
func BlockStride(in *ir.Instr) (int64, bool) { return blockStride(in) }

// BlockBanks returns Inst.Banks of in as the simulator sets it: the port
// cycles its eight blocks need, 0 for an access that is not block-strided
// or whose stride does not fold.
func BlockBanks(in *ir.Instr) int { return blockBanks(in) }

// StrideBanks returns the port cycles (Inst.Banks) a block-strided load,
// or store when store is set, of the given block stride needs: blockBanks
// of such an instruction. A negative stride is not one (0).
func StrideBanks(store bool, stride int64) int {
	op := ir.OpLoadAlign
	if store {
		op = ir.OpStoreAlign
	}
	return blockBanks(&ir.Instr{
		Op:    op,
		TArgs: []string{"AscendC::Reg::DataCopyMode::DATA_BLOCK_COPY"},
		Args:  []ir.Operand{{Role: ir.ArgScalar, Reg: ir.NoReg, Part: -1, Expr: ir.Const(stride)}},
	})
}

// DataBlockStride is BlockStride under the instantiation bind: a stride
// written as a template parameter or a scalar parameter the bindings fix
// folds, and a mode passed as a template parameter bound to
// DATA_BLOCK_COPY counts. It also reads the C API's block-strided form,
// asc_loadalign(dst, src, blockStride, repeatStride, mask) and
// asc_storealign(dst, src, blockStride, repeatStride, mask) (vsldb and
// vsstb: the overloads with two scalars), which the simulator's
// blockStride does not. dataBlock reports the mode even when the stride
// does not fold (ok false).
func DataBlockStride(in *ir.Instr, bind ir.Bindings) (stride int64, dataBlock, ok bool) {
	if in.Op != ir.OpLoadAlign && in.Op != ir.OpStoreAlign {
		return 0, false, false
	}
	var scalars []*ir.Expr
	for _, a := range in.Args {
		if a.Role == ir.ArgScalar {
			scalars = append(scalars, a.Expr)
		}
	}
	switch {
	case blockCopy(in):
		dataBlock = true
	case in.Form == ir.FormCAPI && !in.Post && (in.Name == "asc_loadalign" || in.Name == "asc_storealign") && len(scalars) == 2:
		dataBlock = true
	default:
		for _, t := range in.TArgs {
			if strings.Contains(bind.Type(t), "DATA_BLOCK_COPY") {
				dataBlock = true
			}
		}
	}
	if !dataBlock || len(scalars) == 0 || scalars[0] == nil {
		return 0, dataBlock, false
	}
	v, known := bind.Subst(scalars[0]).Value()
	return v, true, known && v >= 0
}
