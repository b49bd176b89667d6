package asc3002

const text = "A VF has 8 MaskReg registers. Masks are easy to keep alive by accident: a compare result kept for a " +
	"later select, a MaskNot of a MaskAnd result (ASC3004), two compares joined by MaskAnd (ASC3005). Above 8 live at " +
	"once the compiler spills masks to UB with synchronisation. The message gives the peak and its line; the related " +
	"locations are the masks live there. Combine masks with predicated compares, apply De Morgan, or recompute a " +
	"mask where it is used. " +
	"The count is that of the code the compiler builds: helpers of the file and of the headers it includes are " +
	"inlined at their calls. An overrun inside a helper of a header is reported at the kernel's call, naming the " +
	"helper's file and the line of the peak; when several kernels inline it, the one with the most registers live " +
	"there is reported and the others are listed with it (and with -show-ignored). A helper that files of its own " +
	"folder include and call is counted there, not alone. " +
	"\n\nSource: the Ascend C best practice \"Instruction Dual-Issue\" (指令双发优化): at most 8 MaskReg per VF." +
	" https://www.hiascend.com/document/detail/en/CANNCommunityEdition/900/programug/Ascendcopdevg/atlas_ascendc_best_practices_10_00024.html" +
	" https://gitcode.com/cann/asc-devkit/blob/master/docs/zh/guide/算子实践参考/SIMD算子性能优化/矢量计算/VF性能优化/指令双发优化.md"

const before = `AscendC::Reg::MaskReg m0, m1, m2, m3, m4, m5, m6, m7, m8;
// nine compares up front ...
AscendC::Reg::Compares(m0, x0, 0.0f, mask);
// ... m1 to m8 the same way, then nine Selects at the end:
// 9 MaskReg live at once, above the 8 of a VF
AscendC::Reg::Select(y0, x0, z0, m0);`

const after = `// each mask computed right before the Select that uses it: 2 live
AscendC::Reg::Compares(m0, x0, 0.0f, mask);
AscendC::Reg::Select(y0, x0, z0, m0);
AscendC::Reg::Compares(m0, x1, 0.0f, mask);
AscendC::Reg::Select(y1, x1, z1, m0);
// ...`
