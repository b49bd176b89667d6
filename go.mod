module github.com/ascvet/ascvet

go 1.26.8

require (
	github.com/aymanbagabas/go-udiff v0.4.2
	github.com/tree-sitter/go-tree-sitter v0.25.0
	github.com/tree-sitter/tree-sitter-cpp v0.23.4
	golang.org/x/tools v0.52.0
)

require (
	github.com/BurntSushi/toml v1.6.0 // indirect
	github.com/mattn/go-pointer v0.0.1 // indirect
)
