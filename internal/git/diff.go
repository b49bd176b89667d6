package git

// The lines changed since a git revision, for -new-from-rev. The working
// tree is compared with the revision, so committed, staged and unstaged
// changes all count, and untracked files (not ignored) are new as a whole:
//
//	git diff -U0 --find-renames REV --      lines changed in tracked files
//	git ls-files --others --exclude-standard  untracked files
//
// Only the new side of each hunk matters: "@@ -a,b +c,d @@" changed lines
// c..c+d-1 of the file's new version (d omitted means 1; d = 0 is a pure
// deletion, which leaves no line to report on). A renamed file is known by
// its new path; a rename without edits changes no line.

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
)

// LineSet is a set of line numbers of one file.
type LineSet struct {
	all    bool     // every line: the file is untracked
	ranges [][2]int // inclusive [first, last] ranges, sorted and disjoint (after normalize)
}

func (s *LineSet) Add(first, last int) { s.ranges = append(s.ranges, [2]int{first, last}) }

// normalize sorts and merges the ranges.
func (s *LineSet) normalize() {
	slices.SortFunc(s.ranges, func(a, b [2]int) int { return a[0] - b[0] })
	var out [][2]int
	for _, r := range s.ranges {
		if n := len(out); n > 0 && r[0] <= out[n-1][1]+1 {
			out[n-1][1] = max(out[n-1][1], r[1])
			continue
		}
		out = append(out, r)
	}
	s.ranges = out
}

// Overlaps reports whether any line of [start, end] is in s. A nil set
// holds no line.
func (s *LineSet) Overlaps(start, end int) bool {
	if s == nil {
		return false
	}
	if s.all {
		return true
	}
	end = max(end, start)
	i, _ := slices.BinarySearchFunc(s.ranges, start, func(r [2]int, line int) int { return r[1] - line })
	return i < len(s.ranges) && s.ranges[i][0] <= end
}

// ChangedLines returns the lines changed since the git revision rev in the
// work tree that holds dir, by absolute clean path. A file absent from the
// map has no changed line. The paths are built on dir as given (made
// absolute, symbolic links kept), so they compare equal to filepath.Abs of
// the paths the user gave when dir is the current directory, or the work
// tree's top as rootFinder.gitTop finds it. When rev is missing from a
// shallow clone, the error says so and how deep to fetch.
func ChangedLines(dir, rev string) (map[string]*LineSet, error) {
	if _, err := exec.LookPath("git"); err != nil {
		return nil, fmt.Errorf("needs git, which was not found: %w", err)
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	out, err := runGit(abs, "rev-parse", "--show-toplevel", "--show-prefix")
	if err != nil {
		return nil, fmt.Errorf("%s is not in a git work tree (%w)", abs, err)
	}
	lines := strings.Split(strings.TrimSuffix(string(out), "\n"), "\n")
	if len(lines) < 1 || lines[0] == "" {
		return nil, fmt.Errorf("%s is not in a git work tree (git shows no top-level directory)", abs)
	}
	top := lines[0] // symbolic links resolved: where git runs
	// The top as the user sees it: dir without the prefix that git
	// shows from the top to dir.
	logical := abs
	if len(lines) > 1 {
		if prefix := strings.Trim(lines[1], "/"); prefix != "" {
			for range strings.Split(prefix, "/") {
				logical = filepath.Dir(logical)
			}
		}
	}

	if rev == "" || strings.HasPrefix(rev, "-") {
		return nil, fmt.Errorf("%q is not a revision; give a commit, branch or tag (HEAD~1, main, a hash)", rev)
	}
	out, err = runGit(top, "rev-parse", "--verify", "--quiet", "--end-of-options", rev+"^{commit}")
	if err != nil && rev == "HEAD" && unborn(top) {
		// No commit yet (the first commit, as a pre-commit hook sees it):
		// every line is new, so diff against the empty tree.
		out, err = runGit(top, "hash-object", "-t", "tree", os.DevNull)
	}
	if err != nil {
		if sh, _ := runGit(top, "rev-parse", "--is-shallow-repository"); strings.TrimSpace(string(sh)) == "true" {
			return nil, shallowError(rev, logical)
		}
		return nil, fmt.Errorf("%q is not a commit of the repository at %s; give a commit, branch or tag (HEAD~1, main, a hash)", rev, top)
	}
	commit := strings.TrimSpace(string(out))

	out, err = runGit(top, "-c", "core.quotepath=off", "diff", "--no-color", "--no-ext-diff", "--no-textconv", "--no-relative",
		"--ignore-submodules", "-U0", "--find-renames", "--src-prefix=a/", "--dst-prefix=b/", commit, "--")
	if err != nil {
		return nil, fmt.Errorf("cannot diff the work tree against %s: %w", rev, err)
	}
	changed, err := parseDiff(out)
	if err != nil {
		return nil, fmt.Errorf("cannot read the diff against %s: %w", rev, err)
	}
	out, err = runGit(top, "ls-files", "-z", "--others", "--exclude-standard")
	if err != nil {
		return nil, fmt.Errorf("cannot list the untracked files: %w", err)
	}
	for _, p := range strings.Split(string(out), "\x00") {
		if p != "" {
			changed[p] = &LineSet{all: true}
		}
	}

	byPath := make(map[string]*LineSet, len(changed))
	for p, s := range changed {
		s.normalize()
		byPath[filepath.Join(logical, filepath.FromSlash(p))] = s
	}
	return byPath, nil
}

// unborn reports whether the repository at top has no commit yet: HEAD
// names a branch that does not exist.
func unborn(top string) bool {
	if _, err := runGit(top, "symbolic-ref", "--quiet", "HEAD"); err != nil {
		return false
	}
	_, err := runGit(top, "rev-parse", "--verify", "--quiet", "HEAD")
	return err != nil
}

// shallowError says that rev is missing from the shallow clone at top, and
// how deep a fetch would hold it when rev counts back from HEAD.
func shallowError(rev, top string) error {
	const ci = "for example actions/checkout with fetch-depth: 0"
	if n, ok := ancestry(rev); ok {
		return fmt.Errorf("%s is not in this shallow clone of %s; fetch with depth >= %d, %s", rev, top, n+1, ci)
	}
	return fmt.Errorf("%s is not in this shallow clone of %s; fetch the history that holds it (git fetch --unshallow, or %s)", rev, top, ci)
}

// ancestry returns how many commits back from HEAD rev is, when rev is
// HEAD followed by ~N, ~ and ^ steps ("HEAD~2", "HEAD^^", "@~1").
func ancestry(rev string) (int, bool) {
	s, ok := strings.CutPrefix(rev, "HEAD")
	if !ok {
		if s, ok = strings.CutPrefix(rev, "@"); !ok {
			return 0, false
		}
	}
	n := 0
	for s != "" {
		step := s[0]
		if step != '~' && step != '^' {
			return 0, false
		}
		s = s[1:]
		digits := len(s) - len(strings.TrimLeft(s, "0123456789"))
		k := 1
		if digits > 0 {
			v, err := strconv.Atoi(s[:digits])
			if err != nil {
				return 0, false
			}
			if step == '~' || v == 0 { // ^N is the Nth parent, one step back; ^0 is no step
				k = v
			}
			s = s[digits:]
		}
		n += k
	}
	return n, true
}

// runGit runs git in dir and returns its standard output; an error carries
// git's first line of complaint.
func runGit(dir string, args ...string) ([]byte, error) {
	cmd := exec.Command("git", append([]string{"-C", dir}, args...)...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		if msg, _, _ := strings.Cut(strings.TrimSpace(stderr.String()), "\n"); msg != "" {
			return nil, errors.New("git: " + msg)
		}
		return nil, fmt.Errorf("git %s: %w", args[0], err)
	}
	return out, nil
}

// parseDiff returns the lines that a unified diff with no context (-U0)
// adds or changes, by the new path of each file (slash-separated, relative
// to the top of the repository).
func parseDiff(diff []byte) (map[string]*LineSet, error) {
	changed := map[string]*LineSet{}
	path := ""               // the new path of the current file; "" when deleted
	oldLeft, newLeft := 0, 0 // lines of the current hunk still to read
	for len(diff) > 0 {
		line := diff
		if i := bytes.IndexByte(diff, '\n'); i >= 0 {
			line, diff = diff[:i], diff[i+1:]
		} else {
			diff = nil
		}
		if oldLeft > 0 || newLeft > 0 {
			// A hunk's body: its lines are never headers, even when
			// an added line reads "+++ b/x" or "@@".
			switch {
			case len(line) > 0 && line[0] == '-':
				oldLeft--
			case len(line) > 0 && line[0] == '+':
				newLeft--
			case len(line) > 0 && line[0] == '\\': // "\ No newline at end of file"
			default:
				oldLeft--
				newLeft--
			}
			continue
		}
		switch s := string(line); {
		case strings.HasPrefix(s, "diff --git "):
			path = ""
		case strings.HasPrefix(s, "+++ "):
			p, err := diffPath(s[len("+++ "):])
			if err != nil {
				return nil, err
			}
			path = p
		case strings.HasPrefix(s, "@@ "):
			first, count, oldCount, err := parseHunk(s)
			if err != nil {
				return nil, err
			}
			oldLeft, newLeft = oldCount, count
			if path != "" && count > 0 {
				ls := changed[path]
				if ls == nil {
					ls = &LineSet{}
					changed[path] = ls
				}
				ls.Add(first, first+count-1)
			}
		}
	}
	return changed, nil
}

// diffPath reads the path of a "+++ " line: "b/dir/f.cpp", "/dev/null",
// or C-quoted ("\"b/we\\\"ird.cpp\"") when the name has a quote, a
// backslash or a control character; a name with a blank ends in a tab.
func diffPath(s string) (string, error) {
	s = strings.TrimSuffix(s, "\t")
	if s == "/dev/null" {
		return "", nil
	}
	if strings.HasPrefix(s, `"`) {
		u, err := strconv.Unquote(s)
		if err != nil {
			return "", fmt.Errorf("cannot unquote the path %s: %w", s, err)
		}
		s = u
	}
	p, ok := strings.CutPrefix(s, "b/")
	if !ok {
		return "", fmt.Errorf("path %q lacks the b/ prefix", s)
	}
	return p, nil
}

// parseHunk reads "@@ -a[,b] +c[,d] @@ ..." and returns c, d and b.
func parseHunk(s string) (first, count, oldCount int, err error) {
	f := strings.Fields(s)
	if len(f) < 4 || f[3] != "@@" || !strings.HasPrefix(f[1], "-") || !strings.HasPrefix(f[2], "+") {
		return 0, 0, 0, fmt.Errorf("malformed hunk header %q", s)
	}
	parse := func(r string) (start, n int, err error) {
		a, b, ok := strings.Cut(r[1:], ",")
		if start, err = strconv.Atoi(a); err != nil {
			return 0, 0, err
		}
		n = 1
		if ok {
			n, err = strconv.Atoi(b)
		}
		return start, n, err
	}
	_, oldCount, err = parse(f[1])
	if err == nil {
		first, count, err = parse(f[2])
	}
	if err != nil {
		return 0, 0, 0, fmt.Errorf("malformed hunk header %q: %w", s, err)
	}
	return first, count, oldCount, nil
}
