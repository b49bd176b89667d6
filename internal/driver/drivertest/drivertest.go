// Package drivertest holds the analyzers the driver's and the command
// line's tests run instead of the rules: each reports a word of its file,
// with a fix or without, so that the tests say exactly what a run finds
// and writes.
package drivertest

import (
	"bytes"

	"golang.org/x/tools/go/analysis"
)

// Replacer is an analyzer that reports each occurrence of old in its file
// with a fix that replaces it by new. extra bytes are added to the size it
// gives the file, and a non-zero extra moves the fix past the end of the
// real file (an analyzer's bug that the runner cannot see).
func Replacer(name, old, new string, extra int) *analysis.Analyzer {
	return reporter(name, old, &new, extra)
}

// Noter is an analyzer that reports each occurrence of word, without a fix.
func Noter(name, word string) *analysis.Analyzer { return reporter(name, word, nil, 0) }

// reporter is Replacer, or Noter when new is nil.
func reporter(name, old string, new *string, extra int) *analysis.Analyzer {
	return &analysis.Analyzer{
		Name: name,
		Doc:  "replace " + old,
		Run: func(pass *analysis.Pass) (any, error) {
			src, err := pass.ReadFile(pass.OtherFiles[0])
			if err != nil {
				return nil, err
			}
			tf := pass.Fset.AddFile(pass.OtherFiles[0], -1, len(src)+extra)
			tf.SetLinesForContent(src)
			for off := 0; ; off += len(old) {
				i := bytes.Index(src[off:], []byte(old))
				if i < 0 {
					break
				}
				off += i
				start, end := tf.Pos(off), tf.Pos(off+len(old))
				if extra > 0 {
					start, end = tf.Pos(len(src)+1), tf.Pos(len(src)+2)
				}
				d := analysis.Diagnostic{Pos: tf.Pos(off), End: tf.Pos(off + len(old)), Message: "found " + old}
				if new != nil {
					d.SuggestedFixes = []analysis.SuggestedFix{{
						Message:   "replace " + old,
						TextEdits: []analysis.TextEdit{{Pos: start, End: end, NewText: []byte(*new)}},
					}}
				}
				pass.Report(d)
			}
			return nil, nil
		},
	}
}
