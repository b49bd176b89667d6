package ir

import (
	"strconv"
	"strings"
)

// ExprKind is the node kind of a symbolic expression.
type ExprKind uint8

const (
	ExprUnknown ExprKind = iota // not representable; Text says what it was
	ExprConst                   // integer constant: Val
	ExprSym                     // a name whose value is not known: Name
	ExprSizeof                  // sizeof(Name) where Name's size is not known (a template parameter)
	ExprBin                     // X Op Y
	ExprNeg                     // -X
)

// Expr is a symbolic integer or address expression. Known constants are
// folded while lowering, so an ExprConst is a proven value and anything that
// could not be folded stays symbolic: it is never guessed.
type Expr struct {
	Kind ExprKind // node kind
	Val  int64    // ExprConst
	Name string   // ExprSym, ExprSizeof
	Op   string   // ExprBin: + - * / % << >> & |
	X, Y *Expr    // operands
	Text string   // ExprUnknown: the source text
}

// Const returns a constant expression.
func Const(v int64) *Expr { return &Expr{Kind: ExprConst, Val: v} }

// Sym returns a symbol.
func Sym(name string) *Expr { return &Expr{Kind: ExprSym, Name: name} }

// Unknown returns an unrepresentable expression that prints as text.
func Unknown(text string) *Expr { return &Expr{Kind: ExprUnknown, Text: text} }

// Value returns the constant value of e and whether it is known.
func (e *Expr) Value() (int64, bool) {
	if e != nil && e.Kind == ExprConst {
		return e.Val, true
	}
	return 0, false
}

// Bin builds X op Y, folding when both sides are constants and applying the
// identities x+0, x*1, x*0 and 0+x. Division by zero and overflow stay
// symbolic.
func Bin(op string, x, y *Expr) *Expr {
	a, aok := x.Value()
	b, bok := y.Value()
	if aok && bok {
		if v, ok := foldBin(op, a, b); ok {
			return Const(v)
		}
	}
	switch op {
	case "+":
		if aok && a == 0 {
			return y
		}
		if bok && b == 0 {
			return x
		}
	case "-":
		if bok && b == 0 {
			return x
		}
	case "*":
		if (aok && a == 0) || (bok && b == 0) {
			return Const(0)
		}
		if aok && a == 1 {
			return y
		}
		if bok && b == 1 {
			return x
		}
	case "/":
		if bok && b == 1 {
			return x
		}
	}
	return &Expr{Kind: ExprBin, Op: op, X: x, Y: y}
}

func foldBin(op string, a, b int64) (int64, bool) {
	switch op {
	case "+":
		r := a + b
		if (r > a) != (b > 0) {
			return 0, false
		}
		return r, true
	case "-":
		r := a - b
		if (r < a) != (b > 0) {
			return 0, false
		}
		return r, true
	case "*":
		if a != 0 && b != 0 {
			r := a * b
			if r/b != a {
				return 0, false
			}
			return r, true
		}
		return 0, true
	case "/":
		if b == 0 {
			return 0, false
		}
		return a / b, true
	case "%":
		if b == 0 {
			return 0, false
		}
		return a % b, true
	case "<<":
		if b < 0 || b > 62 {
			return 0, false
		}
		return a << uint(b), true
	case ">>":
		if b < 0 || b > 63 {
			return 0, false
		}
		return a >> uint(b), true
	case "&":
		return a & b, true
	case "|":
		return a | b, true
	case "^":
		return a ^ b, true
	case "<":
		return b2i(a < b), true
	case "<=":
		return b2i(a <= b), true
	case ">":
		return b2i(a > b), true
	case ">=":
		return b2i(a >= b), true
	case "==":
		return b2i(a == b), true
	case "!=":
		return b2i(a != b), true
	case "&&":
		return b2i(a != 0 && b != 0), true
	case "||":
		return b2i(a != 0 || b != 0), true
	}
	return 0, false
}

func b2i(b bool) int64 {
	if b {
		return 1
	}
	return 0
}

// Neg returns -x, folded when x is constant.
func Neg(x *Expr) *Expr {
	if v, ok := x.Value(); ok {
		return Const(-v)
	}
	return &Expr{Kind: ExprNeg, X: x}
}

// Subst returns e with every symbol for which f returns a non-nil expression
// replaced, refolding as it goes. It is how a rule binds sizeof(T) to the
// element size of the instruction at hand.
func (e *Expr) Subst(f func(kind ExprKind, name string) *Expr) *Expr {
	if e == nil {
		return nil
	}
	switch e.Kind {
	case ExprSym, ExprSizeof:
		if r := f(e.Kind, e.Name); r != nil {
			return r
		}
		return e
	case ExprBin:
		x, y := e.X.Subst(f), e.Y.Subst(f)
		if x == e.X && y == e.Y {
			return e
		}
		return Bin(e.Op, x, y)
	case ExprNeg:
		x := e.X.Subst(f)
		if x == e.X {
			return e
		}
		return Neg(x)
	}
	return e
}

// Linear splits e into base + coef*v for the symbol v, when e is linear in v
// with a constant coefficient. ok is false when it is not (v appears under a
// non-linear operator, or with a symbolic coefficient).
func (e *Expr) Linear(v string) (base *Expr, coef int64, ok bool) {
	if e == nil {
		return nil, 0, false
	}
	switch e.Kind {
	case ExprSym:
		if e.Name == v {
			return Const(0), 1, true
		}
		return e, 0, true
	case ExprConst, ExprSizeof, ExprUnknown:
		return e, 0, true
	case ExprNeg:
		b, c, ok := e.X.Linear(v)
		return Neg(b), -c, ok
	case ExprBin:
		bx, cx, okx := e.X.Linear(v)
		by, cy, oky := e.Y.Linear(v)
		if !okx || !oky {
			return nil, 0, false
		}
		switch e.Op {
		case "+":
			return Bin("+", bx, by), cx + cy, true
		case "-":
			return Bin("-", bx, by), cx - cy, true
		case "*":
			if cx != 0 && cy != 0 {
				return nil, 0, false
			}
			if cx != 0 {
				k, kok := by.Value()
				if !kok {
					return nil, 0, false
				}
				return Bin("*", bx, by), cx * k, true
			}
			if cy != 0 {
				k, kok := bx.Value()
				if !kok {
					return nil, 0, false
				}
				return Bin("*", bx, by), cy * k, true
			}
			return Bin("*", bx, by), 0, true
		default:
			if cx != 0 || cy != 0 {
				return nil, 0, false
			}
			return Bin(e.Op, bx, by), 0, true
		}
	}
	return nil, 0, false
}

// Mentions reports whether the symbol name occurs in e.
func (e *Expr) Mentions(name string) bool {
	if e == nil {
		return false
	}
	switch e.Kind {
	case ExprSym, ExprSizeof:
		return e.Name == name
	case ExprBin:
		return e.X.Mentions(name) || e.Y.Mentions(name)
	case ExprNeg:
		return e.X.Mentions(name)
	}
	return false
}

// String prints e in C syntax, fully parenthesised below the top level.
func (e *Expr) String() string {
	var b strings.Builder
	e.write(&b, true)
	return b.String()
}

func (e *Expr) write(b *strings.Builder, top bool) {
	if e == nil {
		b.WriteString("?")
		return
	}
	switch e.Kind {
	case ExprConst:
		b.WriteString(strconv.FormatInt(e.Val, 10))
	case ExprSym:
		b.WriteString(e.Name)
	case ExprSizeof:
		b.WriteString("sizeof(" + e.Name + ")")
	case ExprUnknown:
		b.WriteString("?{" + e.Text + "}")
	case ExprNeg:
		b.WriteString("-")
		e.X.write(b, false)
	case ExprBin:
		if !top {
			b.WriteByte('(')
		}
		e.X.write(b, false)
		b.WriteString(" " + e.Op + " ")
		e.Y.write(b, false)
		if !top {
			b.WriteByte(')')
		}
	}
}

// VectorBytes is the vector length of the Ascend 950 register file in bytes
// (VRegSize, VECTOR_REG_WIDTH, GetVecLen()).
const VectorBytes = 256

// BlockBytes is the size of one UB data block, the unit of UB alignment
// (GetUbBlockSize(), GetDataBlockSizeInBytes()).
const BlockBytes = 32

// SizeCalls are the platform queries that return a fixed size on the
// chip, by their last name component (platform::GetVRegSize(),
// Ops::Base::GetUbBlockSize(), AscendC::GetVecLen()).
var SizeCalls = map[string]int64{
	"GetVRegSize": VectorBytes, "GetVecLen": VectorBytes, "asc_get_vf_len": VectorBytes,
	"GetUbBlockSize": BlockBytes, "GetDataBlockSizeInBytes": BlockBytes,
}

// ElemSize returns sizeof(t) for the usual Ascend element types, and false
// for anything else (template parameters, structs).
func ElemSize(t string) (int64, bool) {
	t = strings.TrimSpace(strings.TrimPrefix(strings.TrimPrefix(t, "const "), "AscendC::"))
	t = strings.TrimPrefix(t, "std::")
	switch t {
	case "int8_t", "uint8_t", "char", "signed char", "unsigned char", "bool", "int8", "uint8",
		"hifloat8_t", "fp8_e4m3fn_t", "fp8_e5m2_t", "fp8_e8m0_t", "fp4x2_e2m1_t", "fp4x2_e1m2_t", "int4x2_t":
		return 1, true
	case "int16_t", "uint16_t", "half", "bfloat16_t", "short", "unsigned short", "int16", "uint16", "float16_t":
		return 2, true
	case "int32_t", "uint32_t", "float", "int", "unsigned", "unsigned int", "int32", "uint32", "complex32", "float32_t":
		return 4, true
	case "int64_t", "uint64_t", "double", "long", "unsigned long", "long long", "unsigned long long", "size_t", "int64", "uint64", "complex64":
		return 8, true
	}
	return 0, false
}

// ZeroOne reports whether e's value is 0 or 1: the constant 0 or 1, or a
// comparison or logical operation.
func (e *Expr) ZeroOne() bool {
	if e == nil {
		return false
	}
	if v, ok := e.Value(); ok {
		return v == 0 || v == 1
	}
	if e.Kind == ExprBin {
		switch e.Op {
		case "<", ">", "<=", ">=", "==", "!=", "&&", "||":
			return true
		}
	}
	return false
}

// Known reports whether e holds no unknown part.
func (e *Expr) Known() bool {
	if e == nil {
		return false
	}
	switch e.Kind {
	case ExprUnknown:
		return false
	case ExprBin:
		return e.X.Known() && e.Y.Known()
	case ExprNeg:
		return e.X.Known()
	}
	return true
}

// Pure reports whether e is built from constants and sizeof only: a value
// fixed for the whole region even when it does not fold.
func (e *Expr) Pure() bool {
	if e == nil {
		return false
	}
	switch e.Kind {
	case ExprConst, ExprSizeof:
		return true
	case ExprBin:
		return e.X.Pure() && e.Y.Pure()
	case ExprNeg:
		return e.X.Pure()
	}
	return false
}
