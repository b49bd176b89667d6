package ureg

// Path-tagged may-facts over the structured body.
//
// ASC1004 asks "may this load register still be unprimed here?" and ASC1005
// "may this store register still hold an unflushed tail at the end?". Both
// are may-analyses of facts about keys: a fact is created (Gen) by one
// instruction or at the region entry, and killed by another (a Pre primes, a
// Post flushes). Run walks the body in program order: an If joins its two
// branches (a missing Else passes the state through); a Loop is iterated to
// a fixed point, its first iteration starting from the state before it, and
// its body may run zero times unless it is a do loop, its trip count is
// known to be at least one, or Options.LoopsRun says so.
//
// A plain may-analysis would report code that is right because two branches
// are correlated:
//
//	if constexpr (kTail) { LoadUnAlignPre(u, src); }
//	...
//	if constexpr (kTail) { LoadUnAlign(v, u, src, n); } // primed: same condition
//
// so every fact carries the path conditions it travelled under. Entering the
// Then branch of `if (c)` tags the facts with "c" and drops those whose tags
// contradict c; the Else branch does the same with "!c". Conditions are read
// as propositional formulas over their printed leaves, with comparisons
// against constants understood (cond.go): `!outputBrc` contradicts
// `x && outputBrc`, and `sizeof(T) == 1` contradicts `sizeof(T) > 1`. A loop
// body is a branch on its header's first test (init cmp bound), so two loops
// with one header correlate (`for (i = 0; i < hasTail; ++i)` used as an if).
// At a join, a fact that arrives from both branches loses the tag again, so
// tags stay only where they tell something. Conditions that select
// iterations (`if (i == 0)`, `if (i == n - 1)`) get tags of their own; see
// ifTag. Tags only ever remove facts: a correlation can hide a finding (if a
// condition changed in between) but never create one.

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

// Options tune Run.
type Options struct {
	// LoopsRun assumes that a loop whose trip count is unknown runs at least
	// once (loops that provably run at most once, `for (i = 0; i < hasTail;
	// ++i)`, still may not run). Rules whose findings would otherwise rest
	// on a zero-trip path the author excluded elsewhere set it.
	LoopsRun bool
}

// Run propagates entry through fn's body and returns the state at its end.
func Run(fn *ir.Func, entry *State, tr Transfer, opts Options) *State {
	return run(fn, entry, tr, opts, false)
}

// run is Run; keepImplied tags facts with conditions their tags already
// imply (see enter), for the test that shows this changes no fact.
func run(fn *ir.Func, entry *State, tr Transfer, opts Options, keepImplied bool) *State {
	w := &walker{tr: tr, opts: opts, forms: map[string]*formula{}, sat: map[string]bool{}, headless: map[string]bool{}, keepImplied: keepImplied}
	return w.block(fn.Body, entry.clone())
}

type walker struct {
	tr          Transfer
	opts        Options
	keepImplied bool                // tag facts with conditions their tags imply (a test's reference)
	conds       []string            // conditions of the enclosing branches and loop bodies
	loops       []*ir.Loop          // enclosing loops, outermost first
	forms       map[string]*formula // tag (without '!') -> its condition
	sat         map[string]bool     // cache of feasible: tags + "\x00" + branch tag -> result
	headless    map[string]bool     // iteration tags of loops whose header was not understood
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
			tag := w.ifTag(n)
			t := w.branch(n.Then, s, tag)
			e := w.branch(n.Else, s, negTag(tag))
			s = join(t, e, tag)
		case *ir.Loop:
			s = w.loop(n, s)
		}
	}
	return s
}

// Iteration tests. An if inside a loop whose condition reads a name the
// loop changes (its variable, a name assigned or declared in it) is not a
// fixed condition: it selects iterations. Two such tests are recognised:
//
//	if (i == 0)               first iteration: tag "first L<id>"
//	if (i == n - 1), any other iteration test: tag "iter L<id> <cond>"
//
// Facts entering the body from before the loop carry "first L<id>", facts
// going round the back edge "!first L<id>", so a Pre under `if (i == 0)`
// primes the first iteration and a later one is primed by the loads. Any
// other iteration test is taken to be able to select the last iteration: a
// fact that left the loop through its Else branch (`if (last) { Post }`
// not taken) is dropped at the exit. For a loop whose header was not
// understood (a while loop), an iteration test may also be the first
// iteration's. All of these assumptions can only hide a finding.

func (w *walker) ifTag(n *ir.If) string {
	if n.Cond == nil {
		return ""
	}
	cond := normalize(n.Cond.String())
	for i := len(w.loops) - 1; i >= 0; i-- {
		l := w.loops[i]
		if !variant(l, n.Cond) {
			continue
		}
		if firstTest(l, n.Cond) {
			return fmt.Sprintf("first L%d", l.ID)
		}
		tag := fmt.Sprintf("iter L%d %s", l.ID, cond)
		w.forms[tag] = atom(tag)
		if l.Var == "" || l.Init == nil {
			w.headless[tag] = true
		}
		return tag
	}
	tag := "if " + cond
	w.forms[tag] = condFormula(n.Cond)
	return tag
}

// variant reports whether cond reads a name that l changes.
func variant(l *ir.Loop, cond *ir.Expr) bool {
	names := append(append([]string{l.Var}, l.Assigns...), l.Decls...)
	for _, name := range names {
		if name != "" && mentions(cond, name) {
			return true
		}
	}
	return false
}

// firstTest reports whether cond is `Var == Init` for l's header.
func firstTest(l *ir.Loop, cond *ir.Expr) bool {
	if l.Var == "" || l.Init == nil || cond.Kind != ir.ExprBin || cond.Op != "==" {
		return false
	}
	d, ok := linearOf(ir.Bin("-", cond.X, cond.Y))
	if !ok {
		return false
	}
	want, ok := linearOf(ir.Bin("-", ir.Sym(l.Var), l.Init))
	return ok && (d.equal(want) || d.equal(want.neg()))
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
	tag := w.loopTag(l)
	first := fmt.Sprintf("first L%d", l.ID)
	w.loops = append(w.loops, l)
	defer func() { w.loops = w.loops[:len(w.loops)-1] }()
	// The first iteration starts from before; later ones from the back edge.
	entry := retag(before, l, first)
	head := entry
	var out *State
	for range maxRounds {
		out = w.branch(l.Body, head, tag)
		next := union(entry, retag(out, l, "!"+first)) // every fact goes round: a test is not known to pick the last iteration only
		if next.equal(head) {
			break
		}
		head = next
	}
	ran := exit(out, l)
	switch {
	case l.Kind == ir.LoopDo, l.TripKnown && l.Trip >= 1:
		return ran // the body runs at least once
	case w.opts.LoopsRun && !l.AtMostOnce && !l.TripKnown:
		return ran
	}
	return join(ran, w.enter(before, negTag(tag)), tag)
}

// loopTag is the condition under which l's body runs at all: its header's
// first test, "" when the header was not understood (or the loop is a do
// loop, whose body runs regardless).
func (w *walker) loopTag(l *ir.Loop) string {
	if l.Kind == ir.LoopDo || l.Var == "" || l.Init == nil || l.Bound == nil || l.CmpOp == "" {
		return ""
	}
	tag := normalize(fmt.Sprintf("loop %s %s %s", l.Init, l.CmpOp, l.Bound))
	w.forms[tag] = condFormula(ir.Bin(l.CmpOp, l.Init, l.Bound))
	return tag
}

// iterTag reports whether t (with or without '!') is an iteration tag of l.
func iterTag(t string, l *ir.Loop) bool {
	t = strings.TrimPrefix(t, "!")
	return t == fmt.Sprintf("first L%d", l.ID) || strings.HasPrefix(t, fmt.Sprintf("iter L%d ", l.ID))
}

// retag returns s with l's iteration tags replaced by tag.
func retag(s *State, l *ir.Loop, tag string) *State {
	c := NewState()
	for f := range s.facts {
		ts := slices.DeleteFunc(splitTags(f.tags), func(t string) bool { return iterTag(t, l) })
		f.tags = joinTags(append(ts, tag))
		c.facts[f] = true
	}
	return c
}

// exit returns the facts of out that leave l: those that took the Else
// branch of an iteration test are dropped (the test is taken to select the
// last iteration), and l's iteration tags are removed.
func exit(out *State, l *ir.Loop) *State {
	c := NewState()
	iter := fmt.Sprintf("!iter L%d ", l.ID)
	for f := range out.facts {
		ts := splitTags(f.tags)
		if slices.ContainsFunc(ts, func(t string) bool { return strings.HasPrefix(t, iter) }) {
			continue
		}
		f.tags = joinTags(slices.DeleteFunc(ts, func(t string) bool { return iterTag(t, l) }))
		c.facts[f] = true
	}
	return c
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
// A fact whose tags already imply tag (they contradict its negation) is
// not tagged again. The tag would change no later test: a fact's tags are
// satisfiable (it passed feasible), so they imply no iteration tag that
// they do not hold (those are atoms of their own), and every other tag
// only ever meets them in a conjunction. Without this, in a chain of
// branches on one value (if constexpr (K == 0) {...} if constexpr (K == 1)
// {...} ...) each fact would carry every condition it passed, and each
// test would be as long as the chain: the walk of n such branches cost
// n^4.
func (w *walker) enter(s *State, tag string) *State {
	if tag == "" {
		return s.clone()
	}
	c := NewState()
	for f := range s.facts {
		if !w.feasible(f.tags, tag) {
			continue // the path that made f cannot take this branch
		}
		if t, neg := strings.CutPrefix(tag, "!"); neg && w.headless[t] && strings.Contains(f.tags, "first L") {
			if l := strings.Fields(t)[1]; slices.Contains(splitTags(f.tags), "first "+l) {
				continue // a headless loop's iteration test may be its first iteration's
			}
		}
		if w.keepImplied || w.feasible(f.tags, negTag(tag)) {
			f.tags = joinTags(append(splitTags(f.tags), tag))
		}
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
