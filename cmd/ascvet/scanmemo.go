package main

import (
	"bytes"
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

// The pack: the findings of every file the run analysed or took from the
// cache, by cache key, in one entry. A run over a tree of thousands of VF
// files reads and writes one entry instead of one each (a file created
// and renamed a put: on some file systems that costs more than the
// analysis of a small file).

// racyWindow is how close to the time a memo was written a file's
// modification may be and still be trusted.
const racyWindow = 2 * time.Second

// scanMemo is the memo of one run; nil is none.
type scanMemo struct {
	rc      *resultCache
	key     cache.ActionID
	written int64 // when the memo read was written, Unix nanoseconds
	old     map[string]statKey
	results map[cache.ActionID][]byte // the pack read
	mu      sync.Mutex
	now     map[string]statKey
	kept    map[cache.ActionID][]byte // the pack to write: the results of this run
	newRes  bool                      // kept holds a result the pack read did not
}

// statKey is what tells a file unchanged.
type statKey struct{ Size, Mtime, Ctime, Ino int64 }

type storedMemo struct {
	Written int64
	Files   map[string]statKey
	Results map[cache.ActionID][]byte
}

// scanMemo returns the memo of a run over paths with the size limit
// maxSize; nil without a cache.
func (rc *resultCache) scanMemo(paths []string, maxSize int64) *scanMemo {
	if rc == nil {
		return nil
	}
	h := cache.NewHash("ascvet-scan-1")
	_, _ = h.Write(rc.salt) // a hash never fails
	fmt.Fprintf(h, "max %d\n", maxSize)
	for _, p := range paths {
		abs, err := filepath.Abs(p)
		if err != nil {
			return nil
		}
		fmt.Fprintf(h, "path %q\n", abs)
	}
	m := &scanMemo{rc: rc, key: h.Sum(), now: map[string]statKey{}, kept: map[cache.ActionID][]byte{}}
	if data, ok := rc.dc.get(m.key); ok {
		var s storedMemo
		if gob.NewDecoder(bytes.NewReader(data)).Decode(&s) == nil {
			m.old, m.written, m.results = s.Files, s.Written, s.Results
		}
	}
	rc.memo = m
	return m
}

// result returns the findings the pack holds under key.
func (m *scanMemo) result(key cache.ActionID) ([]byte, bool) {
	if m == nil {
		return nil, false
	}
	data, ok := m.results[key]
	return data, ok
}

// keep puts an entry's data (headers and findings), under key, in the
// pack to write.
func (m *scanMemo) keep(key cache.ActionID, data []byte) {
	if m == nil {
		return
	}
	m.mu.Lock()
	m.kept[key] = data
	if old, ok := m.results[key]; !ok || !bytes.Equal(old, data) {
		m.newRes = true // new, or new headers' hashes under the same key
	}
	m.mu.Unlock()
}

// unchanged reports whether name is a file the memo holds free of VF code
// and still is as it was; its size when it is.
func (m *scanMemo) unchanged(name string) (int64, bool) {
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
	m.rc.stats.unread.Add(1)
	return was.Size, true
}

// noVF records that name, with status st before it was read, has no VF
// marker.
func (m *scanMemo) noVF(name string, st os.FileInfo) {
	if m == nil || st == nil {
		return
	}
	k := keyOf(st)
	m.mu.Lock()
	m.now[name] = k
	m.mu.Unlock()
}

// save stores the memo when it changed (a file came, went or changed).
func (m *scanMemo) save(start time.Time) {
	if m == nil {
		return
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if len(m.now) == len(m.old) && m.rc.stats.unread.Load() == int64(len(m.now)) && !m.newRes && len(m.kept) == len(m.results) {
		return // every file and result came from the memo: nothing new to say
	}
	var b bytes.Buffer
	// Written is when the run started: a file changed during the run is
	// racy against it.
	if err := gob.NewEncoder(&b).Encode(storedMemo{Written: start.UnixNano(), Files: m.now, Results: m.kept}); err != nil {
		return
	}
	_ = m.rc.dc.put(m.key, b.Bytes()) // a failed put is a later miss
}
