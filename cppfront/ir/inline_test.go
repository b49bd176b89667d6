package ir

import (
	"strconv"
	"strings"
	"testing"
)

func TestEvalCond(t *testing.T) {
	b := Bindings{
		Types:  map[string]string{"T": "half", "U": "AscendC::float32_t", "V": "T", "pse": "PseTypeEnum::PSE_NONE_TYPE"},
		Values: map[string]*Expr{"Mode": Const(2), "isTail": Const(0), "n": Sym("count"), "kind": Sym("Kind::B")},
	}
	for _, c := range []struct {
		text string
		want int64
		ok   bool
	}{
		{"std::is_same<T, half>::value", 1, true},
		{"std::is_same_v<T, float>", 0, true},
		{"IsSameType<U, float>::value", 1, true},
		{"AscendC::IsSameType<V, half>::value", 1, true}, // V -> T -> half
		{"!IsSameType<T, bfloat16_t>::value", 1, true},
		{"sizeof(T) == 2", 1, true},
		{"sizeof(T) == sizeof(float)", 0, true},
		{"Mode == 2", 1, true},
		{"(Mode == 2) && !isTail", 1, true},
		{"Mode == 1 || Mode == 3", 0, true},
		{"std::is_same<T, half>::value || std::is_same<W, float>::value", 1, true}, // decided by the known side
		{"std::is_same<W, float>::value && Mode == 1", 0, true},
		{"std::is_same<W, float>::value", 0, false}, // W not bound
		{"std::is_same<W, W>::value", 1, true},
		{"n > 0", 0, false},      // a runtime value
		{"IsFoo<T>()", 0, false}, // another trait: not folded
		{"std::is_same<T, std::pair<int, int>>::value", 0, false},
		{"std::is_same<std::pair<int, int>, std::pair<int, int>>::value", 1, true}, // the parse splits >>, in its own copy of the cached tokens
		{"", 0, false},
		// Enumerators: a parameter bound to one (as a type argument or a
		// value) against a qualified enumerator.
		{"pse == PseTypeEnum::PSE_NONE_TYPE", 1, true},
		{"pse == PseTypeEnum::PSE_INNER_MUL_ADD_TYPE || pse == PseTypeEnum::PSE_INNER_MUL_ADD_SQRT_TYPE", 0, true},
		{"pse != PseTypeEnum::PSE_NONE_TYPE", 0, true},
		{"kind == Kind::B && Mode == 2", 1, true},
		{"kind == ::Kind::A", 0, true},
		{"other == PseTypeEnum::PSE_NONE_TYPE", 0, false}, // other not bound
		{"n == Kind::A", 0, false},                        // bound to a runtime value
		{"kind == Other::B", 0, false},                    // another scope: may be a constant of the same value
	} {
		for range 2 { // the second time from the token cache (condTokensOf)
			v, ok := EvalCond(c.text, nil, b)
			if ok != c.ok || ok && v != c.want {
				t.Errorf("EvalCond(%q) = %d, %v; want %d, %v", c.text, v, ok, c.want, c.ok)
			}
		}
	}
	// The expression is the fallback: a flag bound by a call.
	if v, ok := EvalCond("?", Sym("Mode"), b); !ok || v != 2 {
		t.Errorf("EvalCond(Mode expr) = %d, %v", v, ok)
	}
}

func TestTaken(t *testing.T) {
	then, els := &Block{Nodes: []Node{&Instr{}}}, &Block{}
	s := &If{Constexpr: true, CondText: "std::is_same<T, float>::value", Then: then, Else: els}
	if bl, ok := s.Taken(Bindings{Types: map[string]string{"T": "float"}}); !ok || bl != then {
		t.Errorf("T=float: %v %v", bl, ok)
	}
	if bl, ok := s.Taken(Bindings{Types: map[string]string{"T": "half"}}); !ok || bl != els {
		t.Errorf("T=half: %v %v", bl, ok)
	}
	if _, ok := s.Taken(Bindings{}); ok {
		t.Error("unbound T folded")
	}
	s.Else = nil
	if bl, ok := s.Taken(Bindings{Types: map[string]string{"T": "half"}}); !ok || len(bl.Nodes) != 0 {
		t.Errorf("no else: %v %v", bl, ok)
	}
	s.Constexpr = false
	if _, ok := s.Taken(Bindings{Types: map[string]string{"T": "half"}}); ok {
		t.Error("a runtime if folded")
	}
}

func TestFoldTrip(t *testing.T) {
	for _, c := range []struct {
		init, bound, step int64
		cmp               string
		trip              int64
		once              bool
	}{
		{0, 10, 1, "<", 10, false},
		{0, 10, 3, "<", 4, false},
		{0, 1, 1, "<", 1, true},
		{5, 0, 1, "<", 0, true},
		{9, 0, -1, ">=", 10, false},
		{0, 8, 2, "!=", 4, false},
	} {
		l := &Loop{Init: Const(c.init), Bound: Const(c.bound), Step: Const(c.step), CmpOp: c.cmp}
		l.FoldTrip()
		if !l.TripKnown || l.Trip != c.trip || l.AtMostOnce != c.once {
			t.Errorf("for (i = %d; i %s %d; i += %d): trip %d known %v once %v", c.init, c.cmp, c.bound, c.step, l.Trip, l.TripKnown, l.AtMostOnce)
		}
	}
	l := &Loop{Init: Const(0), Bound: Sym("n"), Step: Const(1), CmpOp: "<"}
	if l.FoldTrip(); l.TripKnown {
		t.Error("a symbolic bound folded")
	}
}

// TestExpandBounded: helpers calling helpers ten times each, eight deep,
// would make 10^8 instructions inlined; Expand stops at MaxExpandInstrs
// and leaves the rest as calls.
func TestExpandBounded(t *testing.T) {
	var funcs []*Func
	for d := 0; d < 8; d++ {
		fn := &Func{Name: "H" + strconv.Itoa(d), Kind: RegionSimdCallee, Body: &Block{}}
		for k := 0; k < 10; k++ {
			in := &Instr{ID: InstrID(k), Op: OpCall, Form: FormCall, Name: "H" + strconv.Itoa(d+1), Callee: "H" + strconv.Itoa(d+1), Loop: NoLoop}
			if d == 7 {
				in = &Instr{ID: InstrID(k), Op: OpAbs, Name: "Abs", Loop: NoLoop}
			}
			fn.Instrs = append(fn.Instrs, in)
			fn.Body.Nodes = append(fn.Body.Nodes, in)
		}
		funcs = append(funcs, fn)
	}
	LinkTargets(funcs)
	x := funcs[0].Expand(Bindings{})
	if n := len(x.Instrs); n > MaxExpandInstrs+10*MaxInlineDepth {
		t.Fatalf("%d instructions", n)
	}
	calls := 0
	for _, in := range x.Instrs {
		if in.Op == OpCall {
			calls++
		}
	}
	if calls == 0 {
		t.Error("nothing left as a call past the bound")
	}
}

// TestEvalCondDeep: a condition nested past maxCondDepth does not fold,
// and costs no more than its length.
func TestEvalCondDeep(t *testing.T) {
	deep := strings.Repeat("!", 100000) + "Mode"
	if _, ok := EvalCond(deep, nil, Bindings{Values: map[string]*Expr{"Mode": Const(1)}}); ok {
		t.Error("a condition 100,000 deep folded")
	}
	parens := strings.Repeat("(", 300) + "1" + strings.Repeat(")", 300)
	if _, ok := EvalCond(parens, nil, Bindings{}); ok {
		t.Error("300 parentheses folded")
	}
	if v, ok := EvalCond("!!!!1", nil, Bindings{}); !ok || v != 1 {
		t.Errorf("!!!!1 = %d, %v", v, ok)
	}
}

// TestAliasType: a type alias resolves under an instantiation's bindings:
// std::conditional (both spellings, nested, a condition holding <=) takes
// the arm its folded condition selects; an alias naming another alias or
// a parameter follows it; what does not fold, or is no single name, stays
// the alias's name. Aliases bind nothing of their own.
func TestAliasType(t *testing.T) {
	aliases := map[string]string{
		"R": "std::conditional_t<sizeof(T) <= sizeof(int16_t), int16_t, int32_t>",
		"C": "typename std::conditional<std::is_same_v<T, half>, float, T>::type",
		"N": "std::conditional_t<sizeof(T) == 1, int16_t, std::conditional_t<sizeof(T) == 2, int32_t, int64_t>>",
		"P": "R",
		"X": "typename Foo<T>::type",
		"K": "std::conditional_t<Mode == 2, half, float>",
	}
	cases := []struct {
		types  map[string]string
		values map[string]*Expr
		want   map[string]string
	}{
		{map[string]string{"T": "uint8_t"}, nil, map[string]string{"R": "int16_t", "C": "uint8_t", "N": "int16_t", "P": "int16_t", "X": "X", "K": "K"}},
		{map[string]string{"T": "half"}, map[string]*Expr{"Mode": Const(2)}, map[string]string{"R": "int16_t", "C": "float", "N": "int32_t", "P": "int16_t", "K": "half"}},
		{map[string]string{"T": "uint32_t"}, map[string]*Expr{"Mode": Const(1)}, map[string]string{"R": "int32_t", "C": "uint32_t", "N": "int64_t", "K": "float"}},
		{nil, nil, map[string]string{"R": "R", "C": "C", "P": "R", "half": "half"}},
	}
	for _, c := range cases {
		b := Bindings{Types: c.types, Values: c.values, Aliases: aliases}
		for name, want := range c.want {
			if got := b.Type(name); got != want {
				t.Errorf("%v: Type(%s) = %q, want %q", c.types, name, got, want)
			}
		}
	}
	if b := (Bindings{Aliases: aliases}); !b.Empty() || b.String() != "" {
		t.Errorf("aliases alone: Empty %v, String %q", b.Empty(), b.String())
	}
}
