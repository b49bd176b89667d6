// Package git is what ascvet asks git: the lines changed since a revision
// (-new-from-rev) and the checkout a SARIF log describes.
package git

import (
	"context"
	"os/exec"
	"regexp"
	"strings"
	"time"

	"github.com/ascvet/ascvet/internal/report"
)

// VCS returns the git checkout of dir (nil outside one, or without git).
// A scp-like remote (git@host:owner/repo.git) is turned into its https
// form, which SARIF's repositoryUri (a URI) accepts; credentials in an
// https remote are dropped.
func VCS(dir string) *report.VCSInfo {
	git := func(args ...string) string {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		out, err := exec.CommandContext(ctx, "git", append([]string{"-C", dir}, args...)...).Output()
		if err != nil {
			return ""
		}
		return strings.TrimSpace(string(out))
	}
	rev := git("rev-parse", "--verify", "-q", "HEAD")
	if rev == "" {
		return nil
	}
	v := &report.VCSInfo{Revision: rev, URI: RemoteURI(git("config", "--get", "remote.origin.url"))}
	if b := git("symbolic-ref", "-q", "--short", "HEAD"); b != "" {
		v.Branch = b
	}
	return v
}

var scpLike = regexp.MustCompile(`^(?:[A-Za-z0-9._-]+@)?([A-Za-z0-9.-]+):([^/].*)$`)

// RemoteURI turns a git remote into an absolute URI, or "".
func RemoteURI(remote string) string {
	switch {
	case remote == "":
		return ""
	case strings.HasPrefix(remote, "https://"), strings.HasPrefix(remote, "http://"), strings.HasPrefix(remote, "ssh://"), strings.HasPrefix(remote, "git://"):
		if strings.HasPrefix(remote, "ssh://") {
			return remote
		}
		scheme := strings.Index(remote, "://") + 3
		host := remote[scheme:] // user:token@host/path: credentials end at the last @ before the path
		if slash := strings.IndexByte(host, '/'); slash >= 0 {
			host = host[:slash]
		}
		if at := strings.LastIndexByte(host, '@'); at >= 0 {
			return remote[:scheme] + remote[scheme+at+1:] // drop user:token@
		}
		return remote
	case scpLike.MatchString(remote):
		m := scpLike.FindStringSubmatch(remote)
		return "https://" + m[1] + "/" + m[2]
	}
	return ""
}
