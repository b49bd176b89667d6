package report

import (
	"fmt"
	"io"
	"strings"

	"github.com/ascvet/ascvet/internal/gitquote"
	"github.com/ascvet/ascvet/ruleset"
	"github.com/ascvet/ascvet/ruleset/i18n"
)

// TextStyle is how the text format prints: its language, whether it
// colours the severities and rule IDs (-color), and which issues the
// fail policy spared for want of a measured saving.
type TextStyle struct {
	Lang   string            // "en" or "zh": the severity words and the summary
	Color  bool              // ANSI colours
	Spared func(*Issue) bool // failPolicy.spared; nil: none
}

// The ANSI colours of the text format: the severity word bold in its
// colour, the rule ID dim.
const (
	ansiReset = "\x1b[0m"
	ansiDim   = "\x1b[2m"
)

var severityColor = [ruleset.Error + 1]string{
	ruleset.Info:    "\x1b[1;36m", // cyan
	ruleset.Warning: "\x1b[1;33m", // yellow
	ruleset.Error:   "\x1b[1;31m", // red
}

// paint returns s in the ANSI colour code when st colours, else s.
func (st TextStyle) paint(code, s string) string {
	if !st.Color || code == "" {
		return s
	}
	return code + s + ansiReset
}

// WriteText prints the issues gcc style, then a summary line. Suppressed
// issues (listed with -show-ignored) are marked and not counted. A file name
// holding a control character or a double quote is quoted (gitquote.DisplayName),
// so that each finding stays one line. The severity words and the summary
// are in st.Lang; with st.Color the severity and the rule ID are coloured.
func WriteText(w io.Writer, issues []Issue, files int, st TextStyle) error {
	var count [ruleset.Error + 1]int
	ignored, total := 0, 0
	for i := range issues {
		is := &issues[i]
		rule := st.paint(ansiDim, is.RuleID())
		if len(is.Suppressed) > 0 {
			ignored++
			fmt.Fprintf(w, "%s:%d:%d: %s: %s [%s] (%s)\n", gitquote.DisplayName(is.Pos.Filename), is.Pos.Line, is.Pos.Column,
				st.paint(ansiDim, i18n.Driver(st.Lang, "ignored")), is.Message, rule, is.Suppressed[0].Justification)
			continue
		}
		total++
		count[is.Level]++
		fmt.Fprintf(w, "%s:%d:%d: %s: %s [%s]\n", gitquote.DisplayName(is.Pos.Filename), is.Pos.Line, is.Pos.Column,
			st.paint(severityColor[is.Level], ruleset.SeverityName(is.Level, st.Lang)), is.Message, rule)
	}
	var parts []string
	for s := ruleset.Error; s >= ruleset.Info; s-- {
		if n := count[s]; n > 0 {
			name := s.String()
			if n > 1 && s != ruleset.Info {
				name += "s"
			}
			parts = append(parts, fmt.Sprintf("%d %s", n, name))
		}
	}
	summary := "no findings"
	if total > 0 {
		summary = fmt.Sprintf("%s (%s)", Plural(total, "finding"), strings.Join(parts, ", "))
	}
	if ignored > 0 {
		summary += fmt.Sprintf(", %d ignored", ignored)
	}
	summary = fmt.Sprintf("%s in %s", summary, Plural(files, "file"))
	if _, err := fmt.Fprintln(w, i18n.Driver(st.Lang, summary)); err != nil {
		return err
	}
	// A run with warnings that exits 0 says why: the warnings whose
	// simulation measures no saving do not fail it.
	spared := 0
	for i := range issues {
		if st.Spared != nil && st.Spared(&issues[i]) {
			spared++
		}
	}
	if spared == 0 {
		return nil
	}
	line := fmt.Sprintf("%s with no measurable saving did not fail the run (-fail-no-saving)", Plural(spared, "finding"))
	_, err := fmt.Fprintln(w, i18n.Driver(st.Lang, line))
	return err
}

// Plural returns n and the noun, with an s when n is not 1: "1 file",
// "3 findings".
func Plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}
