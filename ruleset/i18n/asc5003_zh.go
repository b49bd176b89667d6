package i18n

// ASC5003 datablock-bank-group: the Chinese title and text of the rule,
// and the patterns of its messages.

func init() {
	rules["ASC5003"] = RuleText{
		Title: "DataBlock 跨步使 8 个数据块全部落在同一个 UB bank group",
		Text: "DataBlock 模式（DataCopyMode::DATA_BLOCK_COPY）下，一条 LoadAlign 或 StoreAlign 搬运 8 个 32 字节的数据块，" +
			"第 k 块位于地址加 k x blockStride x 32 字节处：指针之后的标量就是以块为单位的 DataBlock 跨步（blockStride；" +
			"PostUpdate 形式中其后是 repeat 跨步；C API 中带两个标量的 asc_loadalign 和 asc_storealign 是同一条指令）。" +
			"Ascend 950（架构 3510）的 UB 把 32 字节的块交织在 8 个 bank group（存储体组）的 16 个 bank（存储体）上，" +
			"因此第 k 块落在 bank group ((address >> 5) + k x blockStride) mod 8。跨步是 8 的倍数时，8 个块全部落在同一个 bank group；" +
			"是 16 的倍数时落在同一个 bank。一个 bank group 每拍只能写一次：这样的 StoreAlign 只能逐块写入，用 8 拍而不是 1 拍。" +
			"一个 bank group 每拍可读两次、一个 bank 每拍读一次：这样的 LoadAlign 用 4 拍（跨步为 16 的倍数时 8 拍）。" +
			"这正是按列访问行长为 256 字节整数倍的 tile 的情形。请给每行补一个 32 字节的块，使跨步加一（8 改为 9，144 改为 145）：" +
			"相邻块依次换一个 bank group，覆盖全部 8 个；或者改为按行访问。不提供自动修复：补齐会改变缓冲区的大小和排布、" +
			"向它搬入数据的拷贝以及对它的其他所有访问。" +
			"以下情况不报告：跨步为 0（同一个块读 8 次，硬件只读一次）、跨步不是 8 的倍数、NORM 模式，以及无法折叠的跨步（运行时的值）。" +
			"模板参数或 constexpr 给出的跨步按本文件给出的每个实例化折叠，只对部分实例化成立的检查结果会写明是哪些实例化。" +
			"跨步模 8 余 4（每两个 bank group 各落 4 块，写入需 4 拍）也不报告：按公开的 bank 规则其代价只有一半，且没有实测数据。" +
			"公开的实测数据显示冲突出现在写入侧（STU）；LoadAlign 按文档中的读规则报告，其代价是模型的估计。" +
			"代价估计模拟原样的循环，以及把被报告访问的 8 个块分散到 8 个 bank group 后的循环，其他不变。" +
			"\n\n来源：asc-devkit 样例《UB Bank冲突场景验证与分析(架构3510)》（bank_conflict_3510）的 case 11 和 case 12：" +
			"同样的搬运按行（跨步 1）用 443,135 个周期，按列（跨步 8）用 1,510,497 个周期，STU 冲突率 53.5%，慢 3.4 倍；" +
			"以及《ND2NZ Bank 冲突调优样例》（bank_conflict_nd2nz）：在 Ascend 950 上 StoreAlign 的跨步为 144 时向量时间 45.25 us，" +
			"改为 145（补一个块）后为 9.14 us。" +
			" https://gitcode.com/cann/asc-devkit/blob/master/examples/01_simd_cpp_api/05_best_practices/04_memory_access/bank_conflict_3510/README.md" +
			" https://gitcode.com/cann/asc-devkit/blob/master/examples/01_simd_cpp_api/05_best_practices/04_memory_access/bank_conflict_3510/README_en.md" +
			" https://gitcode.com/cann/asc-devkit/blob/master/examples/01_simd_cpp_api/05_best_practices/04_memory_access/bank_conflict_nd2nz/README.md",
	}
	const msgHead = `(?P<op>\S+) in DataBlock mode with block stride (?P<stride>\d+)(?P<Inst>(?: \(instantiated with [^()]*\))?): its eight 32-byte blocks are a multiple of 256 bytes apart, all in one UB bank group, `
	const msgRest = `, so it holds its port (?P<n>\d+) cycles instead of 1; pad the rows by one 32-byte block \(block stride (?P<padded>\d+)\) to spread the blocks over the eight groups, or access the data row-wise \(no automatic fix: the padding changes the buffer's layout\)`
	messages["ASC5003"] = []pattern{
		{msgHead + `which takes one write a cycle` + msgRest + tail,
			`DataBlock 模式的 ${op} 的块跨步为 ${stride}${Inst}：它的 8 个 32 字节块彼此相隔 256 字节的整数倍，全部落在同一个 UB 存储体组，而一个存储体组每拍只能写一次，因此它占用端口 ${n} 拍而不是 1 拍；请给每行补一个 32 字节的块（块跨步改为 ${padded}），使这些块分散到 8 个存储体组，或者改为按行访问（不提供自动修复：补齐会改变缓冲区的排布）${Tail}`},
		{msgHead + `which serves two reads a cycle, one per bank` + msgRest + tail,
			`DataBlock 模式的 ${op} 的块跨步为 ${stride}${Inst}：它的 8 个 32 字节块彼此相隔 256 字节的整数倍，全部落在同一个 UB 存储体组，而一个存储体组每拍只能读两次、一个存储体每拍只能读一次，因此它占用端口 ${n} 拍而不是 1 拍；请给每行补一个 32 字节的块（块跨步改为 ${padded}），使这些块分散到 8 个存储体组，或者改为按行访问（不提供自动修复：补齐会改变缓冲区的排布）${Tail}`},
	}
}
