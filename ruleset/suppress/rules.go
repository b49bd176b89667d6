package suppress

import "github.com/ascvet/ascvet/ruleset"

// InvalidDirective is ASC0002 invalid-directive: the driver reports each
// Problem of Parse as one of its findings.
var InvalidDirective = ruleset.DefineDriver(&ruleset.Rule{
	ID:    "ASC0002",
	Name:  "invalid-directive",
	Title: "suppression directive is malformed",
	Text: "A suppression directive could not be read as written, so it suppresses less than its author meant. " +
		"The forms are `// ascvet:ignore RULE[,RULE] reason` (its line, or the next line of code when the comment " +
		"stands alone), `// ascvet:file-ignore RULE reason` (the file) and `// ascvet:begin-ignore RULE reason` ... " +
		"`// ascvet:end-ignore` (the lines between); Python files write # instead of //. RULE is a rule ID, name or " +
		"glob (ASC1*), in any case. clang-tidy's `NOLINT`, `NOLINTNEXTLINE` and `NOLINTBEGIN`/`NOLINTEND` are " +
		"honoured too, naming rules as checks `ascvet-RULE`. " +
		"Reported: a directive without a rule or without a reason (the ascvet: forms require one: it is the " +
		"justification of every finding the directive suppresses, and it is shown by -show-ignored and in SARIF), " +
		"a reason that is still the placeholder the editor's suppress quick fix inserts (`REASON: say why this " +
		"finding does not apply`), " +
		"an unknown directive verb, a rule or ascvet- check that matches no rule (a typo, or a rule that was " +
		"renamed or removed), and a block directive without its other end. A directive with a missing reason, no " +
		"rule, a placeholder reason or a missing end suppresses nothing, so the findings it meant to hide are reported too; a directive " +
		"with an unknown rule still applies to the rules it names correctly.",
	Before:    "LoadUnAlignPre(u, src + i * VL);  // ascvet:ignore ASC1001",
	After:     "LoadUnAlignPre(u, src + i * VL);  // ascvet:ignore ASC1001 each row restarts at a padded address",
	Severity:  ruleset.Warning,
	Since:     "0.2.0",
	Tags:      []string{"suppression", "maintainability"},
	Precision: "very-high",
})

// UnusedDirective is ASC0003 unused-directive: the driver reports each
// Unused of Apply whose By is -1 as one of its findings.
var UnusedDirective = ruleset.DefineDriver(&ruleset.Rule{
	ID:    "ASC0003",
	Name:  "unused-directive",
	Title: "suppression directive suppressed nothing",
	Text: "A suppression directive (ascvet:ignore, ascvet:file-ignore, an ascvet:begin-ignore block, or a NOLINT " +
		"form that names an ascvet- check) matched no finding in this run: the code was fixed, moved away from the " +
		"directive, or the rule no longer reports it. A stale directive would silently hide a future finding that " +
		"nobody reviewed, so remove it. " +
		"A directive is judged only against rules that ran: one for a rule disabled by the configuration is not " +
		"reported. A bare NOLINT or NOLINT(*) is never reported, since clang-tidy may be the tool that needs it; " +
		"NOLINT for other tools' checks only is not an ascvet directive at all. " +
		"Findings can depend on options (-confidence, -chip), so a directive may be needed in one configuration " +
		"only: name this rule in the directive (ascvet:ignore ASC1001,unused-directive reason), or in an " +
		"ascvet:file-ignore, to keep it without a report. The rule is info by default; -fail-on=info makes it fail a build.",
	Before:    "// ascvet:ignore ASC1001 the stream restarts every row\nLoadUnAlignPre(u, src);  // hoisted: nothing left to ignore",
	After:     "LoadUnAlignPre(u, src);",
	Severity:  ruleset.Info,
	Since:     "0.2.0",
	Tags:      []string{"suppression", "maintainability"},
	Precision: "very-high",
})
