package cli

// This file writes the shell completion scripts of "ascvet completion".
// They are generated from the flag sets of ascvet and of its subcommands,
// so that a new flag completes without anyone editing a script: the flag
// names, whether a flag takes a value, and what value, which its
// placeholder in the usage string names (-f `FORMAT`, -lang `LANG`, ...).

import (
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/ascvet/ascvet/internal/report"
	"github.com/ascvet/ascvet/ruleset"
	"github.com/ascvet/ascvet/simcheck"
)

// shells are the shells ascvet completion writes a script for.
var shells = []string{"bash", "zsh", "fish"}

// complFlag is one flag as the completion scripts see it.
type complFlag struct {
	name   string   // without the dash
	desc   string   // the first clause of its usage
	value  bool     // takes a value
	what   string   // its placeholder, FORMAT, when it takes a value
	file   bool     // the value is a file name
	values []string // the values it takes, when they are few and known
}

// complCommand is ascvet ("") or a subcommand, with its flags and what its
// arguments are (subcommand.args).
type complCommand struct {
	name  string
	args  string
	flags []complFlag
}

// completionModel reads the flag sets.
func completionModel() []complCommand {
	fs, _ := mainFlags(io.Discard)
	out := []complCommand{{name: "", args: "paths", flags: complFlags("", fs)}}
	for _, c := range commands {
		out = append(out, complCommand{name: c.name, args: c.args, flags: complFlags(c.name, c.flags(io.Discard))})
	}
	return out
}

func complFlags(cmd string, fs *flag.FlagSet) []complFlag {
	var out []complFlag
	fs.VisitAll(func(f *flag.Flag) {
		placeholder, usage := flag.UnquoteUsage(f)
		cf := complFlag{name: f.Name, desc: firstClause(usage), value: !isBoolFlag(f)}
		if cf.value {
			cf.what = placeholder
			cf.file = placeholder == "FILE"
			cf.values = placeholderValues(cmd, placeholder)
		}
		out = append(out, cf)
	})
	return out
}

// placeholderValues are the values of a flag whose placeholder is p, in
// command cmd, or nil when they are not a short known list.
func placeholderValues(cmd, p string) []string {
	switch p {
	case "FORMAT":
		switch cmd {
		case "":
			return report.Formats
		case "explain":
			return []string{"text", "markdown"}
		}
		return []string{"text", "json"}
	case "LANG":
		return []string{"en", "zh"}
	case "CHIP":
		return simcheck.Chips()
	case "WHEN":
		return []string{"auto", "always", "never"}
	case "LEVEL":
		return []string{"high", "low"}
	case "SWITCH":
		return []string{"on", "off"}
	case "SEVERITY":
		return severityNames()
	case "WHAT":
		return append([]string{"none"}, severityNames()...)
	case "RULES":
		return append([]string{"all"}, ruleIDs()...)
	}
	return nil
}

func severityNames() []string {
	var out []string
	for s := ruleset.Info; s <= ruleset.Error; s++ {
		out = append(out, s.String())
	}
	return out
}

// ruleIDs are the rule IDs and names, what explain takes.
func ruleIDs() []string {
	var out []string
	for _, r := range ruleset.All() {
		out = append(out, r.ID)
	}
	for _, r := range ruleset.All() {
		out = append(out, r.Name)
	}
	return out
}

// firstClause is the usage up to its first colon, semicolon or
// parenthesis, in the characters every shell's quoting here can carry.
func firstClause(usage string) string {
	if i := strings.IndexAny(usage, ":;("); i > 0 {
		usage = usage[:i]
	}
	usage = strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune(" -,./+*", r) {
			return r
		}
		return ' '
	}, usage)
	return strings.Join(strings.Fields(usage), " ")
}

// completionFlags is the flag set of ascvet completion, which has no flag
// but -h.
func completionFlags(stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet("ascvet completion", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprint(stderr, `usage: ascvet completion bash|zsh|fish

Prints the completion script of the shell: subcommands, flags, the values
of flags that take a few (-f, -lang, -color, -chip, -fail, -confidence),
rule IDs for explain, and files for paths. Load it with

  bash:  source <(ascvet completion bash)     (in ~/.bashrc)
  zsh:   source <(ascvet completion zsh)      (in ~/.zshrc, after compinit)
  fish:  ascvet completion fish > ~/.config/fish/completions/ascvet.fish
`)
	}
	return fs
}

// runCompletion implements "ascvet completion SHELL".
func runCompletion(args []string, stdout, stderr io.Writer) int {
	fs := completionFlags(stderr)
	if code, ok := parseArgs(fs, args, stderr); !ok {
		return code
	}
	if fs.NArg() != 1 {
		return commandError(stderr, "completion", "name a shell: "+strings.Join(shells, ", "))
	}
	model := completionModel()
	switch fs.Arg(0) {
	case "bash":
		writeBash(stdout, model)
	case "zsh":
		writeZsh(stdout, model)
	case "fish":
		writeFish(stdout, model)
	default:
		msg := fmt.Sprintf("unknown shell %q", fs.Arg(0))
		if s := suggest(fs.Arg(0), shells); s != "" {
			msg += "; did you mean " + s + "?"
		}
		return commandError(stderr, "completion", msg+" (want "+strings.Join(shells, ", ")+")")
	}
	return exitOK
}

// argWords are the words a command's arguments complete to, besides files.
func argWords(args string) []string {
	switch args {
	case "rules":
		return ruleIDs()
	case "commands":
		return commandNames()
	case "shells":
		return shells
	case "config":
		return []string{"print"}
	}
	return nil
}

// argFiles reports whether a command's arguments complete to files.
func argFiles(args string) bool { return args == "paths" || args == "config" }

func writeBash(w io.Writer, model []complCommand) {
	fmt.Fprint(w, `# bash completion for ascvet, written by "ascvet completion bash".
# Load it with: source <(ascvet completion bash)

_ascvet() {
    local cur prev cmd
    cur="${COMP_WORDS[COMP_CWORD]}"
    prev="${COMP_WORDS[COMP_CWORD-1]}"
    cmd=""
    if [[ $COMP_CWORD -gt 1 ]]; then
        case "${COMP_WORDS[1]}" in
            `+strings.Join(commandNames(), "|")+`) cmd="${COMP_WORDS[1]}" ;;
        esac
    fi
    case "$cmd" in
`)
	for _, c := range model {
		label := c.name
		if label == "" {
			label = `""`
		}
		fmt.Fprintf(w, "        %s)\n            case \"$prev\" in\n", label)
		for _, f := range c.flags {
			if !f.value {
				continue
			}
			fmt.Fprintf(w, "                -%s|--%s) ", f.name, f.name)
			switch {
			case f.file:
				fmt.Fprint(w, `compopt -o filenames 2>/dev/null; COMPREPLY=($(compgen -f -- "$cur")); return ;;`+"\n")
			case len(f.values) > 0:
				fmt.Fprintf(w, "COMPREPLY=($(compgen -W %q -- \"$cur\")); return ;;\n", strings.Join(f.values, " "))
			default:
				fmt.Fprint(w, "COMPREPLY=(); return ;;\n")
			}
		}
		var names []string
		for _, f := range c.flags {
			names = append(names, "-"+f.name)
		}
		fmt.Fprintf(w, "            esac\n            if [[ $cur == -* ]]; then\n                COMPREPLY=($(compgen -W %q -- \"$cur\")); return\n            fi\n", strings.Join(names, " "))
		words := argWords(c.args)
		if c.name == "" {
			fmt.Fprintf(w, "            if [[ $COMP_CWORD -eq 1 ]]; then\n                COMPREPLY=($(compgen -W %q -- \"$cur\"))\n            fi\n", strings.Join(commandNames(), " "))
		} else if len(words) > 0 {
			fmt.Fprintf(w, "            COMPREPLY=($(compgen -W %q -- \"$cur\"))\n", strings.Join(words, " "))
		}
		if argFiles(c.args) {
			fmt.Fprint(w, "            compopt -o filenames 2>/dev/null\n            COMPREPLY+=($(compgen -f -- \"$cur\"))\n")
		}
		fmt.Fprint(w, "            ;;\n")
	}
	fmt.Fprint(w, `    esac
}

complete -F _ascvet ascvet
`)
}

// zshQuote quotes s for zsh inside single quotes.
func zshQuote(s string) string { return strings.ReplaceAll(s, "'", `'\''`) }

func writeZsh(w io.Writer, model []complCommand) {
	fmt.Fprint(w, `#compdef ascvet
# zsh completion for ascvet, written by "ascvet completion zsh".
# Load it with: source <(ascvet completion zsh)   (after compinit)

_ascvet() {
    local -a commands
    commands=(`)
	for _, c := range commands {
		fmt.Fprintf(w, " '%s'", c.name)
	}
	fmt.Fprint(w, `)
    local cmd=""
    if (( CURRENT > 2 )) && (( ${commands[(Ie)$words[2]]} )); then
        cmd=$words[2]
        shift words
        (( CURRENT-- ))
    fi
    case $cmd in
`)
	for _, c := range model {
		label := c.name
		if label == "" {
			label = `""`
		}
		fmt.Fprintf(w, "        %s)\n            _arguments -S", label)
		for _, f := range c.flags {
			spec := "*-" + f.name
			if f.value {
				spec += "="
			}
			spec += "[" + f.desc + "]"
			if f.value {
				action := " "
				switch {
				case f.file:
					action = "_files"
				case len(f.values) > 0:
					action = "(" + strings.Join(f.values, " ") + ")"
				}
				spec += ":" + f.what + ":" + action
			}
			fmt.Fprintf(w, " \\\n                '%s'", zshQuote(spec))
		}
		var rest string
		words := argWords(c.args)
		switch {
		case c.name == "":
			rest = "*:path:_files"
			fmt.Fprintf(w, " \\\n                '1: :->first' '%s'\n", rest)
			fmt.Fprint(w, "            if [[ $state == first ]]; then\n                _alternative 'commands:command:compadd -a commands' 'files:path:_files'\n            fi\n            ;;\n")
			continue
		case len(words) > 0 && argFiles(c.args):
			// config: print, then a path
			fmt.Fprintf(w, " \\\n                '1:argument:(%s)' '*:path:_files'\n            ;;\n", zshQuote(strings.Join(words, " ")))
			continue
		case len(words) > 0:
			rest = "*:argument:(" + strings.Join(words, " ") + ")"
		case argFiles(c.args):
			rest = "*:path:_files"
		}
		if rest != "" {
			fmt.Fprintf(w, " \\\n                '%s'", zshQuote(rest))
		}
		fmt.Fprint(w, "\n            ;;\n")
	}
	fmt.Fprint(w, `    esac
}

if [[ $zsh_eval_context[-1] == loadautofunc ]]; then
    _ascvet "$@"
else
    compdef _ascvet ascvet
fi
`)
}

// fishQuote quotes s for fish inside single quotes.
func fishQuote(s string) string {
	return strings.NewReplacer(`\`, `\\`, `'`, `\'`).Replace(s)
}

func writeFish(w io.Writer, model []complCommand) {
	names := strings.Join(commandNames(), " ")
	fmt.Fprintf(w, `# fish completion for ascvet, written by "ascvet completion fish".
# Install it with: ascvet completion fish > ~/.config/fish/completions/ascvet.fish

complete -c ascvet -n '__fish_use_subcommand' -a '%s'
`, names)
	for _, c := range model {
		cond := "not __fish_seen_subcommand_from " + names
		if c.name != "" {
			cond = "__fish_seen_subcommand_from " + c.name
		}
		for _, f := range c.flags {
			line := fmt.Sprintf("complete -c ascvet -n '%s' -o %s -d '%s'", cond, f.name, fishQuote(f.desc))
			switch {
			case f.file:
				line += " -r -F"
			case len(f.values) > 0:
				line += fmt.Sprintf(" -x -a '%s'", fishQuote(strings.Join(f.values, " ")))
			case f.value:
				line += " -x"
			}
			fmt.Fprintln(w, line)
		}
		if words := argWords(c.args); len(words) > 0 && c.name != "" {
			line := fmt.Sprintf("complete -c ascvet -n '%s' -a '%s'", cond, fishQuote(strings.Join(words, " ")))
			if !argFiles(c.args) {
				line += " -f"
			}
			fmt.Fprintln(w, line)
		}
	}
}
