package report

// -f checkstyle writes the Checkstyle XML report that Jenkins (warnings-ng),
// GitLab and most CI dashboards read:
//
//	<?xml version="1.0" encoding="UTF-8"?>
//	<checkstyle version="4.3">
//	  <file name="k.cpp">
//	    <error line="12" column="5" severity="error" message="..." source="ascvet.ASC2001"></error>
//	  </file>
//	</checkstyle>
//
// Files are sorted by name, errors by position. Columns count bytes, as in
// the text output. Suppressed issues are left out: Checkstyle has no way
// to mark them. encoding/xml escapes markup; characters XML 1.0 forbids
// (control characters other than tab, LF and CR) are removed first, so a
// stray byte in a message cannot make the report unreadable.

import (
	"cmp"
	"encoding/xml"
	"io"
	"slices"
	"strings"

	"github.com/ascvet/ascvet/internal/gitquote"
	"github.com/ascvet/ascvet/ruleset"
)

type checkstyleReport struct {
	XMLName xml.Name         `xml:"checkstyle"`
	Version string           `xml:"version,attr"`
	Files   []checkstyleFile `xml:"file"`
}

type checkstyleFile struct {
	Name   string            `xml:"name,attr"`
	Errors []checkstyleError `xml:"error"`
}

type checkstyleError struct {
	Line     int    `xml:"line,attr"`
	Column   int    `xml:"column,attr"`
	Severity string `xml:"severity,attr"` // error, warning or info
	Message  string `xml:"message,attr"`
	Source   string `xml:"source,attr"` // "ascvet." + rule ID
}

// WriteCheckstyle writes r's unsuppressed issues as a Checkstyle report.
func WriteCheckstyle(w io.Writer, r *Report) error {
	byFile := map[string][]*Issue{}
	for i := range r.Issues {
		is := &r.Issues[i]
		if len(is.Suppressed) == 0 {
			byFile[is.Pos.Filename] = append(byFile[is.Pos.Filename], is)
		}
	}
	out := checkstyleReport{Version: "4.3"}
	for name, list := range byFile {
		slices.SortStableFunc(list, func(a, b *Issue) int {
			return cmp.Or(cmp.Compare(a.Pos.Line, b.Pos.Line), cmp.Compare(a.Pos.Column, b.Pos.Column))
		})
		f := checkstyleFile{Name: checkstyleName(name)}
		for _, is := range list {
			msg := is.Message
			if msg == "" {
				msg = is.Diagnostic.Message
			}
			f.Errors = append(f.Errors, checkstyleError{
				Line:     max(is.Pos.Line, 1),
				Column:   max(is.Pos.Column, 1),
				Severity: checkstyleSeverity(is.Level),
				Message:  xmlText(msg),
				Source:   "ascvet." + xmlText(is.RuleID()),
			})
		}
		out.Files = append(out.Files, f)
	}
	slices.SortFunc(out.Files, func(a, b checkstyleFile) int { return strings.Compare(a.Name, b.Name) })

	if _, err := io.WriteString(w, `<?xml version="1.0" encoding="UTF-8"?>`+"\n"); err != nil {
		return err
	}
	enc := xml.NewEncoder(w)
	enc.Indent("", "  ")
	if err := enc.Encode(out); err != nil {
		return err
	}
	_, err := io.WriteString(w, "\n")
	return err
}

// checkstyleName is a file name as the report gives it: the name itself,
// which the XML escaping carries whole (a tab or a newline becomes &#x9; or
// &#xA;), unless it holds a character XML 1.0 cannot carry (another control
// character, bytes that are not UTF-8): then quoted as git quotes it, in
// ASCII, rather than silently made into another file's name.
func checkstyleName(name string) string {
	if xmlText(name) == name {
		return name
	}
	return gitquote.Quote(name, true)
}

func checkstyleSeverity(s ruleset.Severity) string {
	switch s {
	case ruleset.Error:
		return "error"
	case ruleset.Warning:
		return "warning"
	}
	return "info"
}

// xmlText removes the characters XML 1.0 does not allow (§2.2 Char):
// controls other than tab, LF and CR, surrogates (invalid UTF-8 here),
// U+FFFE and U+FFFF. Invalid UTF-8 becomes U+FFFD.
func xmlText(s string) string {
	return strings.Map(func(r rune) rune {
		switch {
		case r == '\t' || r == '\n' || r == '\r':
			return r
		case r < 0x20, r == 0xFFFE, r == 0xFFFF:
			return -1
		}
		return r
	}, strings.ToValidUTF8(s, "\uFFFD"))
}
