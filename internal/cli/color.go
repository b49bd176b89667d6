package cli

import (
	"fmt"
	"io"
	"os"

	"golang.org/x/term"
)

// useColor decides -color: whether the text format colours its output on
// stdout. "always" colours, even into a pipe and whatever NO_COLOR says (an
// explicit flag wins over the environment, as with most tools); "never"
// does not; "auto" colours only when stdout is a terminal, NO_COLOR is
// unset or empty (https://no-color.org) and TERM is not "dumb". getenv is
// os.Getenv.
func useColor(when string, stdout io.Writer, getenv func(string) string) (bool, error) {
	switch when {
	case "always":
		return true, nil
	case "never":
		return false, nil
	case "auto":
		if getenv("NO_COLOR") != "" || getenv("TERM") == "dumb" {
			return false, nil
		}
		f, ok := stdout.(*os.File)
		return ok && term.IsTerminal(int(f.Fd())), nil
	}
	return false, fmt.Errorf("-color %s: want auto, always or never", when)
}
