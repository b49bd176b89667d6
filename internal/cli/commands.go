package cli

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/ascvet/ascvet/cppfront"
	"github.com/ascvet/ascvet/internal/source"
)

// A subcommand is a command of ascvet after its name ("ascvet sim ...").
type subcommand struct {
	name  string                                            // as typed
	run   func(args []string, stdout, stderr io.Writer) int // args after the name
	flags func(stderr io.Writer) *flag.FlagSet              // its flags, usage to stderr; nil for none
	args  string                                            // what its arguments are, for completion: "paths", "rules", "shells", "commands", "config"
}

// commands are the subcommands, in the order help and completion list them.
// They are filled in by init, since help and completion read the table.
var commands []*subcommand

func init() {
	commands = []*subcommand{
		{name: "explain", run: runExplain, args: "rules", flags: func(w io.Writer) *flag.FlagSet { fs, _, _ := explainFlags(w); return fs }},
		{name: "config", run: runConfig, args: "config", flags: func(w io.Writer) *flag.FlagSet { fs, _ := configPrintFlags(w); return fs }},
		{name: "stats", run: runStats, args: "paths", flags: func(w io.Writer) *flag.FlagSet { fs, _ := statsFlags(w); return fs }},
		{name: "ir", run: runIR, args: "paths", flags: func(w io.Writer) *flag.FlagSet { fs, _ := irFlags(w); return fs }},
		{name: "regs", run: runRegs, args: "paths", flags: func(w io.Writer) *flag.FlagSet { fs, _, _, _ := regsFlags(w); return fs }},
		{name: "sim", run: runSim, args: "paths", flags: func(w io.Writer) *flag.FlagSet { fs, _ := simFlags(w); return fs }},
		{name: "lsp", run: runLSP, flags: func(w io.Writer) *flag.FlagSet { fs, _ := lspFlags(w); return fs }},
		{name: "help", run: runHelp, args: "commands", flags: helpFlags},
		{name: "version", run: runVersion, flags: func(w io.Writer) *flag.FlagSet { fs, _ := versionFlags(w); return fs }},
		{name: "completion", run: runCompletion, args: "shells", flags: completionFlags},
	}
}

// lookupCommand returns the subcommand named name, or nil.
func lookupCommand(name string) *subcommand {
	for _, c := range commands {
		if c.name == name {
			return c
		}
	}
	return nil
}

// commandNames are the names of the subcommands.
func commandNames() []string {
	names := make([]string, len(commands))
	for i, c := range commands {
		names[i] = c.name
	}
	return names
}

// misspeltCommand reports, when arg, the first argument, is no file and
// looks like a misspelt subcommand ("stat"), that it is unknown, with the
// closest subcommand; ok is false when arg is to be taken as a path.
func misspeltCommand(arg string, stderr io.Writer) (code int, ok bool) {
	if arg == "" || strings.HasPrefix(arg, "-") || strings.ContainsAny(arg, `/\.:`) {
		return 0, false
	}
	if _, err := os.Lstat(arg); err == nil {
		return 0, false
	}
	s := suggest(arg, commandNames())
	if s == "" || editDistance(arg, s) > 2 {
		return 0, false
	}
	fmt.Fprintf(stderr, "ascvet: unknown command %q; did you mean %s? (ascvet help lists the commands)\n", arg, s)
	return exitUsage, true
}

// commandError is usageError for a mistake in the arguments of
// subcommand cmd ("sim", "config print"): the message names the command,
// and the hint its own usage, whose flags are not ascvet's:
//
//	ascvet version: -f xml: want text or json
//	run 'ascvet version -h' for usage
func commandError(stderr io.Writer, cmd, msg string) int {
	fmt.Fprintf(stderr, "ascvet %s: %s\nrun 'ascvet %s -h' for usage\n", cmd, msg, cmd)
	return exitUsage
}

// helpFlags is the flag set of ascvet help, which has no flag but -h.
func helpFlags(stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet("ascvet help", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprint(stderr, `usage: ascvet help [COMMAND]

Prints the usage of ascvet, or of COMMAND (`+strings.Join(commandNames(), ", ")+`),
on stdout, as -h does.
`)
	}
	return fs
}

// answerHelp answers -h, -help and --help, wherever they come among the
// arguments of ascvet or of a subcommand (before any mistake), as ascvet
// help does: the usage on stdout, exit 0. A usage mistake stays a line on
// stderr with exit 2. ok is false when the arguments ask for no help.
func answerHelp(args []string, stdout, stderr io.Writer) (code int, ok bool) {
	if len(args) > 0 {
		if c := lookupCommand(args[0]); c != nil {
			if c.flags == nil || !wantsHelp(c.flags(io.Discard), args[1:]) {
				return 0, false
			}
			return runHelp([]string{c.name}, stdout, stderr), true
		}
	}
	fs, _ := mainFlags(io.Discard)
	if !wantsHelp(fs, args) {
		return 0, false
	}
	return runHelp(nil, stdout, stderr), true
}

// runHelp implements "ascvet help [COMMAND]": the usage of ascvet or of a
// subcommand, on stdout (as -h), exit 0; an unknown command is a one-line
// error with the closest command.
func runHelp(args []string, stdout, stderr io.Writer) int {
	fs := helpFlags(stderr)
	if code, ok := parseArgs(fs, args, stderr); !ok {
		return code
	}
	switch fs.NArg() {
	case 0:
		fs, _ := mainFlags(stdout)
		fs.Usage()
		return exitOK
	case 1:
		name := fs.Arg(0)
		c := lookupCommand(name)
		if c == nil {
			msg := fmt.Sprintf("ascvet help: unknown command %q", name)
			if s := suggest(name, commandNames()); s != "" {
				msg += "; did you mean " + s + "?"
			}
			fmt.Fprintf(stderr, "%s (ascvet help lists the commands)\n", msg)
			return exitUsage
		}
		c.flags(stdout).Usage()
		return exitOK
	}
	return commandError(stderr, "help", "name at most one command")
}

// parseFailed reports a cppfront.ParseFile failure of the subcommands that
// parse by themselves (ir, regs, sim): a file beyond a limit is skipped
// (exit 2), anything else is an internal error (exit 3).
func parseFailed(stderr io.Writer, name string, err error) int {
	var le *cppfront.LimitError
	if errors.As(err, &le) {
		fmt.Fprintf(stderr, "ascvet: %s: %s%s\n", name, le.Msg, source.LimitHint(le))
		return exitUsage
	}
	fmt.Fprintf(stderr, "ascvet: %s: internal error: %v\n", name, err)
	return exitInternal
}
