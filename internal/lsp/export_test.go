package lsp

// What the package's external tests (package lsp_test) check against.
var (
	IgnoreReason  = ignoreReason
	SnippetEscape = snippetEscape
)
