package cli

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestSimInstances: ascvet sim gives one result for each instantiation its
// file makes, named by its template arguments in text and JSON, and the
// one -instance names; the half instantiation issues more than the float
// one.
func TestSimInstances(t *testing.T) {
	k := "testdata/sim_instances.asc"
	type report struct {
		Instance     string `json:"instance"`
		Instructions int    `json:"instructions"`
		Cycles       int    `json:"cycles"`
	}
	code, out, errs := ascvet(t, "sim", "-f", "json", k+":12")
	var rs []report
	if err := json.Unmarshal([]byte(out), &rs); err != nil || code != exitOK {
		t.Fatalf("sim: exit %d, %v, stderr %s\n%s", code, err, errs, out)
	}
	if len(rs) != 2 || rs[0].Instance != "T=half" || rs[1].Instance != "T=float" {
		t.Fatalf("instances %+v, want T=half then T=float", rs)
	}
	if rs[0].Instructions != 6 || rs[1].Instructions != 3 {
		t.Errorf("instructions per iteration: half %d (want 6), float %d (want 3)", rs[0].Instructions, rs[1].Instructions)
	}
	if rs[0].Cycles <= rs[1].Cycles {
		t.Errorf("half %d cycles, float %d: the widening costs nothing?", rs[0].Cycles, rs[1].Cycles)
	}
	code, out, _ = ascvet(t, "sim", "-f", "json", "-instance", "T=float", k+":12")
	var one report
	if err := json.Unmarshal([]byte(out), &one); err != nil || code != exitOK {
		t.Fatalf("-instance: exit %d, %v\n%s", code, err, out)
	}
	if one != rs[1] {
		t.Errorf("-instance T=float: %+v, want %+v", one, rs[1])
	}
	code, out, _ = ascvet(t, "sim", k+":12")
	if code != exitOK || !strings.Contains(out, "Instantiation:     T=half") || !strings.Contains(out, "Instantiation:     T=float") {
		t.Errorf("text: exit %d\n%s", code, out)
	}
	code, out, _ = ascvet(t, "sim", k)
	if code != exitOK || !strings.Contains(out, "Scale [T=half]") || !strings.Contains(out, "Scale [T=float]") {
		t.Errorf("summary: exit %d\n%s", code, out)
	}
	if code, _, _ := ascvet(t, "sim", "-instance", "T", k+":12"); code != exitUsage {
		t.Errorf("-instance T: exit %d, want a usage error", code)
	}
}

// TestRegsInstances: ascvet regs counts each instantiation on its own: the
// float one never uses the half registers.
func TestRegsInstances(t *testing.T) {
	k := "testdata/sim_instances.asc"
	type region struct {
		Instance string `json:"instance"`
		Classes  []struct {
			Class string `json:"class"`
			Used  int    `json:"used"`
		} `json:"classes"`
	}
	code, out, _ := ascvet(t, "regs", "-f", "json", k)
	var rs []region
	if err := json.Unmarshal([]byte(out), &rs); err != nil || code != exitOK {
		t.Fatalf("regs: exit %d, %v\n%s", code, err, out)
	}
	if len(rs) != 2 || rs[0].Instance != "T=half" || rs[1].Instance != "T=float" {
		t.Fatalf("regions %+v", rs)
	}
	if rs[0].Classes[0].Used != 3 || rs[1].Classes[0].Used != 1 {
		t.Errorf("RegTensor used: half %d (want 3), float %d (want 1)", rs[0].Classes[0].Used, rs[1].Classes[0].Used)
	}
	code, out, _ = ascvet(t, "regs", "-instance", "T=float", k)
	if code != exitOK || strings.Contains(out, "T=half") || !strings.Contains(out, "Scale [T=float]") {
		t.Errorf("-instance T=float: exit %d\n%s", code, out)
	}
}
