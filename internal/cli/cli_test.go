package cli

import (
	"encoding/json"
	"flag"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime/debug"
	"slices"
	"strings"
	"testing"

	"github.com/ascvet/ascvet/internal/report"
)

// TestFlagsAnywhere: flags after the paths mean what they mean before them,
// for ascvet and every subcommand that takes paths; the order of -f and -o
// is kept; "--" ends the flags.
func TestFlagsAnywhere(t *testing.T) {
	sarif := filepath.Join(t.TempDir(), "out.sarif")
	for _, tc := range []struct{ before, after []string }{
		{[]string{"-f", "json", "-fail-on", "info", "testdata/walk"}, []string{"testdata/walk", "-f", "json", "-fail-on", "info"}},
		{[]string{"-fail=error", "--f", "json", "testdata/walk"}, []string{"testdata/walk", "--fail=error", "-f=json"}},
		{[]string{"-f", "sarif", "-o", sarif, "-f", "text", "testdata/walk/sub/c.hpp"}, []string{"testdata/walk/sub/c.hpp", "-f", "sarif", "-o", sarif, "-f", "text"}},
		{[]string{"sim", "-f", "json", "testdata/sim_levels.asc"}, []string{"sim", "testdata/sim_levels.asc", "-f", "json"}},
		{[]string{"regs", "-f", "json", "testdata/walk"}, []string{"regs", "testdata/walk", "-f", "json"}},
		{[]string{"stats", "-j", "1", "testdata/walk/sub"}, []string{"stats", "testdata/walk/sub", "-j", "1"}},
		{[]string{"explain", "-lang", "zh", "-f", "markdown", "ASC1001"}, []string{"explain", "ASC1001", "-lang", "zh", "-f", "markdown"}},
		{[]string{"config", "print", "-f", "json", "-no-config", "testdata/walk"}, []string{"config", "print", "testdata/walk", "-f", "json", "--no-config"}},
		{[]string{"ir", "testdata/sim_levels.asc"}, []string{"ir", "--", "testdata/sim_levels.asc"}},
	} {
		codeB, outB, errB := ascvet(t, tc.before...)
		codeA, outA, errA := ascvet(t, tc.after...)
		outA, outB = wallTime.ReplaceAllString(outA, `"seconds": 0`), wallTime.ReplaceAllString(outB, `"seconds": 0`) // stats' "seconds"
		if codeA != codeB || outA != outB || errA != errB {
			t.Errorf("ascvet %s: exit %d, stderr %q\nascvet %s: exit %d, stderr %q\nstdout differs: %v",
				strings.Join(tc.before, " "), codeB, errB, strings.Join(tc.after, " "), codeA, errA, outA != outB)
		}
		if codeB == exitUsage || codeB == exitInternal {
			t.Errorf("ascvet %s: exit %d, stderr %q", strings.Join(tc.before, " "), codeB, errB)
		}
	}
	// The first case as an issue reported it: -f json after the path is
	// the format, not a path named -f.
	code, out, errs := ascvet(t, "testdata/walk", "-f", "json")
	if code != exitOK || errs != "" || !strings.HasPrefix(out, "{") {
		t.Errorf("ascvet testdata/walk -f json: exit %d, stderr %q, stdout %.40q", code, errs, out)
	}

	// After "--" an argument that starts with a dash is a path.
	dir := t.TempDir()
	t.Chdir(dir)
	if err := os.WriteFile("-k.cpp", []byte("int x;\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errs = ascvet(t, "--", "-k.cpp")
	if code != exitOK || errs != "" || out != "no findings in 1 file\n" {
		t.Errorf("ascvet -- -k.cpp: exit %d, stderr %q, stdout %q", code, errs, out)
	}
	code, _, errs = ascvet(t, "-k.cpp")
	if code != exitUsage || errs != "ascvet: unknown flag -k.cpp (ascvet -h lists the flags)\n" {
		t.Errorf("ascvet -k.cpp: exit %d, stderr %q", code, errs)
	}
}

// wallTime is the value of stats' "seconds", which differs between runs.
var wallTime = regexp.MustCompile(`"seconds": [0-9.e+-]+`)

// TestFlagMistakes: an unknown flag, a missing value or a bad value is
// one line on stderr, with the closest flag when one is close, or what the
// flag wants, and exit 2.
func TestFlagMistakes(t *testing.T) {
	for _, tc := range []struct {
		args   []string
		stderr string
	}{
		{[]string{"-fial", "testdata/walk"}, "ascvet: unknown flag -fial; did you mean -fail? (ascvet -h lists the flags)\n"},
		{[]string{"testdata/walk", "--fial=error"}, "ascvet: unknown flag --fial; did you mean --fail? (ascvet -h lists the flags)\n"},
		{[]string{"-confid", "low"}, "ascvet: unknown flag -confid; did you mean -confidence? (ascvet -h lists the flags)\n"},
		{[]string{"-xyzzy"}, "ascvet: unknown flag -xyzzy (ascvet -h lists the flags)\n"},
		{[]string{"testdata/walk", "-f"}, "ascvet: flag -f needs a FORMAT (ascvet -h lists the flags)\n"},
		{[]string{"-f", "xml"}, "ascvet: invalid value \"xml\" for flag -f: want one of text, json, sarif, github, checkstyle, codequality (ascvet -h lists the flags)\n"},
		{[]string{"---fix"}, "ascvet: bad flag syntax: ---fix (ascvet -h lists the flags)\n"},
		{[]string{"sim", "-timelin", "3", "x.asc:1"}, "ascvet sim: unknown flag -timelin; did you mean -timeline? (ascvet sim -h lists the flags)\n"},
		{[]string{"regs", "x.asc", "-fromat", "json"}, "ascvet regs: unknown flag -fromat (ascvet regs -h lists the flags)\n"},
		{[]string{"stats", "-site"}, "ascvet stats: unknown flag -site; did you mean -sites? (ascvet stats -h lists the flags)\n"},
		{[]string{"ir", "-v"}, "ascvet ir: unknown flag -v (ascvet ir -h lists the flags)\n"},
		{[]string{"explain", "-lnag", "zh"}, "ascvet explain: unknown flag -lnag; did you mean -lang? (ascvet explain -h lists the flags)\n"},
		{[]string{"config", "print", "-no-cofig"}, "ascvet config print: unknown flag -no-cofig; did you mean -no-config? (ascvet config print -h lists the flags)\n"},
		{[]string{"version", "-f"}, "ascvet version: flag -f needs a FORMAT (ascvet version -h lists the flags)\n"},
		{[]string{"stat", "testdata/walk"}, "ascvet: unknown command \"stat\"; did you mean stats? (ascvet help lists the commands)\n"},
		{[]string{"config", "prnt"}, "ascvet config: unknown subcommand \"prnt\"; did you mean print? (want print)\nrun 'ascvet config -h' for usage\n"},
		// A value that does not parse says what the flag wants, not
		// "parse error"; a severity in the plural is suggested as the
		// severity.
		{[]string{"-j", "abc"}, "ascvet: invalid value \"abc\" for flag -j: want a whole number, as in -j N: analyse N files in parallel (ascvet -h lists the flags)\n"},
		{[]string{"stats", "--j=x"}, "ascvet stats: invalid value \"x\" for flag -j: want a whole number, as in -j N: parse N files in parallel (ascvet stats -h lists the flags)\n"},
		{[]string{"-file-timeout", "5"}, "ascvet: invalid value \"5\" for flag -file-timeout: want a duration with its unit (500ms, 60s, 2m), as in -file-timeout DURATION: DURATION allowed to analyse one file: parse, rules, simulation and fix checks (60s, 2m); 0 for no limit (ascvet -h lists the flags)\n"},
		{[]string{"-fix=maybe"}, "ascvet: invalid boolean value \"maybe\" for -fix: want true or false (ascvet -h lists the flags)\n"},
		{[]string{"-fail", "errors"}, "ascvet: -fail errors: unknown rule errors; did you mean -fail error, the severity?\nrun 'ascvet -h' for usage\n"},
		{[]string{"-fail", "ASC1001,warnings", "testdata/walk"}, "ascvet: -fail ASC1001,warnings: unknown rule warnings; did you mean -fail ASC1001,warning, the severity?\nrun 'ascvet -h' for usage\n"},
		{[]string{"-fail", "nonee"}, "ascvet: -fail nonee: unknown rule nonee; did you mean -fail none?\nrun 'ascvet -h' for usage\n"},
	} {
		code, out, errs := ascvet(t, tc.args...)
		if code != exitUsage || errs != tc.stderr || out != "" {
			t.Errorf("ascvet %s: exit %d, stdout %q, stderr\n%q, want\n%q", strings.Join(tc.args, " "), code, out, errs, tc.stderr)
		}
	}
}

func TestSuggest(t *testing.T) {
	flags := []string{"f", "fail", "fail-on", "fail-no-saving", "fix", "j", "lang", "list"}
	for in, want := range map[string]string{
		"fial": "fail", "fali": "fail", "fail-no": "fail-no-saving", "fail-o": "fail-on", "lnag": "lang", "lsit": "list",
		"x": "", "g": "", "xyzzy": "", "fixx": "fix", "fa": "fail",
	} {
		if got := suggest(in, flags); got != want {
			t.Errorf("suggest(%q) = %q, want %q", in, got, want)
		}
	}
	if d := editDistance("fial", "fail"); d != 1 {
		t.Errorf("editDistance(fial, fail) = %d, want 1 (a transposition)", d)
	}
}

// TestHelp: "ascvet help [COMMAND]" prints the usage on stdout, and so do
// -h, -help and --help, wherever they come, for ascvet and every
// subcommand, with exit 0; a mistake before them is still one line on
// stderr with exit 2.
func TestHelp(t *testing.T) {
	code, out, errs := ascvet(t, "help")
	if code != exitOK || errs != "" || !strings.HasPrefix(out, "usage: ascvet [flags] [path ...]") || !strings.Contains(out, "-fail WHAT") {
		t.Errorf("ascvet help: exit %d, stderr %q, stdout %q", code, errs, out)
	}
	for _, args := range [][]string{{"-h"}, {"-help"}, {"--help"}, {"testdata/walk", "-f", "json", "-h"}, {"-fail", "error", "--help", "-f"}} {
		code, h, herrs := ascvet(t, args...)
		if code != exitOK || herrs != "" || h != out {
			t.Errorf("ascvet %s: exit %d, stderr %q; stdout differs from ascvet help:\n%s", strings.Join(args, " "), code, herrs, h)
		}
	}
	for _, c := range commands {
		if !strings.Contains(out, "\n       ascvet "+c.name+" ") && !strings.Contains(out, "\n       ascvet "+c.name+"\n") {
			t.Errorf("ascvet help does not list ascvet %s", c.name)
		}
		code, out, errs := ascvet(t, "help", c.name)
		if code != exitOK || errs != "" || !strings.HasPrefix(out, "usage: ascvet "+c.name) {
			t.Errorf("ascvet help %s: exit %d, stderr %q, stdout %q", c.name, code, errs, out)
		}
		for _, args := range [][]string{{c.name, "-h"}, {c.name, "--help"}, {c.name, "x.asc", "-help"}} {
			if c.name == "config" {
				args = append([]string{"config", "print"}, args[1:]...)
			}
			code, hout, herrs := ascvet(t, args...)
			if code != exitOK || herrs != "" || hout != out {
				t.Errorf("ascvet %s: exit %d, stderr %q; stdout differs from ascvet help %s:\n%s", strings.Join(args, " "), code, herrs, c.name, hout)
			}
		}
	}
	// A mistake before the -h is reported as a mistake; after it, -h wins.
	code, out, errs = ascvet(t, "-fial", "-h")
	if code != exitUsage || out != "" || errs != "ascvet: unknown flag -fial; did you mean -fail? (ascvet -h lists the flags)\n" {
		t.Errorf("ascvet -fial -h: exit %d, stdout %q, stderr %q", code, out, errs)
	}
	if code, out, errs := ascvet(t, "sim", "-h", "-fial"); code != exitOK || errs != "" || !strings.HasPrefix(out, "usage: ascvet sim") {
		t.Errorf("ascvet sim -h -fial: exit %d, stderr %q, stdout %.40q", code, errs, out)
	}
	// After "--", -h is a path.
	if code, out, errs := ascvet(t, "--", "-h"); code != exitUsage || strings.Contains(out, "usage:") || !strings.Contains(errs, "-h") {
		t.Errorf("ascvet -- -h: exit %d, stdout %.40q, stderr %q; want -h taken as a path", code, out, errs)
	}
	code, out, errs = ascvet(t, "help", "smi")
	if code != exitUsage || out != "" || errs != "ascvet help: unknown command \"smi\"; did you mean sim? (ascvet help lists the commands)\n" {
		t.Errorf("ascvet help smi: exit %d, stdout %q, stderr %q", code, out, errs)
	}
	code, _, errs = ascvet(t, "help", "nosuch")
	if code != exitUsage || errs != "ascvet help: unknown command \"nosuch\" (ascvet help lists the commands)\n" {
		t.Errorf("ascvet help nosuch: exit %d, stderr %q", code, errs)
	}
}

// placeholder is a flag line of -h: "  -name PLACEHOLDER".
var placeholder = regexp.MustCompile(`(?m)^  -(\S+)(?: (\S+))?(?:\t|$)`)

// TestPlaceholders: every flag that takes a value names it in -h with a
// word in capitals (FORMAT, FILE, N), never the flag package's "value",
// "string" or "int", nor a word of the text (none).
func TestPlaceholders(t *testing.T) {
	sets := map[string]*flag.FlagSet{}
	sets["ascvet"], _ = mainFlags(io.Discard)
	for _, c := range commands {
		sets["ascvet "+c.name] = c.flags(io.Discard)
	}
	caps := regexp.MustCompile(`^[A-Z][A-Z0-9_]*$`)
	for name, fs := range sets {
		var b strings.Builder
		fs.SetOutput(&b)
		fs.PrintDefaults()
		seen := 0
		for _, m := range placeholder.FindAllStringSubmatch(b.String(), -1) {
			seen++
			f := fs.Lookup(m[1])
			if f == nil {
				t.Errorf("%s -h: line for unknown flag -%s", name, m[1])
				continue
			}
			switch {
			case isBoolFlag(f) && m[2] != "":
				t.Errorf("%s -h: bool flag -%s has placeholder %s", name, m[1], m[2])
			case !isBoolFlag(f) && !caps.MatchString(m[2]):
				t.Errorf("%s -h: -%s %s: want a placeholder in capitals", name, m[1], m[2])
			}
		}
		n := 0
		fs.VisitAll(func(*flag.Flag) { n++ })
		if seen != n {
			t.Errorf("%s -h: %d flag lines for %d flags:\n%s", name, seen, n, b.String())
		}
	}
}

// TestVersion: ascvet version, -version and version -f json say the same;
// versionOf reads the VCS settings of a real build, and a build without
// them (go install from the module proxy, go run in a tarball, go test)
// says what it knows, never "unknown".
func TestVersion(t *testing.T) {
	code, out, errs := ascvet(t, "version")
	if code != exitOK || errs != "" || !regexp.MustCompile(`^ascvet `+regexp.QuoteMeta(version)+`( \S+)* go\S+ \S+/\S+\n$`).MatchString(out) || strings.Contains(out, "unknown") {
		t.Errorf("ascvet version: exit %d, stderr %q, stdout %q", code, errs, out)
	}
	if _, old, _ := ascvet(t, "-version"); old != out {
		t.Errorf("ascvet -version %q, ascvet version %q", old, out)
	}
	code, js, _ := ascvet(t, "version", "-f", "json")
	var v versionInfo
	if err := json.Unmarshal([]byte(js), &v); code != exitOK || err != nil || v.Version != version || v.Go == "" || strings.Contains(js, "unknown") {
		t.Errorf("ascvet version -f json: exit %d, %v: %s", code, err, js)
	}
	platform := []debug.BuildSetting{{Key: "GOOS", Value: "linux"}, {Key: "GOARCH", Value: "arm64"}}
	vcs := append(slices.Clone(platform), debug.BuildSetting{Key: "vcs.revision", Value: "1a2b3c4d5e6f7a8b9c0d1e2f3a4b5c6d7e8f9a0b"},
		debug.BuildSetting{Key: "vcs.time", Value: "2026-12-03T10:00:00Z"}, debug.BuildSetting{Key: "vcs.modified", Value: "true"})
	const pseudo = "v0.2.1-0.20261203100000-1a2b3c4d5e6f"
	for _, tc := range []struct {
		name string
		bi   *debug.BuildInfo
		want string
	}{
		{"a checkout", &debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Version: "(devel)"}, Settings: vcs},
			"ascvet " + version + " (devel) rev 1a2b3c4d5e6f-dirty 2026-12-03T10:00:00Z go1.26.8 linux/arm64"},
		{"a pseudo-version with VCS stamps", &debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Version: pseudo}, Settings: vcs},
			"ascvet " + version + " " + pseudo + " rev 1a2b3c4d5e6f-dirty 2026-12-03T10:00:00Z go1.26.8 linux/arm64"},
		{"go install @latest from the proxy", &debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Version: pseudo}, Settings: platform},
			"ascvet " + version + " " + pseudo + " rev 1a2b3c4d5e6f 2026-12-03T10:00:00Z go1.26.8 linux/arm64"},
		{"a pre-release pseudo-version", &debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Version: "v0.3.0-rc.1.0.20261203100000-abcdefabcdef"}, Settings: platform},
			"ascvet " + version + " v0.3.0-rc.1.0.20261203100000-abcdefabcdef rev abcdefabcdef 2026-12-03T10:00:00Z go1.26.8 linux/arm64"},
		{"go install @v0.2.0", &debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Version: "v0.2.0"}, Settings: platform},
			"ascvet " + version + " v0.2.0 go1.26.8 linux/arm64"},
		{"go run in a tarball", &debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Version: "(devel)"}, Settings: platform},
			"ascvet " + version + " (devel) go1.26.8 linux/arm64"},
	} {
		if got := versionOf(tc.bi).String(); got != tc.want {
			t.Errorf("%s: versionOf = %q, want %q", tc.name, got, tc.want)
		}
	}
	if got := versionOf(nil).String(); strings.Contains(got, "unknown") || !strings.HasPrefix(got, "ascvet "+version+" go") {
		t.Errorf("versionOf without build info = %q", got)
	}
	data, err := json.Marshal(versionOf(&debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Version: "(devel)"}}))
	if err != nil || strings.Contains(string(data), "revision") || strings.Contains(string(data), "unknown") {
		t.Errorf("version -f json without VCS stamps: %s (%v); want no revision", data, err)
	}
}

// TestCompletion: the bash script parses (bash -n) and offers every flag
// of ascvet and the values of -f; zsh's and fish's parse when the shells
// are installed.
func TestCompletion(t *testing.T) {
	scripts := map[string]string{}
	for _, sh := range shells {
		code, out, errs := ascvet(t, "completion", sh)
		if code != exitOK || errs != "" || out == "" {
			t.Fatalf("ascvet completion %s: exit %d, stderr %q", sh, code, errs)
		}
		scripts[sh] = out
	}
	fs, _ := mainFlags(io.Discard)
	fs.VisitAll(func(f *flag.Flag) {
		for sh, s := range scripts {
			if !regexp.MustCompile(`[ '"(*]-` + regexp.QuoteMeta(f.Name) + `[ =\[|)"]|-o ` + regexp.QuoteMeta(f.Name) + ` `).MatchString(s) {
				t.Errorf("the %s script does not complete -%s", sh, f.Name)
			}
		}
	})
	for _, want := range []string{"text json sarif github checkstyle codequality", "auto always never", "none info warning error", "ASC1001", "unalign-pre-in-loop", "ascend950"} {
		for sh, s := range scripts {
			if !strings.Contains(s, want) {
				t.Errorf("the %s script does not hold %q", sh, want)
			}
		}
	}
	for sh, check := range map[string][]string{"bash": {"-n"}, "zsh": {"-n"}, "fish": {"--no-execute"}} {
		bin, err := exec.LookPath(sh)
		if err != nil {
			t.Logf("%s is not installed: its script's syntax is not checked", sh)
			continue
		}
		file := filepath.Join(t.TempDir(), "ascvet."+sh)
		if err := os.WriteFile(file, []byte(scripts[sh]), 0o644); err != nil {
			t.Fatal(err)
		}
		if out, err := exec.Command(bin, append(check, file)...).CombinedOutput(); err != nil {
			t.Errorf("%s %s: %v\n%s", sh, strings.Join(check, " "), err, out)
		}
	}
	code, _, errs := ascvet(t, "completion", "bsh")
	if code != exitUsage || !strings.Contains(errs, `unknown shell "bsh"; did you mean bash?`) {
		t.Errorf("ascvet completion bsh: exit %d, stderr %q", code, errs)
	}
}

// TestColor: -color always colours the severity word and the rule ID of
// the text format, even into a buffer and with NO_COLOR set; -color never,
// and auto into a buffer (no terminal), do not; other formats never are.
func TestColor(t *testing.T) {
	const file = "testdata/walk/sub/c.hpp"
	_, plain, _ := ascvet(t, file)
	_, always, _ := ascvet(t, file, "-color", "always")
	want := strings.Replace(plain, ": info: ", ": \x1b[1;36minfo\x1b[0m: ", 1)
	want = strings.Replace(want, "[ASC0001]", "[\x1b[2mASC0001\x1b[0m]", 1)
	if always != want || plain == want {
		t.Errorf("-color always:\n%q\nwant\n%q", always, want)
	}
	for _, sev := range []struct{ level, code string }{{"error", "\x1b[1;31m"}, {"warning", "\x1b[1;33m"}} {
		_, out, _ := ascvet(t, "-color=always", "../../testdata/kernels/unaligned_bugs.asc")
		if !strings.Contains(out, ": "+sev.code+sev.level+"\x1b[0m: ") {
			t.Errorf("-color always: no coloured %s in\n%s", sev.level, out)
		}
	}
	t.Setenv("NO_COLOR", "1")
	if _, out, _ := ascvet(t, file, "--color", "always"); out != always {
		t.Errorf("NO_COLOR=1 -color always: %q, want it coloured (the flag wins)", out)
	}
	t.Setenv("NO_COLOR", "")
	t.Setenv("TERM", "xterm-256color")
	for _, args := range [][]string{{"-color", "never"}, {"-color", "auto"}, {}} {
		if _, out, _ := ascvet(t, append(args, file)...); out != plain {
			t.Errorf("%v into a buffer: %q, want no colour", args, out)
		}
	}
	for _, f := range report.Formats {
		if f == "text" {
			continue
		}
		if _, out, _ := ascvet(t, "-color", "always", "-f", f, file); strings.Contains(out, "\x1b[") {
			t.Errorf("-color always -f %s has an escape code", f)
		}
	}
	out := filepath.Join(t.TempDir(), "out.txt")
	if _, _, errs := ascvet(t, "-color", "always", "-o", out, file); errs != "" {
		t.Fatal(errs)
	}
	if b, _ := os.ReadFile(out); string(b) != plain {
		t.Errorf("-color always -o FILE wrote %q, want no colour in a file", b)
	}
	if code, _, errs := ascvet(t, "-color", "sometimes", file); code != exitUsage || !strings.HasPrefix(errs, "ascvet: -color sometimes: want auto, always or never\n") {
		t.Errorf("-color sometimes: exit %d, %q", code, errs)
	}
	for _, tc := range []struct {
		when, noColor, term string
		want                bool
	}{
		{"auto", "", "xterm", false}, // a buffer is no terminal
		{"auto", "1", "xterm", false},
		{"always", "1", "dumb", true},
		{"never", "", "xterm", false},
	} {
		env := map[string]string{"NO_COLOR": tc.noColor, "TERM": tc.term}
		if got, err := useColor(tc.when, io.Discard, func(k string) string { return env[k] }); got != tc.want || err != nil {
			t.Errorf("useColor(%s, NO_COLOR=%q TERM=%s) = %v, %v", tc.when, tc.noColor, tc.term, got, err)
		}
	}
}

// TestLangZH: with -lang zh the text format's severity words and summary
// are Chinese; the machine formats keep the English severities.
func TestLangZH(t *testing.T) {
	code, out, _ := ascvet(t, "-lang", "zh", "../../testdata/kernels/unaligned_bugs.asc", "testdata/walk/sub/c.hpp")
	if code != exitFindings {
		t.Errorf("exit %d", code)
	}
	for _, want := range []string{": 错误: LoadUnAlign ", ": 警告: ", ": 提示: ", "\n在 2 个文件中有 5 个检查结果（3 个错误，1 个警告，1 个提示）\n"} {
		if !strings.Contains(out, want) {
			t.Errorf("-lang zh: no %q in\n%s", want, out)
		}
	}
	if strings.Contains(out, ": error: ") || strings.Contains(out, "findings") {
		t.Errorf("-lang zh: English left in\n%s", out)
	}
	_, out, _ = ascvet(t, "-lang", "zh", "testdata/walk/plain.cpp")
	if out != "在 1 个文件中没有检查结果\n" {
		t.Errorf("-lang zh, no findings: %q", out)
	}
	_, out, _ = ascvet(t, "-lang", "zh", "-f", "json", "testdata/walk/sub/c.hpp")
	if !strings.Contains(out, `"severity": "info"`) {
		t.Errorf("-lang zh -f json changed the severity:\n%s", out)
	}
}
