package regalloc

import (
	"strings"

	"github.com/ascvet/ascvet/cppfront/ir"
)

// A constant mask, CreateMask<float, MaskPattern::ALL>(), is a value the
// compiler can make again wherever it is needed (one PSET) instead of
// keeping it in a MaskReg: under pressure it rematerialises it at each use
// rather than spill it. So a mask register whose only definition is such a
// CreateMask does not count as live between its definition and its uses;
// it counts before an instruction that reads it, once per distinct value
// (element width and pattern) read there, and dies there: after it, the
// instruction's result may hold its register. Ten helpers that each make
// CreateMask<float, ALL>() hold one mask where they use it, not ten across
// the region.
//
// Only a register written exactly once, by a CreateMask whose operands are
// all constants (template arguments, a PAT_* pattern of the C API), and
// neither a parameter, a reference nor an array, qualifies: a second
// definition (a helper that writes it, a compare into it) makes its value
// depend on the path, and a runtime operand makes it a computed mask.

// rematMasks reports, per register of fn, whether it is a rematerialisable
// constant mask, and the CreateMask that makes it.
func rematMasks(fn *ir.Func) ([]bool, []*ir.Instr) {
	out := make([]bool, len(fn.Regs))
	defs := make([]int, len(fn.Regs))
	def := make([]*ir.Instr, len(fn.Regs))
	for _, in := range fn.Instrs {
		for _, r := range in.Defs {
			defs[r]++
			def[r] = in
		}
	}
	for i, r := range fn.Regs {
		if r.Class != ir.ClassMask || r.Param || r.Ref || r.Implicit || r.ArrayLen != 1 || defs[i] != 1 {
			continue
		}
		out[i] = constMask(def[i], ir.RegID(i))
	}
	return out, def
}

// constMask reports whether in is a CreateMask of r with constant operands
// only.
func constMask(in *ir.Instr, r ir.RegID) bool {
	if in.Op != ir.OpCreateMask {
		return false
	}
	for _, a := range in.Args {
		switch {
		case a.Reg == r && a.Role == ir.ArgW && a.Part < 0:
		case a.Reg != ir.NoReg:
			return false
		case a.Expr != nil:
			if _, ok := a.Expr.Value(); !ok && !patternName(a.Text) {
				return false
			}
		case !patternName(a.Text):
			return false
		}
	}
	for _, t := range in.TArgs[min(1, len(in.TArgs)):] {
		if !patternName(t) {
			return false
		}
	}
	return true
}

// patternName reports whether t names a mask pattern constant
// (MaskPattern::ALL, AscendC::Reg::MaskPattern::VL8, PAT_ALL).
func patternName(t string) bool {
	t = strings.TrimSpace(t)
	return strings.Contains(t, "MaskPattern::") || strings.HasPrefix(t, "PAT_") || strings.HasPrefix(t, "MaskPattern")
}

// maskKey is the value a constant CreateMask makes: the element width (in
// bytes, or the type as written when it is a template parameter) and the
// pattern.
func maskKey(in *ir.Instr) string {
	width := ""
	switch {
	case len(in.TArgs) > 0:
		width = typeWidth(in.TArgs[0])
	case strings.HasSuffix(in.Name, "_b8"):
		width = "1"
	case strings.HasSuffix(in.Name, "_b16"):
		width = "2"
	case strings.HasSuffix(in.Name, "_b32"):
		width = "4"
	}
	pattern := "ALL" // CreateMask<T>() makes the ALL pattern
	if len(in.TArgs) > 1 {
		pattern = in.TArgs[1]
	} else {
		for _, a := range in.Args {
			if a.Reg == ir.NoReg {
				pattern = a.Text
			}
		}
	}
	pattern = strings.TrimSpace(pattern)
	if k := strings.LastIndex(pattern, "::"); k >= 0 {
		pattern = pattern[k+2:]
	}
	pattern = strings.TrimPrefix(pattern, "PAT_")
	return width + "/" + pattern
}

// typeWidth returns the size in bytes of an element type, or the type as
// written when it is not a known one.
func typeWidth(t string) string {
	t = strings.TrimSpace(t)
	if k := strings.LastIndex(t, "::"); k >= 0 {
		t = t[k+2:]
	}
	switch t {
	case "int8_t", "uint8_t", "bool", "hifloat8_t", "fp8_e4m3fn_t", "fp8_e5m2_t", "fp8_e8m0_t", "int4x2_t", "fp4x2_e2m1_t", "fp4x2_e1m2_t":
		return "1"
	case "half", "bfloat16_t", "int16_t", "uint16_t":
		return "2"
	case "float", "int32_t", "uint32_t":
		return "4"
	case "int64_t", "uint64_t", "double", "complex32":
		return "8"
	}
	return t
}
