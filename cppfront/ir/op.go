package ir

import (
	"strings"
)

// Op is a canonical register-API operation. Every spelling of a call
// (AscendC::Reg, MicroAPI, legacy alias, asc_* C call, raw intrinsic)
// resolves to one Op through this table.
type Op uint16

// Shape says how an op's arguments map to roles. Roles are assigned from the
// classes of the arguments (register, mask, unaligned register, pointer,
// scalar), not from their positions, so the same shape serves the Reg order
// and the different asc_* order (asc_storeunalign(dst, ureg, src, n)).
type Shape uint8

const (
	ShapeNone    Shape = iota // no register operands (barriers, SPR)
	ShapeCompute              // NDst leading registers written, the rest read; a trailing MaskReg is the predicate
	ShapeLoad                 // registers before the pointer written; pointer read (or advanced); unaligned register RW
	ShapeStore                // pointer first; registers read; unaligned register RW
	ShapeRet                  // result returned by value (CreateMask, UpdateMask, CreateAddrReg)
)

// Category groups ops for rules and the simulator.
type Category uint8

const (
	CatOther Category = iota
	CatMaskGen
	CatAddrGen
	CatLoad
	CatLoadUnalignPre
	CatLoadUnalign
	CatLoadGeneric
	CatGather
	CatStore
	CatStoreUnalign
	CatStoreUnalignPost
	CatStoreGeneric
	CatScatter
	CatArith
	CatArithScalar
	CatSFU
	CatCompare
	CatSelect
	CatCast
	CatReduce
	CatDup
	CatShuffle
	CatMove
	CatMaskOp
	CatBarrier
	CatSPR
	CatDebug
	CatScalar
)

var catNames = [...]string{"other", "mask-gen", "addr-gen", "load", "load-unalign-pre", "load-unalign", "load-generic",
	"gather", "store", "store-unalign", "store-unalign-post", "store-generic", "scatter", "arith", "arith-scalar", "sfu",
	"compare", "select", "cast", "reduce", "dup", "shuffle", "move", "mask-op", "barrier", "spr", "debug", "scalar"}

func (c Category) String() string { return catNames[c] }

// IsLoad reports whether ops of the category read UB.
func (c Category) IsLoad() bool {
	return c == CatLoad || c == CatLoadUnalignPre || c == CatLoadUnalign || c == CatLoadGeneric || c == CatGather
}

// IsStore reports whether ops of the category write UB.
func (c Category) IsStore() bool {
	return c == CatStore || c == CatStoreUnalign || c == CatStoreUnalignPost || c == CatStoreGeneric || c == CatScatter
}

// Issue is the published issue class of an op (vf-api.md §5.2).
type Issue uint8

const (
	IssueUnknown   Issue = iota // not published
	IssueDual                   // may pair with another dual-issue instruction
	IssueSingle                 // one port can execute it per cycle
	IssueComposite              // software wrapper: several instructions
)

var issueNames = [...]string{"n/p", "dual", "single", "composite"}

func (i Issue) String() string { return issueNames[i] }

// OpInfo describes one canonical op.
type OpInfo struct {
	Name  string   // canonical name ("LoadAlign", "MaskAnd" for the MaskReg overload of And)
	Cat   Category // group
	Shape Shape    // role assignment
	NDst  int      // ShapeCompute: number of leading destination registers
	Acc   bool     // destination is also read (Axpy, MulAddDst, MulDstAdd, Histograms, Unsqueeze)
	Ret   RegClass // ShapeRet: class of the returned register
	Issue Issue    // published issue class
	HW    string   // hardware mnemonic (S5)
}

// The ops. Order is stable: it is printed and golden-tested by name, not number.
const (
	OpUnknown Op = iota
	OpCall       // call of a same-file helper
	OpCreateMask
	OpUpdateMask
	OpMoveMask
	OpMaskGenWithRegTensor
	OpCreateAddrReg
	OpLoadAlign
	OpLoadUnAlignPre
	OpLoadUnAlign
	OpLoad
	OpGather
	OpGatherB
	OpStoreAlign
	OpStoreUnAlign
	OpStoreUnAlignPost
	OpStore
	OpScatter
	OpMove
	OpAdd
	OpAddCarry
	OpSub
	OpSubCarry
	OpAddC
	OpSubC
	OpMul
	OpMull
	OpDiv
	OpMax
	OpMin
	OpPrelu
	OpAbs
	OpNeg
	OpRelu
	OpExp
	OpSqrt
	OpRsqrt
	OpReciprocal
	OpLn
	OpLog
	OpLog2
	OpLog10
	OpNot
	OpAnd
	OpOr
	OpXor
	OpShiftLeft
	OpShiftRight
	OpAdds
	OpMuls
	OpMaxs
	OpMins
	OpShiftLefts
	OpShiftRights
	OpLeakyRelu
	OpAxpy
	OpMulAddDst
	OpMulDstAdd
	OpAbsSub
	OpExpSub
	OpMulsCast
	OpCompare
	OpCompares
	OpSelect
	OpSqueeze
	OpUnsqueeze
	OpCast
	OpTruncate
	OpReduce
	OpReduceDataBlock
	OpPairReduceElem
	OpDuplicate
	OpArange
	OpInterleave
	OpDeInterleave
	OpPack
	OpUnPack
	OpGatherReg
	OpHistograms
	OpMaskNot
	OpMaskAnd
	OpMaskOr
	OpMaskXor
	OpMaskMove
	OpMaskSelect
	OpMaskInterleave
	OpMaskDeInterleave
	OpMaskPack
	OpMaskUnPack
	OpLocalMemBar
	OpClearSpr
	OpGetSpr
	OpPrint
	OpScalar // a known AscendC scalar utility (GetVecLen, CeilDivision, GetPhyAddr): runs on the scalar unit
	numOps
)

// NumOps is the number of ops, for tables indexed by Op.
const NumOps = int(numOps)

func cmp1(name string, cat Category, issue Issue, hw string) OpInfo {
	return OpInfo{Name: name, Cat: cat, Shape: ShapeCompute, NDst: 1, Issue: issue, HW: hw}
}

var opInfo = [numOps]OpInfo{
	OpUnknown:              {Name: "unknown"},
	OpCall:                 {Name: "call"},
	OpCreateMask:           {Name: "CreateMask", Cat: CatMaskGen, Shape: ShapeRet, Ret: ClassMask, Issue: IssueDual, HW: "PSET"},
	OpUpdateMask:           {Name: "UpdateMask", Cat: CatMaskGen, Shape: ShapeRet, Ret: ClassMask, Issue: IssueDual, HW: "PLT"},
	OpMoveMask:             {Name: "MoveMask", Cat: CatMaskGen, Shape: ShapeRet, Ret: ClassMask, Issue: IssueDual, HW: "MOVP"},
	OpMaskGenWithRegTensor: {Name: "MaskGenWithRegTensor", Cat: CatMaskGen, Shape: ShapeCompute, NDst: 1, Issue: IssueSingle, HW: "MOVVP"},
	OpCreateAddrReg:        {Name: "CreateAddrReg", Cat: CatAddrGen, Shape: ShapeRet, Ret: ClassAddr, Issue: IssueUnknown, HW: "VAG"},
	OpLoadAlign:            {Name: "LoadAlign", Cat: CatLoad, Shape: ShapeLoad, Issue: IssueDual, HW: "VLDS"},
	OpLoadUnAlignPre:       {Name: "LoadUnAlignPre", Cat: CatLoadUnalignPre, Shape: ShapeLoad, Issue: IssueDual, HW: "VLDAS"},
	OpLoadUnAlign:          {Name: "LoadUnAlign", Cat: CatLoadUnalign, Shape: ShapeLoad, Issue: IssueDual, HW: "VLDUS"},
	OpLoad:                 {Name: "Load", Cat: CatLoadGeneric, Shape: ShapeLoad, Issue: IssueComposite, HW: "VLDAS+VLDUS"},
	OpGather:               {Name: "Gather", Cat: CatGather, Shape: ShapeLoad, Issue: IssueSingle, HW: "VGATHER2"},
	OpGatherB:              {Name: "GatherB", Cat: CatGather, Shape: ShapeLoad, Issue: IssueSingle, HW: "VGATHERB"},
	OpStoreAlign:           {Name: "StoreAlign", Cat: CatStore, Shape: ShapeStore, Issue: IssueSingle, HW: "VSTS"},
	OpStoreUnAlign:         {Name: "StoreUnAlign", Cat: CatStoreUnalign, Shape: ShapeStore, Issue: IssueSingle, HW: "VSTUS"},
	OpStoreUnAlignPost:     {Name: "StoreUnAlignPost", Cat: CatStoreUnalignPost, Shape: ShapeStore, Issue: IssueSingle, HW: "VSTAS"},
	OpStore:                {Name: "Store", Cat: CatStoreGeneric, Shape: ShapeStore, Issue: IssueComposite, HW: "VSTUS+VSTAS"},
	OpScatter:              {Name: "Scatter", Cat: CatScatter, Shape: ShapeStore, Issue: IssueSingle, HW: "VSCATTER"},
	OpMove:                 cmp1("Move", CatMove, IssueDual, "VMOV"),
	OpAdd:                  cmp1("Add", CatArith, IssueDual, "VADD"),
	OpAddCarry:             {Name: "AddCarry", Cat: CatArith, Shape: ShapeCompute, NDst: 2, Issue: IssueDual, HW: "VADDC"},
	OpSub:                  cmp1("Sub", CatArith, IssueDual, "VSUB"),
	OpSubCarry:             {Name: "SubCarry", Cat: CatArith, Shape: ShapeCompute, NDst: 2, Issue: IssueDual, HW: "VSUBC"},
	OpAddC:                 {Name: "AddC", Cat: CatArith, Shape: ShapeCompute, NDst: 2, Issue: IssueDual, HW: "VADDCS"},
	OpSubC:                 {Name: "SubC", Cat: CatArith, Shape: ShapeCompute, NDst: 2, Issue: IssueDual, HW: "VSUBCS"},
	OpMul:                  cmp1("Mul", CatArith, IssueDual, "VMUL"),
	OpMull:                 {Name: "Mull", Cat: CatArith, Shape: ShapeCompute, NDst: 2, Issue: IssueDual, HW: "VMULL"},
	OpDiv:                  cmp1("Div", CatSFU, IssueDual, "VDIV"),
	OpMax:                  cmp1("Max", CatArith, IssueDual, "VMAX"),
	OpMin:                  cmp1("Min", CatArith, IssueDual, "VMIN"),
	OpPrelu:                cmp1("Prelu", CatArith, IssueDual, "VPRELU"),
	OpAbs:                  cmp1("Abs", CatArith, IssueDual, "VABS"),
	OpNeg:                  cmp1("Neg", CatArith, IssueDual, "VNEG"),
	OpRelu:                 cmp1("Relu", CatArith, IssueDual, "VRELU"),
	OpExp:                  cmp1("Exp", CatSFU, IssueDual, "VEXP"),
	OpSqrt:                 cmp1("Sqrt", CatSFU, IssueDual, "VSQRT"),
	OpRsqrt:                cmp1("Rsqrt", CatSFU, IssueComposite, "VSQRT+VDIV"),
	OpReciprocal:           cmp1("Reciprocal", CatSFU, IssueComposite, "VDIV"),
	OpLn:                   cmp1("Ln", CatSFU, IssueDual, "VLN"),
	OpLog:                  cmp1("Log", CatSFU, IssueDual, "VLN"),
	OpLog2:                 cmp1("Log2", CatSFU, IssueComposite, "VLN+VMULS"),
	OpLog10:                cmp1("Log10", CatSFU, IssueComposite, "VLN+VMULS"),
	OpNot:                  cmp1("Not", CatArith, IssueDual, "VNOT"),
	OpAnd:                  cmp1("And", CatArith, IssueDual, "VAND"),
	OpOr:                   cmp1("Or", CatArith, IssueDual, "VOR"),
	OpXor:                  cmp1("Xor", CatArith, IssueDual, "VXOR"),
	OpShiftLeft:            cmp1("ShiftLeft", CatArith, IssueDual, "VSHL"),
	OpShiftRight:           cmp1("ShiftRight", CatArith, IssueDual, "VSHR"),
	OpAdds:                 cmp1("Adds", CatArithScalar, IssueDual, "VADDS"),
	OpMuls:                 cmp1("Muls", CatArithScalar, IssueDual, "VMULS"),
	OpMaxs:                 cmp1("Maxs", CatArithScalar, IssueDual, "VMAXS"),
	OpMins:                 cmp1("Mins", CatArithScalar, IssueDual, "VMINS"),
	OpShiftLefts:           cmp1("ShiftLefts", CatArithScalar, IssueDual, "VSHLS"),
	OpShiftRights:          cmp1("ShiftRights", CatArithScalar, IssueDual, "VSHRS"),
	OpLeakyRelu:            cmp1("LeakyRelu", CatArithScalar, IssueDual, "VLRELU"),
	OpAxpy:                 {Name: "Axpy", Cat: CatArithScalar, Shape: ShapeCompute, NDst: 1, Acc: true, Issue: IssueDual, HW: "VAXPY"},
	OpMulAddDst:            {Name: "MulAddDst", Cat: CatArith, Shape: ShapeCompute, NDst: 1, Acc: true, Issue: IssueDual, HW: "VMULA"},
	OpMulDstAdd:            {Name: "MulDstAdd", Cat: CatArith, Shape: ShapeCompute, NDst: 1, Acc: true, Issue: IssueDual, HW: "VMADD"},
	OpAbsSub:               cmp1("AbsSub", CatArith, IssueDual, "VABSDIF"),
	OpExpSub:               cmp1("ExpSub", CatSFU, IssueDual, "VEXPDIF"),
	OpMulsCast:             cmp1("MulsCast", CatArithScalar, IssueDual, "VMULSCVT"),
	OpCompare:              cmp1("Compare", CatCompare, IssueDual, "VCMP"),
	OpCompares:             cmp1("Compares", CatCompare, IssueDual, "VCMPS"),
	OpSelect:               cmp1("Select", CatSelect, IssueDual, "VSEL"),
	OpSqueeze:              cmp1("Squeeze", CatShuffle, IssueSingle, "VSQZ"),
	OpUnsqueeze:            {Name: "Unsqueeze", Cat: CatShuffle, Shape: ShapeCompute, NDst: 1, Acc: true, Issue: IssueSingle, HW: "VUSQZ"},
	OpCast:                 cmp1("Cast", CatCast, IssueDual, "VCVT"),
	OpTruncate:             cmp1("Truncate", CatCast, IssueDual, "VTRC"),
	OpReduce:               cmp1("Reduce", CatReduce, IssueSingle, "VCADD"),
	OpReduceDataBlock:      cmp1("ReduceDataBlock", CatReduce, IssueSingle, "VCGADD"),
	OpPairReduceElem:       cmp1("PairReduceElem", CatReduce, IssueSingle, "VCPADD"),
	OpDuplicate:            cmp1("Duplicate", CatDup, IssueDual, "VBR"),
	OpArange:               cmp1("Arange", CatDup, IssueDual, "VCI"),
	OpInterleave:           {Name: "Interleave", Cat: CatShuffle, Shape: ShapeCompute, NDst: 2, Issue: IssueSingle, HW: "VINTLV"},
	OpDeInterleave:         {Name: "DeInterleave", Cat: CatShuffle, Shape: ShapeCompute, NDst: 2, Issue: IssueSingle, HW: "VDINTLV"},
	OpPack:                 cmp1("Pack", CatShuffle, IssueSingle, "VPACK"),
	OpUnPack:               cmp1("UnPack", CatShuffle, IssueSingle, "VUNPACK"),
	OpGatherReg:            cmp1("GatherReg", CatShuffle, IssueSingle, "VSELR"),
	OpHistograms:           {Name: "Histograms", Cat: CatOther, Shape: ShapeCompute, NDst: 1, Acc: true, Issue: IssueSingle, HW: "DHISTV2"},
	OpMaskNot:              cmp1("MaskNot", CatMaskOp, IssueDual, "PNOT"),
	OpMaskAnd:              cmp1("MaskAnd", CatMaskOp, IssueDual, "PAND"),
	OpMaskOr:               cmp1("MaskOr", CatMaskOp, IssueDual, "POR"),
	OpMaskXor:              cmp1("MaskXor", CatMaskOp, IssueDual, "PXOR"),
	OpMaskMove:             cmp1("MaskMove", CatMaskOp, IssueDual, "PMOV"),
	OpMaskSelect:           cmp1("MaskSelect", CatMaskOp, IssueDual, "PSEL"),
	OpMaskInterleave:       {Name: "MaskInterleave", Cat: CatMaskOp, Shape: ShapeCompute, NDst: 2, Issue: IssueSingle, HW: "PINTLV"},
	OpMaskDeInterleave:     {Name: "MaskDeInterleave", Cat: CatMaskOp, Shape: ShapeCompute, NDst: 2, Issue: IssueSingle, HW: "PDINTLV"},
	OpMaskPack:             cmp1("MaskPack", CatMaskOp, IssueSingle, "PPACK"),
	OpMaskUnPack:           cmp1("MaskUnPack", CatMaskOp, IssueSingle, "PUNPACK"),
	OpLocalMemBar:          {Name: "LocalMemBar", Cat: CatBarrier, Shape: ShapeNone, HW: "MEM_BAR"},
	OpClearSpr:             {Name: "ClearSpr", Cat: CatSPR, Shape: ShapeNone},
	OpGetSpr:               {Name: "GetSpr", Cat: CatSPR, Shape: ShapeNone},
	OpPrint:                {Name: "Print", Cat: CatDebug, Shape: ShapeNone},
	OpScalar:               {Name: "scalar", Cat: CatScalar, Shape: ShapeNone},
}

// Info returns the table entry of op.
func (op Op) Info() *OpInfo {
	if int(op) < len(opInfo) {
		return &opInfo[op]
	}
	return &opInfo[OpUnknown]
}

func (op Op) String() string { return op.Info().Name }

// OpByName returns the op whose canonical name is s.
func OpByName(s string) (Op, bool) {
	for i := range opInfo {
		if opInfo[i].Name == s {
			return Op(i), true
		}
	}
	return OpUnknown, false
}

// overload says how a spelling picks among ops once the arguments are known.
type overload uint8

const (
	ovNone        overload = iota // the spelling names exactly one op
	ovMaskVariant                 // RegTensor op, or its MaskReg twin when the first argument is a MaskReg
	ovDataCopy                    // DataCopy: load when the first argument is a register, store otherwise
	ovUnalignCopy                 // DataCopyUnAlign: LoadUnAlign when the first argument is a register, StoreUnAlign otherwise
	ovCarry                       // Add/Sub: carry form when the first two arguments are a MaskReg and a register
	ovGather                      // Gather: register permute when the second argument is a register
	ovCAPIStore                   // asc_storealign etc.: a MaskReg source is a mask store (same op)
)

type spelling struct {
	op   Op
	form Form
	ov   overload
	twin Op   // ovMaskVariant: the MaskReg op; ovCarry: the carry op; ovGather: the register op
	post bool // the spelling itself implies post-update (asc_*_postupdate)
}

var regNames = map[string]spelling{}
var capiNames = map[string]spelling{}
var rawNames = map[string]spelling{}

func init() {
	// Current Reg names: every canonical op name resolves to itself.
	for i := range opInfo {
		op := Op(i)
		if op <= OpCall {
			continue
		}
		regNames[opInfo[i].Name] = spelling{op: op, form: FormReg}
	}
	// Names that only exist as MaskReg twins are not Reg spellings of their own.
	for _, n := range []string{"MaskMove", "MaskSelect", "GatherReg", "AddCarry", "SubCarry", "scalar"} {
		delete(regNames, n)
	}
	mv := func(name string, op, twin Op) {
		regNames[name] = spelling{op: op, form: FormReg, ov: ovMaskVariant, twin: twin}
	}
	mv("Not", OpNot, OpMaskNot)
	mv("And", OpAnd, OpMaskAnd)
	mv("Or", OpOr, OpMaskOr)
	mv("Xor", OpXor, OpMaskXor)
	mv("Move", OpMove, OpMaskMove)
	mv("Select", OpSelect, OpMaskSelect)
	mv("Interleave", OpInterleave, OpMaskInterleave)
	mv("DeInterleave", OpDeInterleave, OpMaskDeInterleave)
	mv("Pack", OpPack, OpMaskPack)
	mv("UnPack", OpUnPack, OpMaskUnPack)
	regNames["Add"] = spelling{op: OpAdd, form: FormReg, ov: ovCarry, twin: OpAddCarry}
	regNames["Sub"] = spelling{op: OpSub, form: FormReg, ov: ovCarry, twin: OpSubCarry}
	regNames["Gather"] = spelling{op: OpGather, form: FormReg, ov: ovGather, twin: OpGatherReg}

	// Legacy aliases (vf-api.md §3.3).
	leg := func(name string, op Op) { regNames[name] = spelling{op: op, form: FormLegacy} }
	regNames["DataCopy"] = spelling{op: OpLoadAlign, form: FormLegacy, ov: ovDataCopy, twin: OpStoreAlign}
	regNames["DataCopyUnAlign"] = spelling{op: OpLoadUnAlign, form: FormLegacy, ov: ovUnalignCopy, twin: OpStoreUnAlign}
	leg("DataCopyUnAlignPre", OpLoadUnAlignPre)
	leg("DataCopyUnAlignPost", OpStoreUnAlignPost)
	leg("DataCopyGather", OpGather)
	leg("DataCopyGatherB", OpGatherB)
	leg("DataCopyScatter", OpScatter)
	regNames["Copy"] = spelling{op: OpMove, form: FormLegacy, ov: ovMaskVariant, twin: OpMaskMove}
	leg("MaskMov", OpMaskMove)
	leg("MaskSel", OpMaskSelect)
	leg("GatherMask", OpSqueeze)
	leg("PrefixSum", OpUnsqueeze)
	leg("Mula", OpMulAddDst)
	leg("AddCarryOut", OpAddCarry)
	leg("SubCarryOut", OpSubCarry)
	leg("AddCarryOuts", OpAddC)
	leg("SubCarryOuts", OpSubC)
	leg("CompareScalar", OpCompares)
	leg("FusedMulsCast", OpMulsCast)
	leg("FusedAbsSub", OpAbsSub)
	leg("FusedExpSub", OpExpSub)
	leg("FusedMulDstAdd", OpMulDstAdd)
	leg("ReduceSum", OpReduce)
	leg("ReduceMax", OpReduce)
	leg("ReduceMin", OpReduce)
	leg("ReduceSumWithDataBlock", OpReduceDataBlock)
	leg("ReduceMaxWithDataBlock", OpReduceDataBlock)
	leg("ReduceMinWithDataBlock", OpReduceDataBlock)
	leg("PairReduceSum", OpPairReduceElem)
	for _, n := range []string{"MaskNot", "MaskAnd", "MaskOr", "MaskXor", "MaskInterleave", "MaskDeInterleave", "MaskPack", "MaskUnPack"} {
		op, _ := OpByName(n)
		leg(n, op)
	}

	// asc_* C calls (vf-api.md §3.2, §3.4): roles come from argument classes,
	// so their different argument order needs no permutation table.
	c := func(op Op, names ...string) {
		for _, n := range names {
			capiNames[n] = spelling{op: op, form: FormCAPI, post: strings.Contains(n, "_postupdate")}
		}
	}
	c(OpCreateMask, "asc_create_mask_b8", "asc_create_mask_b16", "asc_create_mask_b32")
	c(OpUpdateMask, "asc_update_mask_b8", "asc_update_mask_b16", "asc_update_mask_b32")
	c(OpCreateAddrReg, "asc_update_addr_reg", "asc_update_addr_reg_b8", "asc_update_addr_reg_b16", "asc_update_addr_reg_b32",
		"asc_create_iter_reg", "asc_create_iter_reg_b8", "asc_create_iter_reg_b16", "asc_create_iter_reg_b32")
	c(OpMoveMask, "asc_get_mask_spr_b16", "asc_get_mask_spr_b32")
	c(OpLoadAlign, "asc_loadalign", "asc_loadalign_postupdate", "asc_loadalign_brc", "asc_loadalign_brc_v2", "asc_loadalign_brc_v3",
		"asc_loadalign_brc_postupdate", "asc_loadalign_brc_postupdate_v2", "asc_loadalign_brc_postupdate_v3",
		"asc_loadalign_brc_elem", "asc_loadalign_brc_elem_postupdate", "asc_loadalign_brc_datablock", "asc_loadalign_brc_datablock_postupdate",
		"asc_loadalign_brc_elem2datablock", "asc_loadalign_brc_elem2datablock_postupdate", "asc_loadalign_upsample",
		"asc_loadalign_upsample_postupdate", "asc_loadalign_downsample", "asc_loadalign_downsample_postupdate",
		"asc_loadalign_unpack", "asc_loadalign_unpack_v2", "asc_loadalign_unpack_postupdate", "asc_loadalign_unpack_postupdate_v2",
		"asc_loadalign_unpack4", "asc_loadalign_unpack4_postupdate", "asc_loadalign_deintlv", "asc_loadalign_deintlv_postupdate")
	c(OpLoadUnAlignPre, "asc_loadunalign_pre")
	c(OpLoadUnAlign, "asc_loadunalign", "asc_loadunalign_postupdate")
	c(OpLoad, "asc_load")
	c(OpGatherB, "asc_gather_datablock")
	c(OpStoreAlign, "asc_storealign", "asc_storealign_postupdate", "asc_storealign_1st", "asc_storealign_1st_postupdate",
		"asc_storealign_pack", "asc_storealign_pack_v2", "asc_storealign_pack_postupdate", "asc_storealign_pack_postupdate_v2",
		"asc_storealign_pack_quarter", "asc_storealign_pack_quarter_postupdate", "asc_storealign_intlv")
	c(OpStoreUnAlign, "asc_storeunalign", "asc_storeunalign_postupdate")
	c(OpStoreUnAlignPost, "asc_storeunalign_post", "asc_storeunalign_post_postupdate")
	c(OpStore, "asc_store")
	c(OpScatter, "asc_scatter")
	c(OpAdd, "asc_add")
	c(OpSub, "asc_sub")
	c(OpAddC, "asc_addc")
	c(OpSubC, "asc_subc")
	c(OpMul, "asc_mul")
	c(OpMull, "asc_mull")
	c(OpDiv, "asc_div")
	c(OpMax, "asc_max")
	c(OpMin, "asc_min")
	c(OpPrelu, "asc_prelu")
	c(OpAbs, "asc_abs")
	c(OpNeg, "asc_neg")
	c(OpRelu, "asc_relu")
	c(OpExp, "asc_exp")
	c(OpSqrt, "asc_sqrt")
	c(OpLn, "asc_ln")
	c(OpShiftLeft, "asc_shiftleft")
	c(OpShiftRight, "asc_shiftright")
	c(OpAdds, "asc_add_scalar", "asc_adds")
	c(OpMuls, "asc_mul_scalar", "asc_muls")
	c(OpMaxs, "asc_max_scalar")
	c(OpMins, "asc_min_scalar")
	c(OpShiftLefts, "asc_shiftleft_scalar")
	c(OpShiftRights, "asc_shiftright_scalar")
	c(OpLeakyRelu, "asc_leakyrelu")
	c(OpAxpy, "asc_axpy")
	c(OpMulDstAdd, "asc_madd")
	c(OpAbsSub, "asc_abs_sub")
	c(OpExpSub, "asc_exp_sub", "asc_exp_sub_v2")
	c(OpMulsCast, "asc_muls_v2")
	c(OpCompare, "asc_eq", "asc_ne", "asc_gt", "asc_ge", "asc_lt", "asc_le", "asc_compare")
	c(OpCompares, "asc_eq_scalar", "asc_ne_scalar", "asc_gt_scalar", "asc_ge_scalar", "asc_lt_scalar", "asc_le_scalar")
	c(OpSqueeze, "asc_squeeze", "asc_squeeze_v2", "asc_squeeze_with_status")
	c(OpUnsqueeze, "asc_unsqueeze")
	c(OpTruncate, "asc_trunc", "asc_round", "asc_rint", "asc_floor", "asc_ceil")
	c(OpReduce, "asc_reduce_sum", "asc_reduce_max", "asc_reduce_min")
	c(OpReduceDataBlock, "asc_reduce_sum_datablock", "asc_reduce_max_datablock", "asc_reduce_min_datablock")
	c(OpPairReduceElem, "asc_pair_reduce_sum")
	c(OpDuplicate, "asc_duplicate_scalar", "asc_duplicate")
	c(OpArange, "asc_arange", "asc_arange_descend")
	c(OpPack, "asc_pack_to_low", "asc_pack_to_high", "asc_pack", "asc_pack_v2")
	c(OpUnPack, "asc_unpack_lower", "asc_unpack_upper")
	c(OpHistograms, "asc_frequency_histogram_bin0", "asc_frequency_histogram_bin1", "asc_cumulative_histogram_bin0", "asc_cumulative_histogram_bin1")
	c(OpMaskInterleave, "asc_intlv_b8", "asc_intlv_b16", "asc_intlv_b32")
	c(OpMaskDeInterleave, "asc_deintlv_b8", "asc_deintlv_b16", "asc_deintlv_b32")
	c(OpLocalMemBar, "asc_mem_bar")
	c(OpClearSpr, "asc_clear_ar_spr")
	// asc_* names shared between the RegTensor and the vector_bool overloads.
	cv := func(name string, op, twin Op) {
		capiNames[name] = spelling{op: op, form: FormCAPI, ov: ovMaskVariant, twin: twin}
	}
	cv("asc_not", OpNot, OpMaskNot)
	cv("asc_and", OpAnd, OpMaskAnd)
	cv("asc_or", OpOr, OpMaskOr)
	cv("asc_xor", OpXor, OpMaskXor)
	cv("asc_copy", OpMove, OpMaskMove)
	cv("asc_select", OpSelect, OpMaskSelect)
	cv("asc_intlv", OpInterleave, OpMaskInterleave)
	cv("asc_deintlv", OpDeInterleave, OpMaskDeInterleave)
	capiNames["asc_gather"] = spelling{op: OpGather, form: FormCAPI, ov: ovGather, twin: OpGatherReg}

	// Raw CCE intrinsics seen inside __VEC_SCOPE__ code (vf-api.md §3.5).
	r := func(op Op, names ...string) {
		for _, n := range names {
			rawNames[n] = spelling{op: op, form: FormRaw}
		}
	}
	r(OpLoadAlign, "vlds", "vld", "vsldb", "plds", "pld")
	r(OpLoadUnAlignPre, "vldas", "vlda")
	r(OpLoadUnAlign, "vldus", "vldu")
	r(OpGather, "vgather2")
	r(OpGatherB, "vgatherb")
	r(OpStoreAlign, "vsts", "vst", "vsstb", "psts", "pst")
	r(OpStoreUnAlign, "vstus", "vstu", "vstur", "pstu")
	r(OpStoreUnAlignPost, "vstas", "vsta", "vstar")
	r(OpScatter, "vscatter")
	r(OpAdd, "vadd")
	r(OpAddCarry, "vaddc")
	r(OpAddC, "vaddcs")
	r(OpSub, "vsub")
	r(OpSubCarry, "vsubc")
	r(OpSubC, "vsubcs")
	r(OpMul, "vmul")
	r(OpMull, "vmull")
	r(OpDiv, "vdiv")
	r(OpMax, "vmax")
	r(OpMin, "vmin")
	r(OpPrelu, "vprelu")
	r(OpAbs, "vabs")
	r(OpNeg, "vneg")
	r(OpRelu, "vrelu")
	r(OpExp, "vexp")
	r(OpSqrt, "vsqrt")
	r(OpLn, "vln")
	r(OpNot, "vnot")
	r(OpAnd, "vand")
	r(OpOr, "vor")
	r(OpXor, "vxor")
	r(OpShiftLeft, "vshl")
	r(OpShiftRight, "vshr")
	r(OpAdds, "vadds")
	r(OpMuls, "vmuls")
	r(OpMaxs, "vmaxs")
	r(OpMins, "vmins")
	r(OpShiftLefts, "vshls")
	r(OpShiftRights, "vshrs")
	r(OpLeakyRelu, "vlrelu")
	r(OpAxpy, "vaxpy")
	r(OpMulAddDst, "vmula")
	r(OpMulDstAdd, "vmadd")
	r(OpAbsSub, "vabsdif")
	r(OpExpSub, "vexpdif")
	r(OpMulsCast, "vmulscvt")
	r(OpCompare, "vcmp_eq", "vcmp_ne", "vcmp_gt", "vcmp_ge", "vcmp_lt", "vcmp_le")
	r(OpCompares, "vcmps_eq", "vcmps_ne", "vcmps_gt", "vcmps_ge", "vcmps_lt", "vcmps_le")
	r(OpSelect, "vsel")
	r(OpSqueeze, "vsqz")
	r(OpUnsqueeze, "vusqz")
	r(OpCast, "vcvt")
	r(OpTruncate, "vtrc")
	r(OpReduce, "vcadd", "vcmax", "vcmin")
	r(OpReduceDataBlock, "vcgadd", "vcgmax", "vcgmin")
	r(OpPairReduceElem, "vcpadd")
	r(OpDuplicate, "vbr", "vdup")
	r(OpArange, "vci")
	r(OpInterleave, "vintlv")
	r(OpDeInterleave, "vdintlv")
	r(OpPack, "vpack")
	r(OpUnPack, "vunpack")
	r(OpGatherReg, "vselr")
	r(OpHistograms, "dhistv2", "chistv2")
	r(OpCreateMask, "pset_b8", "pset_b16", "pset_b32")
	r(OpUpdateMask, "plt_b8", "plt_b16", "plt_b32")
	r(OpMaskNot, "pnot")
	r(OpMaskAnd, "pand")
	r(OpMaskOr, "por")
	r(OpMaskXor, "pxor")
	r(OpMaskMove, "pmov")
	r(OpMaskSelect, "psel")
	r(OpMaskInterleave, "pintlv_b8", "pintlv_b16", "pintlv_b32")
	r(OpMaskDeInterleave, "pdintlv_b8", "pdintlv_b16", "pdintlv_b32")
	r(OpMaskPack, "ppack")
	r(OpMaskUnPack, "punpack")
	r(OpMoveMask, "movp")
	r(OpMaskGenWithRegTensor, "movvp")
	r(OpCreateAddrReg, "vag_b8", "vag_b16", "vag_b32")
	r(OpLocalMemBar, "mem_bar")
	r(OpMove, "vmov")
	r(OpMoveMask, "movp_b16", "movp_b32")
	r(OpMaskGenWithRegTensor, "movvp_b16", "movvp_b32")
	r(OpGetSpr, "get_ar")
}

// scalarNames are AscendC scalar utilities that VF code calls for address
// and count arithmetic. They are known, so they are not unknown calls; they
// run on the scalar unit and touch no register.
var scalarNames = map[string]bool{
	"GetVecLen": true, "GetPhyAddr": true, "CeilDivision": true, "CeilDiv": true, "DivCeil": true, "CeilAlign": true,
	"AlignUp": true, "GetDataBlockSizeInBytes": true, "GetBlockIdx": true, "GetBlockNum": true, "GetValue": true,
	"SetValue": true, "GetSize": true, "GetSubBlockIdx": true, "GetTaskRation": true,
}

// ambiguous are register-API names that the high-level AscendC API (on
// LocalTensor) also uses; a bare call of one needs more evidence.
var ambiguous = map[string]bool{
	"DataCopy": true, "Add": true, "Sub": true, "Mul": true, "Div": true, "Max": true, "Min": true, "Abs": true, "Exp": true,
	"Sqrt": true, "Ln": true, "Log": true, "Log2": true, "Log10": true, "Not": true, "And": true, "Or": true, "Xor": true,
	"Relu": true, "Neg": true, "Cast": true, "Select": true, "Duplicate": true, "Compare": true, "Compares": true,
	"CompareScalar": true, "Copy": true, "Adds": true, "Muls": true, "Maxs": true, "Mins": true, "Axpy": true,
	"LeakyRelu": true, "Prelu": true, "Reduce": true, "ReduceSum": true, "ReduceMax": true, "ReduceMin": true, "Gather": true,
	"Scatter": true, "Pack": true, "UnPack": true, "Interleave": true, "DeInterleave": true, "Move": true, "Truncate": true,
	"Arange": true, "Histograms": true, "Squeeze": true, "Load": true, "Store": true, "Print": true, "ShiftLeft": true,
	"ShiftRight": true, "GatherMask": true, "PairReduceSum": true, "Rsqrt": true, "Reciprocal": true,
}

// Distinctive reports whether a bare name can only be the register API.
func Distinctive(name string) bool {
	_, ok := regNames[name]
	return ok && !ambiguous[name]
}

// isCastCAPI reports whether name is one of the asc_<src>2<dst>[_round][_sat][_vN] conversions.
func isCastCAPI(name string) bool {
	if !strings.HasPrefix(name, "asc_") {
		return false
	}
	rest := name[4:]
	i := strings.IndexByte(rest, '2')
	if i <= 0 {
		return false
	}
	src := rest[:i]
	switch {
	case strings.HasPrefix(src, "float"), strings.HasPrefix(src, "half"), strings.HasPrefix(src, "bfloat16"),
		strings.HasPrefix(src, "int"), strings.HasPrefix(src, "uint"), strings.HasPrefix(src, "hif8"),
		strings.HasPrefix(src, "fp8"), strings.HasPrefix(src, "fp4"), strings.HasPrefix(src, "e4m3"),
		strings.HasPrefix(src, "e5m2"), strings.HasPrefix(src, "e2m1"), strings.HasPrefix(src, "e1m2"), strings.HasPrefix(src, "bf16"):
		return true
	}
	return false
}

// Namespace is how a callee was qualified.
type Namespace uint8

const (
	NSNone  Namespace = iota // bare name
	NSReg                    // AscendC::Reg, Reg, AscendC::MicroAPI, MicroAPI, or an alias of one
	NSOther                  // some other namespace or class: not the register API
)

// ArgInfo is what the resolver needs to know about one argument.
type ArgInfo struct {
	Class RegClass // register class when the argument reaches a register, else ClassNone
	Ptr   bool     // the argument is known to be a pointer (a __ubuf__ parameter, pointer arithmetic)
}

// Resolve maps a callee spelling to a canonical op. name is the last
// component of the callee (no template arguments); ns is its qualification;
// bareOK says whether unqualified names may name the register API (a using
// directive is in force, or an argument is a known register).
func Resolve(name string, ns Namespace, bareOK bool, args []ArgInfo) (Op, Form, bool) {
	if ns == NSOther {
		if scalarNames[name] {
			return OpScalar, FormReg, true
		}
		return OpUnknown, FormUnknown, false
	}
	if strings.HasPrefix(name, "asc_") {
		if sp, ok := capiNames[name]; ok {
			return pick(sp, args), sp.form, true
		}
		if isCastCAPI(name) {
			return OpCast, FormCAPI, true
		}
		return OpUnknown, FormUnknown, false
	}
	if ns == NSNone {
		if sp, ok := rawNames[name]; ok {
			return sp.op, sp.form, true
		}
		if strings.HasPrefix(name, "vcvt_") {
			return OpCast, FormRaw, true
		}
		if !bareOK {
			if scalarNames[name] {
				return OpScalar, FormReg, true
			}
			return OpUnknown, FormUnknown, false
		}
	}
	if sp, ok := regNames[name]; ok {
		return pick(sp, args), sp.form, true
	}
	if scalarNames[name] {
		return OpScalar, FormReg, true
	}
	return OpUnknown, FormUnknown, false
}

// IsAPIName reports whether name is any spelling the table knows.
func IsAPIName(name string) bool {
	if _, ok := regNames[name]; ok {
		return true
	}
	if _, ok := capiNames[name]; ok {
		return true
	}
	if _, ok := rawNames[name]; ok {
		return true
	}
	return isCastCAPI(name)
}

// PostSpelling reports whether the spelling itself implies post-update (asc_*_postupdate).
func PostSpelling(name string) bool { return capiNames[name].post }

func argClass(args []ArgInfo, i int) RegClass {
	if i < len(args) {
		return args[i].Class
	}
	return ClassNone
}

func pick(sp spelling, args []ArgInfo) Op {
	switch sp.ov {
	case ovMaskVariant:
		if argClass(args, 0) == ClassMask {
			return sp.twin
		}
	case ovDataCopy, ovUnalignCopy:
		c := argClass(args, 0)
		if c == ClassNone && len(args) > 0 && !args[0].Ptr {
			// Unknown first argument: a store's first argument is a
			// pointer, so a register in the second position means store.
			if c1 := argClass(args, 1); c1 == ClassVReg || c1 == ClassMask {
				return sp.twin
			}
			return sp.op
		}
		if c == ClassNone {
			return sp.twin
		}
	case ovCarry:
		if argClass(args, 0) == ClassMask && len(args) >= 5 {
			return sp.twin
		}
	case ovGather:
		if c := argClass(args, 1); c == ClassVReg {
			return sp.twin
		}
		if len(args) == 3 && !(len(args) > 1 && args[1].Ptr) {
			return sp.twin
		}
	}
	return sp.op
}

// AssignRoles returns the role of each argument of a call of op, from the
// argument classes. post says the call is a post-update form; for the Reg
// spellings of the unaligned ops, whose post-update is implied by the
// overload, it is also inferred from the arguments (infer).
func AssignRoles(op Op, form Form, post, merging bool, args []ArgInfo) []ArgRole {
	infer := form != FormCAPI
	info := op.Info()
	roles := make([]ArgRole, len(args))
	isReg := func(i int) bool { return args[i].Class != ClassNone }
	switch info.Shape {
	case ShapeCompute:
		nd := info.NDst
		for i := range args {
			switch {
			case i < nd:
				if info.Acc || merging {
					roles[i] = ArgRW
				} else {
					roles[i] = ArgW
				}
			case args[i].Class == ClassMask && i == len(args)-1 && i >= nd+1:
				roles[i] = ArgMask
			case isReg(i):
				roles[i] = ArgR
			default:
				roles[i] = ArgScalar
			}
		}
		// A mask-producing compute op whose result is a MaskReg but whose
		// trailing mask sits at the destination's class is still a predicate.
	case ShapeLoad:
		seenPtr := false
		for i := range args {
			c := args[i].Class
			switch {
			case c.IsUnalign():
				if op == OpLoadUnAlignPre {
					roles[i] = ArgW
				} else {
					roles[i] = ArgRW
				}
			case c == ClassAddr:
				roles[i] = ArgAddr
			case !seenPtr && c != ClassNone:
				roles[i] = ArgW
			case !seenPtr:
				seenPtr = true
				roles[i] = ArgPtr
				if post || (infer && op == OpLoadUnAlign && hasTrailing(args, i)) {
					roles[i] = ArgPtrRW
				}
			case c == ClassMask:
				roles[i] = ArgMask
			case c != ClassNone:
				roles[i] = ArgR // index register of a gather
			default:
				roles[i] = ArgScalar
			}
		}
	case ShapeStore:
		seenPtr := false
		nData := 0
		for i := range args {
			c := args[i].Class
			switch {
			case c.IsUnalign():
				if op == OpStoreUnAlignPost {
					roles[i] = ArgR
				} else {
					roles[i] = ArgRW
				}
			case c == ClassAddr:
				roles[i] = ArgAddr
			case c == ClassMask && nData > 0:
				roles[i] = ArgMask
			case c != ClassNone:
				roles[i] = ArgR
				nData++
			case !seenPtr:
				seenPtr = true
				roles[i] = ArgPtr
				if post || (infer && (op == OpStoreUnAlign || op == OpStoreUnAlignPost) && unalignStorePost(args, i)) {
					roles[i] = ArgPtrRW
				}
			default:
				roles[i] = ArgScalar
			}
		}
	case ShapeRet:
		for i := range args {
			roles[i] = ArgScalar
			if op == OpUpdateMask && i == 0 {
				roles[i] = ArgScalarRW
			}
			if args[i].Class != ClassNone {
				roles[i] = ArgR
			}
		}
	case ShapeNone:
		for i := range args {
			roles[i] = ArgScalar
			if args[i].Class != ClassNone {
				roles[i] = ArgR
			}
		}
	}
	return roles
}

// hasTrailing reports whether a non-register argument or an AddrReg follows position i.
func hasTrailing(args []ArgInfo, i int) bool {
	for _, a := range args[i+1:] {
		if a.Class == ClassNone || a.Class == ClassAddr {
			return true
		}
	}
	return false
}

// unalignStorePost decides whether the pointer of an unaligned store is
// post-updated: a stride or AddrReg argument follows, or the data is a
// MaskReg (PSTU always updates).
func unalignStorePost(args []ArgInfo, ptr int) bool {
	for j, a := range args {
		if j == ptr {
			continue
		}
		if a.Class == ClassMask || a.Class == ClassAddr {
			return true
		}
		if j > ptr && a.Class == ClassNone {
			return true
		}
	}
	return false
}
