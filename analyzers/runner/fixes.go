package runner

import (
	"cmp"
	"fmt"
	"go/token"
	"slices"

	"golang.org/x/tools/go/analysis"

	"github.com/ascvet/ascvet/analyzers/fixes"
)

// resolveFixes resolves the suggested fixes of d, reported at pos, to byte
// offsets. Every edit must lie in the file of pos, and each fix must pass
// fixes.Fix.Check; anything else is the analyzer's bug.
func resolveFixes(fset *token.FileSet, d analysis.Diagnostic, pos token.Position, rule string) ([]fixes.Fix, error) {
	if len(d.SuggestedFixes) == 0 {
		return nil, nil
	}
	size := fset.File(d.Pos).Size()
	out := make([]fixes.Fix, 0, len(d.SuggestedFixes))
	for _, sf := range d.SuggestedFixes {
		f := fixes.Fix{Pos: pos.Offset, Rule: rule, Message: sf.Message, Edits: make([]fixes.Edit, 0, len(sf.TextEdits))}
		for _, te := range sf.TextEdits {
			start, err := offset(fset, te.Pos, pos.Filename)
			if err != nil {
				return nil, fmt.Errorf("suggested fix %q: %w", sf.Message, err)
			}
			end := start
			if te.End.IsValid() { // NoPos ends a pure insertion
				if end, err = offset(fset, te.End, pos.Filename); err != nil {
					return nil, fmt.Errorf("suggested fix %q: %w", sf.Message, err)
				}
			}
			f.Edits = append(f.Edits, fixes.Edit{Start: start, End: end, New: te.NewText})
		}
		if err := f.Check(size); err != nil {
			return nil, err
		}
		out = append(out, f)
	}
	return out, nil
}

// offset returns the byte offset of p, which must lie in the file name.
func offset(fset *token.FileSet, p token.Pos, name string) (int, error) {
	if !p.IsValid() {
		return 0, fmt.Errorf("an edit has no position")
	}
	pos := fset.PositionFor(p, false)
	if pos.Filename != name {
		return 0, fmt.Errorf("an edit is in %s, not in the file of its diagnostic", pos.Filename)
	}
	return pos.Offset, nil
}

// FileFixes are the fixes that ascvet -fix applies to one file: the first
// suggested fix of each of its findings that offers one. A finding's other
// fixes are alternatives to the first (as in go/analysis drivers) and are
// never applied.
type FileFixes struct {
	Name     string      // the file, as in its findings
	Fixes    []fixes.Fix // for fixes.Apply
	Findings []*Finding  // Findings[i] offers Fixes[i]
}

// Fixes groups the first fix of each finding by file, in the order of the
// findings (Result.Findings is sorted by file).
func Fixes(findings []Finding) []FileFixes {
	var out []FileFixes
	index := map[string]int{}
	for i := range findings {
		f := &findings[i]
		if len(f.Fixes) == 0 {
			continue
		}
		k, ok := index[f.Pos.Filename]
		if !ok {
			k = len(out)
			index[f.Pos.Filename] = k
			out = append(out, FileFixes{Name: f.Pos.Filename})
		}
		out[k].Fixes = append(out[k].Fixes, f.Fixes[0])
		out[k].Findings = append(out[k].Findings, f)
	}
	return out
}

// Replace returns a Result holding r's findings and errors for every file
// except those named, and sub's for those (sub is typically a Run over the
// named files' new contents), sorted as Run sorts them. r is not modified.
func (r *Result) Replace(names []string, sub *Result) *Result {
	drop := map[string]bool{}
	for _, n := range names {
		drop[n] = true
	}
	out := &Result{}
	for _, f := range r.Findings {
		if !drop[f.Pos.Filename] {
			out.Findings = append(out.Findings, f)
		}
	}
	for _, e := range r.Errors {
		if !drop[e.File] {
			out.Errors = append(out.Errors, e)
		}
	}
	out.Findings = append(out.Findings, sub.Findings...)
	out.Errors = append(out.Errors, sub.Errors...)
	slices.SortFunc(out.Findings, compareFindings)
	slices.SortStableFunc(out.Errors, func(a, b InternalError) int { return cmp.Compare(a.File, b.File) })
	return out
}
