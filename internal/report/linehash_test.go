package report

import (
	"regexp"
	"slices"
	"strings"
	"testing"
)

// TestLineHashesCodeQL checks lineHashes against the expected values of
// codeql-action's own test (src/fingerprints.test.ts, test "hash").
func TestLineHashesCodeQL(t *testing.T) {
	hello := []string{
		"e9496ae3ebfced30:1", "fb7c023a8b9ccb3f:1", "ce8ba1a563dcdaca:1", "e20e36e16fcb0cc8:1",
		"b3edc88f2938467e:1", "c8e28b0b4002a3a0:1", "c129715d7a2bc9a3:1",
	}
	tests := []struct {
		src  string
		want []string
	}{
		{"", []string{"c129715d7a2bc9a3:1"}},
		{" a\nb\n  \t\tc\n d", []string{"271789c17abda88f:1", "54703d4cd895b18:1", "180aee12dab6264:1", "a23a3dc5e078b07b:1"}},
		{" hello; \t\nworld!!!\n\n\n  \t\tGreetings\n End", []string{
			"8b7cf3e952e7aeb2:1", "b1ae1287ec4718d9:1", "bff680108adb0fcc:1",
			"c6805c5e1288b612:1", "b86d3392aea1be30:1", "e6ceba753e1a442:1",
		}},
		{" hello; \t\nworld!!!\n\n\n  \t\tGreetings\n End\n", hello},
		{" hello; \t\nworld!!!\r\r\r  \t\tGreetings\r End\r", hello},
		{" hello; \t\r\nworld!!!\r\n\r\n\r\n  \t\tGreetings\r\n End\r\n", hello},
		{" hello; \t\nworld!!!\r\n\n\r  \t\tGreetings\r End\r\n", hello},
		{strings.Repeat("Lorem ipsum dolor sit amet.\n", 10), []string{
			"a7f2ff13bc495cf2:1", "a7f2ff13bc495cf2:2", "a7f2ff13bc495cf2:3", "a7f2ff13bc495cf2:4",
			"a7f2ff13bc495cf2:5", "a7f2ff13bc495cf2:6", "a7f2ff1481e87703:1", "a9cf91f7bbf1862b:1",
			"55ec222b86bcae53:1", "cc97dc7b1d7d8f7b:1", "c129715d7a2bc9a3:1",
		}},
	}
	for _, tt := range tests {
		got := lineHashes([]byte(tt.src))
		if !slices.Equal(got, tt.want) {
			t.Errorf("lineHashes(%q):\n got %q\nwant %q", tt.src, got, tt.want)
		}
		if n := len(regexp.MustCompile(`\r\n|\r|\n`).Split(tt.src, -1)); len(got) != n {
			t.Errorf("lineHashes(%q): %d hashes for %d lines", tt.src, len(got), n)
		}
	}
}

// TestLineHashesMove checks what the fingerprint is for: a line keeps its
// hash when lines are inserted above it or its indentation changes, and
// loses it when the line or the code right after it changes.
func TestLineHashesMove(t *testing.T) {
	body := "  for (uint16_t i = 0; i < n; ++i) {\n" +
		"    AscendC::Reg::LoadUnAlignPre(u0, src + i * VL);\n" + // line 2 of body
		"    AscendC::Reg::LoadUnAlign(r, u0, src + i * VL); // 注释 😀\n" +
		"  }\n"
	base := lineHashes([]byte(body))
	moved := lineHashes([]byte("// header\n#include <x.h>\n\n" + body))
	if moved[3+1] != base[1] || moved[3+2] != base[2] { // three lines inserted
		t.Errorf("hashes changed when lines were inserted above: %q vs %q", base, moved)
	}
	reindented := lineHashes([]byte(strings.ReplaceAll(body, "    ", "\t")))
	if !slices.Equal(reindented, base) {
		t.Errorf("hashes changed with indentation: %q vs %q", base, reindented)
	}
	edited := lineHashes([]byte(strings.Replace(body, "src + i * VL);\n    AscendC::Reg::LoadUnAlign(", "src);\n    AscendC::Reg::LoadUnAlign(", 1)))
	if edited[1] == base[1] {
		t.Errorf("hash of an edited line did not change: %q", edited[1])
	}
	if edited[0] == base[0] {
		t.Errorf("hash of the line before an edit within 100 characters did not change: %q", edited[0])
	}
	if edited[2] != base[2] {
		t.Errorf("hash of the line after an edit changed: %q vs %q", edited[2], base[2])
	}
}

// lineHash, from one line's text, is lineHashes' value for a file of that
// line alone, with the occurrence given.
func TestLineHashText(t *testing.T) {
	const line = "    LoadUnAlignPre(u0, src + i * VL);"
	whole := lineHashes([]byte(line))[0]
	hex := whole[:strings.IndexByte(whole, ':')]
	if got := lineHash(line, 0); got != whole {
		t.Errorf("lineHash(line, 0) = %q, want %q", got, whole)
	}
	if got := lineHash(line+"\r", 2); got != hex+":3" {
		t.Errorf("lineHash(line, 2) = %q, want %q", got, hex+":3")
	}
	if lineHash("\t"+line, 0) != whole || lineHash(line+"x", 0) == whole {
		t.Error("lineHash ignores what it must not, or sees what it must ignore")
	}
}
