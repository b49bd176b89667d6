package ir

import (
	"slices"
	"strconv"
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

// The pypto_pro Python DSL (vf.* calls inside @pl.vector_function) names the
// same ops in its own spelling and argument order: a computed register is the
// call's return value (x = vf.add(a, b, mask)), a tile and its element offset
// are two arguments (vf.load_align(tile, off)), and modes, element types and
// post-update are keyword arguments. ResolveDSL maps one call to its op and to
// the operands of the AscendC Reg form it stands for
//
//	dst = vf.load_align(src, 64, dist=pl.LoadDist.BRC_B32)  ->  LoadAlign<float, DIST_BRC_B32>(dst, src + 64)
//	vf.store_align(dst, reg, mask, post_update=True)        ->  StoreAlign<T, POST_MODE_UPDATE>(dst, reg, mask)
//	m = vf.lt(a, 0.0, mask)                                 ->  Compares<T, CMPMODE::LT>(m, a, 0.0, mask)
//
// so that every analysis reads one shape, whichever language the code is in.

// DSLArg is what the resolver knows about one argument of a vf.* call.
type DSLArg struct {
	Keyword string   // keyword name; "" for a positional argument
	Class   RegClass // class of the register the argument names; ClassNone when it names none
	Elem    string   // element type of that register as a C++ type ("float"); "" when unknown
	Value   string   // the argument as an enumerator, a dtype or a literal, without its module: "LoadDist.DS", "DT_FP32", "True", "64", "ALL"; "" otherwise
	List    bool     // a [row, col] list or tuple (an offset in two coordinates)
	Splat   bool     // *args or **kwargs: what binds where is not known
}

// DSLOperand is one operand of the Reg form of a resolved vf.* call.
type DSLOperand struct {
	Arg    int     // index of the call argument; -1 for a returned register
	Ret    int     // index of the returned register (assignment target) when Arg < 0
	Offset int     // for an address: the argument whose element offset is added to it; -1 when none
	Role   ArgRole // what the op does with it
}

// ARUse is the implicit effect of an op on the special register AR.
type ARUse uint8

const (
	ARNone    ARUse = iota // no effect
	ARDef                  // writes AR (ClearSpr, Squeeze with STORE_REG)
	ARUseOnly              // reads AR (the stride-less StoreUnAlign)
)

// DSLCall is a vf.* call resolved against the op table.
type DSLCall struct {
	Op       Op           // canonical op
	Operands []DSLOperand // in the order of the Reg form; modes, flags and element types are not operands
	Rets     []RegClass   // class of each returned register, in the order of the assignment targets
	RetElems []string     // element type of each returned register ("" when unknown or a mask)
	Elem     string       // the T of the Reg form ("float"); "" when unknown
	Dist     string       // dist mode as the C++ side records it ("DIST_BRC_B32"); "" for the default
	Post     bool         // the address is post-updated
	Merging  bool         // MergeMode.MERGING (or Move with a mask): the destination is also read
	TArgs    []string     // the template arguments of the Reg form beyond what the fields say, T first ("float", "CMPMODE::LT"); nil when none
	AR       ARUse        // implicit effect on AR
	Want     []RegClass   // per argument: the register class the op expects there (ClassNone: a value, a tile, or anything)
	Decl     bool         // the call only declares its returned register (load_unalign_init): no instruction
	View     bool         // the call reinterprets argument 0 (bit_cast): no instruction, the result is that register
}

// dslFam is the shape of a DSL function's Reg form.
type dslFam uint8

const (
	famCompute dslFam = iota // returned registers first, then the operands in order
	famRet                   // result returned by value in C++ too (CreateMask): operands are scalars
	famLoad                  // returned registers, the address (with its offset), then the rest
	famStore                 // the address, the data, then strides and AddrReg, the mask last
	famNone                  // no register operands (mem_bar, clear_spr)
	famDecl                  // declares an unaligned register
	famView                  // bit_cast
	famPre                   // load_unalign_pre(ureg, ptr)
	famLoadU                 // load_unalign(ureg, ptr, stride)
	famStoreU                // store_unalign(ptr, src, ureg, stride)
	famPostU                 // store_unalign_post(ptr, ureg, stride)
)

// Parameter kinds of a DSL signature (one letter each in dslSig.params).
const (
	kReg    = 'r' // a source register
	kMask   = 'm' // the governing predicate
	kPtr    = 'p' // a tile address
	kOffset = 'o' // element offset of the address, the post-update stride, or an AddrReg
	kScalar = 's' // a value: a scalar, or a register where the op has a vector-vector form
	kUreg   = 'u' // an unaligned register
	kDType  = 't' // dtype=: an element type
	kDist   = 'd' // dist=
	kPost   = 'P' // post_update=
	kMerge  = 'M' // mode= / merge_mode=: MergeMode
	kAttr   = 'a' // any other mode or flag: not an operand
	kRest   = '*' // *args
)

type dslParam struct {
	name string
	kind byte
}

// dslSig is the signature of one vf.* function (from pypto_pro's _vf_api.py).
type dslSig struct {
	op      Op
	fam     dslFam
	nret    int      // returned registers
	ret     RegClass // their class (the first one's, for AddC/SubC)
	resType bool     // dtype= is the type of the result (a conversion, a load); else of the sources
	defT    string   // T when no dtype= is given, when the API documents a default
	params  []dslParam
}

var dslSigs = map[string]dslSig{}

func init() {
	def := func(name string, op Op, fam dslFam, nret int, ret RegClass, resType bool, params string) {
		s := dslSig{op: op, fam: fam, nret: nret, ret: ret, resType: resType}
		for _, f := range strings.Fields(params) {
			k := strings.IndexByte(f, ':')
			s.params = append(s.params, dslParam{name: f[:k], kind: f[k+1]})
		}
		dslSigs[name] = s
	}
	v, m := ClassVReg, ClassMask
	def("create_mask", OpCreateMask, famRet, 1, m, false, "pattern:a dtype:t")
	def("update_mask", OpUpdateMask, famRet, 1, m, false, "scalar:s dtype:t")
	def("get_mask_spr", OpMoveMask, famRet, 1, m, false, "width:a")
	def("create_addr_reg", OpCreateAddrReg, famRet, 1, ClassAddr, false,
		"index0:s stride0:s index1:s stride1:s index2:s stride2:s index3:s stride3:s dtype:t")
	def("mask_gen_with_reg_tensor", OpMaskGenWithRegTensor, famCompute, 1, m, false, "src:r offset:s")
	def("full", OpDuplicate, famCompute, 1, v, true, "scalar_or_src:s mask:m dtype:t mode:M pos:a")
	def("load_align", OpLoadAlign, famLoad, 1, v, true,
		"src:p offset:o dtype:t dist:d data_copy_mode:a block_stride:s post_update:P")
	def("store_align", OpStoreAlign, famStore, 0, 0, false,
		"dst:p src:r args:* dist:d data_copy_mode:a block_stride:s repeat_stride:s post_update:P")
	def("load", OpLoad, famLoad, 1, v, true, "src_ptr:p stride:s post_update:P repeat_stride:s count:s")
	def("store", OpStore, famStore, 0, 0, false, "dst_ptr:p src:r count:s post_update:P repeat_stride:s")
	def("load_unalign_init", OpUnknown, famDecl, 1, ClassUnalignLoad, false, "")
	def("unalign_reg_for_store", OpUnknown, famDecl, 1, ClassUnalignStore, false, "")
	def("load_unalign_pre", OpLoadUnAlignPre, famPre, 0, 0, false, "ureg:u src_ptr:p")
	def("load_unalign", OpLoadUnAlign, famLoadU, 1, v, false, "ureg:u src_ptr:p stride:s post_update:P")
	def("store_unalign", OpStoreUnAlign, famStoreU, 0, 0, false, "dst_ptr:p src:r align_reg:u stride:s post_update:P")
	def("store_unalign_post", OpStoreUnAlignPost, famPostU, 0, 0, false, "dst_ptr:p align_reg:u stride:s post_update:P")
	def("gather", OpGather, famLoad, 1, v, false, "src:p indices:r mask:m data_copy_mode:a")
	def("scatter", OpScatter, famStore, 0, 0, false, "base_ptr:p src:r index:r mask:m")
	def("mem_bar", OpLocalMemBar, famNone, 0, 0, false, "mode:a")
	def("clear_spr", OpClearSpr, famNone, 0, 0, false, "")
	def("bit_cast", OpUnknown, famView, 1, v, true, "src:r dtype:t")
	bin := "src0:r src1:r mask:m mode:M"
	for name, op := range map[string]Op{"add": OpAdd, "sub": OpSub, "mul": OpMul, "div": OpDiv, "max": OpMax, "min": OpMin,
		"and_": OpAnd, "or_": OpOr, "abs_sub": OpAbsSub, "mul_add_dst": OpMulAddDst, "mul_dst_add": OpMulDstAdd} {
		def(name, op, famCompute, 1, v, false, bin)
	}
	def("prelu", OpPrelu, famCompute, 1, v, false, "src:r slope:r mask:m mode:M")
	def("xor", OpXor, famCompute, 1, v, false, "src0:r src1:r mask:m mode:M dtype:t")
	def("mull", OpMull, famCompute, 2, v, false, bin)
	def("addc", OpAddC, famCompute, 2, m, false, "src0:r src1:r carry_in:r mask:m mode:M")
	def("subc", OpSubC, famCompute, 2, m, false, "src0:r src1:r borrow_in:r mask:m mode:M")
	for name, op := range map[string]Op{"muls": OpMuls, "adds": OpAdds, "subs": OpAdds, "mins": OpMins, "maxs": OpMaxs, "axpy": OpAxpy} {
		def(name, op, famCompute, 1, v, false, "src:r scalar:s mask:m mode:M")
	}
	def("leaky_relu", OpLeakyRelu, famCompute, 1, v, false, "src:r alpha:s mask:m mode:M")
	def("muls_cast", OpMulsCast, famCompute, 1, v, true, "src:r scalar:s mask:m dtype:t layout:a")
	un := "src:r mask:m mode:M"
	for name, op := range map[string]Op{"abs": OpAbs, "not_": OpNot, "relu": OpRelu, "neg": OpNeg, "truncate": OpTruncate,
		"log2": OpLog2, "log10": OpLog10, "pair_reduce_sum": OpPairReduceElem} {
		def(name, op, famCompute, 1, v, false, un)
	}
	for name, op := range map[string]Op{"ln": OpLn, "log": OpLog, "exp": OpExp, "sqrt": OpSqrt} {
		def(name, op, famCompute, 1, v, false, "src:r mask:m mode:M precision:a")
	}
	for _, name := range []string{"reduce_sum", "reduce_max", "reduce_min"} {
		def(name, OpReduce, famCompute, 1, v, false, "src:r mask:m datablock:a merge_mode:M")
	}
	def("exp_sub", OpExpSub, famCompute, 1, v, false, "src:r max_val:r mask:m layout:a")
	def("astype", OpCast, famCompute, 1, v, true, "src:r mask:m dtype:t layout:a round_mode:a saturate:a mode:M")
	def("de_interleave", OpDeInterleave, famCompute, 2, v, false, "src0:r src1:r dtype:t")
	def("interleave", OpInterleave, famCompute, 2, v, false, "src0:r src1:r dtype:t")
	def("select", OpSelect, famCompute, 1, v, false, "src_true:r src_false:r mask:m mode:M")
	def("shift_left", OpShiftLefts, famCompute, 1, v, false, "src:r shift:s mask:m mode:M")
	def("shift_right", OpShiftRights, famCompute, 1, v, false, "src:r shift:s mask:m mode:M dtype:t")
	def("histograms", OpHistograms, famCompute, 1, v, false, "src:r mask:m bin_type:a hist_type:a")
	for _, name := range []string{"eq", "ne", "lt", "gt", "le", "ge"} {
		def(name, OpCompares, famCompute, 1, m, false, "a:r b:s mask:m cmp_dtype:t")
	}
	def("squeeze", OpSqueeze, famCompute, 1, v, true, "src:r mask:m gather_mode:a dtype:t")
	def("arange", OpArange, famCompute, 1, v, true, "start:s dtype:t index_order:a")
	def("pack", OpPack, famCompute, 1, v, true, "src:r dtype:t part:a")
	def("unpack", OpUnPack, famCompute, 1, v, true, "src:r dtype:t part:a")
	def("unsqueeze", OpUnsqueeze, famCompute, 1, v, true, "mask:r dtype:t")
	def("move", OpMove, famCompute, 1, v, false, "src:r mask:m mode:M")
	for _, name := range []string{"create_mask", "update_mask", "create_addr_reg"} {
		s := dslSigs[name]
		s.defT = "float" // the documented default: DT_FP32
		dslSigs[name] = s
	}
}

// dslMaskTwins are the ops whose MaskReg overload is another op.
var dslMaskTwins = map[Op]Op{OpAnd: OpMaskAnd, OpOr: OpMaskOr, OpXor: OpMaskXor, OpNot: OpMaskNot, OpSelect: OpMaskSelect,
	OpMove: OpMaskMove, OpInterleave: OpMaskInterleave, OpDeInterleave: OpMaskDeInterleave, OpPack: OpMaskPack, OpUnPack: OpMaskUnPack}

// dslCmpModes are the CMPMODE enumerators of the compare functions.
var dslCmpModes = map[string]string{"eq": "EQ", "ne": "NE", "lt": "LT", "gt": "GT", "le": "LE", "ge": "GE"}

// IsDSLName reports whether name is a vf.* function the table knows.
func IsDSLName(name string) bool {
	_, ok := dslSigs[name]
	return ok
}

// DSLNames returns the vf.* function names the table knows, sorted.
func DSLNames() []string {
	out := make([]string, 0, len(dslSigs))
	for n := range dslSigs {
		out = append(out, n)
	}
	slices.Sort(out)
	return out
}

// DSLSpelling returns the vf.* function that is the only DSL spelling of
// op ("vf.load_unalign_pre" for LoadUnAlignPre), so that a message about a
// Python kernel can name what its author wrote. Ops with several DSL
// spellings (Compare: eq, ne, ...) or none report false.
func DSLSpelling(op Op) (string, bool) {
	name, n := "", 0
	for d, sig := range dslSigs {
		if sig.op == op && op != OpUnknown {
			name, n = d, n+1
		}
	}
	if n == 0 { // the mask ops are overloads of the vector ones (vf.and_ on masks is MaskAnd)
		for base, twin := range dslMaskTwins {
			if twin == op {
				return DSLSpelling(base)
			}
		}
	}
	if n != 1 {
		return "", false
	}
	return "vf." + name, true
}

// dslDTypes maps the DSL's dtypes to the C++ element types.
var dslDTypes = map[string]string{
	"INT8": "int8_t", "UINT8": "uint8_t", "INT16": "int16_t", "UINT16": "uint16_t", "INT32": "int32_t", "UINT32": "uint32_t",
	"INT64": "int64_t", "UINT64": "uint64_t", "FP16": "half", "BF16": "bfloat16_t", "FP32": "float", "BOOL": "bool",
	"FP8E4M3FN": "fp8_e4m3fn_t", "FP8E5M2": "fp8_e5m2_t", "FP8E8M0": "fp8_e8m0_t", "HF8": "hifloat8_t",
	"FP4E2M1": "fp4x2_e2m1_t", "FP4E1M2": "fp4x2_e1m2_t", "INT4": "int4x2_t",
}

// DSLDType maps a DSL dtype ("DT_FP32", also "FP32" and "DataType.FP32") to
// the C++ element type ("float").
func DSLDType(s string) (string, bool) {
	s = strings.TrimPrefix(s, "DataType.")
	t, ok := dslDTypes[strings.TrimPrefix(s, "DT_")]
	return t, ok
}

// DSLDist maps a LoadDist/StoreDist enumerator of the DSL ("LoadDist.BRC",
// "UNPK_B16") to the enumerator the C++ side records ("DIST_BRC_B32",
// "DIST_UNPACK_B16"). The DSL picks the width of a width-less mode from the
// data; size is the element size in bytes (0 when unknown, which leaves the
// mode width-less, as the rules take a mode they cannot resolve). A mask
// load or store (mask) uses the width-less MaskDist names.
func DSLDist(s string, size int64, mask bool) string {
	if k := strings.LastIndexByte(s, '.'); k >= 0 {
		s = s[k+1:]
	}
	if s == "" {
		return ""
	}
	stem, width := s, ""
	for _, w := range []string{"_B8", "_B16", "_B32", "_B64"} {
		if x, ok := strings.CutSuffix(s, w); ok {
			stem, width = x, w
			break
		}
	}
	switch stem {
	case "UNPK":
		stem = "UNPACK"
	case "UNPK4":
		stem = "UNPACK4"
	}
	if mask {
		return "DIST_" + stem
	}
	if width == "" {
		switch stem {
		case "NORM", "BLK":
		case "UNPACK4":
			width = "_B8"
		case "PACK4":
			width = "_B32"
		default:
			if size > 0 {
				width = "_B" + strconv.FormatInt(size*8, 10)
			}
		}
	}
	return "DIST_" + stem + width
}

// dslBind binds the arguments of a call to the parameters of sig: bound[p]
// is the argument of parameter p (-1 when none), rest the arguments of *args.
// ok is false when an argument fits no parameter or a splat hides the binding.
func dslBind(sig dslSig, args []DSLArg) (bound []int, rest []int, ok bool) {
	bound = make([]int, len(sig.params))
	for i := range bound {
		bound[i] = -1
	}
	ok = true
	pos := 0
	for i, a := range args {
		if a.Splat {
			ok = false
			continue
		}
		if a.Keyword != "" {
			found := false
			for p, prm := range sig.params {
				if prm.name == a.Keyword && prm.kind != kRest {
					bound[p], found = i, true
				}
			}
			if !found {
				ok = false
			}
			continue
		}
		for pos < len(sig.params) && sig.params[pos].kind != kRest && bound[pos] >= 0 {
			pos++
		}
		switch {
		case pos >= len(sig.params):
			ok = false
		case sig.params[pos].kind == kRest:
			rest = append(rest, i)
		default:
			bound[pos] = i
			pos++
		}
	}
	return bound, rest, ok
}

// ResolveDSL resolves the call vf.name(args...) whose result is assigned to
// len(targets) names; targets[k] describes the register the k-th name holds
// already (Class ClassNone when it holds none), which decides a mask load
// (preg = vf.load_align(mask_tile, ...) with preg from vf.create_mask loads a
// MaskReg). It returns false for a name the table does not know.
func ResolveDSL(name string, args []DSLArg, targets []DSLArg) (DSLCall, bool) {
	sig, ok := dslSigs[name]
	if !ok {
		return DSLCall{}, false
	}
	bound, rest, bindOK := dslBind(sig, args)
	r := &dslResolver{sig: sig, args: args, targets: targets, bound: bound, rest: rest}
	c := DSLCall{Op: sig.op, Want: make([]RegClass, len(args))}
	r.c = &c
	arg := func(pname string) int {
		for p, prm := range sig.params {
			if prm.name == pname {
				return bound[p]
			}
		}
		return -1
	}
	r.arg = arg
	// Attributes: dtype, dist, post-update, merge mode.
	dt := ""
	for p, prm := range sig.params {
		k := bound[p]
		if k < 0 {
			continue
		}
		v := args[k].Value
		switch prm.kind {
		case kDType:
			dt, _ = DSLDType(v)
		case kPost:
			c.Post = v == "True"
		case kMerge:
			c.Merging = strings.HasSuffix(v, ".MERGING") || v == "MERGING"
		}
	}
	if !bindOK {
		// The binding is not known: roles from the classes alone.
		return r.byClass(), true
	}
	r.dtype = dt
	switch sig.fam {
	case famDecl:
		c.Decl = true
		c.Rets = []RegClass{sig.ret}
		c.RetElems = []string{""}
	case famView:
		c.View = true
		if k := arg("src"); k >= 0 {
			c.Rets = []RegClass{args[k].Class}
			c.RetElems = []string{dt}
		}
	case famRet:
		r.ret()
	case famNone:
		r.none()
	case famCompute:
		r.compute(name)
	case famLoad:
		r.load(name)
	case famStore:
		r.store(name)
	case famPre, famLoadU, famStoreU, famPostU:
		r.unaligned()
	}
	return c, true
}

type dslResolver struct {
	sig     dslSig
	args    []DSLArg
	targets []DSLArg
	bound   []int
	rest    []int
	dtype   string
	c       *DSLCall
	arg     func(string) int
}

func (r *dslResolver) class(k int) RegClass {
	if k < 0 {
		return ClassNone
	}
	return r.args[k].Class
}

func (r *dslResolver) add(k int, role ArgRole) {
	if k < 0 {
		return // a parameter the call leaves out
	}
	r.c.Operands = append(r.c.Operands, DSLOperand{Arg: k, Offset: -1, Role: role})
}

func (r *dslResolver) addRet(k int, role ArgRole) {
	r.c.Operands = append(r.c.Operands, DSLOperand{Arg: -1, Ret: k, Offset: -1, Role: role})
}

// value returns the role of a value argument: R when it is a register.
func (r *dslResolver) value(k int) ArgRole {
	if r.class(k) != ClassNone {
		return ArgR
	}
	return ArgScalar
}

// want records the class the op expects of argument k.
func (r *dslResolver) want(k int, c RegClass) {
	if k >= 0 && k < len(r.c.Want) {
		r.c.Want[k] = c
	}
}

// elemOf returns the element type of the first source register.
func (r *dslResolver) srcElem() string {
	for p, prm := range r.sig.params {
		if k := r.bound[p]; k >= 0 && (prm.kind == kReg || prm.kind == kScalar) && r.args[k].Class == ClassVReg {
			return r.args[k].Elem
		}
	}
	return ""
}

func (r *dslResolver) ret() {
	c, sig := r.c, r.sig
	c.Rets, c.RetElems = []RegClass{sig.ret}, []string{""}
	c.Elem = r.dtype
	if c.Elem == "" {
		c.Elem = sig.defT
	}
	for p, prm := range sig.params {
		k := r.bound[p]
		if k < 0 {
			continue
		}
		switch prm.kind {
		case kScalar:
			r.add(k, r.value(k))
		case kAttr:
			if prm.name == "pattern" && r.args[k].Value != "" {
				v := r.args[k].Value
				if i := strings.LastIndexByte(v, '.'); i >= 0 {
					v = v[i+1:]
				}
				c.TArgs = []string{orT(c.Elem), "MaskPattern::" + v}
			}
		}
	}
}

func (r *dslResolver) none() {
	c := r.c
	if c.Op == OpClearSpr {
		c.AR = ARDef
	}
	if k := r.arg("mode"); k >= 0 && r.args[k].Value != "" {
		c.TArgs = []string{"MemBarMode::" + lastDot(r.args[k].Value)}
	}
}

func orT(t string) string {
	if t == "" {
		return "T"
	}
	return t
}

func lastDot(s string) string {
	if i := strings.LastIndexByte(s, '.'); i >= 0 {
		return s[i+1:]
	}
	return s
}

func (r *dslResolver) compute(name string) {
	c, sig := r.c, r.sig
	first := -1 // the first source argument
	for p, prm := range sig.params {
		if k := r.bound[p]; k >= 0 && (prm.kind == kReg || prm.kind == kScalar) {
			first = k
			break
		}
	}
	retClass := sig.ret
	maskSrc := c.Op == OpUnsqueeze // the sources are masks
	switch {
	case dslMaskTwins[c.Op] != 0 && r.class(first) == ClassMask:
		c.Op, retClass, maskSrc = dslMaskTwins[c.Op], ClassMask, true
	case c.Op == OpCompares:
		if r.class(r.arg("b")) != ClassNone {
			c.Op = OpCompare
		}
	case c.Op == OpShiftLefts || c.Op == OpShiftRights:
		if r.class(r.arg("shift")) != ClassNone {
			c.Op = map[Op]Op{OpShiftLefts: OpShiftLeft, OpShiftRights: OpShiftRight}[c.Op]
		}
	case c.Op == OpReduce:
		if k := r.arg("datablock"); k >= 0 && r.args[k].Value == "True" {
			c.Op = OpReduceDataBlock
		}
	case c.Op == OpMove:
		if r.arg("mask") >= 0 {
			c.Merging = true // Move is MERGING when masked, the only mode
		}
	}
	// Element types.
	src := r.srcElem()
	resElem := src
	conversion := c.Op == OpCast || c.Op == OpMulsCast || c.Op == OpPack || c.Op == OpUnPack || c.Op == OpUnsqueeze
	switch {
	case r.dtype != "":
		c.Elem = r.dtype
		if sig.resType {
			resElem = r.dtype
		}
	case conversion:
		// The T of a conversion is its result type, which only dtype= names.
		c.Elem, resElem = "", ""
	default:
		c.Elem = src
	}
	if retClass == ClassMask {
		resElem = ""
	}
	// Returned registers.
	c.Rets = make([]RegClass, sig.nret)
	c.RetElems = make([]string, sig.nret)
	for k := range c.Rets {
		c.Rets[k], c.RetElems[k] = retClass, resElem
	}
	if c.Op == OpAddC || c.Op == OpSubC {
		c.Rets[1], c.RetElems[0] = ClassVReg, "" // (carry_out, dst)
	}
	if c.Op == OpMaskGenWithRegTensor {
		c.RetElems[0] = ""
	}
	dst := ArgW
	if c.Op.Info().Acc || c.Merging {
		dst = ArgRW
	}
	for k := range c.Rets {
		r.addRet(k, dst)
	}
	for p, prm := range sig.params {
		k := r.bound[p]
		if k < 0 {
			continue
		}
		switch prm.kind {
		case kReg:
			want := ClassVReg
			if maskSrc || prm.name == "carry_in" || prm.name == "borrow_in" {
				want = ClassMask
			}
			r.want(k, want)
			r.add(k, r.value(k))
		case kScalar:
			r.add(k, r.value(k))
		case kMask:
			r.want(k, ClassMask)
			if r.class(k) == ClassMask {
				r.add(k, ArgMask)
			} else {
				r.add(k, r.value(k))
			}
		}
	}
	switch c.Op {
	case OpCompare, OpCompares:
		c.TArgs = []string{orT(c.Elem), "CMPMODE::" + dslCmpModes[name]}
	case OpSqueeze:
		if k := r.arg("gather_mode"); k >= 0 && lastDot(r.args[k].Value) == "STORE_REG" {
			c.TArgs = []string{orT(c.Elem), "GatherMaskMode::STORE_REG"}
			c.AR = ARDef
		}
	}
}

// blockMode reports whether data_copy_mode selects the DataBlock copy.
func (r *dslResolver) blockMode() bool {
	k := r.arg("data_copy_mode")
	if k < 0 {
		return false
	}
	v := lastDot(r.args[k].Value)
	return v == "DATA_BLOCK_COPY" || v == "DATA_BLOCK_LOAD"
}

func (r *dslResolver) load(name string) {
	c, sig := r.c, r.sig
	ptr := r.arg(sig.params[0].name)
	if name == "gather" {
		if r.class(ptr) != ClassNone {
			// Register-to-register gather: a permute.
			c.Op = OpGatherReg
			c.Elem = r.args[ptr].Elem
			c.Rets, c.RetElems = []RegClass{ClassVReg}, []string{c.Elem}
			r.addRet(0, ArgW)
			r.want(ptr, ClassVReg)
			r.add(ptr, ArgR)
			if k := r.arg("indices"); k >= 0 {
				r.want(k, ClassVReg)
				r.add(k, r.value(k))
			}
			if k := r.arg("mask"); k >= 0 {
				r.want(k, ClassMask)
				r.add(k, ArgMask)
			}
			return
		}
		if r.blockMode() {
			c.Op = OpGatherB
		}
	}
	n := max(len(r.targets), 1)
	if name != "load_align" {
		n = 1
	}
	retClass := ClassVReg
	if name == "load_align" && n == 1 && len(r.targets) == 1 && r.targets[0].Class == ClassMask {
		retClass = ClassMask // the target was declared a MaskReg: a mask load
	}
	c.Elem = r.dtype
	if c.Elem == "" && len(r.targets) > 0 && retClass == ClassVReg {
		c.Elem = r.targets[0].Elem // the register loaded into already has a type
	}
	c.Rets, c.RetElems = make([]RegClass, n), make([]string, n)
	for k := range c.Rets {
		c.Rets[k] = retClass
		if retClass == ClassVReg {
			c.RetElems[k] = r.dtype
		}
		r.addRet(k, ArgW)
	}
	off := r.arg("offset")
	block := r.blockMode()
	addr := DSLOperand{Arg: ptr, Offset: -1, Role: ArgPtr}
	var after []DSLOperand
	switch {
	case off < 0:
	case r.class(off) == ClassAddr:
		after = append(after, DSLOperand{Arg: off, Offset: -1, Role: ArgAddr})
	case block && r.class(off) == ClassMask:
		after = append(after, DSLOperand{Arg: off, Offset: -1, Role: ArgMask}) // DataBlock mode: the mask sits there
	case c.Post:
		after = append(after, DSLOperand{Arg: off, Offset: -1, Role: ArgScalar}) // the post-update stride
	default:
		addr.Offset = off
	}
	if c.Post {
		addr.Role = ArgPtrRW
	}
	if ptr >= 0 {
		c.Operands = append(c.Operands, addr)
	}
	c.Operands = append(c.Operands, after...)
	for p, prm := range sig.params {
		k := r.bound[p]
		if k < 0 || k == ptr || k == off {
			continue
		}
		switch prm.kind {
		case kReg:
			r.want(k, ClassVReg)
			r.add(k, r.value(k))
		case kMask:
			r.want(k, ClassMask)
			if r.class(k) == ClassMask {
				r.add(k, ArgMask)
			} else {
				r.add(k, r.value(k))
			}
		case kScalar:
			r.add(k, ArgScalar)
		}
	}
	size := elemSize(c.Elem)
	if k := r.arg("dist"); k >= 0 {
		c.Dist = DSLDist(r.args[k].Value, size, retClass == ClassMask)
	} else if n == 2 {
		c.Dist = DSLDist("DINTLV", size, false)
	}
	if block {
		c.TArgs = []string{orT(c.Elem), "DataCopyMode::DATA_BLOCK_COPY"}
	}
}

func elemSize(t string) int64 {
	sz, _ := ElemSize(t)
	return sz
}

func (r *dslResolver) store(name string) {
	c, sig := r.c, r.sig
	ptr := r.arg(sig.params[0].name)
	addr := DSLOperand{Arg: ptr, Offset: -1, Role: ArgPtr}
	if c.Post {
		addr.Role = ArgPtrRW
	}
	src := r.arg("src")
	dataClass := r.class(src)
	if dataClass != ClassMask {
		dataClass = ClassVReg
	}
	var data, mid []int // data registers; strides, offsets, indices and AddrRegs
	mask := -1
	if src >= 0 {
		data = append(data, src)
	}
	if k := r.arg("mask"); k >= 0 {
		mask = k
	}
	if k := r.arg("index"); k >= 0 {
		r.want(k, ClassVReg)
		mid = append(mid, k)
	}
	// store_align(dst, src, *args): a second source (INTLV), then the
	// predicate, which a RegTensor store requires and a MaskReg store has
	// none of, then the offset (or AddrReg, or post-update stride).
	rest := r.rest
	if dataClass == ClassVReg && len(rest) > 0 && r.class(rest[0]) == ClassVReg {
		data = append(data, rest[0])
		rest = rest[1:]
	}
	if dataClass == ClassVReg && len(rest) > 0 && r.class(rest[0]) != ClassAddr {
		mask = rest[0]
		rest = rest[1:]
	}
	offset := -1
	for _, k := range rest {
		if r.class(k) == ClassNone && offset < 0 && !c.Post && !r.blockMode() {
			offset = k
			continue
		}
		mid = append(mid, k)
	}
	for _, p := range []string{"count", "block_stride", "repeat_stride"} {
		if k := r.arg(p); k >= 0 {
			mid = append(mid, k)
		}
	}
	addr.Offset = offset
	if ptr >= 0 {
		c.Operands = append(c.Operands, addr)
	}
	for _, k := range data {
		r.want(k, dataClass)
		r.add(k, r.value(k))
	}
	for _, k := range mid {
		role := ArgScalar
		switch {
		case r.class(k) == ClassAddr:
			role = ArgAddr
		case r.class(k) != ClassNone:
			role = ArgR
		}
		r.add(k, role)
	}
	if mask >= 0 {
		r.want(mask, ClassMask)
		if r.class(mask) == ClassMask {
			r.add(mask, ArgMask)
		} else {
			r.add(mask, r.value(mask))
		}
	}
	if src >= 0 && r.class(src) == ClassVReg {
		c.Elem = r.args[src].Elem
	}
	if name == "store_align" {
		size := elemSize(c.Elem)
		if k := r.arg("dist"); k >= 0 {
			c.Dist = DSLDist(r.args[k].Value, size, dataClass == ClassMask)
		} else if len(data) == 2 {
			c.Dist = DSLDist("INTLV", size, false)
		}
		if r.blockMode() {
			c.TArgs = []string{orT(c.Elem), "DataCopyMode::DATA_BLOCK_COPY"}
		}
	}
}

// unaligned resolves the four unaligned-stream calls, whose Reg forms are
// LoadUnAlignPre(ureg, src), LoadUnAlign(dst, ureg, src[, stride]),
// StoreUnAlign(dst, src, ureg[, stride]) and StoreUnAlignPost(dst, ureg[, stride]).
func (r *dslResolver) unaligned() {
	c, sig := r.c, r.sig
	ureg := r.arg(map[dslFam]string{famPre: "ureg", famLoadU: "ureg", famStoreU: "align_reg", famPostU: "align_reg"}[sig.fam])
	ptr := r.arg(sig.params[map[bool]int{true: 0, false: 1}[sig.fam == famStoreU || sig.fam == famPostU]].name)
	stride := r.arg("stride")
	uclass := ClassUnalignLoad
	if sig.fam == famStoreU || sig.fam == famPostU {
		uclass = ClassUnalignStore
	}
	r.want(ureg, uclass)
	ptrOp := func() {
		if ptr < 0 {
			return
		}
		role := ArgPtr
		if c.Post {
			role = ArgPtrRW
		}
		r.add(ptr, role)
	}
	switch sig.fam {
	case famPre:
		c.Post = false
		r.add(ureg, ArgW)
		ptrOp()
	case famLoadU:
		// A stride selects the post-update interface (the seed's table:
		// "post_update=True 或传入stride"), even with an explicit
		// post_update=False: pypto emits vldus(..., stride, POST_UPDATE)
		// for every strided form (backend_cce_vf_ops.cpp, EmitVFLoadUnalign).
		if stride >= 0 {
			c.Post = true
		}
		c.Rets, c.RetElems = []RegClass{ClassVReg}, []string{""}
		if len(r.targets) > 0 {
			c.Elem = r.targets[0].Elem
			c.RetElems[0] = c.Elem
		}
		r.addRet(0, ArgW)
		r.add(ureg, ArgRW)
		ptrOp()
		if stride >= 0 {
			r.add(stride, ArgScalar)
		}
	case famStoreU:
		src := r.arg("src")
		if r.class(src) == ClassMask {
			c.Post = true // PSTU always advances the address
		}
		ptrOp()
		if src >= 0 {
			r.add(src, r.value(src))
			c.Elem = r.args[src].Elem
			if r.class(src) == ClassMask {
				c.Elem = ""
			}
		}
		r.add(ureg, ArgRW)
		if stride >= 0 {
			r.add(stride, ArgScalar)
		} else if !c.Post {
			c.AR = ARUseOnly // the stride-less form is addressed through AR
		}
	case famPostU:
		ptrOp()
		r.add(ureg, ArgR)
		if stride >= 0 {
			r.add(stride, ArgScalar)
		}
	}
	if ureg < 0 {
		return
	}
	// An unaligned register operand that is not one keeps the value role.
	for i := range c.Operands {
		if o := &c.Operands[i]; o.Arg == ureg && r.class(ureg) == ClassNone {
			o.Role = ArgScalar
		}
	}
}

// byClass resolves a call whose binding is not known (a splat): the
// returned registers are written, register arguments read, masks after the
// data are predicates, the first non-register argument of a load or store is
// its address.
func (r *dslResolver) byClass() DSLCall {
	c := r.c
	sig := r.sig
	switch sig.fam {
	case famDecl, famView:
		c.Op = OpUnknown
		return *c
	}
	if sig.nret > 0 && sig.fam != famRet {
		n := max(sig.nret, len(r.targets))
		c.Rets, c.RetElems = make([]RegClass, n), make([]string, n)
		for k := range c.Rets {
			c.Rets[k] = sig.ret
			r.addRet(k, ArgW)
		}
	} else if sig.fam == famRet {
		c.Rets, c.RetElems = []RegClass{sig.ret}, []string{""}
	}
	seenPtr := sig.fam != famLoad && sig.fam != famStore && sig.fam != famPre && sig.fam != famLoadU &&
		sig.fam != famStoreU && sig.fam != famPostU
	for k, a := range r.args {
		switch {
		case a.Class.IsUnalign():
			r.add(k, ArgRW)
		case a.Class == ClassMask && k > 0:
			r.add(k, ArgMask)
		case a.Class == ClassAddr:
			r.add(k, ArgAddr)
		case a.Class != ClassNone:
			r.add(k, ArgR)
		case !seenPtr && a.Keyword == "":
			seenPtr = true
			r.add(k, ArgPtr)
		default:
			r.add(k, ArgScalar)
		}
	}
	return *c
}
