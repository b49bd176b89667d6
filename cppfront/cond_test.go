package cppfront

import (
	"fmt"
	"go/token"
	"strings"
	"testing"
)

func TestCondExpr(t *testing.T) {
	state := map[string]condValue{
		"ONE":   {defined: true, value: "1", known: true},
		"TWO":   {defined: true, value: "(ONE + 1)", known: true},
		"GONE":  {known: true},                // #undef'd
		"FN":    {defined: true},              // function-like
		"EMPTY": {defined: true, known: true}, // #define EMPTY
		"SELF":  {defined: true, value: "SELF + 1", known: true},
	}
	for _, c := range []struct {
		expr string
		v    int64
		ok   bool
	}{
		{"0", 0, true},
		{"1", 1, true},
		{"0x10 >> 2", 4, true},
		{"ONE", 1, true},
		{"TWO == 2", 1, true},
		{"TWO * 3 - 1 == 5", 1, true},
		{"defined(ONE)", 1, true},
		{"defined ONE && !defined(GONE)", 1, true},
		{"defined(FN)", 1, true},
		{"GONE", 0, true},
		{"UNKNOWN", 0, false},
		{"defined(UNKNOWN)", 0, false},
		{"UNKNOWN == 3", 0, false},
		{"0 && UNKNOWN", 0, true}, // short-circuits, as the preprocessor does
		{"UNKNOWN && 0", 0, true},
		{"UNKNOWN || ONE", 1, true},
		{"UNKNOWN || 0", 0, false},
		{"ONE ? 7 : UNKNOWN", 7, true},
		{"UNKNOWN ? 7 : 7", 0, false},
		{"!UNKNOWN", 0, false},
		{"(ONE < 2) + (ONE <= 1) + (2 > ONE) + (1 >= ONE) + (ONE != 0)", 5, true},
		{"1 / 0", 0, false},
		{"EMPTY", 0, false},
		{"FN(1)", 0, false},
		{"SELF", 0, false}, // names itself: not read forever
		{"1 +", 0, false},
		{"(1", 0, false},
		{"true && !false", 1, true},
		{"ONE // a comment is gone before", 0, false},
	} {
		v, ok := condOf("if", c.expr, state)
		if ok != c.ok || ok && v != c.v {
			t.Errorf("#if %s = %d, %v; want %d, %v", c.expr, v, ok, c.v, c.ok)
		}
	}
	for _, c := range []struct {
		name, macro string
		v           int64
		ok          bool
	}{
		{"ifdef", "ONE", 1, true},
		{"ifndef", "ONE", 0, true},
		{"ifdef", "GONE", 0, true},
		{"ifndef", "GONE", 1, true},
		{"ifdef", "UNKNOWN", 0, false},
	} {
		v, ok := condOf(c.name, c.macro, state)
		if ok != c.ok || ok && v != c.v {
			t.Errorf("#%s %s = %d, %v; want %d, %v", c.name, c.macro, v, ok, c.v, c.ok)
		}
	}
}

// selected returns src with the conditionals the file and defs decide
// selected, as the pre-pass leaves it (blanks trimmed from each line, blank
// lines dropped).
func selected(src string, defs map[string]string) string {
	out := []byte(src)
	selectConditionals(out, lexText(out), defs)
	var lines []string
	for l := range strings.SplitSeq(string(out), "\n") {
		if l = strings.TrimSpace(l); l != "" {
			lines = append(lines, l)
		}
	}
	return strings.Join(lines, "\n")
}

func TestSelectConditionals(t *testing.T) {
	for _, c := range []struct {
		name, src string
		defs      map[string]string
		want      string
	}{
		{"if 0", "a;\n#if 0\nb;\n#endif\nc;\n", nil, "a;\nc;"},
		{"if 1 else", "#if 1\nb;\n#else\nc;\n#endif\n", nil, "b;"},
		{"chain by -D", "#if MODE == 1\na;\n#elif MODE == 2\nb;\n#else\nc;\n#endif\n", map[string]string{"MODE": "2"}, "b;"},
		{"chain falls to else", "#if MODE == 1\na;\n#elif MODE == 2\nb;\n#else\nc;\n#endif\n", map[string]string{"MODE": "7"}, "c;"},
		{"-D NAME is 1", "#if MODE\na;\n#endif\n", map[string]string{"MODE": ""}, "a;"},
		{"undecided stays whole", "#ifdef __CCE_AICORE__\na;\n#else\nb;\n#endif\n", nil, "#ifdef __CCE_AICORE__\na;\n#else\nb;\n#endif"},
		{"undecided after a false group stays whole", "#if 0\na;\n#elif X\nb;\n#endif\n", nil, "#if 0\na;\n#elif X\nb;\n#endif"},
		{"the file's #define", "#define MODE 3\n#if MODE == 3\na;\n#else\nb;\n#endif\n", nil, "#define MODE 3\na;"},
		{"-D holds over the file", "#define MODE 3\n#if MODE == 3\na;\n#else\nb;\n#endif\n", map[string]string{"MODE": "4"}, "#define MODE 3\nb;"},
		{"#undef", "#define MODE 3\n#undef MODE\n#ifdef MODE\na;\n#else\nb;\n#endif\n", nil, "#define MODE 3\n#undef MODE\nb;"},
		{"a #define in an undecided group is unknown", "#define M 1\n#ifdef X\n#define M 2\n#endif\n#if M == 1\na;\n#endif\n", nil,
			"#define M 1\n#ifdef X\n#define M 2\n#endif\n#if M == 1\na;\n#endif"},
		{"a #define in a dropped group does not count", "#define M 1\n#if 0\n#define M 2\n#endif\n#if M == 1\na;\n#endif\n", nil, "#define M 1\na;"},
		{"nested", "#if 1\n#if 0\na;\n#else\nb;\n#endif\n#endif\n", nil, "b;"},
		{"nested in a dropped group", "#if 0\n#if 1\na;\n#endif\n#endif\nc;\n", nil, "c;"},
		{"nested in an undecided group", "#ifdef X\n#if 0\na;\n#endif\nb;\n#endif\n", nil, "#ifdef X\nb;\n#endif"},
		{"include guard", "#ifndef K_H\n#define K_H\n#define M 2\n#if M == 2\na;\n#else\nb;\n#endif\n#endif\n", nil,
			"#ifndef K_H\n#define K_H\n#define M 2\na;\n#endif"},
		{"continued line and comment", "#if MODE == \\\n  1 /* one */ // the first\na;\n#else\nb;\n#endif\n", map[string]string{"MODE": "1"}, "a;"},
		{"unbalanced: nothing decided", "#if 0\na;\n", nil, "#if 0\na;"},
		{"stray #endif: nothing after it decided", "#endif\n#if 0\na;\n#endif\n", nil, "#endif\n#if 0\na;\n#endif"},
	} {
		if got := selected(c.src, c.defs); got != c.want {
			t.Errorf("%s:\n%s\nwant:\n%s", c.name, got, c.want)
		}
	}
}

// condKernel has a loop whose body holds one instruction in each group of
// a conditional chain, and a helper defined twice, once per build.
const condKernel = `#include "kernel_operator.h"
#if MODE == 1
__simd_vf__ inline void Scale(__ubuf__ float* dst, __ubuf__ float* src)
{
    AscendC::Reg::RegTensor<float> x;
    AscendC::Reg::MaskReg m = AscendC::Reg::CreateMask<float>();
    AscendC::Reg::LoadAlign(x, src);
    AscendC::Reg::Muls(x, x, 2.0f, m);
    AscendC::Reg::StoreAlign(dst, x, m);
}
#else
__simd_vf__ inline void Scale(__ubuf__ float* dst, __ubuf__ float* src)
{
    AscendC::Reg::RegTensor<float> x;
    AscendC::Reg::MaskReg m = AscendC::Reg::CreateMask<float>();
    AscendC::Reg::LoadAlign(x, src);
    AscendC::Reg::Adds(x, x, 2.0f, m);
    AscendC::Reg::StoreAlign(dst, x, m);
}
#endif
__simd_vf__ inline void Step(__ubuf__ float* dst, __ubuf__ float* src, uint16_t n)
{
    AscendC::Reg::RegTensor<float> x;
    AscendC::Reg::MaskReg m = AscendC::Reg::CreateMask<float>();
    for (uint16_t i = 0; i < n; ++i) {
        AscendC::Reg::LoadAlign(x, src + i * 64);
#if 0
        AscendC::Reg::Abs(x, x, m);
#endif
#if MODE == 1
        AscendC::Reg::Exp(x, x, m);
#elif MODE == 2
        AscendC::Reg::Ln(x, x, m);
#else
        AscendC::Reg::Sqrt(x, x, m);
#endif
        AscendC::Reg::StoreAlign(dst + i * 64, x, m);
    }
}
`

// condOps returns the ops of each region of condKernel lowered with defs,
// as "Func: op op ...".
func condOps(t *testing.T, defs map[string]string) []string {
	t.Helper()
	ix := NewIndex()
	ix.SetDefines(defs)
	fset := token.NewFileSet()
	f, err := ParseFileOptions(fset, "cond.asc", []byte(condKernel), Options{Index: ix})
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, fn := range f.Funcs {
		var ops []string
		for _, in := range fn.Instrs {
			ops = append(ops, in.Name)
		}
		out = append(out, fmt.Sprintf("%s@%d: %s", fn.Name, fset.Position(fn.Pos).Line, strings.Join(ops, " ")))
	}
	return out
}

func TestConditionalRegions(t *testing.T) {
	for _, c := range []struct {
		defs map[string]string
		want string
	}{
		// Undecided: both definitions of Scale and every group of Step, as
		// before; the #if 0 group is gone in every build.
		{nil, "Scale@3: LoadAlign Muls StoreAlign | Scale@12: LoadAlign Adds StoreAlign | Step@21: LoadAlign Exp Ln Sqrt StoreAlign"},
		{map[string]string{"MODE": "1"}, "Scale@3: LoadAlign Muls StoreAlign | Step@21: LoadAlign Exp StoreAlign"},
		// The region starts at its own line, not at the dropped group's.
		{map[string]string{"MODE": "2"}, "Scale@12: LoadAlign Adds StoreAlign | Step@21: LoadAlign Ln StoreAlign"},
		{map[string]string{"MODE": "3"}, "Scale@12: LoadAlign Adds StoreAlign | Step@21: LoadAlign Sqrt StoreAlign"},
	} {
		got := strings.Join(condOps(t, c.defs), " | ")
		got = strings.ReplaceAll(got, "CreateMask ", "")
		if got != c.want {
			t.Errorf("-D %v:\n got %s\nwant %s", c.defs, got, c.want)
		}
	}
}

// TestCondHostile: inputs built to make the selection slow or deep end
// quickly, undecided where they cannot be read.
func TestCondHostile(t *testing.T) {
	state := map[string]condValue{}
	// Definitions that multiply: M0 reads M1 eight times, M1 M2, ...
	for i := range 8 {
		state[fmt.Sprintf("M%d", i)] = condValue{defined: true, known: true,
			value: strings.Repeat(fmt.Sprintf("M%d+", i+1), 8) + "0"}
	}
	state["M8"] = condValue{defined: true, value: "1", known: true}
	if _, ok := condOf("if", "M0", state); ok {
		t.Error("8^8 operands read to the end")
	}
	if _, ok := condOf("if", strings.Repeat("(", 1<<20)+"1"+strings.Repeat(")", 1<<20), state); ok {
		t.Error("a million parentheses read")
	}
	if _, ok := condOf("if", strings.Repeat("!", 1<<20)+"1", state); ok {
		t.Error("a million ! read")
	}
	// Many nested conditionals: linear, every one decided.
	n := 50000
	src := strings.Repeat("#if 1\n", n) + "a;\n" + strings.Repeat("#endif\n", n)
	if got := selected(src, nil); got != "a;" {
		t.Errorf("%d nested #if 1: %.40q", n, got)
	}
}
