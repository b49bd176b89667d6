package i18n

// RuleText is the Chinese title and text of a rule.
type RuleText struct {
	Title string // one line, no final 。
	Text  string // what the rule checks, why it matters, how to fix a finding
}

// Rule returns the Chinese title and text of the rule with ID id.
func Rule(id string) (RuleText, bool) {
	t, ok := rules[id]
	return t, ok
}

// RuleIDs returns the IDs of the rules that have Chinese texts, for tests.
func RuleIDs() []string {
	ids := make([]string, 0, len(rules))
	for id := range rules {
		ids = append(ids, id)
	}
	return ids
}

// Option returns the Chinese documentation of the option named name.
func Option(name string) (string, bool) {
	s, ok := options[name]
	return s, ok
}

// rules holds the Chinese texts of the rules, by ID. The rules of the
// ASC5xxx range add theirs, and their messages, in a file of their own
// (asc5NNN_zh.go).
var rules = map[string]RuleText{
	"ASC0002": {
		Title: "抑制指令格式错误",
		Text: "抑制指令无法按所写的内容解析，因此它抑制的范围比作者的本意要小。可用的形式有：`// ascvet:ignore RULE[,RULE] reason`" +
			"（作用于所在行；注释单独成行时作用于下一行代码）、`// ascvet:file-ignore RULE reason`（作用于整个文件），" +
			"以及 `// ascvet:begin-ignore RULE reason` ... `// ascvet:end-ignore`（作用于两者之间的各行）；Python 文件用 # 代替 //。" +
			"RULE 是规则 ID、名称或通配符（如 ASC1*），不区分大小写。clang-tidy 的 `NOLINT`、`NOLINTNEXTLINE` 和 " +
			"`NOLINTBEGIN`/`NOLINTEND` 同样有效，规则以 `ascvet-RULE` 的形式写作检查项。" +
			"报告的情况有：没有规则或没有理由的指令（ascvet: 形式必须写明理由：它是该指令所抑制的每条检查结果的依据，" +
			"会在 -show-ignored 和 SARIF 中显示）、理由仍是编辑器“抑制”快速修复插入的占位文字（`REASON: say why this finding does not apply`）的指令、未知的指令动词、不匹配任何规则的规则名或 ascvet- 检查项（拼写错误，" +
			"或者规则已改名、删除），以及缺少另一端的块指令。缺少理由、没有规则、理由为占位文字或缺少结束端的指令不抑制任何内容，" +
			"它想隐藏的检查结果也会照常报告；含有未知规则的指令对其中写对的规则仍然有效。",
	},
	"ASC0003": {
		Title: "抑制指令没有抑制任何检查结果",
		Text: "抑制指令（ascvet:ignore、ascvet:file-ignore、ascvet:begin-ignore 块，或指定了 ascvet- 检查项的 NOLINT 形式）" +
			"在本次运行中没有匹配到任何检查结果：代码已经修复、移离了该指令，或者规则不再报告它。" +
			"过时的指令会悄无声息地隐藏将来无人审查的检查结果，请删除它。只有针对实际运行了的规则，才判断指令是否被用到：" +
			"针对被配置禁用的规则的指令不报告。单独的 NOLINT 或 NOLINT(*) 从不报告，因为需要它的可能是 clang-tidy；" +
			"只针对其他工具检查项的 NOLINT 根本不是 ascvet 指令。检查结果可能依赖于选项（-confidence、-chip），" +
			"所以一条指令可能只在某种配置下需要：在指令中写上本规则（ascvet:ignore ASC1001,unused-directive 理由），" +
			"或者写在 ascvet:file-ignore 中，就能保留它而不被报告。本规则默认级别为提示；-fail-on=info 可使它导致构建失败。",
	},
	"ASC0001": {
		Title: "VF 区域无法完整解析",
		Text: "解析器（C++，或 pypto_pro 的 @pl.vector_function 所用的 Python）在 VF 区域内发现了语法错误，或者发现了不得不自行补全的记号。出错位置附近的语句只能按未知语句处理，" +
			"其他规则可能因此漏报该区域中的问题。原因要么是代码本身无法编译，要么是用了 ascvet 尚不认识的写法（通常是宏）" +
			"：请修正代码，或者把这种写法报告给 ascvet 以便支持。",
	},
	"ASC1001": {
		Title: "非对齐搬入流在每次迭代中被重新初始化",
		Text: "LoadUnAlignPre 用流起始地址所在的 32 字节数据块初始化非对齐寄存器；此后每次 LoadUnAlign 都会把下一段不完整的数据缓存在该寄存器中。" +
			"若第 i+1 次迭代的搬入恰好从第 i 次迭代结束的位置开始，循环内的 Pre 只是重复劳动：" +
			"每次迭代多一条占用搬入端口的指令，还在该寄存器上形成一条串行依赖。连续非对齐搬入初始化只需执行一次，" +
			"应移至 for 循环外部。本规则根据地址表达式和常量折叠判断流是否连续：按一个向量长度推进的 PostUpdate 指针，" +
			"或 src + i * n（n 恰为一次迭代搬入的元素数）。带填充的行、每次迭代都重置的指针、" +
			"两个流共用的寄存器、在循环中被改写的数据以及最多执行一次的循环都不报告；地址无法常量折叠的流只在 -confidence=low 时报告。" +
			"自动修复（把 Pre 移到循环之前，以第一次迭代的地址初始化）只在以下情况下提供：在 UB 和非对齐寄存器的模型上逐字节回放循环，" +
			"所有尝试过的情况都搬入相同的数据；否则检查结果会说明为什么没有自动修复。" +
			"同一次迭代中的第二个 Pre 若恰好在它之前那次搬入结束的位置重新初始化寄存器，且两者之间没有可能写内存的语句（搬出、函数体未知的调用，或任何不是 VF 指令的语句），" +
			"并且去掉它后回放循环在所有尝试过的情况下都搬入相同的数据，也会报告：它是多余的，应删除。这一检查结果没有自动修复：经文本验证的自动修复只移动调用，不删除调用。" +
			"\n\n来源：Ascend C 最佳实践《连续非对齐场景优化》，示例即其中的【反例】和【正例】。" +
			" https://www.hiascend.com/document/detail/zh/canncommercial/latest/programug/Ascendcopdevg/atlas_ascendc_best_practices_10_00025.html" +
			" https://gitcode.com/cann/asc-devkit/blob/master/docs/zh/guide/算子实践参考/SIMD算子性能优化/矢量计算/VF性能优化/连续非对齐场景优化.md",
	},
	"ASC1002": {
		Title: "非对齐搬出流在每次迭代中都做后处理",
		Text: "StoreUnAlign 把数据写到它所到达的最后一个 32 字节边界为止，尾部数据留在非对齐寄存器中，" +
			"由下一次 StoreUnAlign 合并写出。StoreUnAlignPost 负责写出尾部数据，" +
			"只在流结束时执行一次即可。在连续流（除它之外没有其他指令推进的 PostUpdate 指针）" +
			"的循环中，它每次迭代都要多占用一条只能单发的搬出端口指令。连续非对齐搬出后处理只需执行一次，" +
			"应移至 for 循环外部。通过原始内建函数（vstas）、在辅助函数中、在 if 分支中，" +
			"或在流指针以外的地址上做的后处理都不报告。自动修复（把 Post 移到循环之后）只在以下情况下提供：" +
			"在 UB 和非对齐寄存器的模型上逐字节回放循环，所有尝试过的情况都写出相同的字节、搬入相同的数据；" +
			"否则检查结果会说明为什么没有自动修复。" +
			"\n\n来源：Ascend C 最佳实践《连续非对齐场景优化》，示例即其中的【反例】和【正例】。" +
			" https://www.hiascend.com/document/detail/zh/canncommercial/latest/programug/Ascendcopdevg/atlas_ascendc_best_practices_10_00025.html" +
			" https://gitcode.com/cann/asc-devkit/blob/master/docs/zh/guide/算子实践参考/SIMD算子性能优化/矢量计算/VF性能优化/连续非对齐场景优化.md",
	},
	"ASC1003": {
		Title: "非对齐搬入或搬出用 AddrReg 存储偏移量",
		Text: "非对齐搬入和搬出（LoadUnAlignPre、LoadUnAlign、StoreUnAlign、" +
			"StoreUnAlignPost）可以接受 CreateAddrReg 生成的 AddrReg 作为偏移量，" +
			"但由于硬件支持限制，连续非对齐搬运时不建议用 AddrReg 存储偏移量。Ascend C 的最佳实践是用 uint32_t 类型存储偏移量并采用 PostUpdate 模式，" +
			"每次访问后 UB 地址自动按步长更新：用 LoadUnAlignPre(u, src) 初始化一次，" +
			"用 LoadUnAlign(dst, u, src, stride) 搬入，用 StoreUnAlign(dst, src, u, stride) 搬出，" +
			"最后用 StoreUnAlignPost(dst, u, 0) 做一次后处理。" +
			"\n\n来源：Ascend C 最佳实践《连续非对齐场景优化》；AddrReg 的调用方式见 pypto_pro DSL 的 vf.load_unalign 接口文档。" +
			" https://www.hiascend.com/document/detail/zh/canncommercial/latest/programug/Ascendcopdevg/atlas_ascendc_best_practices_10_00025.html" +
			" https://gitcode.com/cann/asc-devkit/blob/master/docs/zh/guide/算子实践参考/SIMD算子性能优化/矢量计算/VF性能优化/连续非对齐场景优化.md" +
			" https://gitcode.com/cann/pypto/blob/master/docs/zh/pypto_pro/api/SIMD-API/operation/vf_computation/data_movement/load_unalign.md",
	},
	"ASC1004": {
		Title: "非对齐搬入读取了未经 LoadUnAlignPre 初始化的寄存器",
		Text: "LoadUnAlign 把非对齐寄存器（UnalignRegForLoad）中缓存的不完整 32 字节数据块与从 UB 读入的下一个对齐数据块拼接，" +
			"再把新的尾部数据留在寄存器中。因此一个流的第一次搬入之前必须先调用 LoadUnAlignPre(u, src)，" +
			"用包含 src 的数据块填充该寄存器；否则搬入的前几个元素是寄存器中原有的任意内容。本规则沿 if 和循环的每条路径分析（循环可能一次都不执行；" +
			"放在循环体中搬入之后的 Pre 不能为第一次迭代做初始化）。作为参数传入的寄存器，以及先交给辅助函数或未知函数的寄存器，" +
			"视为已由那段代码初始化。修复：在第一次 LoadUnAlign 之前，以流的起始地址调用一次 LoadUnAlignPre。" +
			"\n\n来源：Ascend C 最佳实践《连续非对齐场景优化》：读非对齐地址前，应该先通过 LoadUnAlignPre 进行初始化。" +
			" https://www.hiascend.com/document/detail/zh/canncommercial/latest/programug/Ascendcopdevg/atlas_ascendc_best_practices_10_00025.html" +
			" https://gitcode.com/cann/asc-devkit/blob/master/docs/zh/guide/算子实践参考/SIMD算子性能优化/矢量计算/VF性能优化/连续非对齐场景优化.md",
	},
	"ASC1005": {
		Title: "非对齐搬出流始终没有经 StoreUnAlignPost 后处理",
		Text: "StoreUnAlign 只把数据写到它所到达的最后一个 32 字节边界为止，向量的其余部分留在非对齐寄存器（UnalignRegForStore）" +
			"中；下一次 StoreUnAlign 会把这段尾部数据合并到自己的写出中。流的最后一段尾部数据只有通过 StoreUnAlignPost 才能写入 UB。" +
			"如果从某个 StoreUnAlign 出发有一条路径到达 VF 结尾，而途中没有对其寄存器调用 StoreUnAlignPost，" +
			"输出的最后一个不完整数据块就会悄无声息地丢失。作为参数传入的寄存器，以及在搬出之后交给辅助函数或未知函数的寄存器，" +
			"视为在那里完成后处理；通过原始内建函数（vstas）做的后处理同样有效。" +
			"如果最后一次搬出之后的 StoreUnAlignPost 作用于另一个寄存器（同一指针，或从未被 StoreUnAlign 写过的寄存器，例如该流的搬入寄存器），" +
			"则在该后处理处报告一次，并指出应后处理的寄存器：一个缺陷，一条结果。" +
			"修复：在流的最后一次搬出之后，对搬出所用的寄存器调用一次 StoreUnAlignPost(dst, u, 0)。" +
			"后处理作用于错误的寄存器时，-fix 会改写该寄存器名（只改一个记号）；仅当改写后的代码重新降级后指令不变、" +
			"后处理的正是该流的寄存器（同一声明）且没有让其他流失去后处理时才提供该修复，否则结果会说明原因。" +
			"\n\n来源：Ascend C 最佳实践《连续非对齐场景优化》：写非对齐地址时，先使用 StoreUnAlign，再使用 StoreUnAlignPost 进行后处理。" +
			" https://www.hiascend.com/document/detail/zh/canncommercial/latest/programug/Ascendcopdevg/atlas_ascendc_best_practices_10_00025.html" +
			" https://gitcode.com/cann/asc-devkit/blob/master/docs/zh/guide/算子实践参考/SIMD算子性能优化/矢量计算/VF性能优化/连续非对齐场景优化.md",
	},
	"ASC1006": {
		Title: "同一个非对齐寄存器同时服务搬入流和搬出流",
		Text: "非对齐搬入流（LoadUnAlignPre、LoadUnAlign）在寄存器中缓存下一段输入数据；非对齐搬出流（StoreUnAlign，" +
			"最后 StoreUnAlignPost）在寄存器中缓存尚未写出的尾部数据。UnalignRegForLoad、UnalignRegForStore 和 UnalignReg " +
			"是同一个类型（kernel_reg_compute_common_intf.h 中的 vector_align），所以一个变量可以先服务搬入流、再服务搬出流；" +
			"只要一条流结束后另一条流才使用该寄存器（逐行读改写：Pre、LoadUnAlign、StoreUnAlign、StoreUnAlignPost），就是正确的。" +
			"会丢数据的是两条流重叠：搬出的尾部数据尚未后处理时在该寄存器上做搬入，会覆盖尾部数据，输出的最后一个不完整数据块丢失；" +
			"Pre 初始化之后、搬出操作写过该寄存器再继续 LoadUnAlign，会把搬出的字节混入搬入的数据。两种情形都在发生处报告。" +
			"对从未被 StoreUnAlign 写过的寄存器做 StoreUnAlignPost 不会写出任何数据；若因此有搬出流未被后处理，" +
			"由 ASC1005 在该后处理处报告一次，并指出应后处理的寄存器。修复：为两条流使用各自的寄存器，" +
			"或在另一条流开始前结束当前的流（在最后一次搬出后做后处理，或完成最后一次搬入）。" +
			"\n\n来源：Ascend C 最佳实践《连续非对齐场景优化》对搬入、搬出非对齐寄存器的说明，以及 API 参考《UnalignRegForLoad & UnalignRegForStore》；类型定义见 asc-devkit 的 kernel_reg_compute_common_intf.h。" +
			" https://www.hiascend.com/document/detail/zh/canncommercial/latest/programug/Ascendcopdevg/atlas_ascendc_best_practices_10_00025.html" +
			" https://gitcode.com/cann/asc-devkit/blob/master/docs/zh/guide/算子实践参考/SIMD算子性能优化/矢量计算/VF性能优化/连续非对齐场景优化.md" +
			" https://www.hiascend.com/document/detail/zh/canncommercial/latest/API/ascendcopapi/atlasascendc_api_07_0316.html" +
			" https://gitcode.com/cann/asc-devkit/blob/master/include/basic_api/reg_compute/kernel_reg_compute_common_intf.h",
	},
	"ASC2001": {
		Title: "对齐搬入或搬出违反分布模式的对齐要求",
		Text: "LoadAlign 和 StoreAlign（以及 DataCopy、MicroAPI 写法和 asc_loadalign*/asc_storealign* 调用）" +
			"的 UB 地址、PostUpdate 步长乘以 sizeof(T)、AddrReg 偏移量乘以 sizeof(T) 都必须满足分布模式的对齐要求：" +
			"DIST_NORM、交织模式、DIST_US/DS/UNPACK/UNPACK4/BLK/PACK/PACK4、" +
			"DIST_E2B_B32 和 DATA_BLOCK_COPY 要求 32 字节；DIST_BRC_Bn 和 DIST_FIRST_ELEMENT_Bn 要求元素大小；" +
			"DIST_E2B_B16 以及 MaskReg 的 DIST_US、DIST_PACK 模式要求 16 字节。" +
			"未对齐的访问不会报错，而是悄无声息地读写错误的字节。本规则报告三种情况：以字节计不满足对齐的 PostUpdate 常量步长或 CreateAddrReg 常量步长；" +
			"在循环的每次迭代中按这样的步长移动的地址（half 数据的 src + i * 7：无论 src 是多少，" +
			"相邻两次迭代中总有一次不对齐）；相对于指针参数的常量偏移（src + 3）。对于最后一种，" +
			"ascvet 采用 UB 分配所保证的前提：缓冲区起始地址 32 字节对齐，所以只要区域内没有移动指针参数，" +
			"它就是对齐的。无法常量折叠的偏移、经过强制类型转换的地址，以及元素类型为模板参数的情况（除非对 T 的每种可能大小都出错）" +
			"都不报告；MaskReg 搬入搬出的 PostUpdate 偏移（文档以字节为单位，实际作用于 uint32_t 指针）" +
			"、DATA_BLOCK_COPY 的块步长和原始内建函数（vlds、vsts）也不报告。修复：" +
			"让偏移和步长保持为 32 / sizeof(T) 个元素的整数倍；数据本身不对齐时，改用非对齐的 LoadUnAlign/StoreUnAlign。" +
			"\n\n来源：StoreAlign 接口参考《连续对齐搬出》的 StoreDist 表和 LoadAlign 接口参考《连续对齐搬入》的 LoadDist 表；示例改编自《连续对齐搬出》的调用示例。" +
			" https://www.hiascend.com/document/detail/zh/canncommercial/latest/API/ascendcopapi/atlasascendc_api_07_0320.html" +
			" https://gitcode.com/cann/asc-devkit/blob/master/docs/zh/api/SIMD-API/基础API/Reg矢量计算/Reg数据搬出/连续对齐搬出（StoreAlign）.md" +
			" https://www.hiascend.com/document/detail/zh/canncommercial/latest/API/ascendcopapi/atlasascendc_api_07_0319.html" +
			" https://gitcode.com/cann/asc-devkit/blob/master/docs/zh/api/SIMD-API/基础API/Reg矢量计算/Reg数据搬入/连续对齐搬入（LoadAlign）.md",
	},
	"ASC2002": {
		Title: "分布模式与搬运数据的位宽不符",
		Text: "LoadAlign 和 StoreAlign 对单寄存器和双寄存器各接受一组分布模式：交织模式（DIST_INTLV_Bn、" +
			"asc_storealign_intlv）搬出两个寄存器，解交织模式（DIST_DINTLV_Bn、asc_loadalign_deintlv）搬入两个寄存器，" +
			"搬运两个寄存器必须使用这两类模式之一（其余模式在编译时被 CheckLoadDist/CheckStoreDist 拒绝）。" +
			"64 位数据的单搬入只支持 DIST_NORM，单搬出只支持 DIST_NORM 和 DIST_PACK_B64。只有 DIST_NORM 由 T 决定位宽" +
			"（GetStoreDist）；写明位宽的模式（_B8/_B16/_B32）无论 T 是什么都按原样交给 vlds/vsts，按其位宽搬运字节：" +
			"对 uint32_t 数据用 DIST_BRC_B8 是有意的字节广播，对 uint32_t 数据用 DIST_DINTLV_B16 是拆分 16 位的两半，" +
			"对 fp8 字节用 DIST_UNPACK_B16 是为 Cast 做准备。这类重新解释不报告。位宽真正改变结果的情形是 DIST_NORM_Bn " +
			"搬出在非全真掩码下写出哪些元素：掩码每个数据字节一位，n 字节的通道读取其首字节对应的位，" +
			"因此为 16 位元素生成、个数为奇数的掩码会让一个 32 位通道只有一半被选中，DIST_NORM_B32 就会比掩码多写一个元素。" +
			"当掩码由 CreateMask 或 UpdateMask 按比模式通道更窄的元素生成时报告。修复：按模式的通道生成掩码，" +
			"或改用与掩码位宽一致的模式，或让寄存器个数与模式相符；不要为了迁就 T 而修改重新解释所用的模式，那会改变数据。" +
			"在 pypto_pro DSL 中，vf.load_align 和 vf.store_align 直接下沉为 vlds/vsts 原始指令，而不是上述模板，" +
			"因此只有部分组合是错误：带位宽的模式（dist=pl.LoadDist.BRC_B8）无论 dtype 是什么都按其位宽搬运字节，" +
			"属于有意的重新解释，不报告；不带位宽的模式（dist=pl.LoadDist.US）取数据 dtype 的位宽，" +
			"当该模式没有这个位宽的版本时报告，因为 pypto 会悄悄改用另一位宽（32 位数据上的 US_B16），" +
			"违反 64 位数据规则时（单搬入只支持 NORM，单搬出只支持 NORM 或 PACK）也报告；寄存器个数与 C++ 一样检查。" +
			"\n\n来源：StoreAlign 接口参考《连续对齐搬出》：b64 数据的单搬出只支持 DIST_NORM 和 DIST_PACK_B64；" +
			"LoadAlign 接口参考《连续对齐搬入》（b64 搬入）；MaskReg 接口参考（MaskReg 的位）；" +
			"asc-devkit dav_3510 的 kernel_reg_compute_datacopy_{load,store}_impl.h（CheckLoadDist、CheckStoreDist）" +
			"和 kernel_reg_compute_common_impl.h（GetStoreDist）；DSL 部分见 pypto 的 " +
			"backend_cce_vf_ops.cpp（EmitVFLoadAlign、EmitVFStoreAlign）。" +
			" https://www.hiascend.com/document/detail/zh/canncommercial/latest/API/ascendcopapi/atlasascendc_api_07_0320.html" +
			" https://gitcode.com/cann/asc-devkit/blob/master/docs/zh/api/SIMD-API/基础API/Reg矢量计算/Reg数据搬出/连续对齐搬出（StoreAlign）.md" +
			" https://www.hiascend.com/document/detail/zh/canncommercial/latest/API/ascendcopapi/atlasascendc_api_07_0319.html" +
			" https://gitcode.com/cann/asc-devkit/blob/master/docs/zh/api/SIMD-API/基础API/Reg矢量计算/Reg数据搬入/连续对齐搬入（LoadAlign）.md" +
			" https://www.hiascend.com/document/detail/zh/canncommercial/latest/API/ascendcopapi/atlasascendc_api_07_0315.html" +
			" https://gitcode.com/cann/asc-devkit/blob/master/docs/zh/api/SIMD-API/基础API/Reg矢量计算/寄存器数据类型/MaskReg.md" +
			" https://gitcode.com/cann/asc-devkit/tree/master/impl/basic_api/reg_compute/dav_3510" +
			" https://gitcode.com/cann/pypto/blob/master/framework/src/interface/pypto_pro/backend/backend_cce_vf_ops.cpp",
	},
	"ASC2003": {
		Title: "PostUpdate 接口以 POST_MODE_NORMAL 实例化",
		Text: "带 PostUpdate 步长的 LoadAlign 和 StoreAlign（数据和 MaskReg）" +
			"、LoadUnAlign 以及带步长的 StoreUnAlign 都有 PostLiteral 模板参数，" +
			"但只支持 PostLiteral::POST_MODE_UPDATE：先按指针访问，再把指针按步长更新。" +
			"文档写明这些接口不支持 POST_MODE_NORMAL：指针不会移动，步长也会被误读，循环因此读写错误的位置。" +
			"（按步长搬运的 DATA_BLOCK_COPY、AR 形式的 StoreUnAlign 以及最后的后处理 StoreUnAlignPost<T, POST_MODE_NORMAL>(dst, u, 0) 确实支持 POST_MODE_NORMAL，" +
			"不报告。）修复：需要推进指针时使用 POST_MODE_UPDATE，需要指针保持不动时使用不带步长的接口。" +
			"\n\n来源：StoreAlign 接口参考《连续对齐搬出》（PostUpdate 扩展搬运接口“POST_MODE_NORMAL 模式：不支持”）；示例改编自其中的 ComputeMode02 调用示例。" +
			" https://www.hiascend.com/document/detail/zh/canncommercial/latest/API/ascendcopapi/atlasascendc_api_07_0320.html" +
			" https://gitcode.com/cann/asc-devkit/blob/master/docs/zh/api/SIMD-API/基础API/Reg矢量计算/Reg数据搬出/连续对齐搬出（StoreAlign）.md",
	},
	"ASC2004": {
		Title: "RegTraitNumTwo 寄存器用于不支持它的接口",
		Text: "RegTensor<T, RegTraitNumTwo>（b64 或 complex32 数据，" +
			"分布在两个物理寄存器上）只支持 LoadAlign、StoreAlign 的普通单搬运接口和 PostUpdate 单搬运接口，" +
			"以及 LoadUnAlign、StoreUnAlign 的 PostUpdate 接口。双搬运接口（DIST_INTLV_Bn 搬出、" +
			"DIST_DINTLV_Bn 搬入）和所有用 AddrReg（CreateAddrReg）" +
			"存储偏移量的接口都不支持它。本规则只识别在寄存器类型中写明 RegTraitNumTwo 的情况（直接写在类型上，" +
			"或写在元素不是 64 位的类型上）；只由模板参数或类型别名带入的 trait 不检查。修复：" +
			"用带 uint32_t 步长的 PostUpdate 接口代替 AddrReg，用单搬运接口分别搬运每个寄存器，" +
			"或者把寄存器声明为 RegTraitNumOne。" +
			"\n\n来源：StoreAlign 接口参考《连续对齐搬出》中列出各 RegTensor trait 所支持接口的表格；示例改编自其中的 ComputeMode03（AddrReg）和 ComputeMode02（PostUpdate）调用示例。" +
			" https://www.hiascend.com/document/detail/zh/canncommercial/latest/API/ascendcopapi/atlasascendc_api_07_0320.html" +
			" https://gitcode.com/cann/asc-devkit/blob/master/docs/zh/api/SIMD-API/基础API/Reg矢量计算/Reg数据搬出/连续对齐搬出（StoreAlign）.md",
	},
	"ASC3001": {
		Title: "同时存活的 RegTensor 寄存器超出上限",
		Text: "一个 VF 有 32 个 RegTensor 寄存器。关键是同一时刻有多少寄存器保存着仍然需要的值，" +
			"而不是声明了多少个：一个值从写入处存活到最后一次读取处，若后续迭代还要读取（累加器），则在整个循环中存活；" +
			"RegTraitNumTwo 和 64 位的 RegTensor 各占两个寄存器。超过 32 个时，" +
			"编译器会把寄存器写到 UB 中预留的 8 KB 空间，再插入同步指令读回，严重拖慢 VF 的执行效率。" +
			"检查结果给出峰值及其所在行，并说明相关位置列出了多少个存活寄存器、被调用的辅助函数内部还占用多少个（二者之和即峰值）。" +
			"周期估算来自模拟：按原样运行峰值所在的循环，再把超出上限的寄存器换出（峰值后存入、下次使用前读回）运行一次；" +
			"若这些访存的代价都能被机器隐藏，结果会说明测不出收益。修复：拆分 VF（中间结果经 UB 传递）" +
			"，完成一项计算后再开始下一项，或者复用临时寄存器。`ascvet regs FILE:LINE` 可以打印一个区域完整的寄存器压力报告。" +
			"计数针对编译器实际生成的代码：本文件和所包含头文件中的辅助函数都在调用处内联。头文件中辅助函数内部的超限在核函数的调用处报告，" +
			"并给出辅助函数所在文件和峰值所在行；多个核函数内联同一个辅助函数时，只报告在该处存活寄存器最多的一个，" +
			"其余作为相关位置列出（加 -show-ignored 也会列出）。被同一目录中其他文件包含并调用的辅助函数在调用处计数，不单独计数。" +
			"\n\n来源：Ascend C 最佳实践《指令双发优化》（同一个 VF 中 RegTensor 不超过 32 个）。" +
			" https://www.hiascend.com/document/detail/zh/canncommercial/latest/programug/Ascendcopdevg/atlas_ascendc_best_practices_10_00024.html" +
			" https://gitcode.com/cann/asc-devkit/blob/master/docs/zh/guide/算子实践参考/SIMD算子性能优化/矢量计算/VF性能优化/指令双发优化.md",
	},
	"ASC3002": {
		Title: "同时存活的 MaskReg 寄存器超出上限",
		Text: "一个 VF 有 8 个 MaskReg 寄存器。掩码寄存器很容易被无意中保持存活：为后面的 Select 保留的比较结果、" +
			"对 MaskAnd 结果做的 MaskNot（ASC3004）、用 MaskAnd 合并的两个比较（ASC3005）" +
			"。同时存活超过 8 个时，编译器会把掩码换出到 UB 并插入同步指令。检查结果给出峰值及其所在行，" +
			"相关位置是峰值处存活的掩码。修复：用带掩码的比较合并掩码，用德摩根定律化简，或者在使用处重新计算掩码。" +
			"计数针对编译器实际生成的代码：本文件和所包含头文件中的辅助函数都在调用处内联。头文件中辅助函数内部的超限在核函数的调用处报告，" +
			"并给出辅助函数所在文件和峰值所在行；多个核函数内联同一个辅助函数时，只报告在该处存活寄存器最多的一个，" +
			"其余作为相关位置列出（加 -show-ignored 也会列出）。被同一目录中其他文件包含并调用的辅助函数在调用处计数，不单独计数。" +
			"\n\n来源：Ascend C 最佳实践《指令双发优化》（同一个 VF 中 MaskReg 不超过 8 个）。" +
			" https://www.hiascend.com/document/detail/zh/canncommercial/latest/programug/Ascendcopdevg/atlas_ascendc_best_practices_10_00024.html" +
			" https://gitcode.com/cann/asc-devkit/blob/master/docs/zh/guide/算子实践参考/SIMD算子性能优化/矢量计算/VF性能优化/指令双发优化.md",
	},
	"ASC3003": {
		Title: "同时存活的非对齐寄存器超出芯片的数量",
		Text: "一个 VF 有 4 个 UnalignRegForLoad 和 4 个 UnalignRegForStore 寄存器；" +
			"与 RegTensor 和 MaskReg 不同，它们不会被换出：同时存活超过 4 个时，" +
			"编译器会拒绝编译该 VF。非对齐寄存器在它所服务的整个流中都存活（从 LoadUnAlignPre 到最后一次 LoadUnAlign，" +
			"从第一次 StoreUnAlign 到 StoreUnAlignPost），通用的 Load 或 Store 在执行期间也隐含占用一个。" +
			"修复：让生命周期互不重叠的流复用同一个寄存器，或者拆分 VF。" +
			"\n\n来源：Ascend C 最佳实践《指令双发优化》（同一个 VF 中读、写非对齐寄存器 UnalignRegForLoad 和 UnalignRegForStore 各不超过 4 个）。" +
			" https://www.hiascend.com/document/detail/zh/canncommercial/latest/programug/Ascendcopdevg/atlas_ascendc_best_practices_10_00024.html" +
			" https://gitcode.com/cann/asc-devkit/blob/master/docs/zh/guide/算子实践参考/SIMD算子性能优化/矢量计算/VF性能优化/指令双发优化.md",
	},
	"ASC3004": {
		Title: "对 MaskAnd 或 MaskOr 的结果做 MaskNot",
		Text: "对两个掩码的与运算结果取反，即 !(a && b)，需要一个 MaskReg 保存中间结果 a && b，" +
			"还要在 MaskAnd 之后再执行一条 MaskNot。根据德摩根定律，它等于 !a || !b：" +
			"把产生 a 和 b 的比较条件取反（GT 变为 LE，EQ 变为 NE，……），再用 MaskOr 合并；" +
			"同理，!(a || b) 等于 !a && !b。这样就省去了中间寄存器和 MaskNot，" +
			"在 VF 接近 8 个 MaskReg 的上限时尤为重要。本规则只报告改写确实能节省的情形：与/或的结果只供这次 MaskNot 使用，" +
			"且每个操作数都是比较（或由比较组成、可再次取反的与/或），其结果只供该与/或使用，取反不会影响其他地方。" +
			"整数比较以及 EQ/NE 可以精确取反；浮点数据的有序比较在元素为 NaN 时不能互相取反（NaN > x 与 NaN <= x 都为假），" +
			"结果中会说明这一点：只有数据中没有 NaN 时才可改写。" +
			"\n\n来源：Ascend C 最佳实践《指令双发优化》；示例改编自其中 CompareDoubleImpl 的【反例】和【正例】。" +
			" https://www.hiascend.com/document/detail/zh/canncommercial/latest/programug/Ascendcopdevg/atlas_ascendc_best_practices_10_00024.html" +
			" https://gitcode.com/cann/asc-devkit/blob/master/docs/zh/guide/算子实践参考/SIMD算子性能优化/矢量计算/VF性能优化/指令双发优化.md",
	},
	"ASC3005": {
		Title: "可以链式比较的两个比较结果被 MaskAnd 合并",
		Text: "比较指令会在掩码未激活的通道写入 0，因此 Compares(m2, y, s, m1) 直接算出 m1 && (y cmp s)。" +
			"两个在同一掩码下进行的比较再接 MaskAnd(d, m1, m2, mask)，需要多执行一条 MaskAnd，" +
			"还要为它保持 m2 存活；把两个比较链接起来能得到同样的掩码，少一条指令，少用一个 MaskReg。" +
			"只有当第二个比较的结果除了 MaskAnd 之外不再被使用时，本规则才报告。" +
			"\n\n来源：Ascend C 最佳实践《指令双发优化》中的 CompareDoubleImpl 示例；链式比较的结果保存在 tmpMask1 中，其【正例】却继续使用 tmpMask0，下面的示例已更正。" +
			" https://www.hiascend.com/document/detail/zh/canncommercial/latest/programug/Ascendcopdevg/atlas_ascendc_best_practices_10_00024.html" +
			" https://gitcode.com/cann/asc-devkit/blob/master/docs/zh/guide/算子实践参考/SIMD算子性能优化/矢量计算/VF性能优化/指令双发优化.md",
	},

	"ASC4001": {
		Title: "循环体的依赖链长于执行队列的深度",
		Text: "VF 每个周期双发两条计算指令，从 64 条指令的执行队列中乱序选取（《指令双发优化》：“执行队列的深度是64”），" +
			"队列中的每条指令都为其结果占用 68 个物理寄存器之一" +
			"。当一次迭代中有数据依赖的指令链比执行队列所能容纳的更长时，下一次迭代要等这一次排空后才能进入队列，" +
			"各次迭代无法重叠执行，循环每个周期大约只能执行一条指令。修复：合理拆分 VF 循环（把中间结果搬出到 UB，" +
			"在第二个循环中继续），或者手动展开循环并交错各副本，让互不依赖的指令链共享执行队列。检查结果给出依赖链长度、" +
			"模拟 IPC，以及各副本都能放进寄存器预算的最大展开倍数（4 倍，否则 2 倍）的模拟效果，或说明两者都放不下。" +
			"依赖链来自 64 位整数 Div 所执行的库指令序列时不报告：由 ASC5002 报告该 Div，其修复方法不是拆分循环。" +
			"所模拟的是编译器构建的循环：内联本文件的辅助函数，按本文件的每个实例化折叠 if constexpr；" +
			"行程数无法折叠的循环按稳态计价。" +
			"\n\n来源：Ascend C 最佳实践《指令双发优化》，示例改编自其中手动控制循环展开的示例；asc-devkit 的 gelu_eltwise_high_performance 样例出于同一原因拆分循环。" +
			" https://www.hiascend.com/document/detail/zh/canncommercial/latest/programug/Ascendcopdevg/atlas_ascendc_best_practices_10_00024.html" +
			" https://gitcode.com/cann/asc-devkit/blob/master/docs/zh/guide/算子实践参考/SIMD算子性能优化/矢量计算/VF性能优化/指令双发优化.md" +
			" https://gitcode.com/cann/asc-devkit/blob/master/examples/01_simd_cpp_api/05_best_practices/02_reg_compute/gelu_eltwise_high_performance/README.md",
	},
	"ASC4002": {
		Title: "循环的指令级并行度低，展开后可以加速",
		Text: "每个周期可以发射两条指令，但前提是执行队列中有足够多互不依赖的指令。如果循环的每次迭代都是经由相同寄存器的短依赖链，" +
			"发射槽就会空闲。ascvet 模拟编译器构建的循环（内联本文件的辅助函数，按本文件的每个实例化折叠 if constexpr；行程数无法折叠的循环按稳态计价，" +
			"不计 VF 启动与流水线的填充和排空），以及交错各副本后展开 2 倍、4 倍的循环（在迭代之间传递的寄存器仍保持其依赖链）" +
			"；当其中之一能节省循环至少 15% 的周期时，本规则给出提示和估算的收益。只有展开后仍在寄存器预算之内时才建议展开：" +
			"每多一个副本，循环体写入并保持存活的寄存器都需要各自一份，所以循环体有 17 个存活的 RegTensor 时，" +
			"在 32 个的预算内无法再展开 2 倍（溢出的代价高于重叠的收益）；MaskReg 的预算同样检查。" +
			"每次迭代都要等待屏障（LocalMemBar、WaitFlag、PipeBarrier）、经由 UB 往返的循环，其副本会互相等待，不报告。" +
			"做整数除法的循环也不报告：64 位整数的 Div 在 950 上执行库中的指令序列，由 ASC5002 报告；32 位整数的 Div 按一条指令计价，未必符合硬件的实际情况；元素类型是模板参数的 Div 按浮点 Div 计时，" +
			"提示中会注明。调用了 ascvet 看不到函数体的辅助函数的循环也不报告：它被按一条读写全部传入寄存器的指令计时，会让循环看上去是串行的。" +
			"请在循环前加 #pragma unroll(N)：编译器把最内层循环的循环体复制 N 份，并逐条指令交错各副本，与本估算的做法一致" +
			"（asc-devkit 的 GeLU 最佳实践给出了实测）；不是最内层的循环、或编译器不接受该 pragma 时，请手动展开。" +
			"不加要求时，编译器不会展开 VF 循环。" +
			"\n\n来源：Ascend C 最佳实践《指令双发优化》。" +
			" https://www.hiascend.com/document/detail/zh/canncommercial/latest/programug/Ascendcopdevg/atlas_ascendc_best_practices_10_00024.html" +
			" https://gitcode.com/cann/asc-devkit/blob/master/docs/zh/guide/算子实践参考/SIMD算子性能优化/矢量计算/VF性能优化/指令双发优化.md",
	},
}

// options holds the Chinese documentation of the options, by name.
var options = map[string]string{
	"confidence":    "high：只报告已证明连续的流；low：地址无法常量折叠的流也报告",
	"chip":          "用哪款芯片的机器模型按模拟周期估算检查结果的代价",
	"machine":       "代替芯片机器模型的机器模型文件（TOML）",
	"iterations":    "循环次数无法常量折叠时模拟的迭代次数",
	"budget-vreg":   "一个 VF 可同时保持存活的 RegTensor 寄存器个数",
	"budget-mask":   "一个 VF 可同时保持存活的 MaskReg 寄存器个数",
	"budget-uload":  "一个 VF 可同时保持存活的 UnalignRegForLoad 寄存器个数",
	"budget-ustore": "一个 VF 可同时保持存活的 UnalignRegForStore 寄存器个数",
}
