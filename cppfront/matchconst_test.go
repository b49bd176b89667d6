package cppfront

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// constStartRE is the pattern matchConst stands for.
var constStartRE = regexp.MustCompile(`^(?:constexpr|const)\b[^;=(){}]*?\b([A-Za-z_]\w*)\s*(?:=\s*([^;{}]+?)|\{\s*([^;{}]+?)\s*\})\s*;`)

// TestMatchConst: matchConst answers as constStartRE does, on tricky
// statements and on every const statement scan meets in the repository's
// kernels (and in ASCVET_CORPUS, when set).
func TestMatchConst(t *testing.T) {
	stmts := []string{
		"const int X = 1;", "constexpr uint32_t N = 64 * 4;", "const int X = ;", "const int X =  ;", "const int X =;",
		"const int X{ 3 } ;", "const int X{3}x;", "const int X{};", "const int X{ };", "constexpr auto a = b{c};",
		"const int a[2] = {1,2};", "const uint32_t X = Foo<T>(3);", "constant = 4;", "const T& x = y;",
		"const char* s = \"a\";", "const int = 4;", "const 5x = 1;", "constexpr static int K = sizeof(T) / 2 ;",
		"const\tint\nY\t=\t7\n;", "constexprint X = 1;", "const int X { 1 };", "const int X = 1 }", "const X(3);",
		"const int X = a ? b : c;", "const int X =\t\n;", "const int _x = -1;", "const int* const p = q;",
		"constexpr int X = 1; int Y = 2;", "const", "const;", "constexpr = 1;", "const int X{ 2 }\t;",
	}
	check := func(stmt string) {
		t.Helper()
		want := constStartRE.FindStringSubmatch(stmt)
		if got := matchConst(stmt); !slices.Equal(got, want) {
			t.Errorf("%q: matchConst %q, the pattern %q", stmt, got, want)
		}
	}
	for _, s := range stmts {
		check(s)
	}
	dirs := []string{"../testdata/kernels"}
	if d := os.Getenv("ASCVET_CORPUS"); d != "" {
		dirs = append(dirs, d)
	}
	n := 0
	for _, dir := range dirs {
		err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			switch filepath.Ext(p) {
			case ".asc", ".cpp", ".cc", ".cxx", ".h", ".hh", ".hpp", ".hxx":
			default:
				return nil
			}
			src, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			text := stripComments(string(src))
			for k := 0; ; {
				j := strings.Index(text[k:], "const")
				if j < 0 {
					break
				}
				j += k
				k = j + len("const")
				end := strings.IndexByte(text[j:], ';')
				if end < 0 {
					break
				}
				check(text[j : j+end+1])
				n++
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	t.Logf("%d statements compared", n)
}
