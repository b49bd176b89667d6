package config

import (
	"fmt"
	"path"
	"strings"
)

// pathGlob is one entry of an override's paths: a slash-separated pattern
// relative to the directory of its configuration file. Each segment is a
// path.Match pattern, "**" matches any number of segments (none too), and a
// pattern that matches a directory matches everything below it:
//
//	legacy/**        every file below legacy (and legacy itself)
//	legacy           the same
//	third_party/*.h  the headers directly in third_party
//	**/gen_*.cpp     generated files at any depth
type pathGlob struct {
	text string   // as written
	segs []string // cleaned, split at "/"
}

func parsePathGlob(s string) (pathGlob, error) {
	g := pathGlob{text: s}
	p := strings.TrimSuffix(strings.TrimPrefix(s, "./"), "/")
	switch {
	case s == "":
		return g, fmt.Errorf("empty path pattern")
	case strings.HasPrefix(s, "/") || path.IsAbs(p) || len(p) > 1 && p[1] == ':':
		return g, fmt.Errorf("path pattern %s is absolute; write it relative to the configuration file's directory", s)
	case strings.Contains(s, `\`):
		return g, fmt.Errorf(`path pattern %s: use / to separate directories (\ escapes)`, s)
	}
	for seg := range strings.SplitSeq(p, "/") {
		switch seg {
		case "", ".":
			continue
		case "..":
			return g, fmt.Errorf("path pattern %s leaves the configuration file's directory", s)
		}
		if _, err := path.Match(seg, ""); err != nil {
			return g, fmt.Errorf("bad path pattern %s: %w", s, err)
		}
		g.segs = append(g.segs, seg)
	}
	if len(g.segs) == 0 {
		g.segs = []string{"**"} // "." : everything
	}
	return g, nil
}

// match reports whether the slash-separated relative path rel (no ".."),
// or a directory above it, matches g. An empty rel is the configuration
// file's own directory.
func (g pathGlob) match(rel string) bool {
	var segs []string
	if rel != "" {
		segs = strings.Split(rel, "/")
	}
	if matchSegs(g.segs, nil) {
		return true
	}
	for n := 1; n <= len(segs); n++ {
		if matchSegs(g.segs, segs[:n]) {
			return true
		}
	}
	return false
}

func matchSegs(pat, segs []string) bool {
	for len(pat) > 0 {
		if pat[0] == "**" {
			for pat = pat[1:]; len(pat) > 0 && pat[0] == "**"; pat = pat[1:] {
			}
			if len(pat) == 0 {
				return true
			}
			for i := range len(segs) + 1 {
				if matchSegs(pat, segs[i:]) {
					return true
				}
			}
			return false
		}
		if len(segs) == 0 {
			return false
		}
		if ok, _ := path.Match(pat[0], segs[0]); !ok {
			return false
		}
		pat, segs = pat[1:], segs[1:]
	}
	return len(segs) == 0
}
