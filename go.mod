module github.com/ascvet/ascvet

go 1.26.8

require (
	github.com/BurntSushi/toml v1.6.0
	github.com/aymanbagabas/go-udiff v0.4.2
	github.com/santhosh-tekuri/jsonschema/v6 v6.0.3
	github.com/tree-sitter/go-tree-sitter v0.25.0
	github.com/tree-sitter/tree-sitter-cpp v0.23.4
	github.com/tree-sitter/tree-sitter-python v0.23.6
	go.lsp.dev/jsonrpc2 v0.10.0
	go.lsp.dev/protocol v0.12.0
	golang.org/x/term v0.48.0
	golang.org/x/tools v0.52.0
	gopkg.in/yaml.v3 v3.0.1
	honnef.co/go/tools v0.8.2
)

require (
	github.com/mattn/go-pointer v0.0.1 // indirect
	github.com/segmentio/asm v1.1.3 // indirect
	github.com/segmentio/encoding v0.3.4 // indirect
	go.lsp.dev/pkg v0.0.0-20210717090340-384b27a52fb2 // indirect
	go.lsp.dev/uri v0.3.0 // indirect
	go.uber.org/atomic v1.9.0 // indirect
	go.uber.org/multierr v1.8.0 // indirect
	go.uber.org/zap v1.21.0 // indirect
	golang.org/x/sys v0.50.0 // indirect
	golang.org/x/text v0.14.0 // indirect
)
