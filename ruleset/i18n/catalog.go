package i18n

// This file is the catalog of the findings' messages: for each rule, the
// shapes of the English messages its analyzer builds (and of their related
// messages), with the Chinese template of each; then the fragments that
// several messages share (a simulated cost, why a stream is not proven
// contiguous, why the replay withheld a fix, ...).
//
// Keep it beside the analyzers' fmt.Sprintf calls: TestCatalogCoversFindings
// runs the analyzers over every example kernel and fixture and fails on a
// message that does not translate, and the tests in source_test.go read
// the reasons the stream and replay packages give from their source.

// tail is what follows the main clause of a finding: nothing, a simulated
// cost, and the reason the replay withheld the fix.
const tail = `(?P<Tail>(?:[:;] .*)?)`

// pressure is the message of the register-pressure rules (package
// regpressure), shared by ASC3001-ASC3003.
var pressure = []pattern{
	{`VF region (?P<fn>.+?) keeps (?P<peak>\d+) (?P<class>\S+) registers live at once at line (?P<line>\d+) \(budget (?P<budget>\d+); (?P<decl>\d+) declared(?P<Helper>(?:, \d+ of them inside a called helper)?)\); (?P<Consequence>.+?)(?P<Tail>(?:; (?:saves ~|no saving measurable).*)?)`,
		`VF 区域 ${fn} 在第 ${line} 行同时有 ${peak} 个 ${class} 寄存器存活（上限 ${budget} 个；声明了 ${decl} 个${Helper}）；${Consequence}${Tail}`},
	{`the peak is here`, `寄存器数量在此处达到峰值`},
	{`(?P<r>\S+) is live at the peak`, `${r} 在峰值处存活`},
	{`(?P<r>\S+) is live at the peak \((?P<n>\d+) registers\)`, `${r} 在峰值处存活（占 ${n} 个寄存器）`},
}

// messages holds, per rule ID, the patterns of its messages.
var messages = map[string][]pattern{
	"ASC0002": { // ruleset/suppress: malformed directives
		{`(?P<d>.+?) has no matching (?P<end>ascvet:end-ignore|NOLINTEND\S*); add one after the code it should cover`,
			`${d} 没有与之配对的 ${end}；请在它要覆盖的代码之后加上一个`},
		{`unknown directive (?P<verb>\S+); use ascvet:ignore, ascvet:file-ignore, ascvet:begin-ignore or ascvet:end-ignore`,
			`未知的抑制指令 ${verb}；请使用 ascvet:ignore、ascvet:file-ignore、ascvet:begin-ignore 或 ascvet:end-ignore`},
		{`(?P<verb>\S+) has an empty rule in its list; write (?P<verb2>\S+) RULE\[,RULE\] reason`,
			`${verb} 的规则列表中有空项；请写成 ${verb2} RULE[,RULE] 理由`},
		{`(?P<verb>\S+) names no rule; write (?P<verb2>\S+) RULE\[,RULE\] reason`,
			`${verb} 没有指定规则；请写成 ${verb2} RULE[,RULE] 理由`},
		{`(?P<verb>\S+) has a malformed rule glob (?P<pattern>.+); use \*, \? and \[\.\.\.\] as in ASC1\* or unalign-\*`,
			`${verb} 中的规则通配符 ${pattern} 格式错误；请像 ASC1* 或 unalign-* 那样使用 *、? 和 [...]`},
		{`(?P<verb>\S+) names unknown rule (?P<pattern>.+); name a rule by ID, name or glob \(ascvet -list shows them\) before the reason`,
			`${verb} 指定了未知规则 ${pattern}；请在理由之前用规则 ID、名称或通配符指定规则（ascvet -list 可列出全部规则）`},
		{`(?P<d>.+?) has no reason; say after the rules why the finding does not apply`,
			`${d} 没有写明理由；请在规则之后说明该检查结果为什么不适用`},
		{`ascvet:end-ignore has no open ascvet:begin-ignore to close; remove it or add the ascvet:begin-ignore`,
			`ascvet:end-ignore 没有可以关闭的 ascvet:begin-ignore；请删除它，或补上 ascvet:begin-ignore`},
		{`(?P<kw>\S+) has no closing parenthesis; write (?P<kw2>\S+)\(ascvet-RULE\)`,
			`${kw} 缺少右括号；请写成 ${kw2}(ascvet-RULE)`},
		{`(?P<d>.+?) names unknown check (?P<pattern>.+); write ascvet-RULE with a rule ID, name or glob \(ascvet -list shows them\)`,
			`${d} 指定了未知的检查项 ${pattern}；请写成 ascvet-RULE，RULE 为规则 ID、名称或通配符（ascvet -list 可列出全部规则）`},
		{`(?P<d>.+?) has no matching NOLINTBEGIN(?P<args>\S*); remove it or add the NOLINTBEGIN with the same checks`,
			`${d} 没有与之配对的 NOLINTBEGIN${args}；请删除它，或补上检查项相同的 NOLINTBEGIN`},
	},
	"ASC0003": { // ruleset/suppress: unused directives
		{`(?P<d>.+?) suppressed no finding of (?P<checks>.+?)(?P<UpTo>(?: up to line \d+)?); remove it \(or only (?P<checks2>.+), if other tools' checks need it\)`,
			`${d} 没有抑制 ${checks} 的任何检查结果${UpTo}；请删除它（如果其他工具的检查项需要它，只删除 ${checks2}）`},
		{`(?P<d>.+?) suppressed no finding in this file; remove the directive`,
			`${d} 没有抑制本文件中的任何检查结果；请删除该指令`},
		{`(?P<d>.+?) suppressed no finding up to line (?P<line>\d+); remove it and its ascvet:end-ignore`,
			`${d} 直到第 ${line} 行都没有抑制任何检查结果；请删除它及与之配对的 ascvet:end-ignore`},
		{`(?P<d>.+?) suppressed no finding; remove the directive`,
			`${d} 没有抑制任何检查结果；请删除该指令`},
	},
	"ASC0001": {
		{`VF region (?P<fn>.+?) does not parse here; findings in it may be incomplete`,
			`VF 区域 ${fn} 在此处无法完整解析；该区域的检查结果可能不完整`},
	},
	"ASC1001": {
		{`LoadUnAlignPre on (?P<u>\S+) re-initialises a contiguous stream each iteration; (?P<Move>.+?)` + tail,
			`LoadUnAlignPre 在每次迭代中对 ${u} 重新做非对齐搬入初始化，而连续非对齐搬入只需初始化一次；${Move}${Tail}`},
		{`LoadUnAlignPre on (?P<u>\S+) may re-initialise a contiguous stream each iteration \(not proven: (?P<Why>.+)\); hoist it before the loop if the stream is contiguous` + tail,
			`LoadUnAlignPre 可能在每次迭代中对 ${u} 重新做非对齐搬入初始化（未能证明：${Why}）；若该流是连续的，请将其移至循环之前${Tail}`},
		{`the stream continues with this load`, `该连续搬入流由这次搬入继续`},
	},
	"ASC1002": {
		{`StoreUnAlignPost on (?P<u>\S+) flushes a contiguous store stream each iteration; (?P<Move>.+?)` + tail,
			`StoreUnAlignPost 在每次迭代中对 ${u} 做非对齐搬出后处理，而连续非对齐搬出只需后处理一次；${Move}${Tail}`},
		{`StoreUnAlignPost on (?P<u>\S+) may flush a contiguous store stream each iteration \(not proven: (?P<Why>.+)\); sink it after the loop if the stream is contiguous` + tail,
			`StoreUnAlignPost 可能在每次迭代中对 ${u} 做非对齐搬出后处理（未能证明：${Why}）；若该流是连续的，请将其移至循环之后${Tail}`},
		{`the stream is written by this store`, `该连续搬出流由这次搬出写出`},
	},
	"ASC1003": {
		{`AddrReg (?P<areg>\S+) used as the offset of (?P<op>\S+); keep unaligned offsets in uint32_t \((?P<pre>\S+)\(u, src \+ offset\), then (?P<load>.+?)\)` + tail,
			`AddrReg ${areg} 被用作 ${op} 的偏移量；连续非对齐搬运不建议用 AddrReg 存储偏移量，请改用 uint32_t（先 ${pre}(u, src + offset)，再 ${load}）${Tail}`},
		{`AddrReg (?P<areg>\S+) used as the offset of (?P<op>\S+); keep unaligned offsets in uint32_t with post-update \((?P<Fix>.+?)\)` + tail,
			`AddrReg ${areg} 被用作 ${op} 的偏移量；连续非对齐搬运不建议用 AddrReg 存储偏移量，请改用 uint32_t 并采用 PostUpdate 模式（${Fix}）${Tail}`},
	},
	"ASC1004": {
		{`(?P<op>\S+) reads (?P<u>\S+), which no (?P<pre>\S+) primed on this path; call (?P<call>\S+\(.*\)) before the first load`,
			`${op} 读取 ${u}，但这条路径上没有 ${pre} 对它做非对齐搬入初始化；请在第一次搬入之前调用 ${call}`},
		{`(?P<op>\S+) reads (?P<u>\S+), which no (?P<pre>\S+) primed on this path; call (?P<call>\S+\(.*\)) with the stream's first address before the loop`,
			`${op} 读取 ${u}，但这条路径上没有 ${pre} 对它做非对齐搬入初始化；请在循环之前以该流的起始地址调用 ${call}`},
	},
	"ASC1005": {
		{`(?P<op>\S+) keeps the tail of its stream in (?P<u>\S+), but (?P<Fact>.+); call (?P<call>\S+\(.*\)) (?P<Where>after the loop|after the last store)`,
			`${op} 把搬出流的尾部数据缓存在 ${u} 中，但${Fact}；请${Where}调用 ${call}`},
	},
	"ASC1006": {
		{`(?P<op>\S+) flushes (?P<What>.+?), which no StoreUnAlign in this VF wrote, so it flushes nothing; remove it, or flush the register the stores use`,
			`${op} 对 ${What} 做后处理，但本 VF 中没有 StoreUnAlign 写过它，这次后处理不会写出任何数据；请删除它，或改为对搬出所用的寄存器做后处理`},
		{`(?P<op>\S+) flushes (?P<What>.+?), which no StoreUnAlign wrote; the stores went through (?P<Regs>.+): (?P<Instead>flush .+ instead)`,
			`${op} 对 ${What} 做后处理，但没有 StoreUnAlign 写过它；搬出使用的是 ${Regs}：${Instead}`},
		{`(?P<op>\S+) uses (?P<u>\S+) as a (?P<Role>\S+) register, but (?P<op2>\S+) on line (?P<line>\d+) used it as a (?P<Role2>\S+) register; give the (?P<Role3>\S+) stream its own (?P<want>\S+)`,
			`${op} 把 ${u} 用作${Role}寄存器，但第 ${line} 行的 ${op2} 把它用作${Role2}寄存器；请为${Role3}流单独声明一个 ${want}`},
		{`(?P<u>\S+) first used as a (?P<Role>\S+) register here`, `${u} 在此处首次被用作${Role}寄存器`},
	},
	"ASC2001": {
		{`post-update stride (?P<stride>.+?) of (?P<Data>.+?) is (?P<Bytes>.+?)(?P<Grid>(?:, off the grid for every size of \S+)?), but (?P<Need>.+?); use (?P<Multiple>.+)`,
			`PostUpdate 步长 ${stride}（${Data}）为 ${Bytes}${Grid}，但 ${Need}；步长应为 ${Multiple}`},
		{`AddrReg (?P<areg>\S+) step (?P<step>.+?) of (?P<Data>.+?) per iteration of (?P<v>\S+) is (?P<Bytes>.+?)(?P<Grid>(?:, off the grid for every size of \S+)?), but (?P<Need>.+?); make the CreateAddrReg stride (?P<Multiple>.+)`,
			`AddrReg ${areg} 在 ${v} 的每次迭代中步进 ${step}（${Data}），即 ${Bytes}${Grid}，但 ${Need}；CreateAddrReg 的步长应为 ${Multiple}`},
		{`(?P<op>\S+) address (?P<addr>.+?) moves (?P<Bytes>.+?) per iteration of (?P<v>\S+)(?P<Grid>(?:, off the grid for every size of \S+)?), but (?P<Need>.+?); step it by (?P<Multiple>.+)`,
			`${op} 的地址 ${addr} 在 ${v} 的每次迭代中移动 ${Bytes}${Grid}，但 ${Need}；每次应移动 ${Multiple}`},
		{`(?P<op>\S+) address (?P<addr>.+?) is (?P<Bytes>.+?) past the aligned buffer (?P<base>\S+)(?P<Grid>(?:, off the grid for every size of \S+)?), but (?P<Need>.+?); offset it by (?P<Multiple>.+)`,
			`${op} 的地址 ${addr} 相对于对齐的缓冲区 ${base} 偏移了 ${Bytes}${Grid}，但 ${Need}；偏移量应为 ${Multiple}`},
		{`the stride is set here`, `步长在此处设定`},
	},
	"ASC2002": {
		{`(?P<Subject>.+?) stores one register, but interleave stores two \(dst, src0, src1\); pass the second register, or use (?P<Or>.+) for one`,
			`${Subject}只搬出一个寄存器，但交织搬出需要两个（dst, src0, src1）；请传入第二个寄存器，只搬出一个寄存器时请改用 ${Or}`},
		{`(?P<Subject>.+?) has one destination, but de-interleave loads two \(dst0, dst1, src\); pass the second register, or use (?P<Or>.+) for one`,
			`${Subject}只有一个目的寄存器，但解交织搬入需要两个（dst0, dst1, src）；请传入第二个寄存器，只搬入一个寄存器时请改用 ${Or}`},
		{`(?P<Subject>.+?) has two (?P<Dir>\S+) registers, but only (?P<Dual>.+) moves two; use it, or one register`,
			`${Subject}有两个${Dir}寄存器，但只有${Dual}搬运两个寄存器；请改用该模式，或只用一个寄存器`},
		{`(?P<Subject>.+?) on (?P<elem>\S+) data, but a single store of 64-bit data supports only DIST_NORM and DIST_PACK_B64`,
			`${Subject}用于 ${elem} 数据，但 64 位数据的单搬出只支持 DIST_NORM 和 DIST_PACK_B64`},
		{`(?P<Subject>.+?) on (?P<elem>\S+) data, but a single load of 64-bit data supports only DIST_NORM \(or DIST_UNPACK_B32 to widen 32-bit data\)`,
			`${Subject}用于 ${elem} 数据，但 64 位数据的单搬入只支持 DIST_NORM（或用 DIST_UNPACK_B32 把 32 位数据扩展为 64 位）`},
		{`(?P<Subject>.+?) on (?P<elem>\S+) data under (?P<mask>\S+), a mask made for (?P<mbits>\d+)-bit elements: the store reads one mask bit per (?P<lbits>\d+)-bit lane, so a count that is not a multiple of (?P<k>\d+) writes up to (?P<n>\d+) bytes the mask leaves out; make the mask for (?P<lbits2>\d+)-bit lanes or store with (?P<mode>\S+)`,
			`${Subject}用于 ${elem} 数据，掩码 ${mask} 按 ${mbits} 位元素生成：该搬出每个 ${lbits} 位通道只读取一位掩码，个数不是 ${k} 的倍数时会多写至多 ${n} 个掩码未选中的字节；请按 ${lbits2} 位通道生成掩码，或改用 ${mode} 搬出`},
		{`(?P<Subject>.+?) on (?P<elem>\S+) data, but the mode has no variant for (?P<bits>\d+)-bit data`,
			`${Subject}用于 ${elem} 数据，但该模式没有 ${bits} 位数据的版本`},
		{`(?P<Subject>.+?) on (?P<elem>\S+) data; use (?P<Or>.+)`,
			`${Subject}用于 ${elem} 数据，与数据的位宽不符；请使用 ${Or}`},
		// The pypto_pro DSL (asc2002.pyMessage).
		{`(?P<Subject>.+?) stores one register, but interleave stores two \((?P<args>dst, src0, src1, mask)\); pass the second register, or use NORM for one`,
			`${Subject}只搬出一个寄存器，但交织搬出需要两个（${args}）；请传入第二个寄存器，只搬出一个寄存器时请改用 NORM`},
		{`(?P<Subject>.+?) has one destination, but de-interleave loads two \((?P<form>x0, x1 = \S+\(\.\.\.\))\); assign two registers, or use NORM for one`,
			`${Subject}只有一个目的寄存器，但解交织搬入需要两个（${form}）；请赋给两个寄存器，只搬入一个寄存器时请改用 NORM`},
		{`(?P<Subject>.+?) has two source registers, but only INTLV stores two; use it, or one register`,
			`${Subject}有两个源寄存器，但只有 INTLV 搬出两个寄存器；请改用该模式，或只用一个寄存器`},
		{`(?P<Subject>.+?) has two destination registers, but only DINTLV loads two; use it, or one register`,
			`${Subject}有两个目的寄存器，但只有 DINTLV 搬入两个寄存器；请改用该模式，或只用一个寄存器`},
		{`(?P<Subject>.+?) on (?P<elem>\S+) data, but a single store of 64-bit data supports only NORM and PACK; pypto emits (?P<emitted>\S+)`,
			`${Subject}用于 ${elem} 数据，但 64 位数据的单搬出只支持 NORM 和 PACK；DSL 后端实际生成 ${emitted}`},
		{`(?P<Subject>.+?) on (?P<elem>\S+) data, but a single load of 64-bit data supports only NORM \(or UNPK to widen 32-bit data\); pypto emits (?P<emitted>\S+)`,
			`${Subject}用于 ${elem} 数据，但 64 位数据的单搬入只支持 NORM（或用 UNPK 把 32 位数据扩展为 64 位）；DSL 后端实际生成 ${emitted}`},
		{`(?P<Subject>.+?) on (?P<elem>\S+) data, but the mode has no (?P<bits>\d+)-bit variant: pypto emits (?P<emitted>\S+), which moves (?P<moved>\d+)-bit elements; name (?P<name>\S+) if that is meant`,
			`${Subject}用于 ${elem} 数据，但该模式没有 ${bits} 位的版本：DSL 后端会生成 ${emitted}，按 ${moved} 位元素搬运；若确有此意，请直接写明 ${name}`},
	},
	"ASC2003": {
		{`(?P<op>\S+) instantiated with POST_MODE_NORMAL, which it does not support; use POST_MODE_UPDATE \((?P<Ptr>.+) advances by the stride\)`,
			`${op} 以 POST_MODE_NORMAL 实例化，但它不支持该模式；请使用 POST_MODE_UPDATE（每次调用后${Ptr}按步长自动更新）`},
		{`(?P<op>\S+) instantiated with POST_MODE_NORMAL, which the post-update interface does not support; use POST_MODE_UPDATE to advance (?P<Ptr>.+) by the stride, or the interface without a stride to leave it`,
			`${op} 以 POST_MODE_NORMAL 实例化，而 PostUpdate 接口不支持该模式；请使用 POST_MODE_UPDATE 使${Ptr}按步长自动更新，或使用不带步长的接口使其保持不变`},
	},
	"ASC2004": {
		{`dual (?P<op>\S+) of (?P<r>\S+), a RegTraitNumTwo register, is not supported; store each register with a single (?P<op2>\S+)`,
			`RegTraitNumTwo 寄存器 ${r} 不支持双搬出 ${op}；请用单搬出的 ${op2} 分别搬出每个寄存器`},
		{`dual (?P<op>\S+) into (?P<r>\S+), a RegTraitNumTwo register, is not supported; load each register with a single (?P<op2>\S+)`,
			`RegTraitNumTwo 寄存器 ${r} 不支持双搬入 ${op}；请用单搬入的 ${op2} 分别搬入每个寄存器`},
		{`(?P<op>\S+) (?:of|into) (?P<r>\S+), a RegTraitNumTwo register, takes its offset from AddrReg (?P<areg>\S*), which the trait does not support; use the post-update interface with a stride`,
			`${op} 对 RegTraitNumTwo 寄存器 ${r} 使用 AddrReg ${areg} 存储偏移量，而 RegTraitNumTwo 不支持这类接口；请使用带步长的 PostUpdate 接口`},
	},
	"ASC3001": pressure,
	"ASC3002": pressure,
	"ASC3003": pressure,
	"ASC3004": {
		{`MaskNot negates the (?P<op>\S+) result in (?P<m>\S+), which costs an extra MaskReg and instruction; compute (?P<Law>.+?) by inverting the compares \(De Morgan\)` + tail,
			`MaskNot 对 ${m} 中 ${op} 的结果取反，需要多申请一个 MaskReg、多执行一条指令；请反转产生操作数的比较条件，${Law}（德摩根定律）${Tail}`},
		{`(?P<op>\S+) computes the value negated here`, `被取反的值由此处的 ${op} 计算`},
	},
	"ASC3005": {
		{`MaskAnd joins two compares made under (?P<pred>\S+); pass (?P<m>\S+) as the predicate of the compare on line (?P<line>\d+) and drop the MaskAnd: one instruction and one MaskReg fewer` + tail,
			`MaskAnd 合并了两个在同一掩码 ${pred} 下做的比较；请把 ${m} 作为第 ${line} 行比较的掩码并删去 MaskAnd：少一条指令，少用一个 MaskReg${Tail}`},
		{`first compare: its result becomes the predicate`, `第一个比较：其结果作为第二个比较的掩码`},
		{`second compare: predicate it with (?P<m>\S+)`, `第二个比较：改用 ${m} 作为掩码`},
	},
	"ASC4001": {
		{`loop body holds a chain of (?P<n>\d+) dependent instructions, more than the (?P<w>\d+)-instruction issue window: iterations cannot overlap \(simulated IPC (?P<ipc>[0-9.]+)\); split the VF loop \(intermediates through UB\) or unroll it by hand(?P<Unroll>(?: \(.*\))?)`,
			`循环体中有一条由 ${n} 条指令组成的数据依赖链，超过了 ${w} 条指令的执行队列深度：各次迭代无法重叠执行（模拟 IPC ${ipc}）；请拆分 VF 循环（中间结果搬出到 UB），或手动展开循环${Unroll}`},
	},
	"ASC4002": {
		{`loop issues (?P<ipc>[0-9.]+) instructions per cycle of the 2 the VF can; unrolled (?P<k>\d+)x with the copies interleaved it (?P<Cost>.+)`,
			`循环每个周期只发射 ${ipc} 条指令，而 VF 每周期可双发 2 条；手动展开 ${k} 倍并交错各副本后，${Cost}`},
	},
}

// fragments holds, per kind, the patterns of a part of a message.
var fragments = map[string][]pattern{
	"Tail": {
		{``, ``},
		{`: (?P<Cost>[^;]+)`, `：${Cost}`},
		{`; (?P<Cost>[^;]+)`, `；${Cost}`},
		{`: (?P<Cost>[^;]+); no automatic fix: (?P<Replay>.+)`, `：${Cost}；未提供自动修复：${Replay}`},
		{`; no automatic fix: (?P<Replay>.+)`, `；未提供自动修复：${Replay}`},
	},
	"Cost": {
		{`saves ~(?P<n>\d+) cycles? per iteration \((?P<p>\d+)% of the loop\)`, `每次迭代约节省 ${n} 个周期（占循环的 ${p}%）`},
		{`saves ~(?P<n>\d+) cycles? \((?P<p>\d+)% of the region\)`, `约节省 ${n} 个周期（占该区域的 ${p}%）`},
		{`no saving measurable in the simulated loop`, `在模拟的循环中测不出收益`},
		{`no saving measurable in the simulated region`, `在模拟的区域中测不出收益`},
	},
	"Move": {
		{`hoist it before the loop`, `请将其移至循环之前`},
		{`declare (?P<u>\S+) before the loop and hoist the Pre with it`, `请在循环之前声明 ${u}，并把 Pre 一起移至循环之前`},
		{`sink it after the loop`, `请将其移至循环之后`},
		{`declare (?P<u>\S+) before the loop and sink the Post after it`, `请在循环之前声明 ${u}，并把 Post 移至循环之后`},
	},
	"Why": { // analyzers/internal/stream: why a stream is not proven contiguous
		{`the loop runs at most once`, `循环最多只执行一次`},
		{`the Post is conditional`, `Post 位于条件分支中`},
		{`the Pre is conditional`, `Pre 位于条件分支中`},
		{`the register is also used under an if or in an inner loop`, `该寄存器还在 if 分支或内层循环中使用`},
		{`the register serves more than one stream`, `该寄存器服务于不止一个流`},
		{`the register is also used under an if`, `该寄存器还在 if 分支中使用`},
		{`another Post on the register moves the pointer`, `该寄存器上的另一个 Post 会移动指针`},
		{`the pointer is passed to a call in the loop`, `该指针在循环中被传给了一个函数调用`},
		{`the pointer is reset in the loop and stored in an inner loop`, `指针在循环中被重新赋值，且在内层循环中搬出`},
		{`the pointer's initialiser does not fold`, `指针的初始值无法常量折叠`},
		{`the stores of an iteration do not fold`, `一次迭代中各次搬出的数量无法常量折叠`},
		{`the pointer is re-derived per iteration at another place than where the stores ended`, `指针每次迭代重新计算的位置不是上一次迭代搬出结束的位置`},
		{`the Pre re-primes in place, where the previous load ended: it is redundant and can be deleted`, `该 Pre 在上一次搬入结束的位置原地重新初始化：它是多余的，可以删除`},
		{`no store on the register in the loop`, `循环中没有使用该寄存器的搬出`},
		{`no load on the register in the loop`, `循环中没有使用该寄存器的搬入`},
		{`the stores do not advance a pointer`, `搬出没有推进指针`},
		{`the stores advance different pointers`, `各次搬出推进的是不同的指针`},
		{`the Post has no address`, `Post 没有地址参数`},
		{`the Post flushes at another address than the stream's pointer`, `Post 后处理的地址不是该流的指针`},
		{`the Post moves the pointer`, `Post 会移动指针`},
		{`the pointer is reset in the loop`, `指针在循环中被重新赋值`},
		{`the loop reads back through the stream's pointer`, `循环通过该流的指针读回数据`},
		{`the pointer is advanced by other instructions too`, `指针还被其他指令推进`},
		{`the stride matches the vector length only for some element sizes`, `步长只在部分元素大小下等于向量长度`},
		{`the Pre has no address`, `Pre 没有地址参数`},
		{`the loads advance different pointers`, `各次搬入推进的是不同的指针`},
		{`the Pre primes another address than the stream's pointer`, `Pre 初始化的地址不是该流的指针`},
		{`the loop stores to the data it re-reads`, `循环会写入它要重新读取的数据`},
		{`the post-update stride does not fold`, `PostUpdate 步长无法常量折叠`},
		{`the stride differs from the vector length`, `步长与向量长度不同`},
		{`the stride and the data use different template element types`, `步长和数据使用了不同的模板元素类型`},
		{`the loop has no plain induction variable`, `循环没有简单的归纳变量`},
		{`the loop step does not fold`, `循环步长无法常量折叠`},
		{`the Pre address does not fold`, `Pre 的地址无法常量折叠`},
		{`the Pre address is not linear in (?P<v>\S+)`, `Pre 的地址不是 ${v} 的线性函数`},
		{`the address uses (?P<v>\S+), which the loop changes`, `地址用到了循环中会改变的 ${v}`},
		{`the Pre re-primes the same address every iteration`, `Pre 每次迭代都初始化同一个地址`},
		{`a load has no address`, `有一次搬入没有地址参数`},
		{`a load address does not fold`, `有一次搬入的地址无法常量折叠`},
		{`a load address is not linear in (?P<v>\S+)`, `有一次搬入的地址不是 ${v} 的线性函数`},
		{`the loads advance differently from the Pre`, `搬入推进地址的方式与 Pre 不同`},
		{`the element size is not known`, `元素大小未知`},
		{`the first load does not start where the Pre primes`, `第一次搬入的起始地址不是 Pre 初始化的地址`},
		{`the loads of one iteration are not back to back`, `同一次迭代中的各次搬入首尾不相接`},
		{`the stride is not a constant`, `步长不是常量`},
		{`the address advances (?P<a>\d+) elements per iteration but (?P<b>\d+) are loaded`, `地址每次迭代前进 ${a} 个元素，但搬入的是 ${b} 个元素`},
		{`the pointer is re-derived (?P<a>\d+) elements further each iteration but (?P<b>\d+) are loaded`, `指针每次迭代重新计算、前进 ${a} 个元素，但搬入的是 ${b} 个元素`},
	},
	"Replay": { // simcheck/replay: why the fix is withheld
		{`the replay could not prove the hoisted Pre loads the same data: (?P<Reason>.+)`, `回放无法证明移至循环之前的 Pre 搬入相同的数据：${Reason}`},
		{`the replay could not prove the sunk Post writes the same bytes: (?P<Reason>.+)`, `回放无法证明移至循环之后的 Post 写出相同的字节：${Reason}`},
		{`the Post is under an if constexpr: sink it after the loop under the same condition`, `该 Post 位于编译期 if 分支中：请在循环之后以相同的编译期条件放置它`},
		{`the stream's stores are in an inner loop or under an if constexpr, which the replay does not model`, `该流的搬出位于内层循环或编译期 if 分支中，回放没有为此建模`},
		{`the stream's pointer (?P<p>\S+) is declared in the loop: declare it before the loop, then sink the Post`, `该流的指针 ${p} 在循环内声明：请先在循环之前声明它，再把 Post 移至循环之后`},
		{`another StoreUnAlignPost flushes the stream in the loop`, `循环中还有另一个 StoreUnAlignPost 后处理该流`},
	},
	"Reason": {
		{`no loop to replay`, `没有可回放的循环`},
		{`(?P<op>\S+) may access the stream's buffer, which the replay does not model`, `${op} 可能访问该流的缓冲区，回放没有为此建模`},
		{`(?P<op>\S+) has a form, which the replay does not model`, `回放没有为 ${op} 的这种调用形式建模`},
		{`(?P<op>\S+) stores a MaskReg with a count, which the replay does not model`, `${op} 带数量参数搬出 MaskReg，回放没有为此建模`},
		{`(?P<op>\S+) has a distribution mode, which the replay does not model`, `${op} 带有分布模式，回放没有为此建模`},
		{`(?P<op>\S+) accesses the stream's buffer, which the replay does not model`, `${op} 访问该流的缓冲区，回放没有为此建模`},
		{`(?P<op>\S+) addresses the stream's buffer through an AddrReg, which the replay does not model`, `${op} 通过 AddrReg 访问该流的缓冲区，回放没有为此建模`},
		{`the address (?P<addr>.+) of (?P<op>\S+) does not fold`, `${op} 的地址 ${addr} 无法常量折叠`},
		{`the count (?P<count>.+) of (?P<op>\S+) does not fold`, `${op} 的数量 ${count} 无法常量折叠`},
		{`the AR-addressed (?P<op>\S+) \(its count comes from Squeeze through AR\) is not modelled`, `通过 AR 寻址的 ${op}（其数量由 Squeeze 经 AR 给出）没有建模`},
		{`the AR-addressed (?P<op>\S+) \(its offset comes from AR\) is not modelled`, `通过 AR 寻址的 ${op}（其偏移量来自 AR）没有建模`},
		{`(?P<op>\S+) uses the stream's register`, `${op} 使用了该流的非对齐寄存器`},
		{`(?P<op>\S+) uses the stream's register (?P<u>\S+) away from the stream's buffer`, `${op} 在该流的缓冲区之外使用了该流的非对齐寄存器 ${u}`},
		{`(?P<op>\S+) advances a pointer other than the stream's`, `${op} 推进的不是该流的指针`},
		{`the (?P<op>\S+) has no unaligned register`, `${op} 没有非对齐寄存器参数`},
		{`the (?P<op>\S+) has no address`, `${op} 没有地址参数`},
		{`the base pointer of (?P<addr>.+) is not clear`, `无法确定 ${addr} 的基指针`},
		{`the stream's pointer (?P<p>\S+) is declared inside the loop`, `该流的指针 ${p} 在循环内声明`},
		{`the stream's pointer (?P<p>\S+) is assigned inside the loop`, `该流的指针 ${p} 在循环内被赋值`},
		{`the (?P<op>\S+) is not a statement of the loop body`, `${op} 不是循环体中的一条语句`},
		{`the (?P<op>\S+) is not one the replay models`, `回放没有为这种 ${op} 建模`},
		{`the stream's register is used under an if or in an inner loop`, `该流的非对齐寄存器在 if 分支或内层循环中使用`},
		{`(?P<op>\S+) accesses the stream's buffer under an if or in an inner loop`, `${op} 在 if 分支或内层循环中访问该流的缓冲区`},
		{`(?P<expr>.+) of (?P<op>\S+) depends on (?P<name>\S+), which changes inside the loop`, `${op} 的 ${expr} 依赖于在循环内变化的 ${name}`},
		{`the loop's start (?P<expr>.+) does not fold`, `循环的起始值 ${expr} 无法常量折叠`},
		{`the loop assigns its variable (?P<v>\S+) in its body`, `循环在循环体中给循环变量 ${v} 赋值`},
		{`the loop's step does not fold`, `循环步长无法常量折叠`},
		{`no case of the loop as written runs on the model \((?P<Fault>.+)\)`, `原循环没有一种情况能在模型上运行（${Fault}）`},
		{`with (?P<Cases>.+?), (?P<Diff>the rewritten loop .+|the pointer \S+ ends elsewhere|the register \S+ ends with different contents)`, `在 ${Cases} 的情况下，${Diff}`},
	},
	"Fault": {
		{`(?P<op>\S+) touches UB bytes \[(?P<from>\d+), (?P<to>\d+)\), outside the (?P<kb>\d+) KB UB`, `${op} 访问 UB 字节 [${from}, ${to})，超出了 ${kb} KB 的 UB`},
		{`(?P<op>\S+) at UB address (?P<addr>\d+), which is not 32-byte aligned`, `${op} 访问的 UB 地址 ${addr} 不是 32 字节对齐的`},
		{`invalid case`, `无效的情况`},
	},
	"Case": {
		{`(?P<n>\d+)-byte elements`, `元素 ${n} 字节`},
		{`(?P<p>\S+) at offset (?P<off>\d+) of a 32-byte block`, `${p} 位于 32 字节块内偏移 ${off} 处`},
		{`(?P<v>\S+) starting at (?P<n>-?\d+)`, `${v} 从 ${n} 开始`},
		{`(?P<n>\d+) iterations?`, `迭代 ${n} 次`},
		{`(?P<lhs>\S+) = (?P<n>-?\d+)`, `${lhs} = ${n}`},
	},
	"Diff": {
		{`the rewritten loop is not a valid program`, `改写后的循环不是合法的程序`},
		{`the rewritten loop faults: (?P<Fault>.+)`, `改写后的循环出错：${Fault}`},
		{`the rewritten loop loads less`, `改写后的循环搬入的数据更少`},
		{`the rewritten loop loads in another order`, `改写后的循环以不同的顺序搬入`},
		{`the rewritten loop loads more`, `改写后的循环搬入的数据更多`},
		{`the pointer (?P<p>\S+) ends elsewhere`, `指针 ${p} 最终指向别处`},
		{`the register (?P<u>\S+) ends with different contents`, `寄存器 ${u} 最终的内容不同`},
	},
	"Name": { // an identifier: a register, a mode
		{`(?P<name>[A-Za-z_][A-Za-z0-9_:]*(?:\[\d+\])?)`, `${name}`},
	},
	"Fix": {
		{`a post-updated pointer`, `以 PostUpdate 方式更新的指针`},
		{`(?P<call>\S+\(.*\))`, `${call}`},
	},
	"Fact": {
		{`no (?P<post>\S+) flushes (?P<u>\S+) after it before the VF ends, so the last partial block is lost`,
			`在 VF 结束之前，它之后没有 ${post} 对 ${u} 做非对齐搬出后处理，最后一个不完整的数据块会丢失`},
		{`some path from it reaches the end of the VF without a (?P<post>\S+) on (?P<u>\S+), losing the last partial block`,
			`从它出发有一条路径到达 VF 结尾时没有经过 ${u} 上的 ${post}，最后一个不完整的数据块会丢失`},
	},
	"Where": {
		{`after the loop`, `在循环之后`},
		{`after the last store`, `在最后一次搬出之后`},
	},
	"What": {
		{`(?P<u>\S+) \(the load register\)`, `${u}（搬入用的非对齐寄存器）`},
		{`(?P<u>\S+)`, `${u}`},
	},
	"Instead": {
		{`flush that register instead`, `请改为对该寄存器做后处理`},
		{`flush the one this stream used instead`, `请改为对本流所用的寄存器做后处理`},
	},
	"Role": {
		{`load`, `搬入`},
		{`store`, `搬出`},
	},
	"Need": {
		{`(?P<op>\S+) with (?P<mode>\S+) needs (?P<n>\d+)-byte alignment`, `${op} 的 ${mode} 模式要求 ${n} 字节对齐`},
		{`(?P<mode>\S+) needs (?P<n>\d+)-byte alignment`, `${mode} 要求 ${n} 字节对齐`},
	},
	"Bytes": {
		{`(?P<n>\d+) bytes`, `${n} 字节`},
		{`(?P<n>\d+) \* sizeof\((?P<t>\w+)\) bytes`, `${n} * sizeof(${t}) 字节`},
		{`a size`, `若干字节`},
	},
	"Multiple": {
		{`a multiple of (?P<n>\d+) elements of (?P<t>\S+)`, `${n} 个 ${t} 元素的整数倍`},
		{`a multiple of (?P<n>\d+) elements`, `${n} 个元素的整数倍`},
		{`a multiple of (?P<n>\d+) / sizeof\((?P<t>\w+)\) elements`, `${n} / sizeof(${t}) 个元素的整数倍`},
	},
	"Data": {
		{`(?P<bits>\d+)-bit data`, `${bits} 位数据`},
		{`the data`, `数据`},
		{`(?P<t>\S+) data`, `${t} 数据`},
	},
	"Grid": {
		{``, ``},
		{`, off the grid for every size of (?P<t>\S+)`, `，无论 ${t} 取何种大小都不满足对齐`},
	},
	"Subject": { // "StoreAlign with DIST_NORM" or a C API call; a trailing space before Chinese
		{`(?P<op>\S+) with (?P<mode>\S+)`, `${op} 的 ${mode} 模式`},
		{`(?P<op>\S+)`, `${op} `},
	},
	"Dir": {
		{`destination`, `目的`},
		{`source`, `源`},
	},
	"Dual": {
		{`an interleave mode \(DIST_INTLV_Bn\)`, `交织模式（DIST_INTLV_Bn）`},
		{`a de-interleave mode \(DIST_DINTLV_Bn\)`, `解交织模式（DIST_DINTLV_Bn）`},
		{`(?P<mode>\S+)`, ` ${mode} `},
	},
	"Ptr": {
		{`the pointer`, `指针`},
		{`(?P<p>.+)`, ` ${p} `},
	},
	"Law": {
		{`!\(a && b\) as !a \|\| !b`, `把 !(a && b) 化简为 !a || !b`},
		{`!\(a \|\| b\) as !a && !b`, `把 !(a || b) 化简为 !a && !b`},
	},
	"Helper": {
		{``, ``},
		{`, (?P<n>\d+) of them inside a called helper`, `，其中 ${n} 个在被调用的辅助函数中`},
	},
	"Consequence": {
		{`the compiler spills the excess to the reserved UB area and adds synchronisation; split the VF or shorten live ranges`,
			`编译器会把超出的部分换出到 UB 的预留空间并插入同步指令；请拆分 VF，或缩短变量的存活范围`},
		{`the compiler spills the excess to the reserved UB area and adds synchronisation; combine masks \(ASC3004, ASC3005\) or recompute them where they are used`,
			`编译器会把超出的部分换出到 UB 的预留空间并插入同步指令；请用布尔代数合并掩码（ASC3004、ASC3005），或在使用处重新计算掩码`},
		{`the compiler rejects the VF; reuse a register for streams that do not overlap, or split the VF`,
			`编译器会拒绝编译该 VF；请让生命周期互不重叠的流复用同一个寄存器，或拆分 VF`},
	},
	"UpTo": {
		{``, ``},
		{` up to line (?P<line>\d+)`, `（直到第 ${line} 行）`},
	},
	"Unroll": {
		{``, ``},
		{` \((?P<k>\d+)x, copies interleaved: (?P<Cost>.+)\)`, `（展开 ${k} 倍并交错各副本：${Cost}）`},
	},
}

// listKinds are the lists in messages.
var listKinds = map[string]listKind{
	"Cases": {sep: ", ", zhSep: "，", item: "Case"},     // the replay's case: "4-byte elements, p at offset 4 ..."
	"Regs":  {sep: " and ", zhSep: "、", item: "Name"},  // register names: "ua and ub"
	"Or":    {sep: " or ", zhSep: " 或 ", item: "Name"}, // alternatives: "DIST_NORM_B32 or DIST_NORM"
}
