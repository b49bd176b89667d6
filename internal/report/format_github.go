package report

// -f github writes GitHub Actions workflow commands, which GitHub turns into
// annotations on the run and on the pull request's diff:
//
//	::error file=k.cpp,line=12,endLine=12,col=5,endColumn=19,title=ASC2001 dist-alignment::message
//
// GitHub keeps at most 10 annotations of each level (error, warning,
// notice) per step and drops the rest silently, in print order. So the
// errors come first, then the warnings, then the notices, each level in
// file order and cut at 10, and when something was cut a last notice says
// how much (the notices leave it room). All findings go to the step summary
// ($GITHUB_STEP_SUMMARY) as a Markdown table, itself cut before GitHub's
// 1 MiB limit for a step's summary.
//
// Escaping follows @actions/core (packages/core/src/command.ts): the
// message escapes "%", "\r" and "\n"; property values also ":" and ",".
// So the file property carries any file name whole, a newline included,
// and GitHub finds the file by it; the step summary, which people read,
// quotes an odd name as the text output does (displayName).

import (
	"bufio"
	"fmt"
	"io"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/ascvet/ascvet/internal/gitquote"
	"github.com/ascvet/ascvet/ruleset"
)

const (
	maxAnnotations = 10          // per level and step
	maxSummary     = 1000 * 1000 // bytes of step summary we write, under GitHub's 1 MiB
)

// annotationLevels are the workflow commands of each severity, most severe first.
var annotationLevels = []struct {
	sev     ruleset.Severity
	command string // the workflow command
	plural  string // for the counts
}{
	{ruleset.Error, "error", "errors"},
	{ruleset.Warning, "warning", "warnings"},
	{ruleset.Info, "notice", "notices"},
}

// WriteGitHub writes r's unsuppressed issues as workflow commands to w and,
// when summary is not nil, all of r's issues as a Markdown table to it.
func WriteGitHub(w io.Writer, r *Report, summary io.Writer) error {
	var byLevel [ruleset.Error + 1][]*Issue
	for i := range r.Issues {
		is := &r.Issues[i]
		if len(is.Suppressed) == 0 {
			lv := min(max(is.Level, ruleset.Info), ruleset.Error)
			byLevel[lv] = append(byLevel[lv], is)
		}
	}
	// The notice saying what was left out is a notice itself: keep a place
	// for it among the 10.
	over := len(byLevel[ruleset.Error]) > maxAnnotations || len(byLevel[ruleset.Warning]) > maxAnnotations ||
		len(byLevel[ruleset.Info]) > maxAnnotations
	bw := bufio.NewWriter(w)
	var left []string
	leftN := 0
	for _, lv := range annotationLevels {
		list := byLevel[lv.sev]
		limit := maxAnnotations
		if over && lv.sev == ruleset.Info {
			limit--
		}
		for _, is := range list[:min(len(list), limit)] {
			writeAnnotation(bw, lv.command, is, r.WorkDir)
		}
		if n := len(list) - limit; n > 0 {
			left = append(left, fmt.Sprintf("%d %s", n, PluralWord(n, lv.command, lv.plural)))
			leftN += n
		}
	}
	if leftN > 0 {
		where := "see the SARIF upload or run ascvet locally"
		if summary != nil {
			where = "see the step summary for all of them"
		}
		fmt.Fprintf(bw, "::notice title=ascvet::%s\n", escapeData(fmt.Sprintf(
			"%s not annotated (%s): GitHub shows at most %d annotations of each level per step; %s",
			Plural(leftN, "more finding"), strings.Join(left, ", "), maxAnnotations, where)))
	}
	if err := bw.Flush(); err != nil {
		return err
	}
	if summary != nil {
		return writeStepSummary(summary, r)
	}
	return nil
}

func PluralWord(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

func writeAnnotation(w io.Writer, command string, is *Issue, workDir string) {
	title := is.RuleID()
	if is.Rule != nil {
		title += " " + is.Rule.Name
	}
	props := []string{"file=" + escapeProperty(annotationPath(is.Pos.Filename, workDir))}
	if is.Pos.Line >= 1 {
		props = append(props, "line="+strconv.Itoa(is.Pos.Line))
		endLine := max(is.End.Line, is.Pos.Line)
		props = append(props, "endLine="+strconv.Itoa(endLine))
		// GitHub takes columns only for a one-line annotation; they count
		// characters as JavaScript does, UTF-16 code units.
		if endLine == is.Pos.Line {
			col := utf16Col(is.Line, is.Pos.Column)
			end := col
			if is.End.Line == is.Pos.Line && is.End.Column > is.Pos.Column {
				end = utf16Col(is.Line, is.End.Column)
			}
			props = append(props, "col="+strconv.Itoa(col), "endColumn="+strconv.Itoa(end))
		}
	}
	props = append(props, "title="+escapeProperty(title))
	msg := is.Message
	if msg == "" {
		msg = is.Diagnostic.Message
	}
	fmt.Fprintf(w, "::%s %s::%s\n", command, strings.Join(props, ","), escapeData(msg))
}

// annotationPath is a finding's file as GitHub wants it: relative to the
// workspace (the working directory) with slashes, or absolute when outside.
func annotationPath(name, workDir string) string {
	if workDir != "" && filepath.IsAbs(name) {
		if rel, err := filepath.Rel(workDir, name); err == nil && rel != ".." && !strings.HasPrefix(filepath.ToSlash(rel), "../") {
			return filepath.ToSlash(rel)
		}
	}
	return filepath.ToSlash(name)
}

// escapeData escapes a workflow command's message (escapeData in
// @actions/core): "%" first, then CR and LF.
func escapeData(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A").Replace(s)
}

// escapeProperty escapes a workflow command's property value
// (escapeProperty in @actions/core): as escapeData, and ":" and ",".
func escapeProperty(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A", ":", "%3A", ",", "%2C").Replace(s)
}

// writeStepSummary writes every issue of r as a row of a Markdown table,
// most severe first, suppressed ones last, with the counts above.
func writeStepSummary(w io.Writer, r *Report) error {
	var count [ruleset.Error + 1]int
	suppressed := 0
	for i := range r.Issues {
		if len(r.Issues[i].Suppressed) > 0 {
			suppressed++
		} else {
			count[min(max(r.Issues[i].Level, ruleset.Info), ruleset.Error)]++
		}
	}
	reported := len(r.Issues) - suppressed
	var b strings.Builder
	b.WriteString("### ascvet\n\n")
	if reported == 0 {
		fmt.Fprintf(&b, "No findings in %s", Plural(r.Files, "file"))
	} else {
		var parts []string
		for _, lv := range annotationLevels {
			if n := count[lv.sev]; n > 0 {
				name := lv.sev.String()
				if n > 1 && lv.sev != ruleset.Info {
					name += "s"
				}
				parts = append(parts, fmt.Sprintf("%d %s", n, name))
			}
		}
		fmt.Fprintf(&b, "**%s** (%s) in %s", Plural(reported, "finding"), strings.Join(parts, ", "), Plural(r.Files, "file"))
	}
	if suppressed > 0 {
		fmt.Fprintf(&b, "; %d suppressed", suppressed)
	}
	fmt.Fprintf(&b, "; exit code %d.\n", r.Exit)
	if len(r.Issues) == 0 {
		_, err := io.WriteString(w, b.String()+"\n")
		return err
	}
	b.WriteString("\n| Severity | Rule | Location | Message |\n|---|---|---|---|\n")
	rows := 0
	emit := func(is *Issue, sev string) bool {
		rule := escapeMarkdown(is.RuleID())
		if is.Rule != nil {
			rule = fmt.Sprintf("[%s](%s) %s", escapeMarkdown(is.RuleID()), is.Rule.HelpURI(), escapeMarkdown(is.Rule.Name))
		}
		msg := is.Message
		if msg == "" {
			msg = is.Diagnostic.Message
		}
		msg = EscapeCell(msg)
		if len(is.Suppressed) > 0 {
			why := is.Suppressed[0].Justification
			if is.Suppressed[0].Kind == "inSource" {
				why = "ignored in the source: " + why
			}
			msg += " _(" + EscapeCell(why) + ")_"
		}
		// The location as the annotations give it: columns in characters
		// (UTF-16 code units), none when unknown.
		where := fmt.Sprintf("%s:%d", gitquote.DisplayName(annotationPath(is.Pos.Filename, r.WorkDir)), is.Pos.Line)
		if is.Pos.Column >= 1 {
			where += fmt.Sprintf(":%d", utf16Col(is.Line, is.Pos.Column))
		}
		row := fmt.Sprintf("| %s | %s | %s | %s |\n", sev, rule, EscapeCell(where), msg)
		if b.Len()+len(row) > maxSummary {
			return false
		}
		b.WriteString(row)
		rows++
		return true
	}
	full := true
	for _, lv := range annotationLevels {
		for i := range r.Issues {
			is := &r.Issues[i]
			if full && len(is.Suppressed) == 0 && min(max(is.Level, ruleset.Info), ruleset.Error) == lv.sev {
				full = emit(is, lv.sev.String())
			}
		}
	}
	for i := range r.Issues {
		if is := &r.Issues[i]; full && len(is.Suppressed) > 0 {
			full = emit(is, "suppressed")
		}
	}
	if !full {
		fmt.Fprintf(&b, "\n%s not listed: a step summary holds at most 1 MiB; see the SARIF upload or run ascvet locally.\n",
			Plural(len(r.Issues)-rows, "more finding"))
	}
	b.WriteString("\n")
	_, err := io.WriteString(w, b.String())
	return err
}

// EscapeCell makes s one Markdown table cell: markup escaped (a "|" would
// end the cell), line breaks as <br>.
func EscapeCell(s string) string {
	s = strings.NewReplacer("\r\n", "\n", "\r", "\n").Replace(s)
	return strings.ReplaceAll(escapeMarkdown(s), "\n", "<br>")
}
