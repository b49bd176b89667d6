package cli

import (
	"flag"
	"go/ast"
	"go/parser"
	"go/token"
	"io"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// TestHintsNameCommands: every command line a message or a help text
// hands the user ("(ascvet -list shows them)", "run 'ascvet -h'", "ascvet
// regs FILE:LINE prints ...", "rewrite it with -write-baseline") names a
// subcommand and flags that exist. The texts are the string literals of
// the module's Go files outside tests (messages, usages, rule docs and
// their translations); in them:
//
//   - "ascvet WORD ..." where WORD is a subcommand: each -flag after it
//     must be one of that subcommand's, as "ascvet -flag ..." must be one
//     of ascvet's. "ascvet" followed by any other word is prose ("ascvet
//     reads UTF-8", "run ascvet locally"), unless the text quotes it or
//     says "see ascvet WORD": then WORD must be a subcommand;
//   - any other -flag must be a flag of ascvet or of a subcommand, or one
//     of the few other tools' flags the texts name (notOurs).
func TestHintsNameCommands(t *testing.T) {
	sets := map[string]*flag.FlagSet{}
	sets[""], _ = mainFlags(io.Discard)
	for _, c := range commands {
		sets[c.name] = c.flags(io.Discard)
	}
	has := func(fs *flag.FlagSet, name string) bool {
		if name == "h" || name == "help" {
			return true
		}
		if family, ok := strings.CutSuffix(name, "-*"); ok { // -max-*
			found := false
			fs.VisitAll(func(f *flag.Flag) { found = found || strings.HasPrefix(f.Name, family+"-") })
			return found
		}
		return fs.Lookup(name) != nil
	}
	anyHas := func(name string) bool {
		for _, fs := range sets {
			if has(fs, name) {
				return true
			}
		}
		return false
	}

	texts := literals(t, "../..")
	checked := map[string]bool{} // the hints checked, "sim -f"
	for _, lit := range texts {
		for _, m := range ascvetHint.FindAllStringSubmatchIndex(lit.text, -1) {
			at := m[2] - len("ascvet ")
			before, rest := lit.text[:at], lit.text[m[2]:m[3]]
			if strings.HasSuffix(before, "-c ") { // fish's complete -c ascvet -n ...: a completion script, not a hint
				continue
			}
			words := strings.Fields(rest)
			if len(words) == 0 {
				continue
			}
			cmd := ""
			if first := strings.TrimRight(words[0], ":*."); strings.HasPrefix(first, "%") {
				continue // "ascvet %s: %s": a command filled in (commandError), checked where it is called
			} else if !strings.HasPrefix(first, "-") {
				if lookupCommand(first) == nil {
					if told.MatchString(before) {
						t.Errorf("%s: %q names ascvet %s, which is no command (%s)", lit.pos, lit.excerpt(at), first, strings.Join(commandNames(), ", "))
					}
					continue // prose: "ascvet reads UTF-8"
				}
				cmd, words = first, words[1:]
				checked[cmd] = true
			}
			for _, w := range words {
				w = strings.Trim(w, "[]")
				if w == "--" {
					break
				}
				name, ok := flagWord(w)
				if !ok {
					continue
				}
				if !has(sets[cmd], name) {
					t.Errorf("%s: %q names -%s, which ascvet %s does not have", lit.pos, lit.excerpt(at), name, cmd)
				}
				checked[strings.TrimSpace(cmd+" -"+name)] = true
			}
		}
		for _, m := range flagMention.FindAllStringSubmatchIndex(lit.text, -1) {
			name := lit.text[m[2]:m[3]]
			if strings.HasSuffix(lit.text[:m[2]], "--") || notOurs[name] {
				continue // another tool's (git's --show-toplevel; ascvet's own texts use one dash)
			}
			if strings.HasPrefix(lit.text[m[3]:], "*") {
				name += "*"
			}
			if !anyHas(name) {
				t.Errorf("%s: %q names -%s, which neither ascvet nor a subcommand has", lit.pos, lit.excerpt(m[2]), name)
			}
			checked["-"+name] = true
		}
	}
	// The extraction finds the hints it is meant to check.
	for _, want := range []string{"-list", "-h", "help", "explain", "regs", "sim", "config", "-write-baseline", "-fail-no-saving"} {
		if !checked[want] {
			t.Errorf("no hint %q found among %d texts: the extraction misses it", want, len(texts))
		}
	}
}

// ascvetHint is "ascvet" as a word followed by a space, and what follows
// up to the end of the hint (a quote, a bracket closing, a clause ending).
var ascvetHint = regexp.MustCompile("(?:^|[^A-Za-z0-9_./-])ascvet ([^'\"`()\\n;,。，（）：]*)")

// told is the end of a text that introduces a command line: a quote, or
// "see" ("run ascvet locally" is prose).
var told = regexp.MustCompile("(?:['\"`]|\\bsee )$")

// flagMention is a -flag in running text: after a space, a bracket or a
// quote, one dash and a lowercase word of two letters or more (one letter
// is as often a shell's or git's: -c, -t, -z).
var flagMention = regexp.MustCompile("(?:^|[\\s(\\[`'\"])-([a-z][a-z0-9]+(?:-[a-z0-9]+)*-?)")

// notOurs are the flags of other tools that the texts name: go build's
// -buildvcs, go test's -update, a test binary's -test.run, patch -p1, the shell's test -gt and -eq,
// and words that are no flags: the -dirty of a revision, the -inherit
// that a config list rejects.
var notOurs = map[string]bool{"buildvcs": true, "update": true, "test": true, "p1": true, "gt": true, "eq": true, "dirty": true, "inherit": true}

// flagWord returns the name of the flag w ("-f", "--fix", "-fail=error",
// "-max-*"), and whether w is one.
func flagWord(w string) (string, bool) {
	if !strings.HasPrefix(w, "-") || w == "-" {
		return "", false
	}
	name := strings.TrimPrefix(strings.TrimPrefix(w, "-"), "-")
	if i := strings.IndexAny(name, "=|"); i >= 0 {
		name = name[:i]
	}
	name = strings.TrimRight(name, ".:")
	if name == "" || !(name[0] >= 'a' && name[0] <= 'z') {
		return "", false // -RULE, -ASC3004: a list entry, not a flag
	}
	return name, true
}

// literal is a string literal of the module's Go source.
type literal struct {
	text string
	pos  string // file:line
}

func (l literal) excerpt(at int) string {
	end := min(len(l.text), at+60)
	if i := strings.IndexByte(l.text[at:end], '\n'); i >= 0 {
		end = at + i
	}
	return strings.TrimSpace(l.text[max(0, at-20):end])
}

// literals returns the string literals of the Go files under root, tests
// and testdata left out.
func literals(t *testing.T, root string) []literal {
	t.Helper()
	var out []literal
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if p != root && (d.Name() == "testdata" || strings.HasPrefix(d.Name(), ".") || d.Name() == "node_modules") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(p, ".go") || strings.HasSuffix(p, "_test.go") {
			return nil
		}
		src, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, p, src, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		ast.Inspect(f, func(n ast.Node) bool {
			if bl, ok := n.(*ast.BasicLit); ok && bl.Kind == token.STRING {
				if s, err := strconv.Unquote(bl.Value); err == nil {
					pos := fset.Position(bl.Pos())
					rel, _ := filepath.Rel(root, pos.Filename)
					out = append(out, literal{text: s, pos: filepath.ToSlash(rel) + ":" + strconv.Itoa(pos.Line)})
				}
			}
			return true
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(out) < 1000 {
		t.Fatalf("only %d string literals under %s", len(out), root)
	}
	slices.SortFunc(out, func(a, b literal) int { return strings.Compare(a.pos, b.pos) })
	return out
}

// TestHintsRun follows the hints of ascvet's usage mistakes and findings:
// each command line a message gives ("run 'ascvet sim -h' for usage",
// "(ascvet version -h lists the flags)", "(ascvet -list shows them)",
// "did you mean -fail error") is run, and must do what the hint promises.
// A subcommand's mistake points at that subcommand's usage, not ascvet's,
// whose flags are others.
func TestHintsRun(t *testing.T) {
	type mistake struct {
		cmd  string   // the command whose usage a -h hint must show ("" for ascvet)
		args []string // the command line
	}
	mistakes := []mistake{
		{"", []string{"-fial"}}, {"", []string{"-fail", "errors"}}, {"", []string{"-j", "abc"}}, {"", []string{"-lang", "fr"}},
		{"", []string{"stat"}}, {"help", []string{"help", "smi"}}, {"help", []string{"help", "sim", "regs"}},
		{"version", []string{"version", "-f", "xml"}}, {"version", []string{"version", "now"}},
		{"sim", []string{"sim"}}, {"sim", []string{"sim", "-f", "xml", "x.asc:1"}}, {"sim", []string{"sim", "-iterations", "0", "x.asc:1"}},
		{"regs", []string{"regs"}}, {"regs", []string{"regs", "-f", "xml", "x.asc"}},
		{"stats", []string{"stats", "-j", "0"}}, {"ir", []string{"ir"}},
		{"config", []string{"config"}}, {"config", []string{"config", "prnt"}}, {"config print", []string{"config", "print", "-f", "xml"}},
		{"completion", []string{"completion"}}, {"completion", []string{"completion", "bsh"}},
		{"explain", []string{"explain", "-lang", "fr", "ASC1001"}},
		{"lsp", []string{"lsp", "x.asc"}}, {"lsp", []string{"lsp", "-cache", "maybe"}}, {"lsp", []string{"lsp", "-lang", "fr"}},
		{"", []string{"-cache", "off", "../../testdata/kernels/directives.asc"}}, // the findings' hints: ASC0002's
	}
	for _, c := range commands {
		name := c.name
		if name == "config" {
			name = "config print"
		}
		mistakes = append(mistakes, mistake{name, append(strings.Fields(name), "-frobnicate")})
	}
	followed, seen := 0, map[string]bool{}
	for _, m := range mistakes {
		code, out, errs := ascvet(t, m.args...)
		text := errs + out
		if code == exitOK {
			t.Errorf("ascvet %s: exit 0; want a mistake", strings.Join(m.args, " "))
			continue
		}
		hints := hintLine.FindAllStringSubmatch(text, -1)
		if len(hints) == 0 {
			t.Errorf("ascvet %s: no hint in %q", strings.Join(m.args, " "), text)
		}
		for _, h := range hints {
			hint := h[1] + h[2] + h[3]
			args := strings.Fields(hint)
			if args[0] == "ascvet" {
				args = args[1:]
			} else { // "did you mean -fail error": the corrected command line
				args = append(args, "testdata/walk")
			}
			code, hout, herrs := ascvet(t, args...)
			followed++
			seen[hint] = true
			switch {
			case code == exitUsage || code == exitInternal:
				t.Errorf("ascvet %s says %q; that fails: exit %d, stderr %q", strings.Join(m.args, " "), hint, code, herrs)
			case len(args) > 0 && args[len(args)-1] == "-h":
				want := strings.TrimSpace("usage: ascvet " + m.cmd)
				if m.cmd == "" {
					want = "usage: ascvet [flags]"
				}
				if !strings.HasPrefix(hout, want) {
					t.Errorf("ascvet %s says %q, which prints %.50q; want the usage of ascvet %s", strings.Join(m.args, " "), hint, hout, m.cmd)
				}
			case hint == "ascvet -list":
				// "name a rule by ID, name or glob (ascvet -list shows them)"
				if !strings.Contains(hout, "ASC1001") || !strings.Contains(hout, "unalign-pre-in-loop") {
					t.Errorf("ascvet -list does not show the rules' IDs and names:\n%s", hout)
				}
			case hout == "":
				t.Errorf("ascvet %s says %q, which prints nothing", strings.Join(m.args, " "), hint)
			}
		}
	}
	if followed < len(mistakes) || !seen["ascvet -list"] || !seen["-fail error"] || !seen["ascvet config print -h"] {
		t.Errorf("followed %d hints of %d mistakes: %q", followed, len(mistakes), slices.Sorted(maps.Keys(seen)))
	}
}

// hintLine is a command line a message hands the user: "run 'ascvet ...'",
// "(ascvet ... lists|shows ...)", or "did you mean -fail ..." (a flag's
// suggested value).
var hintLine = regexp.MustCompile(`run '(ascvet[^']*)'|\((ascvet [^()]*?) (?:lists|shows) [^()]*\)|did you mean (-fail [^?,]+)`)
