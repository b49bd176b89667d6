package i18n

// ASC5002 int64-div: the Chinese title, text and messages.

func init() {
	rules["ASC5002"] = RuleText{
		Title: "VF 循环中的 64 位整数 Div 在 950 上是一段软件指令序列",
		Text: "950 没有对 64 位整数做向量除法的指令。int64_t 或 uint64_t 上的 Reg::Div 改为执行库中的指令序列（DivB64Impl，以及 DivS64Impl 和 DivU64Impl）：" +
			"先用浮点数估计除数的倒数，再用 32 位的 Mull 和带进位加法在 128 位定点数上做两次牛顿迭代，商取 128 位乘积的高位，最后对余数做两次修正：" +
			"在 32 位的高低两半上共约 120 条指令，且大多相互依赖，各次迭代几乎无法重叠。厂商的 RegTrait 示例在 950PR 上实测这样的循环每次迭代约 190 个周期（RegTraitNumTwo）到 290 个周期（RegTraitNumOne）；" +
			"ascvet 逐条模拟这段序列（在该循环上约为每次迭代 140 个周期：其余的开销它看不到）。" +
			"本规则报告循环中元素类型为 64 位整数（按编译器实际生成的实例化判断）的 Div。除数在循环中不变时（广播的标量、在循环之前写入的寄存器），" +
			"修复方法是整数快速除法的最佳实践：在循环之前算好一次魔数和移位量，把 Div 换成乘法取高位、一次加法和一次移位（64 位时约 20 条指令）。" +
			"除数会变化时，修复方法是在数值能放进 32 位时改用 32 位数据：int32_t 或 uint32_t 上的 Div 只是一条指令。检查结果给出该修复模拟得到的节省。" +
			"本规则不提供自动修复：魔数取决于除数的值（在标量单元或主机侧计算），而只有数据范围允许时才能改用 32 位。" +
			"\n\n来源：asc-devkit 的 RegTrait 示例（分别用 RegTraitNumOne 和 RegTraitNumTwo 的 int64 Div 循环，在 950PR 上实测）、库中的 DivB64Impl，以及整数快速除法最佳实践（simd_simt_integer_fast_div）。" +
			" https://gitcode.com/cann/asc-devkit/blob/master/examples/01_simd_cpp_api/03_basic_api/02_reg_vector_compute/trait/README.md" +
			" https://gitcode.com/cann/asc-devkit/blob/master/impl/basic_api/reg_compute/dav_3510/kernel_reg_compute_vec_binary_impl.h" +
			" https://gitcode.com/cann/asc-devkit/blob/master/examples/05_simd_simt_hybrid/02_best_practices/simd_simt_integer_fast_div/README.md",
	}
	messages["ASC5002"] = []pattern{
		{`Div on (?P<elem>\S+) in a VF loop runs the library's (?P<n>\d+)-instruction sequence each iteration \(the 950 has no 64-bit integer divide\); (?P<r>\S+) does not change in the loop: compute a magic number and a shift for it once, before the loop, and multiply instead \(integer fast division\)(?P<Inst>(?: \(instantiated with [^()]*\))?)` + tail,
			`${elem} 上的 Div 在 VF 循环中每次迭代都要执行库中 ${n} 条指令的序列（950 没有 64 位整数除法指令）；${r} 在循环中不变：请在循环之前为它算好一次魔数和移位量，改用乘法（整数快速除法）${Inst}${Tail}`},
		{`Div on (?P<elem>\S+) in a VF loop runs the library's (?P<n>\d+)-instruction sequence each iteration \(the 950 has no 64-bit integer divide\); if the values fit in 32 bits, divide (?P<t>\S+) data instead: one Div instruction(?P<Inst>(?: \(instantiated with [^()]*\))?)` + tail,
			`${elem} 上的 Div 在 VF 循环中每次迭代都要执行库中 ${n} 条指令的序列（950 没有 64 位整数除法指令）；若数值能放进 32 位，请改用 ${t} 数据：只需一条 Div 指令${Inst}${Tail}`},
	}
	fragments["Replay"] = append(fragments["Replay"],
		pattern{`the magic number depends on the divisor's value, and 32-bit data only holds values that fit`, `魔数取决于除数的值，而 32 位数据只能容纳能放进 32 位的数值`},
	)
}
