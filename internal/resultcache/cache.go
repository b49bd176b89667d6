// Package resultcache is ascvet's result cache. Analysing a file is a pure
// function of: the build of ascvet, the file's name and bytes, the settings
// the configuration and the command line give it (chip, machine file and
// its contents, iterations, confidence, budgets), the analyzers' flags
// (limits), and what its lowering consulted through the project index. The
// cache keys the analyzers' findings on the first four, with the hashes of
// staticcheck's build cache (honnef.co/go/tools/lintcmd/cache), in a
// storage of its own (store.go, which says whom the cache trusts), and
// stores beside them what the lowering consulted
// (cppfront.Index.Consulted): the headers it read, each with the hash of
// the bytes read, and the lookups it made, each with the hash of its
// answer: the file each include resolved to, or none, along the search path
// (next to the includer, then the include folders of its ancestors); the
// header that defines a class; the files of a folder that include the file.
// An entry serves only while every header still has those bytes and every
// lookup that answer, as the go command's build cache and ccache's
// manifests check the headers a compilation read and the include paths it
// searched. So a run over an unchanged tree analyses nothing; a changed
// header has only the files whose analysis read it analysed again; a header
// created later where an include found nothing, or nearer than the one it
// found, has the files that looked for it analysed again; and a cold run
// resolves no include closure a lowering did not need.
//
// What is stored is the analyzers' output, before the rules the
// configuration disables are dropped, before the file's directives and the
// baseline apply, and before messages are translated: a change to those
// never needs the file analysed again. A file an analyzer failed on, or
// that hit a limit (a timeout), is not stored.
//
// The cache lives in os.UserCacheDir()/ascvet; ASCVET_CACHE names another
// folder, or "off"; -cache off turns it off for a run. Entries unused for
// five days are trimmed, at most once a day, as staticcheck and the go
// command trim theirs. Any failure of the cache (a corrupt entry, a
// read-only or full disk) is a miss: the file is analysed as without it.
// A folder that is not the user's or that others can write is not used,
// with a line on stderr (store.go).
package resultcache

import (
	"bytes"
	"cmp"
	"crypto/sha256"
	"encoding/binary"
	"encoding/gob"
	"flag"
	"fmt"
	"go/token"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"golang.org/x/tools/go/analysis"
	"honnef.co/go/tools/lintcmd/cache"

	"github.com/ascvet/ascvet/analyzers/cppir"
	"github.com/ascvet/ascvet/analyzers/fixes"
	"github.com/ascvet/ascvet/analyzers/runner"
	"github.com/ascvet/ascvet/analyzers/settings"
	"github.com/ascvet/ascvet/cppfront"
	"github.com/ascvet/ascvet/ruleset"
)

// cacheVersion changes whenever what is stored, or how the key is made,
// changes.
const cacheVersion = "ascvet-results-5"

// Cache is the cache of one run; nil is no cache.
type Cache struct {
	dc    *diskStore
	salt  []byte     // the build: its Go build ID's hash, or the executable's (exeID)
	flags string     // the analyzers' flags, name=value
	memo  *Memo      // the run's memo and pack of results; nil: none
	wd    string     // the working directory (relative names are made absolute from it)
	files fileHashes // hashes of headers and machine files
	stats Counters   // hits and misses, for tests and benchmarks

	mu     sync.Mutex
	prefix map[settings.Settings][]byte // the part of a key that depends on the settings alone
}

// Counters count a run's use of the cache: entries that served (Hits),
// files analysed because none did (Misses), entries of their own written
// (Puts), and files the scan memo spared reading (Unread).
type Counters struct{ Hits, Misses, Puts, Unread atomic.Int64 }

// Dir returns the cache folder: ASCVET_CACHE, else the user cache
// folder's ascvet. "" means no cache.
func Dir() string {
	if d := os.Getenv("ASCVET_CACHE"); d != "" {
		if d == "off" {
			return ""
		}
		return d
	}
	d, err := os.UserCacheDir()
	if err != nil {
		return ""
	}
	return filepath.Join(d, "ascvet")
}

// Open opens the cache in dir for analyzers as. It returns nil, and
// the run goes on without a cache, when dir is "" or cannot be made, or is
// a folder that must not be used, which it says on warn (openStore).
func Open(dir string, as []*analysis.Analyzer, wd string, warn io.Writer) *Cache {
	if dir == "" {
		return nil
	}
	dc, err := openStore(dir, warn)
	if err != nil {
		return nil
	}
	salt, err := buildID()
	if err != nil {
		dc.close()
		return nil
	}
	return &Cache{dc: dc, salt: salt, flags: analyzerFlags(as), wd: wd}
}

// Stats returns the counters of the cache's run; nil for no cache.
func (rc *Cache) Stats() *Counters {
	if rc == nil {
		return nil
	}
	return &rc.stats
}

// Add adds the counts of o, if any, to c.
func (c *Counters) Add(o *Counters) {
	if o != nil {
		c.Hits.Add(o.Hits.Load())
		c.Misses.Add(o.Misses.Load())
		c.Puts.Add(o.Puts.Load())
		c.Unread.Add(o.Unread.Load())
	}
}

// Close trims the cache (at most once a day) and closes it.
func (rc *Cache) Close() {
	if rc != nil {
		rc.dc.trim()
		rc.dc.close()
	}
}

// buildID returns what identifies the running executable's build (exeID),
// read once a process (a language server reads it when it starts). It
// used to be kept in the cache under the executable's path, size and
// modification time, which a binary replaced in place with the same size
// and time (a copy that keeps times, a build system that fixes them)
// passed: the new build took the old one's findings.
var buildID = sync.OnceValues(func() ([]byte, error) {
	exe, err := os.Executable()
	if err != nil {
		return nil, err
	}
	return exeID(exe)
})

// hashFile returns the sha256 of the bytes of the file at path.
func hashFile(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	sum := sha256.New()
	if _, err := io.Copy(sum, f); err != nil {
		return nil, err
	}
	return sum.Sum(nil), nil
}

// analyzerFlags lists the flags of the analyzers and of those they
// require, with their values: the limits (-max-depth, -file-timeout, ...)
// change what the analyzers report.
func analyzerFlags(as []*analysis.Analyzer) string {
	var b strings.Builder
	for _, a := range runner.Order(as) {
		a.Flags.VisitAll(func(f *flag.Flag) {
			fmt.Fprintf(&b, "%s.%s=%s\n", a.Name, f.Name, f.Value.String())
		})
	}
	return b.String()
}

// fileHashes hashes files by content, each once a run: a run takes the
// files as they are when it first needs them (the project index reads a
// header once a run too).
type fileHashes struct {
	mu   sync.Mutex
	seen map[string]fileHash
}

type fileHash struct {
	sum [sha256.Size]byte
	ok  bool
}

func (fh *fileHashes) hash(path string) ([sha256.Size]byte, bool) {
	fh.mu.Lock()
	h, seen := fh.seen[path]
	fh.mu.Unlock()
	if seen {
		return h.sum, h.ok
	}
	data, err := os.ReadFile(path)
	h = fileHash{sum: sha256.Sum256(data), ok: err == nil}
	fh.mu.Lock()
	if fh.seen == nil {
		fh.seen = map[string]fileHash{}
	}
	fh.seen[path] = h
	fh.mu.Unlock()
	return h.sum, h.ok
}

// Key is the cache key of a file's analysis, and the settings prefix
// it was made with (settingsPrefix), which names the pack that holds it
// (scanmemo.go).
type Key struct {
	id  cache.ActionID
	pre []byte
}

// Key returns the cache key of analysing name, with source src, under
// settings st; false when it cannot be made (a header that cannot be read).
func (rc *Cache) Key(name string, src []byte, st *settings.Settings) (Key, bool) {
	h := cache.NewHash(cacheVersion)
	_, _ = h.Write(rc.salt) // a hash never fails
	abs := name
	if !filepath.IsAbs(name) {
		abs = filepath.Join(rc.wd, name)
	}
	// The absolute path alone: a run that names the file relatively (the
	// command line, pre-commit) and one that names it absolutely (an
	// editor's server) share the entry. Positions in other files are stored
	// absolute and given back in the form of the name (cachedPos).
	fmt.Fprintf(h, "name %q\n", abs)
	pre, ok := rc.settingsPrefix(st)
	if !ok {
		return Key{}, false
	}
	_, _ = h.Write(pre)
	sum := sha256.Sum256(src)
	_, _ = h.Write(sum[:])
	return Key{id: h.Sum(), pre: pre}, true
}

// settingsPrefix returns what a key says of the settings st, the machine
// file's contents and the analyzers' flags, made once a run for each
// settings.
func (rc *Cache) settingsPrefix(st *settings.Settings) ([]byte, bool) {
	rc.mu.Lock()
	pre, ok := rc.prefix[*st]
	rc.mu.Unlock()
	if ok {
		return pre, pre != nil
	}
	b := fmt.Appendf(nil, "settings %#v\nflags %s", *st, rc.flags)
	if st.Machine != "" {
		sum, ok := rc.files.hash(st.Machine)
		if !ok {
			b = nil
		} else {
			b = fmt.Appendf(b, "machine %x\n", sum)
		}
	}
	rc.mu.Lock()
	if rc.prefix == nil {
		rc.prefix = map[settings.Settings][]byte{}
	}
	rc.prefix[*st] = b
	rc.mu.Unlock()
	return b, b != nil
}

// An entry is what the file's lowering consulted, then its findings: a
// uvarint count, and for each dependency, sorted by path, its path (a
// uvarint count of the bytes it shares with the path before, a uvarint
// length and the rest: the paths of one tree share long prefixes), the
// sha256 of the bytes read (of a header) or of the answer (of a lookup),
// and a uvarint length and the lookup ("" for a header).

func appendDeps(b []byte, deps []cppfront.Dep) []byte {
	deps = slices.Clone(deps)
	slices.SortFunc(deps, func(x, y cppfront.Dep) int {
		return cmp.Or(strings.Compare(x.Path, y.Path), strings.Compare(x.Lookup, y.Lookup))
	})
	b = binary.AppendUvarint(b, uint64(len(deps)))
	prev := ""
	for _, d := range deps {
		n := 0
		for n < len(prev) && n < len(d.Path) && prev[n] == d.Path[n] {
			n++
		}
		b = binary.AppendUvarint(b, uint64(n))
		b = binary.AppendUvarint(b, uint64(len(d.Path)-n))
		b = append(b, d.Path[n:]...)
		b = append(b, d.Sum[:]...)
		b = binary.AppendUvarint(b, uint64(len(d.Lookup)))
		b = append(b, d.Lookup...)
		prev = d.Path
	}
	return b
}

// splitDeps reads the dependencies at the start of an entry, and returns
// them and the rest; false when the entry is corrupt.
func splitDeps(data []byte) ([]cppfront.Dep, []byte, bool) {
	n, k := binary.Uvarint(data)
	if k <= 0 || n > uint64(len(data)) {
		return nil, nil, false
	}
	data = data[k:]
	num := func(limit int) (int, bool) { // a uvarint at most limit
		v, k := binary.Uvarint(data)
		if k <= 0 || v > uint64(limit) {
			return 0, false
		}
		data = data[k:]
		return int(v), true
	}
	str := func() (string, bool) {
		l, ok := num(len(data))
		if !ok || l > len(data) {
			return "", false
		}
		s := string(data[:l])
		data = data[l:]
		return s, true
	}
	deps := make([]cppfront.Dep, 0, n)
	prev := ""
	for range n {
		var d cppfront.Dep
		shared, ok := num(len(prev))
		if !ok {
			return nil, nil, false
		}
		rest, ok := str()
		if !ok || len(data) < sha256.Size {
			return nil, nil, false
		}
		d.Path = prev[:shared] + rest
		copy(d.Sum[:], data)
		data = data[sha256.Size:]
		if d.Lookup, ok = str(); !ok {
			return nil, nil, false
		}
		deps = append(deps, d)
		prev = d.Path
	}
	return deps, data, true
}

// noFindings is what is stored for a file without findings (most files):
// no gob stream, whose type header costs more to decode than the rest.
var noFindings = []byte{0}

// cachedFinding is a runner.Finding as stored: positions without the file
// name (the name of the run that reads it is put back), the analyzer by
// name, and of the diagnostic what the driver reads.
type cachedFinding struct {
	Analyzer    string
	Message     string
	Category    string
	URL         string
	DiagRelated []string // the messages of Diagnostic.Related (the simulated cost travels there)
	Pos, End    cachedPos
	Fixes       []fixes.Fix
	Related     []cachedRelated
}

// cachedPos is a position; File is "" in the finding's own file.
type cachedPos struct {
	File                 string
	Offset, Line, Column int
}

type cachedRelated struct {
	Pos, End cachedPos
	Message  string
}

// toCachedPos stores p, a position of a finding of the file name; a
// position in another file keeps that file's path, made absolute from the
// working directory wd.
func toCachedPos(p token.Position, name, wd string) cachedPos {
	c := cachedPos{Offset: p.Offset, Line: p.Line, Column: p.Column}
	if p.Filename != name {
		c.File = p.Filename
		if !filepath.IsAbs(c.File) {
			c.File = filepath.Join(wd, c.File)
		}
	}
	return c
}

// position is the stored position for a run that names the file name,
// from the working directory wd: another file's path is relative to wd
// when name is, as the lowering names the headers it reads from a relative
// name (the clean join of the name's folder and the include).
func (p cachedPos) position(name, wd string) token.Position {
	if p.File != "" {
		other := p.File
		if !filepath.IsAbs(name) {
			if rel, err := filepath.Rel(wd, other); err == nil {
				other = rel
			}
		}
		name = other
	}
	return token.Position{Filename: name, Offset: p.Offset, Line: p.Line, Column: p.Column}
}

// Get returns the findings stored under key, for the file name, and the
// headers they depend on: from the run's pack (scanmemo.go), else from the
// file's own entry; false when none serves (a header changed). With
// noFixes (a run that writes or offers fixes), findings that carry a fix
// do not serve either: a fix that is written is always one the analyzers
// made from the current text, never one read from the cache.
func (rc *Cache) Get(key Key, name string, as []*analysis.Analyzer, noFixes bool) ([]runner.Finding, []cppfront.Dep, bool) {
	data, ok := rc.memo.result(key.pre, key.id)
	if !ok {
		if data, ok = rc.dc.get(key.id); !ok {
			rc.stats.Misses.Add(1)
			return nil, nil, false
		}
	}
	deps, rest, ok := splitDeps(data)
	if !ok || !rc.holds(deps) {
		rc.stats.Misses.Add(1) // a header changed, or an include finds another: analyse again
		return nil, nil, false
	}
	out, ok := decodeFindings(rest, name, rc.wd, as)
	if !ok {
		rc.stats.Misses.Add(1) // corrupt: analyse again
		return nil, nil, false
	}
	if noFixes && len(runner.Fixes(out)) > 0 {
		rc.stats.Misses.Add(1) // fixes to write: made afresh
		return nil, nil, false
	}
	rc.memo.keep(key.pre, key.id, data)
	rc.stats.Hits.Add(1)
	return out, deps, true
}

// holds reports whether every dependency of an entry holds now: each
// header has the bytes it had, and each lookup (an include, the header of
// a class, the files that include the file) the answer it had, so that a
// header created since, where an include found nothing or would now find
// a nearer file, makes a miss. Headers are checked first: they are the
// cheaper, hashed once a run.
func (rc *Cache) holds(deps []cppfront.Dep) bool {
	for _, d := range deps {
		if d.Lookup != "" {
			continue
		}
		if sum, read := rc.files.hash(d.Path); !read || sum != d.Sum {
			return false
		}
	}
	ix := cppir.ProjectIndex()
	for _, d := range deps {
		if d.Lookup != "" && !ix.Holds(d) {
			return false
		}
	}
	return true
}

// Put stores the findings of the file name, and the headers its lowering
// consulted, under key: in the run's pack,
// and, for a file named on the command line (as pre-commit names them) or
// without a pack, in an entry of its own. A run over a tree writes one
// pack, not two files a file.
func (rc *Cache) Put(key Key, name string, findings []runner.Finding, deps []cppfront.Dep, own bool) {
	found, ok := encodeFindings(name, rc.wd, findings)
	if !ok {
		return
	}
	data := appendDeps(nil, deps)
	data = append(data, found...)
	rc.memo.keep(key.pre, key.id, data)
	if own || rc.memo == nil {
		if rc.dc.put(key.id, data) == nil {
			rc.stats.Puts.Add(1)
		}
	}
}

// decodeFindings reads findings stored by encodeFindings, for the file name.
func decodeFindings(data []byte, name, wd string, as []*analysis.Analyzer) ([]runner.Finding, bool) {
	if bytes.Equal(data, noFindings) {
		return nil, true
	}
	var stored []cachedFinding
	if err := gob.NewDecoder(bytes.NewReader(data)).Decode(&stored); err != nil {
		return nil, false
	}
	byName := make(map[string]*analysis.Analyzer, len(as))
	for _, a := range runner.Order(as) {
		byName[a.Name] = a
	}
	out := make([]runner.Finding, 0, len(stored))
	for _, c := range stored {
		a := byName[c.Analyzer]
		if a == nil {
			return nil, false
		}
		f := runner.Finding{
			Analyzer:   a,
			Rule:       ruleset.ForAnalyzer(a),
			Diagnostic: analysis.Diagnostic{Message: c.Message, Category: c.Category, URL: c.URL},
			Pos:        c.Pos.position(name, wd),
			End:        c.End.position(name, wd),
			Fixes:      c.Fixes,
		}
		for _, m := range c.DiagRelated {
			f.Diagnostic.Related = append(f.Diagnostic.Related, analysis.RelatedInformation{Message: m})
		}
		for _, r := range c.Related {
			f.Related = append(f.Related, runner.Related{Pos: r.Pos.position(name, wd), End: r.End.position(name, wd), Message: r.Message})
		}
		out = append(out, f)
	}
	return out, true
}

// encodeFindings encodes the findings of the file name for the cache.
func encodeFindings(name, wd string, findings []runner.Finding) ([]byte, bool) {
	if len(findings) == 0 {
		return noFindings, true
	}
	stored := make([]cachedFinding, 0, len(findings))
	for i := range findings {
		f := &findings[i]
		c := cachedFinding{
			Analyzer: f.Analyzer.Name, Message: f.Diagnostic.Message, Category: f.Diagnostic.Category, URL: f.Diagnostic.URL,
			Pos: toCachedPos(f.Pos, name, wd), End: toCachedPos(f.End, name, wd), Fixes: f.Fixes,
		}
		for _, r := range f.Diagnostic.Related {
			c.DiagRelated = append(c.DiagRelated, r.Message)
		}
		for _, r := range f.Related {
			c.Related = append(c.Related, cachedRelated{Pos: toCachedPos(r.Pos, name, wd), End: toCachedPos(r.End, name, wd), Message: r.Message})
		}
		stored = append(stored, c)
	}
	var b bytes.Buffer
	if err := gob.NewEncoder(&b).Encode(stored); err != nil {
		return nil, false
	}
	return b.Bytes(), true
}
