package config

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/BurntSushi/toml"
	"github.com/santhosh-tekuri/jsonschema/v6"
)

const schemaFile = "../../docs/ascvet.schema.json"

// compileSchema compiles docs/ascvet.schema.json and returns it with its
// raw JSON.
func compileSchema(t *testing.T) (*jsonschema.Schema, map[string]any) {
	t.Helper()
	f, err := os.Open(schemaFile)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	doc, err := jsonschema.UnmarshalJSON(f)
	if err != nil {
		t.Fatalf("%s: %v", schemaFile, err)
	}
	c := jsonschema.NewCompiler()
	c.AssertFormat()
	if err := c.AddResource("ascvet.schema.json", doc); err != nil {
		t.Fatal(err)
	}
	sch, err := c.Compile("ascvet.schema.json")
	if err != nil {
		t.Fatalf("%s: %v", schemaFile, err)
	}
	if d, _ := doc.(map[string]any)["$schema"].(string); d != "https://json-schema.org/draft/2020-12/schema" {
		t.Errorf("$schema is %q; want draft 2020-12", d)
	}
	return sch, doc.(map[string]any)
}

// tomlAsJSON decodes a TOML file and re-encodes it as the JSON value the
// schema validates.
func tomlAsJSON(t *testing.T, path string) any {
	t.Helper()
	var m map[string]any
	if _, err := toml.DecodeFile(path, &m); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	b, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	v, err := jsonschema.UnmarshalJSON(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func glob(t *testing.T, pattern string) []string {
	t.Helper()
	files, err := filepath.Glob(pattern)
	if err != nil || len(files) == 0 {
		t.Fatalf("no files %s (%v)", pattern, err)
	}
	return files
}

// TestSchemaGood: every example configuration is valid for both the schema
// and the loader.
func TestSchemaGood(t *testing.T) {
	sch, _ := compileSchema(t)
	for _, path := range glob(t, "testdata/schema/good/*.toml") {
		if err := sch.Validate(tomlAsJSON(t, path)); err != nil {
			t.Errorf("%s: schema: %v", path, err)
		}
		if _, err := NewLoader(Options{File: path, Chips: []string{"ascend950"}}); err != nil {
			t.Errorf("%s: loader: %v", path, err)
		}
	}
}

// TestSchemaBad: every bad configuration is rejected by both the schema and
// the loader, and the loader says what its first line, "# want: LINE: ...",
// says.
func TestSchemaBad(t *testing.T) {
	sch, _ := compileSchema(t)
	for _, path := range glob(t, "testdata/schema/bad/*.toml") {
		if err := sch.Validate(tomlAsJSON(t, path)); err == nil {
			t.Errorf("%s: the schema accepts it", path)
		} else {
			t.Logf("%s: schema: %v", path, err)
		}
		want := firstLine(t, path)
		if !strings.HasPrefix(want, "# want: ") {
			t.Fatalf("%s: first line %q is not # want: LINE: MESSAGE", path, want)
		}
		want = strings.TrimPrefix(want, "# want: ")
		_, err := NewLoader(Options{File: path})
		var list ErrorList
		if !errors.As(err, &list) {
			t.Errorf("%s: loader: %v; want an ErrorList", path, err)
			continue
		}
		abs, _ := filepath.Abs(path)
		if list[0].File != abs {
			t.Errorf("%s: error names %s", path, list[0].File)
		}
		if got := strings.TrimPrefix(list[0].Format(""), ":"); got != want {
			t.Errorf("%s: loader says\n\t%s\nwant\n\t%s", path, got, want)
		}
	}
}

func firstLine(t *testing.T, path string) string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	s := bufio.NewScanner(f)
	s.Scan()
	return s.Text()
}

// TestSchemaKeys: the schema describes exactly the keys the loader accepts,
// and full.toml uses every one of them.
func TestSchemaKeys(t *testing.T) {
	_, doc := compileSchema(t)
	props := func(path ...string) []string {
		var v any = doc
		for _, p := range path {
			v = v.(map[string]any)[p]
		}
		m := v.(map[string]any)
		if m["additionalProperties"] != false {
			t.Errorf("%s: additionalProperties is not false", strings.Join(path, "/"))
		}
		return slices.Sorted(maps.Keys(m["properties"].(map[string]any)))
	}
	for _, tc := range []struct {
		name   string
		loader []string
		schema []string
	}{
		{"top level", topKeys, props()},
		{"[[overrides]]", overrideKeys, props("$defs", "override")},
		{"[budgets]", BudgetKeys, props("$defs", "budgets")},
	} {
		if l := slices.Sorted(slices.Values(tc.loader)); !slices.Equal(l, tc.schema) {
			t.Errorf("%s: loader accepts %v, schema describes %v", tc.name, l, tc.schema)
		}
	}

	var m map[string]any
	md, err := toml.DecodeFile("testdata/schema/good/full.toml", &m)
	if err != nil {
		t.Fatal(err)
	}
	used := map[string]bool{}
	for _, k := range md.Keys() {
		used[k.String()] = true
	}
	for _, k := range topKeys {
		if !used[k] {
			t.Errorf("full.toml does not use %s", k)
		}
	}
	for _, k := range overrideKeys {
		if !used["overrides."+k] {
			t.Errorf("full.toml does not use overrides.%s", k)
		}
	}
	for _, k := range BudgetKeys {
		if !used["budgets."+k] || !used["overrides.budgets."+k] {
			t.Errorf("full.toml does not use budgets.%s at both levels", k)
		}
	}
	// The enums of the schema are the loader's values.
	defs := doc["$defs"].(map[string]any)
	for name, values := range map[string][]string{"confidence": Confidences, "lang": Langs, "severityName": {"info", "warning", "error"}} {
		var got []string
		for _, v := range defs[name].(map[string]any)["enum"].([]any) {
			got = append(got, v.(string))
		}
		if !slices.Equal(got, values) {
			t.Errorf("schema enum %s = %v; loader takes %v", name, got, values)
		}
	}
}
