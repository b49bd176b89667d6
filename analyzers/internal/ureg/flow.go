package ureg

// Path-tagged may-facts over the structured body.
//
// ASC1004 asks "may this load register still be unprimed here?" and ASC1005
// "may this store register still hold an unflushed tail at the end?". Both
// are may-analyses of facts about keys: a fact is created (Gen) by one
// instruction or at the region entry, and killed by another (a Pre primes, a
// Post flushes). Run walks the body once in program order: an If joins its
// two branches (a missing Else passes the state through), and a Loop is
// iterated to a fixed point (the body may run zero times unless it is a do
// loop or its trip count is known to be at least one).
//
// A plain may-analysis would report code that is right because two branches
// are correlated:
//
//	if constexpr (kTail) { LoadUnAlignPre(u, src); }
//	...
//	if constexpr (kTail) { LoadUnAlign(v, u, src, n); } // primed: same condition
//
// so every fact carries the path conditions it travelled under: entering the
// Then branch of `if (c)` tags the facts with "c" and drops those tagged
// "!c" (that path cannot take this branch), and the Else branch does the
// opposite. A loop body is a branch on "the loop runs at least once" (the
// loop's first-iteration test, init cmp bound), so two loops with the same
// header correlate as well (`for (i = 0; i < hasTail; ++i)` used as an if).
// A fact is dropped when its tags and the branch condition cannot hold
// together: conditions are read as propositional formulas over their
// printed leaves (cond.go), so `!outputBrc` contradicts `x && outputBrc`'s
// Then branch and selects its Else branch. At the join, a fact that arrives
// from both branches loses the tag again, so tags only stay where they tell
// something. Tags only ever remove facts:
// correlation can hide a finding (if the condition changed in between) but
// never create one.

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/ascvet/ascvet/cppfront/ir"
)

// Entry is the Origin of a fact created at the region entry.
const Entry ir.InstrID = -1

// Fact is one may-fact about a key.
type Fact struct {
	Key    Key        // the register the fact is about
	Origin ir.InstrID // the instruction that created it, or Entry
	tags   string     // path conditions it travelled under: sorted, "\n"-separated
}

// State is a set of facts at one program point.
type State struct {
	facts map[Fact]bool
	conds []string // conditions in force at the current instruction (set by Run)
}

// NewState returns an empty state.
func NewState() *State { return &State{facts: map[Fact]bool{}} }

// Gen adds the fact that k holds because of origin, tagged with the
// conditions in force.
func (s *State) Gen(k Key, origin ir.InstrID) {
	s.facts[Fact{Key: k, Origin: origin, tags: joinTags(s.conds)}] = true
}

// Kill removes every fact about a key for which match returns true.
func (s *State) Kill(match func(Key) bool) {
	for f := range s.facts {
		if match(f.Key) {
			delete(s.facts, f)
		}
	}
}

// Facts returns the facts about k, ordered by origin.
func (s *State) Facts(k Key) []Fact {
	var fs []Fact
	for f := range s.facts {
		if f.Key == k {
			fs = append(fs, f)
		}
	}
	sortFacts(fs)
	return fs
}

// All returns every fact, ordered by key and origin.
func (s *State) All() []Fact {
	fs := make([]Fact, 0, len(s.facts))
	for f := range s.facts {
		fs = append(fs, f)
	}
	sortFacts(fs)
	return fs
}

func sortFacts(fs []Fact) {
	sort.Slice(fs, func(i, j int) bool {
		a, b := fs[i], fs[j]
		if a.Key != b.Key {
			if a.Key.Reg != b.Key.Reg {
				return a.Key.Reg < b.Key.Reg
			}
			return a.Key.Part < b.Key.Part
		}
		if a.Origin != b.Origin {
			return a.Origin < b.Origin
		}
		return a.tags < b.tags
	})
}

func (s *State) clone() *State {
	c := &State{facts: make(map[Fact]bool, len(s.facts))}
	for f := range s.facts {
		c.facts[f] = true
	}
	return c
}

func (s *State) equal(t *State) bool {
	if len(s.facts) != len(t.facts) {
		return false
	}
	for f := range s.facts {
		if !t.facts[f] {
			return false
		}
	}
	return true
}

// Transfer applies one instruction to the state (Gen, Kill) and may inspect
// it first. Run calls it again for the instructions of a loop body until the
// loop's state is stable, so a rule that reports from Transfer reports each
// instruction once.
type Transfer func(in *ir.Instr, s *State)

// maxRounds bounds the fixed-point iteration of one loop. Facts only grow
// (tags merge away at joins), so a handful of rounds always suffices; the
// bound is a guard, not a tuning knob.
const maxRounds = 16

// Run propagates entry through fn's body and returns the state at its end.
func Run(fn *ir.Func, entry *State, tr Transfer) *State {
	w := &walker{tr: tr, forms: map[string]*formula{}, sat: map[string]bool{}}
	return w.block(fn.Body, entry.clone())
}

type walker struct {
	tr    Transfer
	conds []string            // conditions of the enclosing branches and loop bodies
	forms map[string]*formula // tag (without '!') -> its condition
	sat   map[string]bool     // cache of feasible: tags + "\x00" + branch tag -> result
}

func (w *walker) block(b *ir.Block, s *State) *State {
	if b == nil {
		return s
	}
	for _, n := range b.Nodes {
		switch n := n.(type) {
		case *ir.Instr:
			s.conds = w.conds
			w.tr(n, s)
			s.conds = nil
		case *ir.If:
			tag := ""
			if n.Cond != nil {
				tag = "if " + normalize(n.Cond.String())
				w.forms[tag] = condFormula(n.Cond)
			}
			t := w.branch(n.Then, s, tag)
			e := w.branch(n.Else, s, negTag(tag))
			s = join(t, e, tag)
		case *ir.Loop:
			s = w.loop(n, s)
		}
	}
	return s
}

// branch walks b from s under the condition tag ("" for none).
func (w *walker) branch(b *ir.Block, s *State, tag string) *State {
	in := w.enter(s, tag)
	if tag != "" {
		w.conds = append(w.conds, tag)
		defer func() { w.conds = w.conds[:len(w.conds)-1] }()
	}
	return w.block(b, in)
}

func (w *walker) loop(l *ir.Loop, before *State) *State {
	tag := loopTag(l)
	if tag != "" {
		w.forms[tag] = atom(tag)
	}
	head := before
	var out *State
	for range maxRounds {
		out = w.branch(l.Body, head, tag)
		next := union(before, out)
		if next.equal(head) {
			break
		}
		head = next
	}
	if l.Kind == ir.LoopDo || (l.TripKnown && l.Trip >= 1) {
		return out // the body runs at least once
	}
	return join(out, w.enter(before, negTag(tag)), tag)
}

// loopTag is the condition under which l's body runs at all: its header's
// first test, "" when the header was not understood (or the loop is a do
// loop, whose body runs regardless).
func loopTag(l *ir.Loop) string {
	if l.Kind == ir.LoopDo || l.Var == "" || l.Init == nil || l.Bound == nil || l.CmpOp == "" {
		return ""
	}
	return normalize(fmt.Sprintf("loop %s %s %s", l.Init, l.CmpOp, l.Bound))
}

func negTag(tag string) string {
	switch {
	case tag == "":
		return ""
	case strings.HasPrefix(tag, "!"):
		return tag[1:]
	}
	return "!" + tag
}

// enter returns the facts of s that can take a branch under tag, tagged.
func (w *walker) enter(s *State, tag string) *State {
	if tag == "" {
		return s.clone()
	}
	c := NewState()
	for f := range s.facts {
		if !w.feasible(f.tags, tag) {
			continue // the path that made f cannot take this branch
		}
		f.tags = joinTags(append(splitTags(f.tags), tag))
		c.facts[f] = true
	}
	return c
}

// feasible reports whether a path under tags can take a branch under tag.
func (w *walker) feasible(tags, tag string) bool {
	if tags == "" {
		return true
	}
	key := tags + "\x00" + tag
	if ok, hit := w.sat[key]; hit {
		return ok
	}
	f := w.formula(tag)
	for _, t := range splitTags(tags) {
		f = and(f, w.formula(t))
	}
	ok := satisfiable(f)
	w.sat[key] = ok
	return ok
}

// formula returns the condition of a tag.
func (w *walker) formula(tag string) *formula {
	if t, ok := strings.CutPrefix(tag, "!"); ok {
		return not(w.formula(t))
	}
	if f, ok := w.forms[tag]; ok {
		return f
	}
	return atom(tag)
}

// join merges the states leaving the two branches of a condition tag: a
// fact that arrives from both loses the tag.
func join(a, b *State, tag string) *State {
	if tag == "" {
		return union(a, b)
	}
	neg := negTag(tag)
	from := map[Fact]uint8{}
	for i, s := range []*State{a, b} {
		for f := range s.facts {
			from[untag(f, tag, neg)] |= 1 << i
		}
	}
	c := NewState()
	for _, s := range []*State{a, b} {
		for f := range s.facts {
			if base := untag(f, tag, neg); from[base] == 3 {
				c.facts[base] = true
			} else {
				c.facts[f] = true
			}
		}
	}
	return c
}

func untag(f Fact, tag, neg string) Fact {
	ts := splitTags(f.tags)
	ts = slices.DeleteFunc(ts, func(t string) bool { return t == tag || t == neg })
	f.tags = joinTags(ts)
	return f
}

func union(a, b *State) *State {
	c := a.clone()
	for f := range b.facts {
		c.facts[f] = true
	}
	return c
}

func splitTags(s string) []string {
	if s == "" {
		return nil
	}
	return strings.Split(s, "\n")
}

func joinTags(ts []string) string {
	if len(ts) == 0 {
		return ""
	}
	ts = slices.Clone(ts)
	slices.Sort(ts)
	return strings.Join(slices.Compact(ts), "\n")
}
