package cli

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

// TestFixProbes is the executable check of issue 32: every fix ascvet
// offers on a crafted kernel is compiled and run, before and after
// `ascvet -fix`, against a host model of the Reg API
// (testdata/hostmodel/ascend_host.h), and the UB bytes the runs print must
// be the same.
//
// Each probe, testdata/fixprobes/NN_name.asc, is a kernel with a host main
// under #ifdef ASCVET_HOST_MAIN that runs it for several trip counts and
// offsets and prints a hash and the changed ranges of UB. Its first lines
// say what ascvet must do:
//
//	// expect: fix    a fix is offered, and keeps the output
//	// expect: nofix  no fix may be offered (it would change the output or not compile)
//	// expect: safe   a fix may be offered or refused; if offered, it keeps the output
//	// expect: bugfix a fix is offered that corrects a bug (ASC1005): the fixed
//	//                kernel writes what the probe's driver writes when built
//	//                with -DASCVET_REFERENCE (it then runs a correct copy),
//	//                and the original does not
//
// A line `// variant: -DNAME=VALUE ...` (repeatable) asks for one more
// build of both files with those macros, whose output must agree too: a
// fix that moves a statement across an #if is right only if it is right
// for every branch.
//
// A fixed file that does not compile, or prints other bytes, fails the
// probe, showing the fix's diff. Findings left in the fixed file are
// logged. `#pragma unroll [N]` is compiled as `#pragma GCC unroll N`, which,
// like the device compiler (clang) and unlike a plain unknown pragma, must
// be followed by a loop.
//
// The probes in knownWrong get a wrong fix today: their failures are
// logged, not reported, until the fix is refused or made right; a probe
// that passes while listed is reported, so that the list shrinks.
var knownWrong = map[string]string{}

// probe is one kernel of testdata/fixprobes and what became of it.
type probe struct {
	name    string     // NN_name
	expect  string     // fix, nofix, safe or bugfix
	orig    string     // path of the copy as written
	fixed   string     // path of the copy ascvet -fix rewrote
	diff    string     // ascvet -diff on the copy
	applied bool       // the fixed text differs from the original
	left    string     // findings ascvet reports on the fixed file
	builds  [][]string // compiler flags of each build: none, then the variants
	outA    string     // output of the kernel as written
	outB    string     // output of the fixed kernel
	outR    string     // bugfix: output of the reference build (-DASCVET_REFERENCE)
	errA    error      // compiling or running the original
	errB    error      // compiling or running the fixed copy
}

var (
	expectLine  = regexp.MustCompile(`(?m)^//\s*expect:\s*(fix|nofix|safe|bugfix)\s*$`)
	variantLine = regexp.MustCompile(`(?m)^//\s*variant:(.*)$`)
)

// cxxCompiler returns a C++ compiler: $CXX, g++, clang++ or c++, else
// Debian's g++ installed with apt-get when the test runs as root. It skips
// the test when there is none, and fails it under CI=true.
func cxxCompiler(t *testing.T) string {
	t.Helper()
	var names []string
	if cxx := os.Getenv("CXX"); cxx != "" {
		names = append(names, cxx)
	}
	for _, name := range append(names, "g++", "clang++", "c++") {
		if path, err := exec.LookPath(name); err == nil {
			return path
		}
	}
	if apt, err := exec.LookPath("apt-get"); err == nil && os.Geteuid() == 0 {
		t.Logf("no C++ compiler: apt-get install -y g++")
		install := func() error { return exec.Command(apt, "install", "-y", "-q", "g++").Run() }
		if install() != nil && exec.Command(apt, "update", "-q").Run() == nil {
			_ = install() // whether it worked, LookPath says
		}
		if path, err := exec.LookPath("g++"); err == nil {
			return path
		}
	}
	if os.Getenv("CI") == "true" {
		t.Fatal("no C++ compiler (g++, clang++ or c++, or $CXX) to run the fix probes; CI must install g++")
	}
	t.Skip("no C++ compiler (g++, clang++ or c++, or $CXX): install g++ (apt-get install g++) to compile and run the fix probes")
	return ""
}

func TestFixProbes(t *testing.T) {
	cxx := cxxCompiler(t)
	hostmodel, err := filepath.Abs(filepath.Join("..", "..", "testdata", "hostmodel"))
	if err != nil {
		t.Fatal(err)
	}
	paths, err := filepath.Glob(filepath.Join("..", "..", "testdata", "fixprobes", "*.asc"))
	if err != nil || len(paths) == 0 {
		t.Fatalf("no probes in testdata/fixprobes (%v)", err)
	}
	for name := range knownWrong {
		if _, err := os.Stat(filepath.Join("..", "..", "testdata", "fixprobes", name+".asc")); err != nil {
			t.Errorf("knownWrong names %s, which is not a probe", name)
		}
	}
	dir := t.TempDir()

	// ascvet runs in this process, one probe after the other; the compilers
	// run in parallel.
	probes := make([]*probe, len(paths))
	for i, path := range paths {
		probes[i] = fixProbe(t, path, dir)
	}
	sem := make(chan struct{}, max(2, runtime.NumCPU()))
	var wg sync.WaitGroup
	for _, p := range probes {
		if p.orig == "" {
			continue
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			for k, flags := range p.builds {
				bin := filepath.Join(dir, fmt.Sprintf("%s.%d", p.name, k))
				a, errA := buildAndRun(cxx, hostmodel, p.orig, bin+".a", flags)
				b, errB := a, error(nil)
				if p.applied {
					b, errB = buildAndRun(cxx, hostmodel, p.fixed, bin+".b", flags)
				}
				label := ""
				if len(flags) > 0 {
					label = "# build " + strings.Join(flags, " ") + "\n"
				}
				if p.expect == "bugfix" {
					r, errR := buildAndRun(cxx, hostmodel, p.orig, bin+".r", append(slices.Clone(flags), "-DASCVET_REFERENCE"))
					p.outR += label + r
					if p.errA == nil {
						p.errA = errR
					}
				}
				p.outA += label + a
				p.outB += label + b
				if p.errA == nil {
					p.errA = errA
				}
				if p.errB == nil {
					p.errB = errB
				}
			}
			<-sem
		}()
	}
	wg.Wait()

	var offered, wrong int
	var table strings.Builder
	for _, p := range probes {
		t.Run(p.name, func(t *testing.T) {
			if p.orig == "" {
				return // fixProbe failed it
			}
			if p.errA != nil {
				t.Fatalf("the probe as written does not run: %v", p.errA)
			}
			var problems []string
			switch {
			case p.errB != nil:
				problems = append(problems, fmt.Sprintf("the fixed file does not run: %v", p.errB))
			case p.expect == "bugfix" && p.outA == p.outR:
				problems = append(problems, "the bug does not show: the probe as written already writes what its reference writes")
			case p.expect == "bugfix" && p.outB != p.outR:
				problems = append(problems, "the fixed kernel does not write what the reference writes:\n"+firstLines(lineDiff(p.outR, p.outB), 12))
			case p.expect != "bugfix" && p.outB != p.outA:
				problems = append(problems, "the fixed kernel writes other bytes:\n"+firstLines(lineDiff(p.outA, p.outB), 12))
			}
			if p.applied && p.expect == "nofix" {
				problems = append(problems, "a fix was applied to a probe that expects none")
			}
			if !p.applied && (p.expect == "fix" || p.expect == "bugfix") {
				problems = append(problems, "no fix was applied to a probe that expects one")
			}
			if p.applied {
				offered++
				if p.left != "" {
					t.Logf("the fixed file still has findings:\n%s", p.left)
				}
			}
			report := t.Errorf
			if why, ok := knownWrong[p.name]; ok {
				report = t.Logf
				if len(problems) == 0 {
					t.Errorf("listed in knownWrong (%s) but right now: take it off the list", why)
				} else {
					t.Logf("known wrong: %s", why)
				}
			}
			verdict, did := "ok", "no fix"
			if p.applied {
				did = "fixed"
			}
			if len(problems) > 0 {
				verdict = "WRONG"
				if _, ok := knownWrong[p.name]; ok {
					verdict = "known wrong"
				}
			}
			fmt.Fprintf(&table, "%-28s %-6s %-7s %s\n", p.name, p.expect, did, verdict)
			if len(problems) > 0 {
				wrong++
				report("expect: %s\n%s\nthe fix:\n%s", p.expect, strings.Join(problems, "\n"), p.diff)
			}
		})
	}
	t.Logf("%d probes, %d with a fix applied, %d wrong (%d known):\n%s", len(probes), offered, wrong, len(knownWrong), table.String())
}

// fixProbe copies the probe at path into dir twice (as written, and to be
// fixed), runs ascvet -diff and ascvet -fix on the second, and ascvet on
// what it wrote.
func fixProbe(t *testing.T, path, dir string) *probe {
	t.Helper()
	name := strings.TrimSuffix(filepath.Base(path), ".asc")
	p := &probe{name: name}
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	head := strings.ReplaceAll(string(src[:min(len(src), 2000)]), "\r", "")
	m := expectLine.FindStringSubmatch(head)
	if m == nil {
		t.Errorf("%s: no `// expect: fix|nofix|safe|bugfix` line at its top", path)
		return p
	}
	p.expect = m[1]
	p.builds = [][]string{nil}
	for _, v := range variantLine.FindAllStringSubmatch(head, -1) {
		p.builds = append(p.builds, strings.Fields(v[1]))
	}
	for _, sub := range []string{"a", "b"} {
		if err := os.MkdirAll(filepath.Join(dir, sub), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, sub, name+".asc"), src, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	p.orig = filepath.Join(dir, "a", name+".asc")
	p.fixed = filepath.Join(dir, "b", name+".asc")
	_, p.diff, _ = ascvet(t, "-cache", "off", "-diff", p.fixed)
	if code, out, errs := ascvet(t, "-cache", "off", "-fix", p.fixed); code != exitOK && code != exitFindings {
		t.Errorf("%s: ascvet -fix: exit %d\n%s%s", name, code, out, errs)
	}
	fixed, err := os.ReadFile(p.fixed)
	if err != nil {
		t.Fatal(err)
	}
	p.applied = !bytes.Equal(fixed, src)
	if p.applied {
		if code, out, _ := ascvet(t, "-cache", "off", p.fixed); code != exitOK {
			p.left = out
		}
	}
	return p
}

var pragmaUnroll = regexp.MustCompile(`(?m)^([ \t]*)#[ \t]*pragma[ \t]+unroll\b[ \t]*(\(?[0-9]*\)?)`)

// buildAndRun compiles the kernel file src with its host main against the
// host model with the extra compiler flags, into bin, runs it and returns
// what it prints.
func buildAndRun(cxx, hostmodel, src, bin string, flags []string) (string, error) {
	text, err := os.ReadFile(src)
	if err != nil {
		return "", err
	}
	// #pragma unroll [N] as GCC spells it: followed by a loop or an error.
	text = pragmaUnroll.ReplaceAllFunc(text, func(m []byte) []byte {
		sub := pragmaUnroll.FindSubmatch(m)
		n := strings.Trim(string(sub[2]), "()")
		if n == "" {
			n = "16"
		}
		return []byte(string(sub[1]) + "#pragma GCC unroll " + n)
	})
	unit := bin + ".cc"
	if err := os.WriteFile(unit, text, 0o644); err != nil {
		return "", err
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	args := append([]string{"-std=c++17", "-DASCVET_HOST_MAIN", "-I" + hostmodel}, flags...)
	cc := exec.CommandContext(ctx, cxx, append(args, "-x", "c++", unit, "-o", bin)...)
	if out, err := cc.CombinedOutput(); err != nil {
		return "", fmt.Errorf("%s does not compile (%w):\n%s", filepath.Base(src), err, firstLines(string(out), 20))
	}
	var stdout, stderr bytes.Buffer
	run := exec.CommandContext(ctx, bin)
	run.Stdout, run.Stderr = &stdout, &stderr
	if err := run.Run(); err != nil {
		return stdout.String(), fmt.Errorf("running %s: %w\n%s", filepath.Base(src), err, firstLines(stderr.String(), 10))
	}
	return stdout.String(), nil
}

// lineDiff lists the lines of a and b that differ, by line number, each
// group under the "# build" line of its variant.
func lineDiff(a, b string) string {
	al, bl := strings.Split(a, "\n"), strings.Split(b, "\n")
	var out strings.Builder
	build, shown := "", ""
	for i := 0; i < max(len(al), len(bl)); i++ {
		var x, y string
		if i < len(al) {
			x = al[i]
		}
		if i < len(bl) {
			y = bl[i]
		}
		if strings.HasPrefix(x, "# build ") {
			build = x
		}
		if x != y {
			if build != shown {
				fmt.Fprintf(&out, "%s\n", build)
				shown = build
			}
			fmt.Fprintf(&out, "-%s\n+%s\n", x, y)
		}
	}
	return out.String()
}

// firstLines returns the first n lines of s, and says how many it leaves out.
func firstLines(s string, n int) string {
	lines := strings.SplitAfter(s, "\n")
	if len(lines) <= n {
		return s
	}
	return strings.Join(lines[:n], "") + fmt.Sprintf("... (%d more lines)\n", len(lines)-n)
}
