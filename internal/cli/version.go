package cli

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"regexp"
	"runtime"
	"runtime/debug"
	"strings"
	"time"
)

// versionInfo is what ascvet version prints: the release, and what the Go
// toolchain recorded in the binary (runtime/debug.ReadBuildInfo). A build
// from a module version (go install .../cmd/ascvet@v0.2.0, or @latest, a
// pseudo-version such as v0.2.1-0.20261203100000-1a2b3c4d5e6f) has that
// module version; a build in a git checkout has the revision, its time and
// whether the tree was modified. A build without VCS stamps (go install
// from the module proxy, go run in a tarball, -buildvcs=false) has no
// revision of its own: a pseudo-version gives its revision and time, and
// otherwise what is known is printed, the module version ("(devel)" for a
// build from a source tree) and the Go version, never a placeholder.
type versionInfo struct {
	Version  string `json:"version"`            // the release, the constant version
	Module   string `json:"module,omitempty"`   // module version: v0.2.0, a pseudo-version, (devel); "" when the binary records none
	Revision string `json:"revision,omitempty"` // VCS revision (12 hex digits when only a pseudo-version gives it); "" when unknown
	Modified bool   `json:"modified"`           // the tree had uncommitted changes
	Time     string `json:"time,omitempty"`     // commit time, RFC 3339; "" when unknown
	Go       string `json:"go"`                 // Go version of the build
	Platform string `json:"platform"`           // GOOS/GOARCH
}

// readVersion reads the version of this binary.
func readVersion() versionInfo {
	bi, _ := debug.ReadBuildInfo()
	return versionOf(bi)
}

// versionOf is the version that build info bi records (bi may be nil).
func versionOf(bi *debug.BuildInfo) versionInfo {
	v := versionInfo{Version: version, Go: runtime.Version(), Platform: runtime.GOOS + "/" + runtime.GOARCH}
	if bi == nil {
		return v
	}
	v.Module = bi.Main.Version
	if bi.GoVersion != "" {
		v.Go = bi.GoVersion
	}
	goos, goarch := runtime.GOOS, runtime.GOARCH
	vcs := false
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			v.Revision, vcs = s.Value, true
		case "vcs.time":
			v.Time = s.Value
		case "vcs.modified":
			v.Modified = s.Value == "true"
		case "GOOS":
			goos = s.Value
		case "GOARCH":
			goarch = s.Value
		}
	}
	if !vcs {
		// No VCS stamps: a pseudo-version still names the commit.
		if m := pseudoVersion.FindStringSubmatch(v.Module); m != nil {
			if t, err := time.Parse("20060102150405", m[1]); err == nil {
				v.Time = t.Format(time.RFC3339)
			}
			v.Revision = m[2]
			v.Modified = strings.Contains(m[3], "dirty")
		}
	}
	v.Platform = goos + "/" + goarch
	return v
}

// pseudoVersion matches a module pseudo-version (vX.0.0-yyyymmddhhmmss-rev,
// vX.Y.Z-pre.0.yyyymmddhhmmss-rev, vX.Y.Z-0.yyyymmddhhmmss-rev), with the
// build metadata Go adds (+incompatible; +dirty, from a modified checkout):
// its commit time, its 12-digit revision and its metadata.
var pseudoVersion = regexp.MustCompile(`^v\d+\.\d+\.\d+-(?:[0-9A-Za-z-]+\.)*?(\d{14})-([0-9a-f]{12})(\+[0-9A-Za-z.-]+)?$`)

// String is the one line of ascvet version: what the build recorded, in
// this order, and nothing for what it did not.
//
//	ascvet 0.2.0 (devel) rev 1a2b3c4d5e6f-dirty 2026-12-03T10:00:00Z go1.26.8 linux/amd64
//	ascvet 0.2.0 v0.2.1-0.20261203100000-1a2b3c4d5e6f rev 1a2b3c4d5e6f 2026-12-03T10:00:00Z go1.26.8 linux/amd64
//	ascvet 0.2.0 (devel) go1.26.8 linux/amd64
func (v versionInfo) String() string {
	words := []string{"ascvet", v.Version}
	if v.Module != "" {
		words = append(words, v.Module)
	}
	if rev := v.Revision; rev != "" {
		if len(rev) > 12 {
			rev = rev[:12]
		}
		if v.Modified {
			rev += "-dirty"
		}
		words = append(words, "rev", rev)
	}
	if v.Time != "" {
		words = append(words, v.Time)
	}
	return strings.Join(append(words, v.Go, v.Platform), " ")
}

// printVersion prints the version, one line or, with asJSON, a JSON object.
func printVersion(w io.Writer, asJSON bool) int {
	v := readVersion()
	if asJSON {
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		if err := enc.Encode(v); err != nil {
			return exitInternal
		}
		return exitOK
	}
	fmt.Fprintln(w, v)
	return exitOK
}

// versionFlags defines the flags of ascvet version, -f the only one.
func versionFlags(stderr io.Writer) (*flag.FlagSet, *string) {
	fs := flag.NewFlagSet("ascvet version", flag.ContinueOnError)
	fs.SetOutput(stderr)
	format := fs.String("f", "text", "output `FORMAT`: text (one line) or json")
	fs.Usage = func() {
		fmt.Fprint(stderr, `usage: ascvet version [-f text|json]

Prints the release, the module version, the VCS revision the binary was
built from (with -dirty when the tree was modified), its commit time, and
the Go version and platform of the build. What the build did not record
is left out: without VCS stamps (go install from the module proxy, go run
in a source tarball, -buildvcs=false) a pseudo-version gives the revision
and its time, and a build from a source tree says (devel). ascvet -version
is the same.

Flags:
`)
		fs.PrintDefaults()
	}
	return fs, format
}

// runVersion implements "ascvet version [-f json]".
func runVersion(args []string, stdout, stderr io.Writer) int {
	fs, format := versionFlags(stderr)
	if code, ok := parseArgs(fs, args, stderr); !ok {
		return code
	}
	if *format != "text" && *format != "json" {
		return commandError(stderr, "version", fmt.Sprintf("-f %s: want text or json", *format))
	}
	if fs.NArg() > 0 {
		return commandError(stderr, "version", "takes no argument")
	}
	return printVersion(stdout, *format == "json")
}
