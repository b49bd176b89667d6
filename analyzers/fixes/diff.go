package fixes

import (
	"path/filepath"
	"strings"

	udiff "github.com/aymanbagabas/go-udiff"
)

// Diff returns a unified diff that turns old into new, with three lines of
// context and the headers "--- a/name" and "+++ b/name", as git apply and
// patch -p1 expect; "" when they are equal. name is cleaned and written with
// forward slashes; an absolute name loses its leading slash, so the diff
// applies from the root directory. Line endings are kept: a CRLF line shows
// with its CR. The name is not quoted: a name holding a space, a tab or a
// newline needs the quoting of git diff, which ascvet -diff adds (its
// diffLabel); Diff serves the fixture harness's messages.
func Diff(name string, old, new []byte) string {
	name = strings.TrimPrefix(filepath.ToSlash(filepath.Clean(name)), "/")
	return udiff.Unified("a/"+name, "b/"+name, string(old), string(new))
}
