package source

import (
	"io/fs"
	"path/filepath"
	"sync"
)

// Listing records, for each directory a walk lists, which of a few names
// it holds, so that a later question about those names there is answered
// without a system call. The configuration loader asks two of every
// directory of a file it configures (is there an ascvet.toml, a .git?):
// over the CANN repositories, 58 thousand stat calls that fail, after a
// walk that had just listed the same directories. A directory the walk
// did not list whole (above the paths walked, or unreadable) is not known.
type Listing struct {
	names []string // the names looked for, at most 8
	mu    sync.Mutex
	dirs  map[string]uint8 // by absolute directory: bit k set when it holds names[k]
}

// NewListing returns a Listing of names (at most 8).
func NewListing(names ...string) *Listing {
	if len(names) > 8 {
		panic("source.NewListing: more than 8 names")
	}
	return &Listing{names: names, dirs: map[string]uint8{}}
}

// Has reports whether the directory dir (absolute and clean) held an
// entry called name, of any type, when the walk listed it; known is false
// when the walk did not list it whole, or name is not one of l's.
func (l *Listing) Has(dir, name string) (present, known bool) {
	if l == nil {
		return false, false
	}
	k := l.index(name)
	if k < 0 {
		return false, false
	}
	l.mu.Lock()
	bits, ok := l.dirs[dir]
	l.mu.Unlock()
	return ok && bits&(1<<k) != 0, ok
}

func (l *Listing) index(name string) int {
	for k, n := range l.names {
		if n == name {
			return k
		}
	}
	return -1
}

// record notes the directory abs (absolute) with its entries.
func (l *Listing) record(abs string, entries []fs.DirEntry) {
	if l == nil {
		return
	}
	var bits uint8
	for _, e := range entries {
		if k := l.index(e.Name()); k >= 0 {
			bits |= 1 << k
		}
	}
	l.mu.Lock()
	l.dirs[filepath.Clean(abs)] = bits
	l.mu.Unlock()
}
