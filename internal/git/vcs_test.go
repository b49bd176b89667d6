package git

import (
	"strings"
	"testing"

	"github.com/ascvet/ascvet/internal/report"
	"github.com/ascvet/ascvet/internal/report/reporttest"
	"github.com/ascvet/ascvet/internal/testfs"
)

func TestRemoteURI(t *testing.T) {
	for in, want := range map[string]string{
		"":                                    "",
		"git@github.com:ascvet/ascvet.git":    "https://github.com/ascvet/ascvet.git",
		"https://github.com/ascvet/ascvet":    "https://github.com/ascvet/ascvet",
		"https://user:tok@gitlab.com/a/b.git": "https://gitlab.com/a/b.git",
		"ssh://git@example.com:2222/a/b.git":  "ssh://git@example.com:2222/a/b.git",
		"/srv/git/local.git":                  "",
	} {
		if got := RemoteURI(in); got != want {
			t.Errorf("remoteURI(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestSARIFProvenance: inside a git checkout with a remote, the SARIF log
// names the repository, commit and branch, and still validates.
func TestSARIFProvenance(t *testing.T) {
	testfs.NeedGit(t, "git not installed")
	repo := t.TempDir()
	testfs.Git(t, repo, "init", "-q", "-b", "main")
	testfs.Put(t, repo, "k.asc", testfs.Read(t, "../../testdata/kernels/unaligned_copy.asc"))
	testfs.Git(t, repo, "add", ".")
	testfs.Git(t, repo, "commit", "-q", "-m", "k")
	testfs.Git(t, repo, "remote", "add", "origin", "git@github.com:ascvet/demo.git")
	v := VCS(repo)
	if v == nil || v.URI != "https://github.com/ascvet/demo.git" || len(v.Revision) != 40 || v.Branch != "main" {
		t.Fatalf("VCS = %+v", v)
	}
	var b strings.Builder
	r := &report.Report{Rules: nil, VCS: v, WorkDir: repo}
	if err := report.WriteSARIF(&b, r); err != nil {
		t.Fatal(err)
	}
	reporttest.ValidateSARIF(t, b.String())
	if !strings.Contains(b.String(), `"repositoryUri": "https://github.com/ascvet/demo.git"`) || !strings.Contains(b.String(), v.Revision) {
		t.Errorf("no provenance in:\n%s", b.String())
	}
	if !strings.Contains(b.String(), `"mappedTo": {
            "uriBaseId": "%SRCROOT%"`) {
		t.Errorf("provenance not mapped to %%SRCROOT%%, the repository root:\n%s", b.String())
	}
	if VCS(t.TempDir()) != nil {
		t.Error("provenance outside a git checkout")
	}
}

// TestRemoteURIAtInPath: only an "@" before the first "/" after the scheme
// ends credentials; one in the path (a user folder named by an address)
// is part of the path, and the host is kept.
func TestRemoteURIAtInPath(t *testing.T) {
	for in, want := range map[string]string{
		"https://git.example.com/scm/~j@corp.com/repo.git":     "https://git.example.com/scm/~j@corp.com/repo.git",
		"https://tok@git.example.com/scm/~j@corp.com/repo.git": "https://git.example.com/scm/~j@corp.com/repo.git",
	} {
		if got := RemoteURI(in); got != want {
			t.Errorf("RemoteURI(%q) = %q, want %q", in, got, want)
		}
	}
}
