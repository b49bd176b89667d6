package reporttest

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// findingsSchema compiles docs/ascvet-findings.schema.json once.
var findingsSchema = sync.OnceValues(func() (*jsonschema.Schema, error) {
	root, err := moduleRoot()
	if err != nil {
		return nil, err
	}
	c := jsonschema.NewCompiler()
	return c.Compile(filepath.Join(root, "docs", "ascvet-findings.schema.json"))
})

// moduleRoot is the folder of go.mod above the working directory (a test
// runs in its package's folder).
func moduleRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, nil
		}
		up := filepath.Dir(dir)
		if up == dir {
			return "", errors.New("no go.mod above the working directory")
		}
		dir = up
	}
}

// ValidateFindingsJSON checks -f json output against the documented schema
// and returns its findings.
func ValidateFindingsJSON(t testing.TB, out string) []map[string]any {
	t.Helper()
	sch, err := findingsSchema()
	if err != nil {
		t.Fatalf("compiling docs/ascvet-findings.schema.json: %v", err)
	}
	validate(t, sch, "-f json output", "docs/ascvet-findings.schema.json", out)
	var r struct {
		Findings []map[string]any `json:"findings"` // the version is the schema's const
	}
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatal(err)
	}
	return r.Findings
}

// validate checks out, which is what, against the schema sch named name.
func validate(t testing.TB, sch *jsonschema.Schema, what, name, out string) {
	t.Helper()
	inst, err := jsonschema.UnmarshalJSON(strings.NewReader(out))
	if err != nil {
		t.Fatalf("%s is not JSON: %v\n%s", what, err, out)
	}
	if err := sch.Validate(inst); err != nil {
		t.Errorf("%s does not validate against %s:\n%v", what, name, err)
	}
}
