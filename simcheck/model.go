// Package simcheck is ascvet's embedded VF cycle simulator. It replays a
// loop body for N iterations on a machine model (a data file per chip,
// embedded in the binary) and reports cycles, IPC, port pressure and the
// critical dependency chain, in the manner of llvm-mca. Rules use it to put
// a cost on their findings: the loop is simulated before and after the fix.
//
// The simulator core (sim.go) runs stages cycle by cycle:
//
//	dispatch  in program order, dispatch_width a cycle, into a window of
//	          `window` entries (seed 002's "execution queue depth 64"),
//	          freed at issue, or with window_frees = "done" when the result
//	          is written, or with "retire" at retire; with load_queue, loads
//	          take no entry. A RegTensor result also takes a physical
//	          register (registers.physical_vreg, less those of values live
//	          into the body), free again reg_free_delay cycles after the
//	          last instruction that reads it is done
//	issue     out of order: the oldest instructions whose operands are ready
//	          and whose port is free; at most issue_width in all, of them
//	          at most compute_issue compute instructions, ub_accesses loads
//	          and stores (ub_writes stores). A LocalMemBar waits until the
//	          stores before it are done; loads and stores after it wait
//	          for it
//	execute   the port (with `pipe`, that pipeline of the unit) stays busy
//	          for the class's occupancy; the result is ready to dependents
//	          `dep` cycles after issue, or [forward]'s value for the
//	          consumer's class
//	retire    in program order, retire_width a cycle, once done
//
// A VF function (RunRegion) is its start, each top-level loop run on its own
// for its trip count (with #pragma unroll applied), and its drain.
//
// Cycles are integers and there is no wall clock: output is deterministic.
package simcheck

import (
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"slices"
	"sort"
	"strings"

	"github.com/BurntSushi/toml"

	"github.com/ascvet/ascvet/cppfront/ir"
	"github.com/ascvet/ascvet/internal/regfile"
	"github.com/ascvet/ascvet/ruleset/config"
)

//go:embed machines/*.toml
var machines embed.FS

// Class is a group of ops with the same timing.
type Class struct {
	Name       string   `toml:"name"`
	Ops        []string `toml:"ops"`         // canonical op names (ir.Op.String())
	Ports      []string `toml:"ports"`       // ports that can execute it
	Occ        int      `toml:"occ"`         // cycles the port is busy
	OccInt     int      `toml:"occ_int"`     // for integer element types (0: as Occ)
	OccB16     int      `toml:"occ_b16"`     // for 16-bit floats (0: as Occ)
	Latency    int      `toml:"latency"`     // issue to done
	LatencyB16 int      `toml:"latency_b16"` // for 16-bit floats (0: as Latency)
	Dep        int      `toml:"dep"`         // issue to the earliest dependent issue
	DepB16     int      `toml:"dep_b16"`     // for 16-bit floats (0: as Dep)
	UregDep    int      `toml:"ureg_dep"`    // issue to the next use of its unaligned register (0: as Dep)
	Pipe       string   `toml:"pipe"`        // the pipeline of its unit it occupies for occ cycles; "" for the whole unit

	portIDs []int // Ports as indexes into Machine.portNames
	pipeID  int   // Pipe as an index into Machine.pipes, -1 for the whole unit
	id      int   // index into Machine.Classes
}

// maxRegFreeDelay bounds Machine.RegFreeDelay: a machine file's delay is
// a few cycles; a huge one would only stall every run.
const maxRegFreeDelay = 1000

// Machine is a chip's model.
type Machine struct {
	Name          string         `toml:"name"`
	DispatchWidth int            `toml:"dispatch_width"`
	RetireWidth   int            `toml:"retire_width"`
	IssueWidth    int            `toml:"issue_width"`
	Window        int            `toml:"window"`
	WindowFrees   string         `toml:"window_frees"` // "issue" (an issue queue; the default), "done" (an entry held until its result is written) or "retire" (a reorder buffer)
	LoadQueue     bool           `toml:"load_queue"`   // loads wait in a queue of their own and take no window entry
	ComputeIssue  int            `toml:"compute_issue"`
	UBAccesses    int            `toml:"ub_accesses"`
	UBWrites      int            `toml:"ub_writes"`
	RegWrites     int            `toml:"reg_writes"` // RegTensor results issued a cycle at most (0: no limit)
	VFStart       int            `toml:"vf_start"`
	VFDrain       int            `toml:"vf_drain"`
	LoopEntry     int            `toml:"loop_entry"`
	IterStride    int            `toml:"iter_stride"`    // cycles between the dispatch starts of two iterations at least (the hardware loop's control)
	NestedGap     int            `toml:"nested_gap"`     // cycles between the starts of two runs of inner loops (hardware loops nested in the simulated one)
	UnitInflight  int            `toml:"unit_inflight"`  // compute instructions a unit holds between issue and done at most (0: no limit)
	RegFreeDelay  int            `toml:"reg_free_delay"` // cycles after the last read of a value is done that its physical register is free again (registers.physical_vreg)
	PointerDep    int            `toml:"pointer_dep"`
	SpillCost     int            `toml:"spill_cost"`
	Registers     map[string]int `toml:"registers"`
	Ports         map[string]int `toml:"ports"`
	Classes       []Class        `toml:"class"`
	Forward       map[string]int `toml:"forward"` // "producer>consumer" class names: issue to the dependent's earliest issue, instead of the producer's dep
	II            map[string]int `toml:"ii"`      // "previous>next" class names: cycles between their issues on one unit, when more than 1

	byOp      map[string]*Class
	portNames []string // sorted
	portIDs   map[string]int
	pipes     []string  // the pipes classes name, in order of appearance
	forward   [][]int16 // [producer class][consumer class]: the dep, -1 for the producer's own
	ii        [][]int16 // [previous class][next class] on one unit: cycles between issues (0: 1)

	memo *memo // RunCycles results by body, when Memoized
	// runCap caps the instruction instances of one run when set
	// (Capped); MaxInstances otherwise.
	runCap int
	// cyclesOnly: the parts of a region run without their Events
	// (CyclesOnly).
	cyclesOnly bool
}

// Chips returns the names of the embedded machine models.
func Chips() []string {
	ents, _ := fs.ReadDir(machines, "machines")
	var out []string
	for _, e := range ents {
		n := e.Name()
		out = append(out, n[:len(n)-len(".toml")])
	}
	sort.Strings(out)
	return out
}

// Chip returns the embedded model of a chip ("ascend950").
func Chip(name string) (*Machine, error) {
	data, err := machines.ReadFile("machines/" + name + ".toml")
	if err != nil {
		return nil, fmt.Errorf("no machine model for chip %q (have %v)", name, Chips())
	}
	return Parse(name+".toml", data)
}

// MaxMachineFileSize is the size of the largest machine file Load reads
// (4 MiB; the embedded models have a few KB). A larger file is an error,
// and so is a path that is not a regular file (a FIFO, a link to
// /dev/zero): neither is read.
const MaxMachineFileSize = 4 << 20

// Load reads a machine model from a file (-machine FILE).
func Load(path string) (*Machine, error) {
	data, err := regfile.Read(path, MaxMachineFileSize)
	if err != nil {
		var pe *fs.PathError
		if errors.As(err, &pe) { // "m.toml: not a regular file (a FIFO)", not "open m.toml: ..."
			err = fmt.Errorf("%s: %w", path, pe.Err)
		}
		return nil, err
	}
	return Parse(path, data)
}

// Parse decodes and checks a machine model.
func Parse(name string, data []byte) (*Machine, error) {
	if line := config.DeepLine(string(data)); line > 0 {
		return nil, fmt.Errorf("%s:%d: keys, tables and arrays nested more than %d levels deep; a machine model needs at most 3", name, line, config.MaxDepth)
	}
	var m Machine
	md, err := toml.Decode(string(data), &m)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if und := md.Undecoded(); len(und) > 0 {
		return nil, fmt.Errorf("%s: unknown key %s", name, und[0])
	}
	if err := m.check(); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return &m, nil
}

func (m *Machine) check() error {
	for _, f := range []struct {
		name string
		v    int
	}{{"dispatch_width", m.DispatchWidth}, {"retire_width", m.RetireWidth}, {"window", m.Window},
		{"issue_width", m.IssueWidth}, {"compute_issue", m.ComputeIssue}, {"ub_accesses", m.UBAccesses}, {"ub_writes", m.UBWrites}} {
		if f.v <= 0 {
			return fmt.Errorf("%s must be positive", f.name)
		}
	}
	if m.RegFreeDelay < 0 || m.RegFreeDelay > maxRegFreeDelay {
		return fmt.Errorf("reg_free_delay must be 0 to %d", maxRegFreeDelay)
	}
	switch m.WindowFrees {
	case "", "issue", "done", "retire":
	default:
		return fmt.Errorf("window_frees must be issue, done or retire, not %q", m.WindowFrees)
	}
	m.byOp = map[string]*Class{}
	for name, n := range m.Ports {
		if n <= 0 {
			return fmt.Errorf("port %s: count must be positive", name)
		}
		m.portNames = append(m.portNames, name)
	}
	sort.Strings(m.portNames)
	m.portIDs = map[string]int{}
	for i, p := range m.portNames {
		m.portIDs[p] = i
	}
	for i := range m.Classes {
		c := &m.Classes[i]
		c.id, c.pipeID = i, -1
		if c.Pipe != "" {
			c.pipeID = slices.Index(m.pipes, c.Pipe)
			if c.pipeID < 0 {
				c.pipeID = len(m.pipes)
				m.pipes = append(m.pipes, c.Pipe)
			}
		}
		if len(c.Ports) == 0 || c.Occ <= 0 || c.Latency <= 0 || c.Dep < 0 {
			return fmt.Errorf("class %s: needs ports, occ > 0, latency > 0, dep >= 0", c.Name)
		}
		c.portIDs = nil
		for _, p := range c.Ports {
			if m.Ports[p] == 0 {
				return fmt.Errorf("class %s: unknown port %s", c.Name, p)
			}
			c.portIDs = append(c.portIDs, m.portIDs[p])
		}
		for _, op := range c.Ops {
			base, form, formed := strings.Cut(op, "/")
			if _, ok := ir.OpByName(base); !ok || formed && !slices.Contains(opForms[base], form) {
				return fmt.Errorf("class %s: unknown op %s", c.Name, op)
			}
			if prev, dup := m.byOp[op]; dup {
				return fmt.Errorf("op %s in classes %s and %s", op, prev.Name, c.Name)
			}
			m.byOp[op] = c
		}
	}
	byName := map[string]int{}
	for i, c := range m.Classes {
		byName[c.Name] = i
	}
	m.forward = make([][]int16, len(m.Classes))
	for i := range m.forward {
		m.forward[i] = make([]int16, len(m.Classes))
		for j := range m.forward[i] {
			m.forward[i][j] = -1
		}
	}
	for key, v := range m.Forward {
		pi, ci, ok := classPair(byName, key)
		if !ok || v < 0 {
			return fmt.Errorf("forward %q: want \"producer>consumer\" class names and a value >= 0", key)
		}
		m.forward[pi][ci] = int16(v)
	}
	m.ii = make([][]int16, len(m.Classes))
	for i := range m.ii {
		m.ii[i] = make([]int16, len(m.Classes))
	}
	for key, v := range m.II {
		pi, ci, ok := classPair(byName, key)
		if !ok || v < 1 {
			return fmt.Errorf("ii %q: want \"previous>next\" class names and a value >= 1", key)
		}
		m.ii[pi][ci] = int16(v)
	}
	return nil
}

// classPair reads "a>b" as two class indexes.
func classPair(byName map[string]int, key string) (int, int, bool) {
	a, b, ok := strings.Cut(key, ">")
	ai, oka := byName[strings.TrimSpace(a)]
	bi, okb := byName[strings.TrimSpace(b)]
	return ai, bi, ok && oka && okb
}

// DepOf returns the cycles from the issue of producer to the earliest
// issue of a consumer of its result: the forwarding table's entry for the
// two classes, else the producer's dep.
func (m *Machine) DepOf(producer, consumer Timing) int {
	if producer.Class != nil && consumer.Class != nil {
		if v := m.forward[producer.Class.id][consumer.Class.id]; v >= 0 {
			return int(v)
		}
	}
	return producer.Dep
}

// Timing is what the simulator needs of one instruction.
type Timing struct {
	Class   *Class
	Occ     int
	Latency int
	Dep     int
	UregDep int
	Compute bool // occupies an issue slot of the compute units
	Load    bool // a UB read
	Store   bool // a UB write
	Barrier bool // orders UB accesses (LocalMemBar): waits for the stores before it, and the accesses after it wait for it
}

// ClassOf returns the class of op, or nil when the model has none (the op
// is then simulated as taking no port and no time: unknown calls, scalar
// code, barriers).
func (m *Machine) ClassOf(op ir.Op) *Class { return m.byOp[op.String()] }

// opForms are the forms of an op that the hardware runs as different
// instructions, which a class may name as "Op/form": Duplicate of a scalar
// is VBR (either compute unit, forwarding 2), of a register's lane VDUP
// (EXU0 only, forwarding 8).
var opForms = map[string][]string{"Duplicate": {"scalar"}}

// formOf returns the form of in that opForms names, "" for its plain one.
func formOf(in *Inst) string {
	if in.Op == ir.OpDuplicate && in.Instr != nil {
		if len(in.Instr.Args) < 2 || in.Instr.Args[1].Reg == ir.NoReg {
			return "scalar"
		}
	}
	return ""
}

// InstTiming returns the timing of in, of its form's class where the
// machine has one (Timing otherwise).
func (m *Machine) InstTiming(in *Inst) (Timing, bool) {
	if f := formOf(in); f != "" {
		if c := m.byOp[in.Op.String()+"/"+f]; c != nil {
			return m.timingOf(c, in.Op, in.Elem), true
		}
	}
	return m.Timing(in.Op, in.Elem)
}

// Timing returns the timing of op on elements of type elem.
func (m *Machine) Timing(op ir.Op, elem string) (Timing, bool) {
	c := m.byOp[op.String()]
	if c == nil {
		return Timing{Barrier: op.Info().Cat == ir.CatBarrier}, false
	}
	return m.timingOf(c, op, elem), true
}

func (m *Machine) timingOf(c *Class, op ir.Op, elem string) Timing {
	t := Timing{Class: c, Occ: c.Occ, Latency: c.Latency, Dep: c.Dep, UregDep: c.UregDep}
	if t.UregDep == 0 {
		t.UregDep = c.Dep
	}
	switch elemKind(elem) {
	case kindInt:
		if c.OccInt > 0 {
			t.Occ = c.OccInt
		}
	case kindB16:
		if c.OccB16 > 0 {
			t.Occ = c.OccB16
		}
		if c.LatencyB16 > 0 {
			t.Latency = c.LatencyB16
		}
		if c.DepB16 > 0 {
			t.Dep = c.DepB16
		}
	}
	cat := op.Info().Cat
	t.Load, t.Store = cat.IsLoad(), cat.IsStore()
	for _, p := range c.Ports {
		if p == "EXU0" || p == "EXU1" {
			t.Compute = true
		}
	}
	return t
}

type kind uint8

const (
	kindFloat kind = iota
	kindInt
	kindB16
)

// IntegerDiv reports whether in is a Div on integer elements, or a step of
// the sequence a 64-bit one runs (Inst.Div64). On 64-bit integers the
// simulator runs the library's sequence, still ~27% under the measured
// trait_num_two (docs/fidelity.md), and ASC5002 reports the Div itself; a
// 32-bit one is priced as one op. A cost that hangs on either is not the
// model's to give.
func IntegerDiv(in Inst) bool {
	return in.Div64 || in.Op == ir.OpDiv && elemKind(in.Elem) == kindInt
}

// UntypedDiv reports whether in is a Div whose element type is a template
// parameter (not bound by the instantiation simulated): timed as a float
// Div, and an integer Div if instantiated so.
func UntypedDiv(in Inst) bool {
	_, known := ir.ElemSize(in.Elem)
	return in.Op == ir.OpDiv && !known && in.Elem != ""
}

func elemKind(elem string) kind {
	switch elem {
	case "half", "bfloat16_t", "float16_t":
		return kindB16
	case "float", "float32_t", "":
		return kindFloat
	}
	if _, ok := ir.ElemSize(elem); ok {
		return kindInt
	}
	return kindFloat // a template parameter: assume float timing
}
