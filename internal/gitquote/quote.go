// Package gitquote writes file names as git quotes them, in diff headers
// and in the lines of text the reports print.
package gitquote

// File names as git quotes them. A file name may hold any byte but "/" and
// NUL: a space, a tab, a newline. Where a name is written into a line of
// text that a person or a program splits (a diff header, "file:line:col:"),
// such a name is quoted the way git quotes paths (quote.c, quote_c_style):
// in double quotes, with the C escapes \a \b \t \n \v \f \r \" \\ and a
// three-digit octal escape for any other control byte and DEL:
//
//	tab<TAB>here.asc    "tab\there.asc"
//	nl<LF>here.asc      "nl\nhere.asc"
//	say "hi".asc        "say \"hi\".asc"
//
// In a diff header ascvet writes exactly what git diff writes
// (core.quotePath on, the default): a name is quoted when it holds a
// control byte, DEL, a double quote, a backslash or any byte outside ASCII
// (café.asc is "caf\303\251.asc"); and when it holds a space, the line ends
// with a tab, so that patch(1) does not take what follows the space for a
// timestamp. git apply and patch -p1 both read these headers.
//
// In the text outputs (text, the GitHub step summary) a name is quoted only
// when it holds a control byte, DEL or a double quote, which would break or
// mislead the line; a backslash (a Windows path) or a Chinese name is
// printed as it is. Inside the quotes, UTF-8 is kept and a byte that is not
// UTF-8 is written in octal.

import (
	"fmt"
	"path/filepath"
	"strings"
	"unicode/utf8"
)

// cEscapes are the bytes git escapes with a letter.
var cEscapes = [128]byte{'\a': 'a', '\b': 'b', '\t': 't', '\n': 'n', '\v': 'v', '\f': 'f', '\r': 'r', '"': '"', '\\': '\\'}

// Quote returns s in double quotes, escaped as git's quote_c_style does;
// with octalNonASCII every byte outside ASCII is written in octal (as git
// does with core.quotePath on), else only those that are not UTF-8.
func Quote(s string, octalNonASCII bool) string {
	var b strings.Builder
	b.WriteByte('"')
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c < utf8.RuneSelf && cEscapes[c] != 0:
			b.WriteByte('\\')
			b.WriteByte(cEscapes[c])
		case c < ' ' || c == 0x7f:
			fmt.Fprintf(&b, "\\%03o", c)
		case c < utf8.RuneSelf:
			b.WriteByte(c)
		default:
			r, n := utf8.DecodeRuneInString(s[i:])
			if octalNonASCII || r == utf8.RuneError && n == 1 {
				for _, c := range []byte(s[i : i+n]) {
					fmt.Fprintf(&b, "\\%03o", c)
				}
			} else {
				b.WriteString(s[i : i+n])
			}
			i += n
			continue
		}
		i++
	}
	b.WriteByte('"')
	return b.String()
}

// gitQuotes reports whether git diff quotes the name s.
func gitQuotes(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < ' ' || c >= 0x7f || c == '"' || c == '\\' {
			return true
		}
	}
	return false
}

// DiffLabel returns the file name of a diff header line after "--- " or
// "+++ ", as git diff writes it: prefix ("a/" or "b/") and name, quoted
// whole when git would quote name, followed by a tab when name holds a
// space.
func DiffLabel(prefix, name string) string {
	label := prefix + name
	if gitQuotes(name) {
		label = Quote(label, true)
	}
	if strings.Contains(name, " ") {
		label += "\t"
	}
	return label
}

// DiffName is a file name as the diff headers give it: cleaned, with
// forward slashes, and without the leading slash of an absolute name, so
// that the diff applies from the root directory.
func DiffName(name string) string {
	return strings.TrimPrefix(filepath.ToSlash(filepath.Clean(name)), "/")
}

// DisplayName returns the file name to print in a line of text: name
// itself, or quoted (cQuote, UTF-8 kept) when it holds a control byte, DEL
// or a double quote.
func DisplayName(name string) string {
	for i := 0; i < len(name); i++ {
		if c := name[i]; c < ' ' || c == 0x7f || c == '"' {
			return Quote(name, false)
		}
	}
	return name
}
