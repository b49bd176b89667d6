package runner

import (
	"bytes"
	"fmt"
	"go/token"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis"
)

// fixer reports every BAD with two alternative fixes (delete it; replace it
// with OK), and a broken fix when the file holds a trigger word: OTHERFILE
// edits another file, NOPOSEDIT has an edit without a position, TANGLED has
// overlapping edits, EMPTYFIX has no edit, BACKWARDS ends before it starts.
var fixer = &analysis.Analyzer{
	Name:     "fixer",
	Doc:      "report BAD with fixes",
	Requires: []*analysis.Analyzer{load},
	Run: func(pass *analysis.Pass) (any, error) {
		tf := pass.ResultOf[load].(*token.File)
		src, _ := pass.ReadFile(pass.OtherFiles[0])
		other := pass.Fset.AddFile("other.cpp", -1, 10)
		for off := 0; ; off += 3 {
			i := bytes.Index(src[off:], []byte("BAD"))
			if i < 0 {
				break
			}
			off += i
			pos, end := tf.Pos(off), tf.Pos(off+3)
			fixes := []analysis.SuggestedFix{
				{Message: "delete", TextEdits: []analysis.TextEdit{{Pos: pos, End: end}}},
				{Message: "replace", TextEdits: []analysis.TextEdit{{Pos: pos, End: end, NewText: []byte("OK")}, {Pos: end, NewText: []byte("!")}}},
			}
			var broken []analysis.TextEdit
			switch {
			case bytes.Contains(src, []byte("OTHERFILE")):
				broken = []analysis.TextEdit{{Pos: other.Pos(1), End: other.Pos(2)}}
			case bytes.Contains(src, []byte("NOPOSEDIT")):
				broken = []analysis.TextEdit{{End: end}}
			case bytes.Contains(src, []byte("TANGLED")):
				broken = []analysis.TextEdit{{Pos: pos, End: end}, {Pos: pos + 1, End: end + 1}}
			case bytes.Contains(src, []byte("BACKWARDS")):
				broken = []analysis.TextEdit{{Pos: end, End: pos}}
			}
			if broken != nil || bytes.Contains(src, []byte("EMPTYFIX")) {
				fixes = append(fixes, analysis.SuggestedFix{Message: "broken", TextEdits: broken})
			}
			pass.Report(analysis.Diagnostic{Pos: pos, End: end, Message: "bad word", SuggestedFixes: fixes})
		}
		if bytes.Contains(src, []byte("NOFIX")) {
			pass.Report(analysis.Diagnostic{Pos: tf.Pos(0), Message: "no fix"})
		}
		return nil, nil
	},
}

func TestResolveFixes(t *testing.T) {
	res, err := Run([]*analysis.Analyzer{fixer}, []File{{Name: "k.cpp", Src: []byte("x BAD\nBAD\n")}}, Options{})
	if err != nil || len(res.Errors) != 0 {
		t.Fatal(err, res.Errors)
	}
	var got []string
	for _, f := range res.Findings {
		for _, fix := range f.Fixes {
			got = append(got, fmt.Sprintf("%d:%s:%s:%v", fix.Pos, fix.Rule, fix.Message, fix.Edits))
		}
	}
	want := `2:fixer:delete:[[2,5)""] 2:fixer:replace:[[2,5)"OK" [5,5)"!"] 6:fixer:delete:[[6,9)""] 6:fixer:replace:[[6,9)"OK" [9,9)"!"]`
	if strings.Join(got, " ") != want {
		t.Errorf("fixes:\n%s\nwant:\n%s", strings.Join(got, " "), want)
	}
}

func TestBrokenFixes(t *testing.T) {
	for word, want := range map[string]string{
		"OTHERFILE": `suggested fix "broken": an edit is in other.cpp, not in the file of its diagnostic`,
		"NOPOSEDIT": `suggested fix "broken": an edit has no position`,
		"TANGLED":   `fix "broken": edits [0,3)"" and [1,4)"" overlap`,
		"BACKWARDS": `fix "broken": edit [3,0)"" ends before it starts`,
		"EMPTYFIX":  `fix "broken" has no edit`,
	} {
		res, err := Run([]*analysis.Analyzer{fixer}, []File{{Name: "k.cpp", Src: []byte("BAD " + word + "\n")}}, Options{})
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Findings) != 0 || len(res.Errors) != 1 {
			t.Errorf("%s: %d findings, errors %v; want one internal error", word, len(res.Findings), res.Errors)
			continue
		}
		prefix := `k.cpp: internal error in analyzer fixer: diagnostic "bad word": ` + want
		if got := res.Errors[0].Error(); !strings.HasPrefix(got, prefix) {
			t.Errorf("%s: %s\nwant %s", word, got, prefix)
		}
	}
}

func TestFixes(t *testing.T) {
	files := []File{
		{Name: "b.cpp", Src: []byte("BAD NOFIX BAD")},
		{Name: "a.cpp", Src: []byte("NOFIX")},
		{Name: "c.cpp", Src: []byte("BAD")},
	}
	res, err := Run([]*analysis.Analyzer{fixer}, files, Options{})
	if err != nil || len(res.Errors) != 0 {
		t.Fatal(err, res.Errors)
	}
	var got []string
	for _, ff := range Fixes(res.Findings) {
		if len(ff.Fixes) != len(ff.Findings) {
			t.Fatalf("%s: %d fixes for %d findings", ff.Name, len(ff.Fixes), len(ff.Findings))
		}
		for i, fix := range ff.Fixes {
			if ff.Findings[i].Pos.Offset != fix.Pos || fix.Message != "delete" {
				t.Errorf("%s: fix %d is %q at %d, finding at %d", ff.Name, i, fix.Message, fix.Pos, ff.Findings[i].Pos.Offset)
			}
			got = append(got, fmt.Sprintf("%s@%d", ff.Name, fix.Pos))
		}
	}
	if want := "b.cpp@0 b.cpp@10 c.cpp@0"; strings.Join(got, " ") != want {
		t.Errorf("Fixes = %s, want %s", strings.Join(got, " "), want)
	}
}

func TestReplace(t *testing.T) {
	files := []File{{Name: "a.cpp", Src: []byte("BAD BAD")}, {Name: "b.cpp", Src: []byte("BAD")}, {Name: "c.cpp", Src: []byte("PANIC")}}
	res, err := Run([]*analysis.Analyzer{words}, files, Options{})
	if err != nil {
		t.Fatal(err)
	}
	sub, err := Run([]*analysis.Analyzer{words}, []File{{Name: "a.cpp", Src: []byte("x BAD")}, {Name: "c.cpp", Src: []byte("fine")}}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	got := res.Replace([]string{"a.cpp", "c.cpp"}, sub)
	var s []string
	for _, f := range got.Findings {
		s = append(s, fmt.Sprintf("%s:%d", f.Pos.Filename, f.Pos.Column))
	}
	if strings.Join(s, " ") != "a.cpp:3 b.cpp:1" || len(got.Errors) != 0 {
		t.Errorf("Replace = %v, errors %v", s, got.Errors)
	}
	if len(res.Findings) != 3 || len(res.Errors) != 1 {
		t.Errorf("Replace modified its receiver: %d findings, %d errors", len(res.Findings), len(res.Errors))
	}
}
