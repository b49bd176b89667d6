package cppfront

import (
	"strings"

	"github.com/ascvet/ascvet/cppfront/ir"
)

// regType is what a declaration's type says about registers.
type regType struct {
	class ir.RegClass
	elem  string // element type of RegTensor<T>
	two   bool   // RegTraitNumTwo: two physical registers (reg[0], reg[1])
}

// cTypes are the C-API register types (vf-api.md §2).
var cTypes = map[string]regType{
	"vector_bool":          {class: ir.ClassMask},
	"vector_load_unalign":  {class: ir.ClassUnalignLoad},
	"vector_store_unalign": {class: ir.ClassUnalignStore},
	"vector_align":         {class: ir.ClassUnalign},
	"addr_reg":             {class: ir.ClassAddr},
	"iter_reg":             {class: ir.ClassAddr},
	"vector_address":       {class: ir.ClassAddr},
}

// parseRegType classifies a type as written ("AscendC::Reg::RegTensor<float>",
// "MicroAPI::MaskReg", "vector_half"). aliases maps user type aliases to
// their definitions. It returns class ClassNone for non-register types.
func parseRegType(t string, aliases map[string]string) regType {
	t = strings.TrimSpace(t)
	for _, q := range []string{"const ", "volatile ", "static ", "constexpr "} {
		t = strings.TrimPrefix(t, q)
	}
	t = strings.TrimRight(strings.TrimSpace(t), "&* ")
	base, targs := splitTemplate(t)
	last := base
	if k := strings.LastIndex(base, "::"); k >= 0 {
		last = base[k+2:]
	}
	last = strings.TrimSpace(last)
	switch last {
	case "RegTensor":
		rt := regType{class: ir.ClassVReg}
		if len(targs) > 0 {
			rt.elem = targs[0]
		}
		// A 64-bit RegTensor with the default RegTraitNumOne is one 256-byte
		// register of 32 elements (its reg[1] holds one vector_s64/u64); only
		// RegTraitNumTwo splits a value over two registers.
		if len(targs) > 1 && strings.Contains(targs[1], "RegTraitNumTwo") {
			rt.two = true
		}
		return rt
	case "MaskReg":
		return regType{class: ir.ClassMask}
	case "UnalignRegForLoad":
		return regType{class: ir.ClassUnalignLoad}
	case "UnalignRegForStore":
		return regType{class: ir.ClassUnalignStore}
	case "UnalignReg":
		return regType{class: ir.ClassUnalign}
	case "AddrReg":
		return regType{class: ir.ClassAddr}
	}
	if rt, ok := cTypes[last]; ok {
		return rt
	}
	if strings.HasPrefix(last, "vector_") && len(targs) == 0 {
		elem := strings.TrimPrefix(last, "vector_")
		switch elem {
		case "f32":
			elem = "float"
		case "f16":
			elem = "half"
		case "bf16":
			elem = "bfloat16_t"
		}
		if _, ok := ir.ElemSize(elem); ok || strings.HasSuffix(elem, "_t") || elem == "float" || elem == "half" {
			return regType{class: ir.ClassVReg, elem: elem}
		}
	}
	if def, ok := aliases[last]; ok && def != t {
		delete(aliases, last) // guard against alias cycles
		rt := parseRegType(def, aliases)
		aliases[last] = def
		return rt
	}
	return regType{}
}

// splitTemplate splits "A::B<x, C<y, z>>" into "A::B" and ["x", "C<y, z>"].
func splitTemplate(t string) (string, []string) {
	i := strings.IndexByte(t, '<')
	if i < 0 || !strings.HasSuffix(t, ">") {
		return t, nil
	}
	return strings.TrimSpace(t[:i]), splitTop(t[i+1 : len(t)-1])
}

// splitTop splits s at commas that are not nested in <>, (), [] or {}.
func splitTop(s string) []string {
	var out []string
	depth := 0
	start := 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '<', '(', '[', '{':
			depth++
		case '>', ')', ']', '}':
			depth--
		case ',':
			if depth == 0 {
				out = append(out, normSpace(s[start:i]))
				start = i + 1
			}
		}
	}
	if strings.TrimSpace(s[start:]) != "" || len(out) > 0 {
		out = append(out, normSpace(s[start:]))
	}
	return out
}

// normSpace collapses runs of white space into one space and trims.
func normSpace(s string) string {
	if isNormSpace(s) {
		return s
	}
	return strings.Join(strings.Fields(s), " ")
}

// isNormSpace reports whether normSpace would return s unchanged: ASCII
// (strings.Fields also splits at Unicode spaces), no space at either end,
// no white space but single spaces.
func isNormSpace(s string) bool {
	if s == "" {
		return true
	}
	if s[0] == ' ' || s[len(s)-1] == ' ' {
		return false
	}
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c >= 0x80, c == '\t', c == '\n', c == '\v', c == '\f', c == '\r':
			return false
		case c == ' ' && s[i+1] == ' ':
			return false
		}
	}
	return true
}

// isTypeName reports whether a template argument names a type (rather than
// an enumerator or a value), so that it can be an instruction's element type.
func isTypeName(s string) bool {
	if s == "" {
		return false
	}
	if _, ok := ir.ElemSize(s); ok {
		return true
	}
	if strings.Contains(s, "::") || strings.ContainsAny(s, "()+-*/ ") {
		return strings.HasPrefix(s, "typename ") || strings.HasSuffix(s, "_t")
	}
	c := s[0]
	if c >= '0' && c <= '9' {
		return false
	}
	// A lone identifier: a type parameter (T, U, DataType) or a type alias.
	return !strings.HasPrefix(s, "DIST_") && !strings.HasPrefix(s, "POST_MODE") && strings.ToUpper(s) != s || len(s) <= 2
}
