module github.com/ascvet/ascvet

go 1.26.8

require (
	github.com/BurntSushi/toml v1.6.0
	github.com/aymanbagabas/go-udiff v0.4.2
	github.com/santhosh-tekuri/jsonschema/v6 v6.0.3
	github.com/tree-sitter/go-tree-sitter v0.25.0
	github.com/tree-sitter/tree-sitter-cpp v0.23.4
	github.com/tree-sitter/tree-sitter-python v0.23.6
	golang.org/x/term v0.48.0
	golang.org/x/tools v0.52.0
	gopkg.in/yaml.v3 v3.0.1
	honnef.co/go/tools v0.8.2
)

require (
	github.com/mattn/go-pointer v0.0.1 // indirect
	golang.org/x/sys v0.50.0 // indirect
	golang.org/x/text v0.14.0 // indirect
)
