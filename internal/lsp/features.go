package lsp

import (
	"encoding/json"
	"fmt"
	"go/token"
	"net/url"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"unicode/utf8"

	"go.lsp.dev/protocol"

	"github.com/ascvet/ascvet/analyzers/cppir"
	"github.com/ascvet/ascvet/analyzers/simcost"
	"github.com/ascvet/ascvet/internal/driver"
	"github.com/ascvet/ascvet/internal/report"
	"github.com/ascvet/ascvet/ruleset/i18n"
	"github.com/ascvet/ascvet/ruleset/suppress"
	"github.com/ascvet/ascvet/simcheck"
)

// What the server offers on a document beyond its diagnostics: code
// actions (the fixes, and a directive that ignores a finding), hovers
// with a finding's price, and the conversions between byte offsets and
// LSP's UTF-16 positions and file URIs.

// codeActions offers, for each finding the range touches, its suggested
// fixes as quick fixes, and an ascvet:ignore directive with a reason to
// write: a snippet whose placeholder reason is selected, for the author to
// type over, where the client takes snippets in edits; else the
// placeholder as text, which ASC0002 reports until it is replaced (a
// placeholder is no reason: it suppresses nothing). Each action is a
// protocol.CodeAction or a snippetAction.
func (s *Server) codeActions(p *protocol.CodeActionParams) []any {
	out := []any{}
	res := s.result(p.TextDocument.URI)
	if res == nil {
		return out
	}
	s.mu.Lock()
	snippets := s.snippets
	s.mu.Unlock()
	lang := s.lang
	for i := range res.issues {
		is := &res.issues[i]
		r := res.rangeOf(is.Pos, is.End)
		if !overlaps(r, p.Range) {
			continue
		}
		diag := protocol.Diagnostic{Range: r, Severity: severity(is.Level), Code: is.RuleID(), Source: "ascvet", Message: is.Message}
		for _, fx := range is.Fixes {
			edits := make([]protocol.TextEdit, 0, len(fx.Edits))
			for _, e := range fx.Edits {
				edits = append(edits, protocol.TextEdit{Range: protocol.Range{Start: res.position(e.Start), End: res.position(e.End)}, NewText: string(e.New)})
			}
			out = append(out, protocol.CodeAction{
				Title:       fmt.Sprintf("%s (%s)", fx.Message, is.RuleID()),
				Kind:        protocol.QuickFix,
				Diagnostics: []protocol.Diagnostic{diag},
				IsPreferred: len(is.Fixes) == 1,
				Edit:        &protocol.WorkspaceEdit{Changes: map[protocol.DocumentURI][]protocol.TextEdit{p.TextDocument.URI: edits}},
			})
		}
		title := fmt.Sprintf(lspText(lang, "suppress"), is.RuleID())
		edit := res.ignoreEdit(is)
		if snippets {
			out = append(out, snippetAction{Title: title, Kind: protocol.QuickFix, Diagnostics: []protocol.Diagnostic{diag},
				Edit: snippetWorkspaceEdit{DocumentChanges: []snippetDocumentEdit{{
					TextDocument: snippetDocument{URI: p.TextDocument.URI},
					Edits: []snippetTextEdit{{Range: edit.Range, Snippet: snippetString{Kind: "snippet",
						Value: snippetEscape(strings.TrimSuffix(edit.NewText, ignoreReason+"\n")) + "${1:" + snippetEscape(ignoreReason) + "}\n"}}},
				}}},
			})
			continue
		}
		out = append(out, protocol.CodeAction{
			Title:       title,
			Kind:        protocol.QuickFix,
			Diagnostics: []protocol.Diagnostic{diag},
			Edit:        &protocol.WorkspaceEdit{Changes: map[protocol.DocumentURI][]protocol.TextEdit{p.TextDocument.URI: {edit}}},
		})
	}
	return out
}

// The code action of a snippet edit: LSP 3.18's SnippetTextEdit in a
// workspace edit's documentChanges, which go.lsp.dev/protocol predates.
type (
	snippetAction struct {
		Title       string                  `json:"title"`
		Kind        protocol.CodeActionKind `json:"kind"`
		Diagnostics []protocol.Diagnostic   `json:"diagnostics"`
		Edit        snippetWorkspaceEdit    `json:"edit"`
	}
	snippetWorkspaceEdit struct {
		DocumentChanges []snippetDocumentEdit `json:"documentChanges"`
	}
	snippetDocumentEdit struct {
		TextDocument snippetDocument   `json:"textDocument"`
		Edits        []snippetTextEdit `json:"edits"`
	}
	snippetDocument struct {
		URI     protocol.DocumentURI `json:"uri"`
		Version *int32               `json:"version"` // null: the edit applies to the document as it is
	}
	snippetTextEdit struct {
		Range   protocol.Range `json:"range"`
		Snippet snippetString  `json:"snippet"`
	}
	snippetString struct {
		Kind  string `json:"kind"` // "snippet"
		Value string `json:"value"`
	}
)

// snippetEscape escapes what a snippet's grammar reads in text: $, } and
// backslash.
func snippetEscape(s string) string {
	return strings.NewReplacer(`\`, `\\`, `$`, `\$`, `}`, `\}`).Replace(s)
}

// clientSnippetEdits reports whether the initialize params say that the
// client applies snippets in a code action's edit: LSP 3.18's
// workspace.workspaceEdit.snippetEditSupport, or the experimental
// snippetTextEdit that rust-analyzer's clients (VS Code's among them)
// announce.
func clientSnippetEdits(params json.RawMessage) bool {
	var p struct {
		Capabilities struct {
			Workspace struct {
				WorkspaceEdit struct {
					SnippetEditSupport bool `json:"snippetEditSupport"`
				} `json:"workspaceEdit"`
			} `json:"workspace"`
			Experimental struct {
				SnippetTextEdit bool `json:"snippetTextEdit"`
			} `json:"experimental"`
		} `json:"capabilities"`
	}
	if json.Unmarshal(params, &p) != nil {
		return false
	}
	return p.Capabilities.Workspace.WorkspaceEdit.SnippetEditSupport || p.Capabilities.Experimental.SnippetTextEdit
}

// ignoreEdit inserts, above the finding's line and indented as it is, an
// ascvet:ignore directive for its rule with a reason to fill in. In a
// Python file the comment is a #.
func (res *result) ignoreEdit(is *report.Issue) protocol.TextEdit {
	line := max(is.Pos.Line, 1)
	start := 0
	if line-1 < len(res.lines) {
		start = res.lines[line-1]
	}
	indent := start
	for indent < len(res.text) && (res.text[indent] == ' ' || res.text[indent] == '\t') {
		indent++
	}
	lead := "//"
	if cppir.IsPython(is.Pos.Filename) {
		lead = "#"
	}
	text := fmt.Sprintf("%s%s ascvet:ignore %s %s\n", res.text[start:indent], lead, is.RuleID(), ignoreReason)
	pos := res.position(start)
	return protocol.TextEdit{Range: protocol.Range{Start: pos, End: pos}, NewText: text}
}

// ignoreReason is the reason an inserted directive carries until the
// author writes theirs: a directive needs one, and one that still holds
// the placeholder is reported (ASC0002) and suppresses nothing.
const ignoreReason = "REASON: " + suppress.PlaceholderReason

// hover explains the finding under the cursor, or summarises the
// simulation of the VF loop that starts on the cursor's line.
func (s *Server) hover(p *protocol.HoverParams) *protocol.Hover {
	res := s.result(p.TextDocument.URI)
	if res == nil {
		return nil
	}
	lang := s.lang
	var parts []string
	var rng *protocol.Range
	for i := range res.issues {
		is := &res.issues[i]
		r := res.rangeOf(is.Pos, is.End)
		if !contains(r, p.Position) {
			continue
		}
		if rng == nil {
			rng = &r
		}
		parts = append(parts, hoverIssue(is, lang))
	}
	if len(parts) == 0 {
		if sum := s.loopSummary(res, URIPath(p.TextDocument.URI), int(p.Position.Line)+1); sum != "" {
			parts = append(parts, sum)
		}
	}
	if len(parts) == 0 {
		return nil
	}
	return &protocol.Hover{Contents: protocol.MarkupContent{Kind: protocol.Markdown, Value: strings.Join(parts, "\n\n---\n\n")}, Range: rng}
}

// hoverIssue is the hover text of one finding: the message, the simulated
// cycles, and the rule's documentation.
func hoverIssue(is *report.Issue, lang string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "**%s** %s\n\n", is.RuleID(), is.Message)
	if c := is.Cost; c != nil {
		unit := lspText(lang, "loop")
		if c.Region {
			unit = lspText(lang, "region")
		}
		why := "" // where the iterations came from
		if w := lspText(lang, "trip-"+c.Trip); w != "trip-"+c.Trip && !c.Region {
			why = " (" + w + ")"
			if i18n.Normalize(lang) == i18n.ZH {
				why = "（" + w + "）"
			}
		}
		fmt.Fprintf(&b, lspText(lang, "cycles")+"\n\n", unit, c.Before, c.After, c.Iterations, why, c.Phrase())
	}
	if is.Rule != nil {
		b.WriteString(is.Rule.FormatMarkdown(lang))
	}
	return b.String()
}

// loopSummary simulates the VF loop that starts on line of the analysed
// text, as ascvet sim does, and says it in one line; "" when no loop
// starts there.
func (s *Server) loopSummary(res *result, path string, line int) string {
	st := res.an.Settings
	if st.Chip == "" && st.Machine == "" {
		return ""
	}
	fset := token.NewFileSet()
	f, err := driver.ParseAsCheck(fset, path, res.text)
	if err != nil || f == nil {
		return ""
	}
	for _, fn := range f.Funcs {
		if !fn.Kind.Analysed() || fn.Body == nil {
			continue
		}
		for _, lp := range fn.Loops {
			if fset.Position(lp.Pos).Line != line {
				continue
			}
			m, err := simcost.Load(st.Chip, st.Machine)
			if err != nil {
				return ""
			}
			part := m.RunLoop(fn, lp, max(st.Iterations, 1), nil)
			per := 0
			if part.Iterations > 0 {
				per = (part.Cycles + part.Iterations - 1) / part.Iterations
			}
			chain := simcheck.LongestChain(simcheck.BodyOf(fn, lp, nil))
			return fmt.Sprintf(lspText(s.lang, "sim"), per, part.Res.IPC(), chain, part.Iterations, fn.Name)
		}
	}
	return ""
}

// lspText are the hover and action texts, in English and Chinese.
func lspText(lang, key string) string {
	zh := i18n.Normalize(lang) == i18n.ZH
	switch key {
	case "suppress":
		if zh {
			return "用 ascvet:ignore 抑制 %s（写明原因）"
		}
		return "Suppress %s with a reason (ascvet:ignore)"
	case "loop":
		if zh {
			return "循环"
		}
		return "loop"
	case "region":
		if zh {
			return "区域"
		}
		return "region"
	case "cycles":
		if zh {
			return "模拟（%s）：修复前 %d 周期，修复后 %d 周期，共 %d 次迭代%s；%s"
		}
		return "Simulated (%s): %d cycles before the fix, %d after, over %d iterations%s; %s"
	case "trip-" + simcost.TripKnown: // where the iterations came from (simcost.Cost.Trip)
		if zh {
			return "循环的迭代次数"
		}
		return "the loop's trip count"
	case "trip-" + simcost.TripCapped:
		if zh {
			return "迭代次数超过模拟的次数（32 次，循环体很长时更少）：此前已达稳态"
		}
		return "its trip count is over the iterations simulated (32, fewer for a long body): the steady state is reached before"
	case "trip-" + simcost.TripOnce:
		if zh {
			return "该循环至多执行一次"
		}
		return "the loop runs at most once"
	case "trip-" + simcost.TripDefault:
		if zh {
			return "迭代次数无法折叠：取 -iterations 的值"
		}
		return "the trip count does not fold: the -iterations setting"
	case "sim":
		if zh {
			return "**ascvet sim**：每次迭代 %d 周期，IPC %.2f，关键依赖链 %d 条指令（模拟 %d 次迭代，%s）"
		}
		return "**ascvet sim**: %d cycles/iteration, IPC %.2f, critical chain %d instructions (%d iterations simulated, in %s)"
	}
	return key
}

// Positions. LSP counts lines from 0 and characters in UTF-16 code units;
// findings count lines from 1 and columns in bytes.

func lineStarts(text []byte) []int {
	starts := []int{0}
	for i, c := range text {
		if c == '\n' {
			starts = append(starts, i+1)
		}
	}
	return starts
}

// position returns the LSP position of byte offset off.
func (res *result) position(off int) protocol.Position {
	off = min(max(off, 0), len(res.text))
	line := max(sort.SearchInts(res.lines, off+1)-1, 0)
	start := res.lines[line]
	return protocol.Position{Line: uint32(line), Character: uint32(utf16Len(res.text[start:off]))}
}

// offset returns the byte offset of a finding's position (1-based line,
// byte column) in the analysed text.
func (res *result) offset(p token.Position) int {
	if p.Offset > 0 || p.Line == 1 && p.Column <= 1 {
		return min(p.Offset, len(res.text))
	}
	if p.Line < 1 || p.Line > len(res.lines) {
		return len(res.text)
	}
	return min(res.lines[p.Line-1]+max(p.Column-1, 0), len(res.text))
}

func (res *result) rangeOf(pos, end token.Position) protocol.Range {
	a, b := res.offset(pos), res.offset(end)
	if b < a {
		b = a
	}
	return protocol.Range{Start: res.position(a), End: res.position(b)}
}

// lineRange is the range of a position in another file, whose text the
// server does not hold: its columns are taken as characters.
func lineRange(pos, end token.Position) protocol.Range {
	at := func(p token.Position) protocol.Position {
		return protocol.Position{Line: uint32(max(p.Line-1, 0)), Character: uint32(max(p.Column-1, 0))}
	}
	return protocol.Range{Start: at(pos), End: at(end)}
}

func utf16Len(b []byte) int {
	n := 0
	for len(b) > 0 {
		r, size := utf8.DecodeRune(b)
		b = b[size:]
		if r >= 0x10000 {
			n += 2
		} else {
			n++
		}
	}
	return n
}

func before(a, b protocol.Position) bool {
	return a.Line < b.Line || a.Line == b.Line && a.Character < b.Character
}

func overlaps(a, b protocol.Range) bool {
	return !before(a.End, b.Start) && !before(b.End, a.Start)
}

func contains(r protocol.Range, p protocol.Position) bool {
	return !before(p, r.Start) && (before(p, r.End) || p == r.End || r.Start == r.End && p.Line == r.Start.Line)
}

// URIPath returns the file path of a file: URI, "" for another scheme.
func URIPath(uri protocol.DocumentURI) string {
	u, err := url.Parse(string(uri))
	if err != nil || u.Scheme != "file" {
		return ""
	}
	p := u.Path
	if runtime.GOOS == "windows" && len(p) >= 3 && p[0] == '/' && p[2] == ':' {
		p = p[1:]
	}
	return filepath.Clean(filepath.FromSlash(p))
}

// PathURI returns the file: URI of path.
func PathURI(path string) protocol.DocumentURI {
	if abs, err := filepath.Abs(path); err == nil {
		path = abs
	}
	p := filepath.ToSlash(path)
	if !strings.HasPrefix(p, "/") {
		p = "/" + p
	}
	return protocol.DocumentURI((&url.URL{Scheme: "file", Path: p}).String())
}
