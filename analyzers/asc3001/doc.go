package asc3001

const text = "A VF has 32 RegTensor registers. What counts is how many hold a value that is still needed at the same " +
	"time, not how many are declared: a value is live from where it is written to where it is last read, across the " +
	"whole loop when a later iteration reads it (accumulators), and RegTraitNumTwo and 64-bit tensors take two. " +
	"Above 32 the compiler writes registers to a reserved 8 KB of UB and reads them back with synchronisation, which " +
	"slows the VF down badly. The message gives the peak and its line, and says how many of the live registers the " +
	"related locations list and how many a called helper holds inside (the two add up to the peak). Its cycle " +
	"estimate is simulated: the loop holding the peak is run as written and with the registers above the budget " +
	"spilled (stored after the peak, reloaded before their next use); when that traffic costs nothing the machine " +
	"cannot hide, the message says no saving is measurable. Split the VF (intermediates through UB), finish one computation before starting the next, or reuse " +
	"temporaries. `ascvet regs FILE:LINE` prints the full pressure report of a region. " +
	"The count is that of the code the compiler builds: helpers of the file and of the headers it includes are " +
	"inlined at their calls. An overrun inside a helper of a header is reported at the kernel's call, naming the " +
	"helper's file and the line of the peak; when several kernels inline it, the one with the most registers live " +
	"there is reported and the others are listed with it (and with -show-ignored). A helper that files of its own " +
	"folder include and call is counted there, not alone. " +
	"\n\nSource: the Ascend C best practice \"Instruction Dual-Issue\" (指令双发优化): at most 32 RegTensor per VF." +
	" https://www.hiascend.com/document/detail/en/CANNCommunityEdition/900/programug/Ascendcopdevg/atlas_ascendc_best_practices_10_00024.html" +
	" https://gitcode.com/cann/asc-devkit/blob/master/docs/zh/guide/算子实践参考/SIMD算子性能优化/矢量计算/VF性能优化/指令双发优化.md"

const before = `AscendC::Reg::RegTensor<float> x0, x1, /* ... */ x7;   // 8 inputs
AscendC::Reg::RegTensor<float> y0, y1, /* ... */ y7;   // 8 inputs
AscendC::Reg::RegTensor<float> acc0, /* ... */ acc19;  // 20 accumulators
for (uint16_t i = 0; i < repeatTimes; ++i) {
    // LoadAlign x0..x7 and y0..y7, then update acc0..acc19 from them:
    // 8 + 8 + 20 = 36 registers live at once, above the 32 of a VF
}`

const after = `// the same work in two halves
for (uint16_t i = 0; i < repeatTimes; ++i) {
    // LoadAlign x0..x3 and y0..y3, update acc0..acc19: 28 live
}
for (uint16_t i = 0; i < repeatTimes; ++i) {
    // LoadAlign x4..x7 and y4..y7, update acc0..acc19: 28 live
}`
