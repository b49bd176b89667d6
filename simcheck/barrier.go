package simcheck

import (
	"strings"

	"github.com/ascvet/ascvet/cppfront/ir"
)

// barrierKinds says which vector accesses a LocalMemBar waits for (its
// source pipes) and which it holds (its destination pipes).
type barrierKinds struct{ srcLoad, srcStore, dstLoad, dstStore bool }

// barrierOf reads the pipes of a barrier from its spelling:
// LocalMemBar<MemType::VEC_STORE, MemType::VEC_LOAD>, or the C API's
// mem_bar(VST_VLD) (first the source, then the pipe that waits; V vector,
// S scalar; ALL both loads and stores). A spelling it cannot read orders
// as VEC_STORE before every vector access, as it did before the pipes
// were read.
func barrierOf(in *ir.Instr) barrierKinds {
	def := barrierKinds{srcStore: true, dstLoad: true, dstStore: true}
	if in == nil {
		return def
	}
	var src, dst string
	switch {
	case len(in.TArgs) == 2:
		src, dst = memTypeOf(in.TArgs[0]), memTypeOf(in.TArgs[1])
	case len(in.Args) == 1:
		mode := in.Args[0].Text
		if i := strings.LastIndexAny(mode, ":."); i >= 0 {
			mode = mode[i+1:]
		}
		a, b, ok := strings.Cut(mode, "_")
		if !ok {
			return def
		}
		switch {
		case b == "ALL" && len(a) == 2: // VV_ALL, VS_ALL, SV_ALL, SS_ALL
			src, dst = memSide(a[:1]), memSide(a[1:])
		case b == "ALL":
			return def
		default:
			src, dst = memMode(a), memMode(b)
		}
	}
	if src == "" || dst == "" {
		return def
	}
	return barrierKinds{
		srcLoad: src == "VEC_LOAD" || src == "VEC_ALL", srcStore: src == "VEC_STORE" || src == "VEC_ALL",
		dstLoad: dst == "VEC_LOAD" || dst == "VEC_ALL", dstStore: dst == "VEC_STORE" || dst == "VEC_ALL",
	}
}

// memTypeOf returns the MemType enumerator a template argument names
// (AscendC::Reg::MemType::VEC_STORE -> VEC_STORE), "" for none.
func memTypeOf(s string) string {
	if i := strings.LastIndex(s, "::"); i >= 0 {
		s = s[i+2:]
	}
	switch s {
	case "VEC_STORE", "VEC_LOAD", "VEC_ALL", "SCALAR_STORE", "SCALAR_LOAD", "SCALAR_ALL":
		return s
	}
	return ""
}

// memSide is the MemType of both pipes of one side of a C-API _ALL mode
// (V vector, S scalar), "" for none.
func memSide(c string) string {
	switch c {
	case "V":
		return "VEC_ALL"
	case "S":
		return "SCALAR_ALL"
	}
	return ""
}

// memMode is the MemType of one side of a C-API mode: VST, VLD, ST, LD.
func memMode(s string) string {
	switch s {
	case "VST":
		return "VEC_STORE"
	case "VLD":
		return "VEC_LOAD"
	case "ST":
		return "SCALAR_STORE"
	case "LD":
		return "SCALAR_LOAD"
	}
	return ""
}
