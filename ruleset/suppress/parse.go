package suppress

import (
	"bytes"
	"slices"
	"sort"
	"strings"

	"github.com/ascvet/ascvet/ruleset"
)

// Parse returns the directives of the file src, in the order they appear,
// and the problems of the directives that are malformed.
//
// A directive with a problem other than an unknown rule pattern (no rule,
// no reason, an unknown ascvet: verb, a block without its other end)
// suppresses nothing. An unknown pattern is reported and the directive
// applies to the rules its other patterns name. The rules known are those
// of ruleset.All at the time of the call.
func Parse(src []byte, syntax Syntax) (dirs []Directive, problems []Problem) {
	// Every directive, good or bad, is a comment line that starts with
	// "ascvet:" or holds "NOLINT": a file with neither has none.
	if !bytes.Contains(src, []byte("ascvet:")) && (syntax != CPP || !bytes.Contains(src, []byte("NOLINT"))) {
		return nil, nil
	}
	p := &parser{src: src, syntax: syntax, rules: ruleset.All()}
	p.lineStarts = append(p.lineStarts, 0)
	for i, c := range src {
		if c == '\n' {
			p.lineStarts = append(p.lineStarts, i+1)
		}
	}
	cs := scan(src, syntax)
	p.classify(cs)
	for _, c := range cs {
		p.comment(c)
	}
	for _, o := range p.open {
		d := &p.dirs[o.index]
		if !o.bad {
			end := "ascvet:end-ignore"
			if d.Kind == NolintBegin {
				end = "NOLINTEND" + strings.TrimPrefix(d.Text, "NOLINTBEGIN")
			}
			p.problem(d.Span, d.Text+" has no matching "+end+"; add one after the code it should cover")
		}
		p.bad[o.index] = true
	}
	for i, d := range p.dirs {
		if !p.bad[i] {
			dirs = append(dirs, d)
		}
	}
	slices.SortStableFunc(p.problems, func(a, b Problem) int { return a.Offset - b.Offset })
	return dirs, p.problems
}

type parser struct {
	src        []byte
	syntax     Syntax
	rules      []*ruleset.Rule
	lineStarts []int  // offset of each line's first byte; lineStarts[0] is line 1
	code       []bool // by line (1-based): the line has something other than comments and blanks
	commented  []bool // by line: the line has (part of) a comment
	dirs       []Directive
	bad        map[int]bool // indices in dirs of directives that suppress nothing
	open       []openBlock  // begin directives not yet closed, innermost last
	problems   []Problem
}

// openBlock is a begin directive waiting for its end.
type openBlock struct {
	index int    // in parser.dirs
	key   string // for NOLINTBEGIN: its arguments, which NOLINTEND must repeat ("(ascvet-asc1001)")
	bad   bool   // the begin has a problem already: report no missing end
}

// classify fills p.code and p.commented.
func (p *parser) classify(cs []comment) {
	n := len(p.lineStarts) + 1
	p.code, p.commented = make([]bool, n), make([]bool, n)
	line, pos := 1, 0
	for _, c := range cs {
		for ; pos < c.start; pos++ {
			switch p.src[pos] {
			case '\n':
				line++
			case ' ', '\t', '\r', '\v', '\f':
			default:
				p.code[line] = true
			}
		}
		p.commented[line] = true
		for ; pos < c.end; pos++ {
			if p.src[pos] == '\n' {
				line++
				p.commented[line] = true
			}
		}
	}
	for ; pos < len(p.src); pos++ {
		switch p.src[pos] {
		case '\n':
			line++
		case ' ', '\t', '\r', '\v', '\f':
		default:
			p.code[line] = true
		}
	}
}

func (p *parser) span(start, end int) Span {
	i := sort.Search(len(p.lineStarts), func(i int) bool { return p.lineStarts[i] > start }) - 1
	return Span{Line: i + 1, Col: start - p.lineStarts[i] + 1, EndCol: end - p.lineStarts[i] + 1, Offset: start, EndOffset: end}
}

func (p *parser) problem(s Span, msg string) {
	p.problems = append(p.problems, Problem{Span: s, Message: msg})
}

// add records d and returns its index.
func (p *parser) add(d Directive, bad bool) int {
	p.dirs = append(p.dirs, d)
	if bad {
		if p.bad == nil {
			p.bad = map[int]bool{}
		}
		p.bad[len(p.dirs)-1] = true
	}
	return len(p.dirs) - 1
}

// comment finds the directives of one comment, a line at a time: a
// directive starts a line of its comment (after the delimiter, blanks and
// decoration such as the * of a block comment), or, for NOLINT, anywhere in it.
func (p *parser) comment(c comment) {
	start, end := c.body(p.src, p.syntax)
	for s := start; s < end; {
		e := s
		for e < end && p.src[e] != '\n' {
			e++
		}
		p.line(s, e)
		s = e + 1
	}
}

func (p *parser) line(s, e int) {
	for e > s && isSpace(p.src[e-1]) {
		e--
	}
	i := s
	for i < e && isSpace(p.src[i]) {
		i++
	}
	for i < e && strings.IndexByte("/*!#", p.src[i]) >= 0 {
		i++
	}
	for i < e && isSpace(p.src[i]) {
		i++
	}
	if strings.HasPrefix(string(p.src[i:e]), "ascvet:") {
		p.ascvet(i, e)
		return
	}
	if p.syntax == CPP {
		p.nolints(s, e)
	}
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f' }

// ascvet parses the ascvet: directive in src[s:e].
func (p *parser) ascvet(s, e int) {
	src := p.src
	sp := p.span(s, e)
	v := s + len("ascvet:")
	for v < e && !isSpace(src[v]) {
		v++
	}
	verb := string(src[s:v])
	var kind Kind
	switch verb {
	case "ascvet:ignore":
		kind = Ignore
	case "ascvet:file-ignore":
		kind = FileIgnore
	case "ascvet:begin-ignore":
		kind = BeginIgnore
	case "ascvet:end-ignore":
		p.endIgnore(sp)
		return
	default:
		p.problem(p.span(s, v), "unknown directive "+verb+"; use ascvet:ignore, ascvet:file-ignore, ascvet:begin-ignore or ascvet:end-ignore")
		return
	}

	// The rule list: patterns separated by commas (blanks around a comma
	// allowed), then the reason.
	type pat struct{ s, e int }
	var pats []pat
	i := v
	bad := false
	for {
		for i < e && isSpace(src[i]) {
			i++
		}
		j := i
		for j < e && !isSpace(src[j]) && src[j] != ',' {
			j++
		}
		if j == i {
			if len(pats) > 0 || i < e && src[i] == ',' {
				p.problem(p.span(s, e), verb+" has an empty rule in its list; write "+verb+" RULE[,RULE] reason")
				bad = true
			}
			break
		}
		pats = append(pats, pat{i, j})
		k := j
		for k < e && isSpace(src[k]) {
			k++
		}
		if k >= e || src[k] != ',' {
			i = j
			break
		}
		i = k + 1
	}
	if len(pats) == 0 {
		if !bad {
			p.problem(sp, verb+" names no rule; write "+verb+" RULE[,RULE] reason")
		}
		p.add(Directive{Kind: kind, Text: verb, Span: sp}, true)
		if kind == BeginIgnore {
			p.open = append(p.open, openBlock{index: len(p.dirs) - 1, bad: true})
		}
		return
	}
	d := Directive{Kind: kind, Span: sp, Explicit: true}
	text := make([]string, len(pats))
	for n, pt := range pats {
		pattern := string(src[pt.s:pt.e])
		text[n] = pattern
		d.Patterns = append(d.Patterns, pattern)
		ids, err := matchRules(p.rules, pattern, "")
		switch {
		case err != nil:
			p.problem(p.span(pt.s, pt.e), verb+" has a malformed rule glob "+quote(pattern)+"; use *, ? and [...] as in ASC1* or unalign-*")
		case len(ids) == 0:
			p.problem(p.span(pt.s, pt.e), verb+" names unknown rule "+quote(pattern)+"; name a rule by ID, name or glob (ascvet -list shows them) before the reason")
		}
		d.Rules = append(d.Rules, ids...)
	}
	d.Rules = sortedSet(d.Rules)
	d.Text = verb + " " + strings.Join(text, ",")
	d.Reason = strings.TrimSpace(string(src[i:e]))
	switch {
	case bad:
	case d.Reason == "":
		p.problem(sp, d.Text+" has no reason; say after the rules why the finding does not apply")
		bad = true
	case strings.Contains(d.Reason, PlaceholderReason):
		// The editor's "suppress" quick fix inserts the placeholder for
		// the user to replace: left as it is, it is no reason, and
		// suppresses nothing (SARIF would carry it as the justification).
		p.problem(sp, d.Text+" still has the placeholder reason; replace it with why the finding does not apply")
		bad = true
	}
	switch kind {
	case Ignore:
		d.From, d.To = sp.Line, sp.Line
		if !p.code[sp.Line] {
			// Alone on its line: cover the lines down to the next line
			// of code, over comments (more directives, an explanation)
			// but not over a blank line.
			t := sp.Line + 1
			for t < len(p.code) && !p.code[t] && p.commented[t] {
				t++
			}
			d.To = t
		}
	case FileIgnore:
		d.From, d.To = 1, maxLine
	case BeginIgnore:
		d.From = sp.Line
		p.open = append(p.open, openBlock{index: p.add(d, true), bad: bad})
		return
	}
	p.add(d, bad)
}

// endIgnore closes the innermost open ascvet:begin-ignore. Text after
// ascvet:end-ignore is a comment.
func (p *parser) endIgnore(sp Span) {
	for k := len(p.open) - 1; k >= 0; k-- {
		o := p.open[k]
		d := &p.dirs[o.index]
		if d.Kind != BeginIgnore {
			continue
		}
		d.To, d.EndSpan = sp.Line, sp
		if !o.bad {
			delete(p.bad, o.index)
		}
		p.open = slices.Delete(p.open, k, k+1)
		return
	}
	p.problem(sp, "ascvet:end-ignore has no open ascvet:begin-ignore to close; remove it or add the ascvet:begin-ignore")
}

// nolints parses the NOLINT directives in src[s:e]. As clang-tidy does,
// it looks for the keywords anywhere in the comment, in capitals, and
// takes the text after the keyword and its arguments as the reason.
func (p *parser) nolints(s, e int) {
	src := p.src
	for i := s; i < e; {
		k := strings.Index(string(src[i:e]), "NOLINT")
		if k < 0 {
			return
		}
		k += i
		i = k + len("NOLINT")
		if k > s && isIdent(src[k-1]) {
			continue
		}
		kind, end := Nolint, false
		switch rest := string(src[i:e]); {
		case strings.HasPrefix(rest, "NEXTLINE"):
			kind, i = NolintNextLine, i+len("NEXTLINE")
		case strings.HasPrefix(rest, "BEGIN"):
			kind, i = NolintBegin, i+len("BEGIN")
		case strings.HasPrefix(rest, "END"):
			end, i = true, i+len("END")
		}
		if i < e && isIdent(src[i]) {
			continue // NOLINTFOO is no directive
		}
		keyword := string(src[k:i])
		var args []string
		key := ""
		if i < e && src[i] == '(' {
			c := strings.IndexByte(string(src[i:e]), ')')
			if c < 0 {
				if strings.Contains(strings.ToLower(string(src[i:e])), "ascvet") {
					p.problem(p.span(k, e), keyword+" has no closing parenthesis; write "+keyword+"(ascvet-RULE)")
				}
				return
			}
			inner := string(src[i+1 : i+c])
			args = strings.Split(inner, ",")
			key = "(" + strings.ToLower(strings.Join(strings.Fields(inner), "")) + ")"
			if args = slices.DeleteFunc(args, func(a string) bool {
				return strings.TrimSpace(a) == "" || strings.HasPrefix(strings.TrimSpace(a), "-") // clang-tidy ignores negative globs
			}); len(args) == 0 {
				args = []string{}
			}
			i += c + 1
		}
		d := Directive{Kind: kind, Text: string(src[k:i]), Span: p.span(k, e)}
		if args == nil {
			d.Rules = sortedSet(allIDs(p.rules))
		}
		for _, a := range args {
			a = strings.TrimSpace(a)
			ascvet := strings.HasPrefix(strings.ToLower(a), "ascvet")
			ids, err := matchRules(p.rules, a, "ascvet-")
			switch {
			case err != nil || len(ids) == 0:
				if ascvet {
					p.problem(p.span(k, i), string(src[k:i])+" names unknown check "+quote(a)+"; write ascvet-RULE with a rule ID, name or glob (ascvet -list shows them)")
				}
				continue // another tool's check
			case ascvet:
				d.Explicit = true
			}
			d.Patterns = append(d.Patterns, a)
			d.Rules = append(d.Rules, ids...)
		}
		d.Rules = sortedSet(d.Rules)
		if len(d.Rules) == 0 {
			continue // not an ascvet directive
		}
		d.Reason = strings.TrimSpace(strings.TrimLeft(strings.TrimSpace(string(src[i:e])), ":-"))
		line := d.Line
		switch {
		case end:
			p.nolintEnd(key, d.Text, d.Span)
		case kind == Nolint:
			d.From, d.To = line, line
			p.add(d, false)
		case kind == NolintNextLine:
			d.From, d.To = line+1, line+1
			p.add(d, false)
		case kind == NolintBegin:
			d.From = line
			p.open = append(p.open, openBlock{index: p.add(d, true), key: key})
		}
	}
}

// nolintEnd closes the innermost open NOLINTBEGIN with the same arguments.
func (p *parser) nolintEnd(key, text string, sp Span) {
	for k := len(p.open) - 1; k >= 0; k-- {
		o := p.open[k]
		d := &p.dirs[o.index]
		if d.Kind != NolintBegin || o.key != key {
			continue
		}
		d.To, d.EndSpan = sp.Line, sp
		delete(p.bad, o.index)
		p.open = slices.Delete(p.open, k, k+1)
		return
	}
	p.problem(sp, text+" has no matching NOLINTBEGIN"+strings.TrimPrefix(text, "NOLINTEND")+"; remove it or add the NOLINTBEGIN with the same checks")
}

func allIDs(rules []*ruleset.Rule) []string {
	ids := make([]string, len(rules))
	for i, r := range rules {
		ids[i] = r.ID
	}
	return ids
}

func sortedSet(s []string) []string {
	slices.Sort(s)
	return slices.Compact(s)
}

func quote(s string) string { return "\"" + s + "\"" }
