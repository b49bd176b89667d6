package i18n

// The Chinese title, text and message patterns of ASC5001
// half-width-vector (analyzers/asc5001).

// halvedCost is what ASC5001 says a full-width loop saves
// (simcost.Cost.HalvedPhrase), with the fragments it shares with the
// other costs.
const halvedCost = `(?P<Opaque>(?: \(timed with [^()]+ as one instruction: not defined in the file\))?(?: \(timed with each Div on [^()]+ as one float Div: [^()]+\))?(?: \(the loop counts with [^()]+, not uint16_t: [^()]+\))?)(?P<Timed>(?: \(timed for [^()]*\))?)(?P<Assumed>(?: \(timed assuming .+, the costlier branches: the file does not give the template arguments\))?)(?P<Call>(?: \(a VF call: [^()]+\))?)`

// halfWidthMain is the main clause of an ASC5001 finding.
const halfWidthMain = `loop fills only (?P<h>\d+) of the (?P<vb>\d+) bytes of each vector register: its ops run under (?P<pat>MaskPattern::\S+) on (?P<elem>\S+) and its loads and stores step (?P<h2>\d+) bytes per iteration; with the full width \(a full mask, or (?P<upd>\S+) over the remaining count\) and a (?P<full>\d+)-byte step it needs half the iterations(?P<Inst>(?: \(instantiated with [^()]*\))?)`

const halfWidthZh = `循环只用到每个向量寄存器 ${vb} 字节中的 ${h} 字节：各指令在 ${elem} 上的 ${pat} 掩码下执行，搬入和搬出每次迭代前进 ${h2} 字节；改用完整宽度（完整掩码，或对剩余元素数使用 ${upd}）并以 ${full} 字节为步长，迭代次数即可减半${Inst}`

func init() {
	rules["ASC5001"] = RuleText{
		Title: "循环只用到每个 256 字节向量寄存器的一半",
		Text: "一个向量寄存器有 256 字节：64 个 float、128 个 half 或 256 个 int8_t 元素。如果循环中各指令的掩码只覆盖 128 字节" +
			"（CreateMask<float, MaskPattern::VL32>，half 或 int16_t 上的 MaskPattern::VL64，int8_t 上的 VL128，64 位类型上的 VL16，" +
			"或 MaskPattern::H），而搬入和搬出每次迭代只前进 128 字节（xAddr + i * oneRepeatSize，其中 oneRepeatSize * sizeof(T) == 128，" +
			"AddrReg 偏移量 CreateAddrReg<T>(i, oneRepeatSize)，或按 128 字节做 PostUpdate），那么每次迭代的工作都由本可处理两倍数据的指令完成：无论掩码覆盖多少，每条指令的代价都相同，" +
			"所以使用完整宽度时，同样的循环体只需执行一半的次数。asc-devkit 的 Gelu+Element-wise 最佳实践样例在 Ascend 950PR 上实测了这一点：" +
			"case 0（float 上的 VL32，步长 128 字节）的向量指令耗时为 244.299 μs，约合每次 VF 调用 3149 个周期；case 1 即同一循环改用 256 字节，" +
			"耗时 125.203 μs，约 1614 个周期（减少 48.7%）。只有一切都已知且为逐元素计算时本规则才报告：循环的每个掩码都是 128 字节的常量模式" +
			"（或在这种掩码下做的比较的结果），每次搬入和搬出都是普通分布模式的 LoadAlign 或 StoreAlign，且地址每次迭代前进 128 字节，" +
			"所有指令的元素大小相同，没有标量操作数随迭代变化，循环体中没有 if，也没有调用函数体未知的函数。" +
			"用于类型转换的半宽掩码（half 到 float 的 Cast、带 DIST_UNPACK_B16 的搬入或做打包的搬出）是自然的数据布局，不报告；" +
			"以部分掩码处理尾块的全宽循环、128 字节的步长跳过每行另一半的跨步访问，以及掩码或步长是运行时值的循环，也都不报告。" +
			"代价由模拟得出：按循环的行程数（无法常量折叠时用 -iterations 设置）模拟所写的循环，与同一循环体执行一半次数（向上取整）相比；" +
			"对于模板，会注明该结果成立的实例化。修复方法是使用完整宽度：使用完整掩码，或对剩余元素数使用 UpdateMask<T>(count)，" +
			"让最后一次迭代处理尾块；步长改为 256 字节（GetVecLen() / sizeof(T) 个元素），迭代次数减半。" +
			"本规则不提供自动修复：掩码、步长和迭代次数必须一起修改，而迭代次数（loopNum、oneRepeatSize）通常来自 Host 侧的 Tiling。" +
			"\n\n来源：asc-devkit 的 Ascend C 样例《Gelu+Element-wise高性能优化样例》中 case 0 与 case 1 的对比（并行度从 128 字节提高到 256 字节）。" +
			" https://gitcode.com/cann/asc-devkit/blob/master/examples/01_simd_cpp_api/05_best_practices/02_reg_compute/gelu_eltwise_high_performance/README.md" +
			" https://gitcode.com/cann/asc-devkit/blob/master/examples/01_simd_cpp_api/05_best_practices/02_reg_compute/gelu_eltwise_high_performance/README_en.md",
	}
	messages["ASC5001"] = []pattern{
		{halfWidthMain + `: halving the iterations saves ~(?P<d>\d+) cycles? of (?P<m>\d+) over the (?P<n>\d+) simulated iterations \((?P<p>\d+)%\)` + halvedCost,
			halfWidthZh + `：迭代次数减半后，在模拟的 ${n} 次迭代中约节省 ${d} 个周期（共 ${m} 个周期，${p}%）${Opaque}${Timed}${Assumed}${Call}`},
		{halfWidthMain + `: halving the iterations saves nothing measurable over the (?P<n>\d+) simulated iterations` + halvedCost,
			halfWidthZh + `：迭代次数减半后，在模拟的 ${n} 次迭代中测不出收益${Opaque}${Timed}${Assumed}${Call}`},
		{halfWidthMain, halfWidthZh},
		{`the (?P<h>\d+)-byte mask: (?P<pat>MaskPattern::\S+) on (?P<elem>\S+)`, `${h} 字节的掩码：${elem} 上的 ${pat}`},
		{`stores (?P<h>\d+) bytes and steps (?P<h2>\d+) bytes per iteration`, `每次迭代搬出 ${h} 字节，地址前进 ${h2} 字节`},
	}
}
