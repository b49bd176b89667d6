package resultcache

import (
	"bytes"
	"crypto/sha256"
	"encoding/gob"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"time"

	"honnef.co/go/tools/lintcmd/cache"
)

// The run memo, stored under the run's paths: the scan memo and the pack
// of results.
//
// The scan memo: which files of a run's paths had no VF marker, as their
// status was then. A warm run over an operator repository is mostly the
// walk and the reading of tens of thousands of host files to find the few
// thousand with VF code; with the memo, a file whose size, modification
// and change times and inode are those recorded, and that was not modified
// within racyWindow of the recording (a clock tick could hide a change, as
// git's index knows), is taken as still free of VF code without being
// read. Files with VF code are always read: their bytes key the result
// cache and their directives apply. The memo is stored in the result cache
// under the run's paths, the size limit and the build.

// The packs: the findings of every file the run analysed or took from
// the cache, by cache key, in one entry for each settings the run used
// (the chip, the machine file, the iterations, the confidence and budgets
// a file's configuration and the command line give it, and the
// analyzers' flags: Cache.settingsPrefix). A run over a tree of
// thousands of VF files reads and writes one entry instead of one each (a
// file created and renamed a put: on some file systems that costs more
// than the analysis of a small file). A pack is keyed on the run's paths
// and its settings, and read the first time a file with those settings
// asks: a run with other settings (-chip, or an ascvet.toml edited) writes
// its own pack beside the first, and a run back with the first settings
// finds theirs (one pack for all settings re-analysed every file at each
// switch).

// racyWindow is how close to the time a memo was written a file's
// modification may be and still be trusted.
const racyWindow = 2 * time.Second

// Memo is the memo of one run; nil is none.
type Memo struct {
	rc      *Cache
	key     cache.ActionID
	written int64 // when the memo read was written, Unix nanoseconds
	old     map[string]statKey
	mu      sync.Mutex
	now     map[string]statKey
	packs   map[[sha256.Size]byte]*pack // by the hash of the settings prefix
}

// pack is the results of one settings: those read, and those of this run.
type pack struct {
	key     cache.ActionID
	once    sync.Once
	results map[cache.ActionID][]byte // the pack read
	mu      sync.Mutex
	kept    map[cache.ActionID][]byte // the pack to write: the results of this run
	newRes  bool                      // kept holds a result the pack read did not
}

// statKey is what tells a file unchanged.
type statKey struct{ Size, Mtime, Ctime, Ino int64 }

type storedMemo struct {
	Written int64
	Files   map[string]statKey
}

type storedPack struct {
	Results map[cache.ActionID][]byte
}

// Memo returns the memo of a run over paths with the size limit
// maxSize; nil without a cache.
func (rc *Cache) Memo(paths []string, maxSize int64) *Memo {
	if rc == nil {
		return nil
	}
	h := cache.NewHash("ascvet-scan-2")
	_, _ = h.Write(rc.salt) // a hash never fails
	fmt.Fprintf(h, "max %d\n", maxSize)
	for _, p := range paths {
		abs, err := filepath.Abs(p)
		if err != nil {
			return nil
		}
		fmt.Fprintf(h, "path %q\n", abs)
	}
	m := &Memo{rc: rc, key: h.Sum(), now: map[string]statKey{}, packs: map[[sha256.Size]byte]*pack{}}
	if data, ok := rc.dc.get(m.key); ok {
		var s storedMemo
		if gob.NewDecoder(bytes.NewReader(data)).Decode(&s) == nil {
			m.old, m.written = s.Files, s.Written
		}
	}
	rc.memo = m
	return m
}

// pack returns the pack of the settings whose key prefix is pre, read on
// first use.
func (m *Memo) pack(pre []byte) *pack {
	id := sha256.Sum256(pre)
	m.mu.Lock()
	p, ok := m.packs[id]
	if !ok {
		h := cache.NewHash("ascvet-pack-1")
		_, _ = h.Write(m.key[:])
		_, _ = h.Write(id[:])
		p = &pack{key: h.Sum(), kept: map[cache.ActionID][]byte{}}
		m.packs[id] = p
	}
	m.mu.Unlock()
	p.once.Do(func() {
		if data, ok := m.rc.dc.get(p.key); ok {
			var s storedPack
			if gob.NewDecoder(bytes.NewReader(data)).Decode(&s) == nil {
				p.results = s.Results
			}
		}
	})
	return p
}

// result returns the findings the pack of the settings pre holds under
// key.
func (m *Memo) result(pre []byte, key cache.ActionID) ([]byte, bool) {
	if m == nil {
		return nil, false
	}
	data, ok := m.pack(pre).results[key]
	return data, ok
}

// keep puts an entry's data (headers and findings), under key, in the
// pack of the settings pre to write.
func (m *Memo) keep(pre []byte, key cache.ActionID, data []byte) {
	if m == nil {
		return
	}
	p := m.pack(pre)
	p.mu.Lock()
	p.kept[key] = data
	if old, ok := p.results[key]; !ok || !bytes.Equal(old, data) {
		p.newRes = true // new, or new headers' hashes under the same key
	}
	p.mu.Unlock()
}

// Unchanged reports whether name is a file the memo holds free of VF code
// and still is as it was; its size when it is.
func (m *Memo) Unchanged(name string) (int64, bool) {
	if m == nil || m.old == nil {
		return 0, false
	}
	was, ok := m.old[name]
	if !ok || was.Mtime >= m.written-int64(racyWindow) {
		return 0, false
	}
	st, err := os.Stat(name)
	if err != nil || !st.Mode().IsRegular() || keyOf(st) != was {
		return 0, false
	}
	m.mu.Lock()
	m.now[name] = was
	m.mu.Unlock()
	m.rc.stats.Unread.Add(1)
	return was.Size, true
}

// NoVF records that name, with status st before it was read, has no VF
// marker.
func (m *Memo) NoVF(name string, st os.FileInfo) {
	if m == nil || st == nil {
		return
	}
	k := keyOf(st)
	m.mu.Lock()
	m.now[name] = k
	m.mu.Unlock()
}

// Save stores the memo when it changed (a file came, went or changed),
// and each pack that did.
func (m *Memo) Save(start time.Time) {
	if m == nil {
		return
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if len(m.now) != len(m.old) || m.rc.stats.Unread.Load() != int64(len(m.now)) {
		var b bytes.Buffer
		// Written is when the run started: a file changed during the run
		// is racy against it.
		if gob.NewEncoder(&b).Encode(storedMemo{Written: start.UnixNano(), Files: m.now}) == nil {
			_ = m.rc.dc.put(m.key, b.Bytes()) // a failed put is a later miss
		}
	}
	for _, p := range m.packs {
		p.mu.Lock()
		if p.newRes || len(p.kept) != len(p.results) {
			var b bytes.Buffer
			if gob.NewEncoder(&b).Encode(storedPack{Results: p.kept}) == nil {
				_ = m.rc.dc.put(p.key, b.Bytes())
			}
		}
		p.mu.Unlock()
	}
}
