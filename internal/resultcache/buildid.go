package resultcache

import (
	"bytes"
	"crypto/sha256"
	"debug/elf"
	"regexp"
)

// exeID returns what identifies the build of the executable at path: the
// sha256 of the Go build ID the go command wrote into it, when it has one
// of the go command's shape, else the sha256 of its bytes.
//
// The go command's build ID of a linked program ends with the hash of the
// program's own content (cmd/go rewrites it after the link), so a build of
// other bytes has another. Reading it is an ELF note, about 0.1 ms; the
// bytes of the ~20 MB binary took 19 ms to hash, most of a check of one
// file (pre-commit, an editor's save) with a warm cache. A binary with no
// note (not ELF: macOS, Windows), an empty one (-ldflags=-buildid=) or an
// ID of another shape (a build system's fixed "redacted") is hashed.
func exeID(path string) ([]byte, error) {
	if id := goBuildID(path); id != nil {
		sum := sha256.Sum256(append([]byte("go build ID\x00"), id...))
		return sum[:], nil
	}
	return hashFile(path)
}

// goBuildIDShape is the go command's build ID of a program: its action
// and content IDs, and those of the link, four base64 hashes.
var goBuildIDShape = regexp.MustCompile(`^[A-Za-z0-9_-]{20}/[A-Za-z0-9_-]{20}/[A-Za-z0-9_-]{20}/[A-Za-z0-9_-]{20}$`)

// goBuildID returns the Go build ID of the ELF executable at path, from
// its .note.go.buildid note (name "Go", type 4); nil when it has none of
// the go command's shape.
func goBuildID(path string) []byte {
	f, err := elf.Open(path)
	if err != nil {
		return nil
	}
	defer f.Close()
	sec := f.Section(".note.go.buildid")
	if sec == nil || sec.Size > 4096 {
		return nil
	}
	b, err := sec.Data()
	if err != nil || len(b) < 16 {
		return nil
	}
	namesz, descsz, typ := f.ByteOrder.Uint32(b), f.ByteOrder.Uint32(b[4:]), f.ByteOrder.Uint32(b[8:])
	if namesz != 4 || typ != 4 || string(b[12:16]) != "Go\x00\x00" || uint64(descsz) > uint64(len(b)-16) {
		return nil
	}
	id := bytes.TrimRight(b[16:16+descsz], "\x00")
	if !goBuildIDShape.Match(id) {
		return nil
	}
	return id
}
