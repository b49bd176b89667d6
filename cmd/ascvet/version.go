package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"runtime"
	"runtime/debug"
)

// versionInfo is what ascvet version prints: the release, and what the Go
// toolchain recorded in the binary (runtime/debug.ReadBuildInfo). A build
// from a module version (go install .../cmd/ascvet@v0.2.0) has that module
// version; a build in a git checkout has the revision, its time and whether
// the tree was modified; go run, go test and -buildvcs=false record no VCS
// information, printed "unknown".
type versionInfo struct {
	Version  string `json:"version"`  // the release, the constant version
	Module   string `json:"module"`   // module version: v0.2.0, (devel), or unknown
	Revision string `json:"revision"` // VCS revision, or unknown
	Modified bool   `json:"modified"` // the tree had uncommitted changes
	Time     string `json:"time"`     // commit time, RFC 3339, or unknown
	Go       string `json:"go"`       // Go version of the build
	Platform string `json:"platform"` // GOOS/GOARCH
}

// unknown stands for what the build info does not record.
const unknown = "unknown"

// readVersion reads the version of this binary.
func readVersion() versionInfo {
	bi, _ := debug.ReadBuildInfo()
	return versionOf(bi)
}

// versionOf is the version that build info bi records (bi may be nil).
func versionOf(bi *debug.BuildInfo) versionInfo {
	v := versionInfo{Version: version, Module: unknown, Revision: unknown, Time: unknown,
		Go: runtime.Version(), Platform: runtime.GOOS + "/" + runtime.GOARCH}
	if bi == nil {
		return v
	}
	if bi.Main.Version != "" {
		v.Module = bi.Main.Version
	}
	if bi.GoVersion != "" {
		v.Go = bi.GoVersion
	}
	goos, goarch := runtime.GOOS, runtime.GOARCH
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			if s.Value != "" {
				v.Revision = s.Value
			}
		case "vcs.time":
			if s.Value != "" {
				v.Time = s.Value
			}
		case "vcs.modified":
			v.Modified = s.Value == "true"
		case "GOOS":
			goos = s.Value
		case "GOARCH":
			goarch = s.Value
		}
	}
	v.Platform = goos + "/" + goarch
	return v
}

// String is the one line of ascvet version:
//
//	ascvet 0.2.0 (devel) rev 1a2b3c4d5e6f-dirty 2026-12-03T10:00:00Z go1.26.8 linux/amd64
func (v versionInfo) String() string {
	rev := v.Revision
	if len(rev) > 12 {
		rev = rev[:12]
	}
	if v.Modified {
		rev += "-dirty"
	}
	return fmt.Sprintf("ascvet %s %s rev %s %s %s %s", v.Version, v.Module, rev, v.Time, v.Go, v.Platform)
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
the Go version and platform of the build; "unknown" for what the build did
not record (go run, go test, -buildvcs=false). ascvet -version is the same.

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
		return usageError(stderr, fmt.Sprintf("-f %s: want text or json", *format))
	}
	if fs.NArg() > 0 {
		return usageError(stderr, "version takes no argument")
	}
	return printVersion(stdout, *format == "json")
}
