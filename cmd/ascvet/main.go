// Command ascvet checks Huawei Ascend C vector-function (VF) kernels for
// performance and correctness problems.
//
// Usage:
//
//	ascvet [flags] [path ...]
//	ascvet stats [-j N] [path ...]
//	ascvet lsp [-baseline FILE]
//	ascvet help [COMMAND]
//	ascvet version [-f json]
//	ascvet completion bash|zsh|fish
//
// Flags may come before or after the paths; "--" ends them (internal/cli/flags.go).
//
// Each path is a file or a directory; a directory (also spelled "dir/...") is
// walked recursively for .asc .cpp .cc .cxx .h .hh .hpp .hxx files, skipping
// hidden directories and build, out, output and node_modules. Without a path,
// ascvet checks the current directory. Files without a VF marker are not
// parsed.
//
// Findings are printed gcc style, "file:line:col: severity: message [RULE]",
// followed by a one-line summary, or as one JSON array with -f json.
//
// With -fix, ascvet applies the suggested fixes of the findings, writes each
// changed file atomically (one write per file, whatever the number of rules
// that fixed it), prints "ascvet: fixed N findings in FILE" on stderr for
// each, and then reports the findings that remain in the fixed files. With
// -diff it prints what -fix would change as a unified diff, and writes
// nothing.
//
// Exit codes:
//
//	0  no finding at or above the -fail-on severity (default warning); after
//	   -fix, no such finding remains
//	1  findings at or above the -fail-on severity (after -fix: that remain;
//	   with -diff: as found, since nothing was written)
//	2  usage or configuration error, an input path or file could not be read
//	   or was skipped (over -max-file-size, -max-depth or -file-timeout, binary,
//	   UTF-16 or UTF-32),
//	   or -fix could not write a file (the rest was still checked and reported)
//	3  internal error: an analyzer failed on a file (reported with the file name)
//
// When several apply, the highest code wins. A signal (SIGHUP, SIGINT,
// SIGQUIT, SIGTERM) that arrives once ascvet has begun writing a file makes
// it remove its temporary files and exit 128+signal (see internal/tempfile).
//
// "ascvet stats" prints one JSON object that tells what ascvet understood of
// the files: VF regions, parse errors, loops, instructions, and the calls it
// does not know.
package main

import (
	"os"

	"github.com/ascvet/ascvet/internal/cli"
)

func main() {
	os.Exit(cli.Main(os.Args[1:], os.Stdout, os.Stderr))
}
