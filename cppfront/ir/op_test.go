package ir

import "testing"

var (
	vreg  = ArgInfo{Class: ClassVReg}
	mask  = ArgInfo{Class: ClassMask}
	ptr   = ArgInfo{Ptr: true}
	scal  = ArgInfo{}
	uload = ArgInfo{Class: ClassUnalignLoad}
	ustor = ArgInfo{Class: ClassUnalignStore}
	ureg  = ArgInfo{Class: ClassUnalign}
	areg  = ArgInfo{Class: ClassAddr}
)

// TestResolveSpellings resolves every family of spelling: current names
// under the Reg namespace, legacy aliases with their argument-driven
// overloads, asc_* C calls, raw intrinsics, and bare names.
func TestResolveSpellings(t *testing.T) {
	cases := []struct {
		name   string
		ns     Namespace
		bareOK bool
		args   []ArgInfo
		want   Op
		form   Form
	}{
		{"LoadAlign", NSReg, false, []ArgInfo{vreg, ptr}, OpLoadAlign, FormReg},
		{"StoreAlign", NSReg, false, []ArgInfo{ptr, vreg, mask}, OpStoreAlign, FormReg},
		{"LoadUnAlignPre", NSReg, false, []ArgInfo{uload, ptr}, OpLoadUnAlignPre, FormReg},
		{"StoreUnAlignPost", NSReg, false, []ArgInfo{ptr, ustor, scal}, OpStoreUnAlignPost, FormReg},
		{"DataCopyUnAlignPre", NSReg, false, []ArgInfo{ureg, ptr}, OpLoadUnAlignPre, FormLegacy},
		{"DataCopy", NSReg, false, []ArgInfo{vreg, ptr}, OpLoadAlign, FormLegacy},
		{"DataCopy", NSReg, false, []ArgInfo{ptr, vreg, mask}, OpStoreAlign, FormLegacy},
		{"DataCopy", NSReg, false, []ArgInfo{scal, vreg, mask}, OpStoreAlign, FormLegacy},
		{"DataCopy", NSReg, false, []ArgInfo{mask, ptr}, OpLoadAlign, FormLegacy},
		{"DataCopyUnAlign", NSReg, false, []ArgInfo{vreg, ureg, ptr, scal}, OpLoadUnAlign, FormLegacy},
		{"DataCopyUnAlign", NSReg, false, []ArgInfo{ptr, vreg, ureg, scal}, OpStoreUnAlign, FormLegacy},
		{"DataCopyUnAlignPost", NSReg, false, []ArgInfo{ptr, ureg, scal}, OpStoreUnAlignPost, FormLegacy},
		{"DataCopyGather", NSReg, false, []ArgInfo{vreg, ptr, vreg, mask}, OpGather, FormLegacy},
		{"DataCopyGatherB", NSReg, false, []ArgInfo{vreg, ptr, vreg, mask}, OpGatherB, FormLegacy},
		{"DataCopyScatter", NSReg, false, []ArgInfo{ptr, vreg, vreg, mask}, OpScatter, FormLegacy},
		{"Copy", NSReg, false, []ArgInfo{vreg, vreg, mask}, OpMove, FormLegacy},
		{"MaskMov", NSReg, false, []ArgInfo{mask, mask}, OpMaskMove, FormLegacy},
		{"MaskAnd", NSReg, false, []ArgInfo{mask, mask, mask, mask}, OpMaskAnd, FormLegacy},
		{"MaskOr", NSReg, false, []ArgInfo{mask, mask, mask, mask}, OpMaskOr, FormLegacy},
		{"MaskNot", NSReg, false, []ArgInfo{mask, mask, mask}, OpMaskNot, FormLegacy},
		{"MaskXor", NSReg, false, []ArgInfo{mask, mask, mask, mask}, OpMaskXor, FormLegacy},
		{"MaskSel", NSReg, false, []ArgInfo{mask, mask, mask, mask}, OpMaskSelect, FormLegacy},
		{"MaskInterleave", NSReg, false, []ArgInfo{mask, mask, mask, mask}, OpMaskInterleave, FormLegacy},
		{"MaskDeInterleave", NSReg, false, []ArgInfo{mask, mask, mask, mask}, OpMaskDeInterleave, FormLegacy},
		{"MaskPack", NSReg, false, []ArgInfo{mask, mask}, OpMaskPack, FormLegacy},
		{"MaskUnPack", NSReg, false, []ArgInfo{mask, mask}, OpMaskUnPack, FormLegacy},
		{"GatherMask", NSReg, false, []ArgInfo{vreg, vreg, mask}, OpSqueeze, FormLegacy},
		{"PrefixSum", NSReg, false, []ArgInfo{vreg, mask}, OpUnsqueeze, FormLegacy},
		{"Mula", NSReg, false, []ArgInfo{vreg, vreg, vreg, mask}, OpMulAddDst, FormLegacy},
		{"AddCarryOut", NSReg, false, []ArgInfo{mask, vreg, vreg, vreg, mask}, OpAddCarry, FormLegacy},
		{"SubCarryOut", NSReg, false, []ArgInfo{mask, vreg, vreg, vreg, mask}, OpSubCarry, FormLegacy},
		{"AddCarryOuts", NSReg, false, []ArgInfo{mask, vreg, vreg, vreg, mask, mask}, OpAddC, FormLegacy},
		{"SubCarryOuts", NSReg, false, []ArgInfo{mask, vreg, vreg, vreg, mask, mask}, OpSubC, FormLegacy},
		{"CompareScalar", NSReg, false, []ArgInfo{mask, vreg, scal, mask}, OpCompares, FormLegacy},
		{"FusedMulsCast", NSReg, false, []ArgInfo{vreg, vreg, scal, mask}, OpMulsCast, FormLegacy},
		{"FusedAbsSub", NSReg, false, []ArgInfo{vreg, vreg, vreg, mask}, OpAbsSub, FormLegacy},
		{"FusedExpSub", NSReg, false, []ArgInfo{vreg, vreg, vreg, mask}, OpExpSub, FormLegacy},
		{"FusedMulDstAdd", NSReg, false, []ArgInfo{vreg, vreg, vreg, mask}, OpMulDstAdd, FormLegacy},
		{"ReduceSum", NSReg, false, []ArgInfo{vreg, vreg, mask}, OpReduce, FormLegacy},
		{"ReduceMax", NSReg, false, []ArgInfo{vreg, vreg, mask}, OpReduce, FormLegacy},
		{"ReduceMin", NSReg, false, []ArgInfo{vreg, vreg, mask}, OpReduce, FormLegacy},
		{"ReduceSumWithDataBlock", NSReg, false, []ArgInfo{vreg, vreg, mask}, OpReduceDataBlock, FormLegacy},
		{"ReduceMaxWithDataBlock", NSReg, false, []ArgInfo{vreg, vreg, mask}, OpReduceDataBlock, FormLegacy},
		{"ReduceMinWithDataBlock", NSReg, false, []ArgInfo{vreg, vreg, mask}, OpReduceDataBlock, FormLegacy},
		{"PairReduceSum", NSReg, false, []ArgInfo{vreg, vreg, mask}, OpPairReduceElem, FormLegacy},
		// Overloads chosen by the first argument.
		{"And", NSReg, false, []ArgInfo{vreg, vreg, vreg, mask}, OpAnd, FormReg},
		{"And", NSReg, false, []ArgInfo{mask, mask, mask, mask}, OpMaskAnd, FormReg},
		{"Not", NSReg, false, []ArgInfo{mask, mask, mask}, OpMaskNot, FormReg},
		{"Select", NSReg, false, []ArgInfo{mask, mask, mask, mask}, OpMaskSelect, FormReg},
		{"Move", NSReg, false, []ArgInfo{mask, mask}, OpMaskMove, FormReg},
		{"Add", NSReg, false, []ArgInfo{vreg, vreg, vreg, mask}, OpAdd, FormReg},
		{"Add", NSReg, false, []ArgInfo{mask, vreg, vreg, vreg, mask}, OpAddCarry, FormReg},
		{"Gather", NSReg, false, []ArgInfo{vreg, ptr, vreg, mask}, OpGather, FormReg},
		{"Gather", NSReg, false, []ArgInfo{vreg, vreg, vreg}, OpGatherReg, FormReg},
		// asc_* C calls.
		{"asc_loadalign", NSNone, false, []ArgInfo{vreg, ptr}, OpLoadAlign, FormCAPI},
		{"asc_loadunalign_pre", NSNone, false, []ArgInfo{uload, ptr}, OpLoadUnAlignPre, FormCAPI},
		{"asc_loadunalign_postupdate", NSNone, false, []ArgInfo{vreg, uload, ptr, scal}, OpLoadUnAlign, FormCAPI},
		{"asc_storeunalign_postupdate", NSNone, false, []ArgInfo{ptr, ustor, vreg, scal}, OpStoreUnAlign, FormCAPI},
		{"asc_storeunalign_post", NSNone, false, []ArgInfo{ptr, ustor, scal}, OpStoreUnAlignPost, FormCAPI},
		{"asc_add_scalar", NSNone, false, []ArgInfo{vreg, vreg, scal, mask}, OpAdds, FormCAPI},
		{"asc_and", NSNone, false, []ArgInfo{mask, mask, mask, mask}, OpMaskAnd, FormCAPI},
		{"asc_float2half_rn", NSNone, false, []ArgInfo{vreg, vreg, mask}, OpCast, FormCAPI},
		{"asc_gt_scalar", NSNone, false, []ArgInfo{mask, vreg, scal, mask}, OpCompares, FormCAPI},
		// Raw intrinsics.
		{"vlds", NSNone, false, []ArgInfo{vreg, ptr, scal}, OpLoadAlign, FormRaw},
		{"vsts", NSNone, false, []ArgInfo{vreg, ptr, scal}, OpStoreAlign, FormRaw},
		{"vcvt_f162s4", NSNone, false, []ArgInfo{vreg, vreg}, OpCast, FormRaw},
		// Bare names need evidence; distinctive ones do not.
		{"LoadAlign", NSNone, true, []ArgInfo{vreg, ptr}, OpLoadAlign, FormReg},
		{"Add", NSNone, false, []ArgInfo{scal, scal, scal}, OpUnknown, FormUnknown},
		{"Foo", NSReg, false, nil, OpUnknown, FormUnknown},
		{"LoadAlign", NSOther, true, []ArgInfo{vreg, ptr}, OpUnknown, FormUnknown},
		{"GetVecLen", NSOther, false, nil, OpScalar, FormReg},
	}
	for _, c := range cases {
		op, form, ok := Resolve(c.name, c.ns, c.bareOK, c.args)
		if op != c.want || form != c.form || ok != (c.want != OpUnknown) {
			t.Errorf("Resolve(%s, ns=%d, bare=%v): %v %v %v, want %v %v", c.name, c.ns, c.bareOK, op, form, ok, c.want, c.form)
		}
	}
	if !Distinctive("LoadUnAlignPre") || Distinctive("Add") || Distinctive("DataCopy") {
		t.Error("Distinctive misclassifies")
	}
}

// TestEveryOpHasASpelling keeps the table whole: each op is reachable.
func TestEveryOpHasASpelling(t *testing.T) {
	reach := map[Op]bool{OpUnknown: true, OpCall: true, OpScalar: true}
	for _, sp := range regNames {
		reach[sp.op], reach[sp.twin] = true, true
	}
	for _, sp := range capiNames {
		reach[sp.op], reach[sp.twin] = true, true
	}
	for _, sp := range rawNames {
		reach[sp.op] = true
	}
	for op := Op(0); op < numOps; op++ {
		if !reach[op] {
			t.Errorf("op %v has no spelling", op)
		}
		if op.Info().Name == "" {
			t.Errorf("op %d has no name", op)
		}
		if got, ok := OpByName(op.String()); !ok || got != op {
			t.Errorf("OpByName(%s) = %v", op, got)
		}
	}
}

func TestAssignRoles(t *testing.T) {
	cases := []struct {
		op   Op
		form Form
		post bool
		args []ArgInfo
		want []ArgRole
	}{
		{OpLoadAlign, FormReg, false, []ArgInfo{vreg, ptr}, []ArgRole{ArgW, ArgPtr}},
		{OpLoadAlign, FormReg, true, []ArgInfo{vreg, ptr, scal}, []ArgRole{ArgW, ArgPtrRW, ArgScalar}},
		{OpLoadAlign, FormReg, false, []ArgInfo{vreg, ptr, areg}, []ArgRole{ArgW, ArgPtr, ArgAddr}},
		{OpLoadAlign, FormReg, false, []ArgInfo{vreg, vreg, ptr}, []ArgRole{ArgW, ArgW, ArgPtr}},
		{OpLoadUnAlignPre, FormReg, false, []ArgInfo{uload, ptr}, []ArgRole{ArgW, ArgPtr}},
		{OpLoadUnAlign, FormReg, false, []ArgInfo{vreg, uload, ptr, scal}, []ArgRole{ArgW, ArgRW, ArgPtrRW, ArgScalar}},
		{OpLoadUnAlign, FormReg, false, []ArgInfo{vreg, uload, ptr}, []ArgRole{ArgW, ArgRW, ArgPtr}},
		{OpStoreUnAlign, FormReg, false, []ArgInfo{ptr, vreg, ustor, scal}, []ArgRole{ArgPtrRW, ArgR, ArgRW, ArgScalar}},
		{OpStoreUnAlign, FormCAPI, false, []ArgInfo{ptr, ustor, vreg, scal}, []ArgRole{ArgPtr, ArgRW, ArgR, ArgScalar}},
		{OpStoreUnAlignPost, FormReg, false, []ArgInfo{ptr, ustor}, []ArgRole{ArgPtr, ArgR}},
		{OpStoreAlign, FormReg, false, []ArgInfo{ptr, vreg, mask}, []ArgRole{ArgPtr, ArgR, ArgMask}},
		{OpStoreAlign, FormReg, false, []ArgInfo{ptr, mask}, []ArgRole{ArgPtr, ArgR}},
		{OpAdd, FormReg, false, []ArgInfo{vreg, vreg, vreg, mask}, []ArgRole{ArgW, ArgR, ArgR, ArgMask}},
		{OpAxpy, FormReg, false, []ArgInfo{vreg, vreg, scal, mask}, []ArgRole{ArgRW, ArgR, ArgScalar, ArgMask}},
		{OpMull, FormReg, false, []ArgInfo{vreg, vreg, vreg, vreg, mask}, []ArgRole{ArgW, ArgW, ArgR, ArgR, ArgMask}},
		{OpCompare, FormReg, false, []ArgInfo{mask, vreg, vreg, mask}, []ArgRole{ArgW, ArgR, ArgR, ArgMask}},
		{OpUpdateMask, FormReg, false, []ArgInfo{scal}, []ArgRole{ArgScalarRW}},
	}
	for _, c := range cases {
		got := AssignRoles(c.op, c.form, c.post, false, c.args)
		if len(got) != len(c.want) {
			t.Errorf("%v: %v, want %v", c.op, got, c.want)
			continue
		}
		for i := range got {
			if got[i] != c.want[i] {
				t.Errorf("%v (%v): roles %v, want %v", c.op, c.form, got, c.want)
				break
			}
		}
	}
	// MERGING makes the destination read as well.
	if r := AssignRoles(OpAdd, FormReg, false, true, []ArgInfo{vreg, vreg, vreg, mask}); r[0] != ArgRW {
		t.Errorf("merging Add dst role %v", r[0])
	}
}

func TestDSLSpelling(t *testing.T) {
	for op, want := range map[Op]string{OpLoadUnAlignPre: "vf.load_unalign_pre", OpStoreUnAlignPost: "vf.store_unalign_post", OpLoadAlign: "vf.load_align", OpMaskAnd: "vf.and_", OpMaskNot: "vf.not_"} {
		if got, ok := DSLSpelling(op); !ok || got != want {
			t.Errorf("DSLSpelling(%v) = %q, %v; want %q", op, got, ok, want)
		}
	}
	if got, ok := DSLSpelling(OpCompare); ok {
		t.Errorf("DSLSpelling(Compare) = %q; want none (eq, ne, ... all spell it)", got)
	}
}
