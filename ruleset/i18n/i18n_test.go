package i18n

import (
	"regexp"
	"strings"
	"testing"
)

func TestNormalize(t *testing.T) {
	for in, want := range map[string]string{
		"zh": ZH, "ZH": ZH, "zh_CN.UTF-8": ZH, "zh-Hans": ZH, "zh_TW": ZH, " zh ": ZH, "zh.GBK": ZH,
		"": EN, "en": EN, "en_US.UTF-8": EN, "C": EN, "POSIX": EN, "fr_FR": EN, "zhx": EN, "z": EN,
	} {
		if got := Normalize(in); got != want {
			t.Errorf("Normalize(%q) = %q, want %q", in, got, want)
		}
	}
	for in, want := range map[string]bool{"zh": true, "zh_CN": true, "en": true, "EN": true, "en_GB.UTF-8": true, "fr": false, "": false, "english": false} {
		if got := Supported(in); got != want {
			t.Errorf("Supported(%q) = %v, want %v", in, got, want)
		}
	}
}

func TestLang(t *testing.T) {
	cases := []struct {
		flag string
		env  map[string]string
		want string
	}{
		{"", nil, EN},
		{"zh", nil, ZH},
		{"en", map[string]string{"LANG": "zh_CN.UTF-8"}, EN}, // the flag wins
		{"zh_CN", map[string]string{"LANG": "en_US.UTF-8"}, ZH},
		{"", map[string]string{"LANG": "zh_CN.UTF-8"}, ZH},
		{"", map[string]string{"LANG": "en_US.UTF-8"}, EN},
		{"", map[string]string{"LC_MESSAGES": "zh_CN.UTF-8", "LANG": "en_US.UTF-8"}, ZH},
		{"", map[string]string{"LC_ALL": "C", "LC_MESSAGES": "zh_CN.UTF-8"}, EN}, // LC_ALL overrides
		{"", map[string]string{"LC_ALL": "zh_CN.GB18030", "LANG": "C"}, ZH},
		{"", map[string]string{"LC_ALL": "", "LC_MESSAGES": "", "LANG": "zh_SG"}, ZH}, // empty means unset
	}
	for _, c := range cases {
		env := func(k string) string { return c.env[k] }
		if got := Lang(c.flag, env); got != c.want {
			t.Errorf("Lang(%q, %v) = %q, want %q", c.flag, c.env, got, c.want)
		}
	}
	if got := Lang("", nil); got != EN {
		t.Errorf("Lang with no environment = %q", got)
	}
}

// TestMessage pins the translation of one message of each shape of
// fragment: a cost, a move, a reason of the replay with its cases.
func TestMessage(t *testing.T) {
	cases := []struct{ id, en, zh string }{
		{"ASC1001",
			"LoadUnAlignPre on ureg0 re-initialises a contiguous stream each iteration; hoist it before the loop: saves ~1 cycle per iteration (24% of the loop)",
			"LoadUnAlignPre 在每次迭代中对 ureg0 重新做非对齐搬入初始化，而连续非对齐搬入只需初始化一次；请将其移至循环之前：每次迭代约节省 1 个周期（占循环的 24%）"},
		{"asc1002", // any case
			"StoreUnAlignPost on u flushes a contiguous store stream each iteration; declare u before the loop and sink the Post after it: no saving measurable in the simulated loop; no automatic fix: the replay could not prove the sunk Post writes the same bytes: with 4-byte elements, dst at offset 8 of a 32-byte block, n = 3, 2 iterations, the register u ends with different contents",
			"StoreUnAlignPost 在每次迭代中对 u 做非对齐搬出后处理，而连续非对齐搬出只需后处理一次；请在循环之前声明 u，并把 Post 移至循环之后：在模拟的循环中测不出收益；未提供自动修复：回放无法证明移至循环之后的 Post 写出相同的字节：在 元素 4 字节，dst 位于 32 字节块内偏移 8 处，n = 3，迭代 2 次 的情况下，寄存器 u 最终的内容不同"},
		{"ASC3001",
			"VF region Wide keeps 34 RegTensor registers live at once at line 86 (32 listed, 2 inside a called helper; budget 32; 34 declared); the compiler spills the excess to the reserved UB area and adds synchronisation; split the VF or shorten live ranges; saves ~28 cycles (53% of the region)",
			"VF 区域 Wide 在第 86 行同时有 34 个 RegTensor 寄存器存活（下面列出 32 个，另有 2 个在被调用的辅助函数中；上限 32 个；声明了 34 个）；编译器会把超出的部分换出到 UB 的预留空间并插入同步指令；请拆分 VF，或缩短变量的存活范围；约节省 28 个周期（占该区域的 53%）"},
		{"ASC3002",
			"VF region DivImpl keeps 10 MaskReg registers live at once at line 1469 (0 listed, 10 inside a called helper; budget 8; 1 declared); the compiler spills the excess to the reserved UB area and adds synchronisation; combine masks (ASC3004, ASC3005) or recompute them where they are used; the cost is not simulated: the registers to spill are held inside a called helper whose body is not known",
			"VF 区域 DivImpl 在第 1469 行同时有 10 个 MaskReg 寄存器存活（下面列出 0 个，另有 10 个在被调用的辅助函数中；上限 8 个；声明了 1 个）；编译器会把超出的部分换出到 UB 的预留空间并插入同步指令；请用布尔代数合并掩码（ASC3004、ASC3005），或在使用处重新计算掩码；未模拟其代价：需要换出的寄存器位于一个函数体未知的被调用辅助函数内部"},
		// An integer Div timed as a float Div (it stayed English).
		{"ASC3005",
			"MaskAnd joins two compares made under mask; pass adj as the predicate of the compare on line 7 and drop the MaskAnd: one instruction and one MaskReg fewer: saves ~5 cycles over the 32 simulated iterations (under 1 per iteration, 1% of the loop) (timed with each Div on int32_t as one float Div: the compiler expands an integer Div into a software sequence that is not published, so the loop costs more on hardware) (a VF call: no saving measurable in its 1027 cycles, of which the loop takes 991)",
			"MaskAnd 合并了两个在同一掩码 mask 下做的比较；请把 adj 作为第 7 行比较的掩码并删去 MaskAnd：少一条指令，少用一个 MaskReg：在模拟的 32 次迭代中共约节省 5 个周期（每次迭代不足 1 个；占循环的 1%）（其中 int32_t 上的每个 Div 按一条浮点 Div 计时：编译器会把整数 Div 展开为未公开的软件序列，因此该循环在硬件上的开销更大）（每次 VF 调用：其 1027 个周期中测不出收益，该循环只占其中 991 个）"},
		// Instantiations listed with semicolons, then no automatic fix (it
		// stayed English).
		{"ASC1002",
			"StoreUnAlignPost on u flushes a contiguous store stream each iteration; sink it after the loop: saves ~1 cycle over the 16 simulated iterations (under 1 per iteration, 1% of the loop) (compiled for 2 of 3 instantiations: T=half; T=float) (a VF call: ~5 cycles of 617, under 1%); no automatic fix: the Post is under an if constexpr: sink it after the loop under the same condition",
			"StoreUnAlignPost 在每次迭代中对 u 做非对齐搬出后处理，而连续非对齐搬出只需后处理一次；请将其移至循环之后：在模拟的 16 次迭代中共约节省 1 个周期（每次迭代不足 1 个；占循环的 1%）（3 个实例化中仅 2 个编译该指令：T=half; T=float）（每次 VF 调用：617 个周期中约节省 5 个，不足 1%）；未提供自动修复：该 Post 位于编译期 if 分支中：请在循环之后以相同的编译期条件放置它"},
		{"ASC2002",
			"StoreAlign with DIST_NORM_B16 on float data; use DIST_NORM_B32 or DIST_NORM",
			"StoreAlign 的 DIST_NORM_B16 模式用于 float 数据，与数据的位宽不符；请使用 DIST_NORM_B32 或 DIST_NORM"},
	}
	for _, c := range cases {
		if got := Message("zh", c.id, c.en); got != c.zh {
			t.Errorf("%s: Message(zh, %q)\n got %q\nwant %q", c.id, c.en, got, c.zh)
		}
		if got := Message("en", c.id, c.en); got != c.en {
			t.Errorf("Message(en) changed the message: %q", got)
		}
	}
}

// TestMessageFallsBack: what does not translate completely stays English.
func TestMessageFallsBack(t *testing.T) {
	for _, c := range []struct{ id, en string }{
		{"ASC1001", "something the catalog has never seen"},
		{"ASC9999", "VF region X does not parse here; findings in it may be incomplete"}, // unknown rule
		{"ASC0003", "VF region X does not parse here; findings in it may be incomplete"}, // another rule's message
		// the main clause matches, a fragment does not (a new reason)
		{"ASC1001", "LoadUnAlignPre on u may re-initialise a contiguous stream each iteration (not proven: the moon is full); hoist it before the loop if the stream is contiguous: saves ~1 cycle per iteration (24% of the loop)"},
		{"ASC1001", "LoadUnAlignPre on u re-initialises a contiguous stream each iteration; hoist it before the loop: saves ~1 cycle per iteration (24% of the loop); no automatic fix: the replay gave up"},
		{"ASC1006", "LoadUnAlign uses us as a sideways register, but StoreUnAlign on line 52 used it as a store register; give the load stream its own UnalignRegForLoad"},
		{"ASC2002", "StoreAlign with DIST_NORM_B16 on float data; use DIST_NORM_B32 or, better, nothing"},
		{"ASC1001", ""},
		// a capture copied unchanged must not be English prose
		{"ASC2003", "LoadUnAlign instantiated with POST_MODE_NORMAL, which it does not support; use POST_MODE_UPDATE (the input pointer here advances by the stride)"},
	} {
		if got := Message("zh", c.id, c.en); got != c.en {
			t.Errorf("%s %q: got %q, want it unchanged", c.id, c.en, got)
		}
	}
}

// TestCatalogWellFormed compiles the catalog (a malformed pattern panics)
// and checks that every fragment kind is used by some pattern.
func TestCatalogWellFormed(t *testing.T) {
	compileAll()
	used := map[string]bool{}
	group := regexp.MustCompile(`\(\?P<([A-Z][A-Za-z]*)[0-9]*>`)
	note := func(ps []pattern) {
		for _, p := range ps {
			for _, m := range group.FindAllStringSubmatch(p.re, -1) {
				used[m[1]] = true
			}
		}
	}
	for _, ps := range messages {
		note(ps)
	}
	note(driver)
	for _, ps := range fragments {
		note(ps)
	}
	for _, l := range listKinds {
		used[l.item] = true
	}
	for k := range fragments {
		if !used[k] {
			t.Errorf("fragment kind %s is used by no pattern", k)
		}
	}
	for k := range listKinds {
		if !used[k] {
			t.Errorf("list kind %s is used by no pattern", k)
		}
	}
	for id, ps := range messages {
		for _, p := range ps {
			if !strings.ContainsFunc(p.zh, isHan) {
				t.Errorf("%s: template %q has no Chinese", id, p.zh)
			}
		}
	}
	for _, p := range driver {
		if !strings.ContainsFunc(p.zh, isHan) {
			t.Errorf("driver: template %q has no Chinese", p.zh)
		}
	}
}

// TestDriver: the summary lines of the text output translate whole.
func TestDriver(t *testing.T) {
	for en, zh := range map[string]string{
		"no findings in 1 file":                                   "在 1 个文件中没有检查结果",
		"no findings, 2 ignored in 3 files":                       "在 3 个文件中没有检查结果，另有 2 个已忽略",
		"25 findings (9 errors, 11 warnings, 5 info) in 22 files": "在 22 个文件中有 25 个检查结果（9 个错误，11 个警告，5 个提示）",
		"1 finding (1 warning), 4 ignored in 1 file":              "在 1 个文件中有 1 个检查结果（1 个警告），另有 4 个已忽略",
		"ignored": "已忽略",
		"2 findings with no measurable saving did not fail the run (-fail-no-saving)": "2 个检查结果未测得收益，未使运行失败（-fail-no-saving 可使其失败）",
	} {
		if got := Driver("zh", en); got != zh {
			t.Errorf("Driver(zh, %q) = %q, want %q", en, got, zh)
		}
		if got := Driver("en", en); got != en {
			t.Errorf("Driver(en, %q) = %q", en, got)
		}
	}
	if got := Driver("zh", "something else"); got != "something else" {
		t.Errorf("an unknown line became %q", got)
	}
}

func isHan(r rune) bool { return r >= 0x4E00 && r <= 0x9FFF }

// TestCompileRejects: the checks of compile catch catalog mistakes.
func TestCompileRejects(t *testing.T) {
	compileAll()
	for name, p := range map[string]pattern{
		"dropped group":  {`a (?P<x>\S+)`, `甲`},
		"unknown name":   {`a (?P<x>\S+)`, `甲 ${x} ${y}`},
		"unnamed group":  {`a (\S+) (?P<x>\S+)`, `甲 ${x}`},
		"unknown kind":   {`a (?P<Nope>\S+)`, `甲 ${Nope}`},
		"bad expression": {`a (?P<x>\S+`, `甲 ${x}`},
	} {
		t.Run(name, func(t *testing.T) {
			defer func() {
				if recover() == nil {
					t.Error("compile did not panic")
				}
			}()
			compile([]pattern{p})
		})
	}
	// and a good one passes
	compile([]pattern{{`a (?P<x>\S+) (?P<Cost2>.+)`, `甲 ${x} ${Cost2}`}})
}

// TestTemplateRegionNames: region names of class templates hold spaces
// ("Base<T, U>:: Compute.vec_scope#1"); the message still translates.
func TestTemplateRegionNames(t *testing.T) {
	for id, msg := range map[string]string{
		"ASC3002": "VF region Base<xDtype, y1Dtype, mode>:: Compute.vec_scope#1 keeps 9 MaskReg registers live at once at line 824 (9 listed; budget 8; 9 declared); the compiler spills the excess to the reserved UB area and adds synchronisation; combine masks (ASC3004, ASC3005) or recompute them where they are used; saves ~14 cycles per iteration (45% of the loop)",
		"ASC0001": "VF region Base<T, U>::F does not parse here; findings in it may be incomplete",
	} {
		got := Message("zh", id, msg)
		if got == msg || !strings.Contains(got, "Base<") {
			t.Errorf("%s: not translated: %q", id, got)
		}
	}
}
