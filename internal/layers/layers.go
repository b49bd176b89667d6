// Package layers is ascvet's package map as data: which layer each package
// of the module belongs to, and so which packages it may import. Data flows
// one way, down the layers; TestLayers holds the imports of every package
// of the module against this table, and docs/architecture.md draws it.
package layers

import "strings"

// Module is the module path.
const Module = "github.com/ascvet/ascvet"

// Layer is a rank in the package map: a package may import packages of
// lower layers only (and its own subpackages or parent, which share its
// layer).
type Layer int

// The layers, bottom up.
const (
	Base    Layer = iota // self-contained helpers and the IR: regfile, gitquote, golden, cppfront/ir, ruleset/i18n
	Front                // the C++ and Python front ends, the rule metadata and configuration
	Core                 // liveness and register pressure, the cycle simulator
	Rules                // the analyzers: one per rule, and the providers they share
	Driver               // what a run of ascvet does around the rules: roots, reports
	Command              // the command lines: ascvet's (internal/cli) and the docs generator
	Main                 // the programs' mains: cmd/ascvet, a call of cli.Main
)

var names = [...]string{"base", "front", "core", "rules", "driver", "command", "main"}

func (l Layer) String() string { return names[l] }

// layers maps a package path relative to the module, or a prefix ending
// in "/" that names a subtree, to its layer. The longest match wins.
var layers = map[string]Layer{
	"internal/regfile/":  Base,
	"internal/gitquote/": Base,
	"internal/golden/":   Base,
	"internal/testfs/":   Base,
	"internal/vfgen/":    Base,
	"internal/tempfile/": Base,
	"internal/layers/":   Base,
	"cppfront/ir/":       Base,
	"ruleset/i18n/":      Base,

	"cppfront/": Front,
	"ruleset/":  Front,

	"regalloc/": Core,
	"simcheck/": Core,

	"analyzers/": Rules,

	"internal/git/":         Driver,
	"internal/progress/":    Driver,
	"internal/repo/":        Driver,
	"internal/source/":      Driver,
	"internal/report/":      Driver,
	"internal/resultcache/": Driver,
	"internal/driver/":      Driver,
	"internal/lsp/":         Driver,

	"internal/cli/":             Command,
	"cmd/":                      Main,
	"ruleset/internal/gendocs/": Command, // go generate ./ruleset: writes docs/rules.md from every rule
}

// Of returns the layer of the module's package path (full import path),
// and false for a path outside the table.
func Of(path string) (Layer, bool) {
	rel, ok := strings.CutPrefix(path, Module+"/")
	if !ok {
		return 0, false
	}
	rel += "/"
	best, layer := -1, Layer(0)
	for prefix, l := range layers {
		if strings.HasPrefix(rel, prefix) && len(prefix) > best {
			best, layer = len(prefix), l
		}
	}
	return layer, best >= 0
}

// Allowed reports whether the module's package from may import the
// module's package to: to is in a lower layer, or in the same layer and
// the same tree (the first path element below the module: cppfront and
// cppfront/pyfront, simcheck and simcheck/replay, analyzers/asc1001 and
// analyzers/internal/stream, internal/report and internal/repo).
func Allowed(from, to string) bool {
	lf, okf := Of(from)
	lt, okt := Of(to)
	switch {
	case !okf || !okt:
		return false
	case lt < lf:
		return true
	}
	return lt == lf && tree(from) == tree(to)
}

// tree is the first path element of the package path below the module.
func tree(path string) string {
	rel := strings.TrimPrefix(path, Module+"/")
	first, _, _ := strings.Cut(rel, "/")
	return first
}
