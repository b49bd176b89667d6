package i18n

// ASC5004 dead-register-write: the Chinese title, text and messages.

func init() {
	rules["ASC5004"] = RuleText{
		Title: "寄存器被写入后、被读取前又被整体覆盖",
		Text: "如果一条指令写入的结果寄存器在被任何指令读取之前就被整体覆盖，这条指令什么也没有算出：" +
			"Duplicate(x, 0.0f, mask) 之后紧接 LoadAlign(x, src)，Duplicate 只是白白占用一个发射槽（每次调用一次，" +
			"在循环中则每次迭代一次），并占用一个本可留给有效计算的向量单元。请删除这条无效指令。" +
			"只有当覆盖指令与写入指令位于同一个语句块、写在它之后、两者之间没有任何指令读取该寄存器，" +
			"并且覆盖指令写满所有通道时，本规则才报告：MaskMergeMode::MERGING 模式的写入、累加类指令（Axpy、MulAddDst）、" +
			"读取自身目的寄存器的指令（Select(x, a, x, m)）、传入该寄存器的辅助函数调用、只写寄存器数组中一个元素" +
			"或 RegTraitNumTwo 张量一半的写入、经引用强制转换的写入以及引用参数，都不视为覆盖；" +
			"循环带到下一次迭代的值、或者 if 的另一个分支会读取的值都是活跃的。无效指令除了写寄存器之外不能有其他作用：" +
			"搬出、PostUpdate 方式的搬入和非对齐搬入从不报告，有两个结果的指令（AddC）只有当两个结果都无效时才报告。" +
			"写入与覆盖之间的 if constexpr 按每个实例化分别判断；只在部分实例化中成立的检查结果会列出这些实例化。" +
			"自动修复删除该语句，前提是它单独占据自己的行、只有这一个调用、不在宏中且参数没有副作用；寄存器的声明保留。" +
			"编译器是否会自行删除这样的指令没有文档说明：给出的代价是该指令按所写发射时的代价。" +
			"\n\n来源：Ascend C 最佳实践《指令双发优化》：每条向量指令都占用 VF 每周期两个发射槽中的一个，" +
			"不产生结果的指令会拖慢它所在的循环；下面的示例即 pypto 的 softmax tile 算子中求列最大值处的写法。" +
			" https://www.hiascend.com/document/detail/zh/canncommercial/latest/programug/Ascendcopdevg/atlas_ascendc_best_practices_10_00024.html" +
			" https://gitcode.com/cann/asc-devkit/blob/master/docs/zh/guide/算子实践参考/SIMD算子性能优化/矢量计算/VF性能优化/指令双发优化.md" +
			" https://gitcode.com/cann/pypto/blob/master/framework/src/interface/tileop/vector/softmax.h",
	}
	messages["ASC5004"] = []pattern{
		{`(?P<op>\S+) writes (?P<r>\S+), but (?P<k>\S+) on line (?P<line>\d+) overwrites it before any read: the (?P<op2>\S+) is dead; delete it(?P<Inst>(?: \(instantiated with [^()]*\))?)` + tail,
			`${op} 写入的 ${r} 在被读取之前就被第 ${line} 行的 ${k} 覆盖：这条 ${op2} 是无效指令，请删除它${Inst}${Tail}`},
		{`(?P<op>\S+) writes (?P<Regs>.+?), and each is overwritten before any read \((?P<Overwrites>[^()]+)\): the (?P<op2>\S+) is dead; delete it(?P<Inst>(?: \(instantiated with [^()]*\))?)` + tail,
			`${op} 写入的 ${Regs} 在被读取之前都被覆盖（${Overwrites}）：这条 ${op2} 是无效指令，请删除它${Inst}${Tail}`},
		{`overwrites (?P<r>\S+)`, `覆盖 ${r}`},
		{`delete the dead (?P<op>\S+)`, `删除无效的 ${op}`},
	}
	listKinds["Overwrites"] = listKind{sep: ", ", zhSep: "，", item: "Overwrite"}
	fragments["Overwrite"] = []pattern{
		{`(?P<r>\S+) on line (?P<line>\d+)`, `${r} 被第 ${line} 行覆盖`},
	}
	fragments["Replay"] = append(fragments["Replay"],
		pattern{`the statement shares its line with other code`, `该语句与其他代码共用一行`},
		pattern{`the call's value is assigned`, `调用的返回值被赋给了变量`},
		pattern{`an argument may have side effects`, `某个参数可能有副作用`},
		pattern{`the file's text is not known`, `无法获得文件的文本`},
		pattern{`the write is live in the other instantiations: guard it with if constexpr`, `该写入在其他实例化中是有效的：请把它放进编译期条件分支中`},
	)
}
