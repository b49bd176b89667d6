package ir

import "strings"

// LinkTargets sets Instr.Target of every helper call in funcs to the
// definition it calls among funcs: the one of its name (qualified, or by
// last component) that takes as many parameters as the call passes, or
// the only one of its name that can take them. A call that several
// definitions could take, or that calls its own function, keeps no
// target: its body is not known.
func LinkTargets(funcs []*Func) {
	byName := map[string][]*Func{}
	for _, fn := range funcs {
		if fn.Kind == RegionVecScope || fn.Body == nil {
			continue
		}
		byName[fn.Name] = append(byName[fn.Name], fn)
		if k := strings.LastIndex(fn.Name, "::"); k >= 0 {
			byName[fn.Name[k+2:]] = append(byName[fn.Name[k+2:]], fn)
		}
	}
	if len(byName) == 0 {
		return
	}
	for _, fn := range funcs {
		for _, in := range fn.Instrs {
			if in.Op != OpCall {
				continue
			}
			cands := byName[in.Name]
			if len(cands) == 0 {
				cands = byName[lastName(in.Callee)]
			}
			in.Target = PickTarget(cands, len(in.Args))
			if in.Target == fn {
				in.Target = nil
			}
		}
	}
}

// PickTarget returns the one definition among cands that takes n
// arguments: exactly n parameters, else the only one whose parameters
// past the n-th all have default arguments. A call whose arguments do not
// match (a macro that expands to several) picks none.
func PickTarget(cands []*Func, n int) *Func {
	var exact, more *Func
	exacts, mores := 0, 0
	for _, c := range cands {
		switch {
		case len(c.Params) == n:
			if exact != c {
				exacts++
			}
			exact = c
		case len(c.Params) > n && defaultsFrom(c.Params, n):
			if more != c {
				mores++
			}
			more = c
		}
	}
	switch {
	case exacts == 1:
		return exact
	case exacts == 0 && mores == 1:
		return more
	}
	return nil
}

// defaultsFrom reports whether every parameter from the n-th on has a
// default argument.
func defaultsFrom(ps []Param, n int) bool {
	for _, p := range ps[n:] {
		if !p.Default {
			return false
		}
	}
	return true
}

// lastName is the last component of a callee as written: the name after
// the last :: (a::B<T>::f -> f), without template arguments.
func lastName(callee string) string {
	var b strings.Builder
	depth := 0
	for i := 0; i < len(callee); i++ {
		switch c := callee[i]; {
		case c == '<':
			depth++
		case c == '>' && depth > 0:
			depth--
		case depth == 0:
			b.WriteByte(c)
		}
	}
	s := b.String()
	if k := strings.LastIndex(s, "::"); k >= 0 {
		s = s[k+2:]
	}
	return strings.TrimSpace(s)
}
