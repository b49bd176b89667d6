package lsp_test

import (
	"path/filepath"
	"strings"
	"testing"

	"go.lsp.dev/protocol"

	"github.com/ascvet/ascvet/internal/lsp/lsptest"
	"github.com/ascvet/ascvet/internal/testfs"
)

// TestLSPHoverIterations: a finding's hover says where the iterations it
// was simulated over came from, in the client's language: the loop's
// trip count, a trip count over the iterations simulated, a loop that runs
// at most once; a region (no loop) ran once, and says nothing more.
func TestLSPHoverIterations(t *testing.T) {
	copyK := testfs.Kernel(t, "unaligned_copy.asc")
	pressure := testfs.Kernel(t, "register_pressure.asc")
	kernels := []struct {
		name, text, code string
		en, zh           []string // what the hover on the finding holds
	}{
		{"known.asc", strings.Replace(copyK, "i < repeat", "i < 8", 1), "ASC1001",
			[]string{"Simulated (loop):", "over 8 iterations (the loop's trip count);"},
			[]string{"模拟（循环）", "共 8 次迭代（循环的迭代次数）"}},
		{"capped.asc", strings.Replace(copyK, "i < repeat", "i < 1000", 1), "ASC1002",
			[]string{"Simulated (loop):", "over 32 iterations (its trip count is over the iterations simulated (32, fewer for a long body): the steady state is reached before);"},
			[]string{"模拟（循环）", "共 32 次迭代（迭代次数超过模拟的次数"}},
		{"once.asc", strings.Replace(pressure, "i < rows;", "i < (rows > 0);", 1), "ASC3001",
			[]string{"Simulated (loop):", "over 1 iterations (the loop runs at most once);"},
			[]string{"模拟（循环）", "共 1 次迭代（该循环至多执行一次）"}},
		{"masks.asc", testfs.Kernel(t, "masks.asc"), "ASC3002",
			[]string{"Simulated (region):", "over 1 iterations; "},
			[]string{"模拟（区域）", "共 1 次迭代；"}},
	}
	for _, lang := range []string{"en", "zh-CN"} {
		c, dir := lsptest.Session(t, lang)
		for _, k := range kernels {
			uri := c.Open(filepath.Join(dir, k.name), k.text, 1)
			d := lsptest.Find(t, c.Diagnostics(uri, 1), k.code)
			h := c.Hover(uri, d.Range.Start.Line, d.Range.Start.Character)
			want := k.en
			if lang != "en" {
				want = k.zh
			}
			for _, w := range want {
				if !strings.Contains(h, w) {
					t.Errorf("%s: hover on %s in %s lacks %q:\n%s", lang, k.code, k.name, w, h)
				}
			}
			if !strings.HasPrefix(h, "**"+k.code+"** "+d.Message) {
				t.Errorf("%s: hover on %s in %s does not open with the rule and the message:\n%s", lang, k.code, k.name, h)
			}
		}
	}
}

// TestLSPHoverLoop: on the first line of a VF loop, with no finding
// there, the hover is the loop's simulation in one line, in the client's
// language. A loop of a SIMT function, which ascvet records but does not
// analyse, has none.
func TestLSPHoverLoop(t *testing.T) {
	text := "__simt_vf__ inline void Threads(__gm__ float* dst, int n)\n{\n    for (int i = 0; i < n; ++i) {\n        dst[i] = 0;\n    }\n}\n\n" +
		strings.Replace(testfs.Kernel(t, "unaligned_copy.asc"), "i < repeat", "i < 8", 1)
	loop := uint32(strings.Count(text[:strings.Index(text, "    for (uint16_t")], "\n"))
	for lang, want := range map[string][]string{
		"en":    {"**ascvet sim**: ", " cycles/iteration, IPC ", "(8 iterations simulated, in ScaleRowVF)"},
		"zh-CN": {"**ascvet sim**：每次迭代 ", " 周期，IPC ", "（模拟 8 次迭代，ScaleRowVF）"},
	} {
		c, dir := lsptest.Session(t, lang)
		uri := c.Open(filepath.Join(dir, "k.asc"), text, 1)
		c.Diagnostics(uri, 1)
		h := c.Hover(uri, loop, 4)
		if !strings.HasPrefix(h, want[0]) || !strings.Contains(h, want[1]) || !strings.HasSuffix(h, want[2]) {
			t.Errorf("%s: hover on the VF loop: %q, want %q", lang, h, want)
		}
		if h := c.Hover(uri, 2, 4); h != "" {
			t.Errorf("%s: hover on the SIMT loop: %q, want none", lang, h)
		}
	}
}

// TestLSPInfoSeverity: an info finding is published with severity 3
// (information), as clangd publishes a note; a warning 2, an error 1.
func TestLSPInfoSeverity(t *testing.T) {
	c, dir := lsptest.Session(t, "en")
	uri := c.Open(filepath.Join(dir, "masks.asc"), testfs.Kernel(t, "masks.asc"), 1)
	ds := c.Diagnostics(uri, 1)
	for code, want := range map[string]protocol.DiagnosticSeverity{
		"ASC3002": protocol.DiagnosticSeverityWarning,
		"ASC3004": protocol.DiagnosticSeverityInformation,
		"ASC3005": protocol.DiagnosticSeverityInformation,
	} {
		if d := lsptest.Find(t, ds, code); d.Severity != want {
			t.Errorf("%s severity %v, want %v", code, d.Severity, want)
		}
	}
	uri = c.Open(filepath.Join(dir, "bugs.asc"), testfs.Kernel(t, "unaligned_bugs.asc"), 1)
	if d := lsptest.Find(t, c.Diagnostics(uri, 1), "ASC1004"); d.Severity != protocol.DiagnosticSeverityError {
		t.Errorf("ASC1004 severity %v, want error", d.Severity)
	}
}
