package i18n

// Translate exposes translate to the external tests: the Chinese text, the
// captures copied into it unchanged, and whether the message translated.
func Translate(id, english string) (text string, verbatim []string, ok bool) {
	t, ok := translate(id, english)
	return t.Text, t.Verbatim, ok
}

// TranslateFragment translates s as a fragment of the given kind ("Why",
// "Replay", ...).
func TranslateFragment(kind, s string) (string, bool) {
	compileAll()
	var t translation
	return apply(byKind[kind], s, &t, 0)
}

// CatalogRules returns the rule IDs the message catalog has patterns for.
func CatalogRules() []string {
	ids := make([]string, 0, len(messages))
	for id := range messages {
		ids = append(ids, id)
	}
	return ids
}
