package align

import (
	"sort"
	"strings"

	"github.com/ascvet/ascvet/analyzers/internal/linear"
	"github.com/ascvet/ascvet/cppfront/ir"
)

// bindSizeof replaces sizeof(name) by size in e.
func bindSizeof(e *ir.Expr, name string, size int64) *ir.Expr {
	if name == "" {
		return e
	}
	return e.Subst(func(k ir.ExprKind, n string) *ir.Expr {
		if k == ir.ExprSizeof && n == name {
			return ir.Const(size)
		}
		return nil
	})
}

// Const folds e with sizeof(elem) bound to size: the value of a stride or
// step whose element type is a template parameter, at one candidate size.
func Const(e *ir.Expr, elem string, size int64) (int64, bool) {
	return bindSizeof(e, elem, size).Value()
}

// hasCast reports whether an operand's text holds a cast, which the
// symbolic expression drops: (__ubuf__ half*)p + 3 is not p + 3 when p is
// not a half pointer.
func hasCast(text string) bool {
	if strings.Contains(text, "_cast") {
		return true
	}
	for i := 0; i < len(text); i++ {
		if text[i] != ')' {
			continue
		}
		j := i + 1
		for j < len(text) && text[j] == ' ' {
			j++
		}
		if j < len(text) && (linear.IdentChar(text[j]) || text[j] == '(') {
			return true
		}
	}
	return false
}

// Mod returns x mod m in [0, m).
func Mod(x, m int64) int64 {
	r := x % m
	if r < 0 {
		r += m
	}
	return r
}

// sortedKeys returns the keys of m in order.
func sortedKeys(m map[string]int64) []string {
	ks := make([]string, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return ks
}
