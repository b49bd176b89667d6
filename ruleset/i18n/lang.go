// Package i18n holds ascvet's Chinese texts: the title and text of every
// rule, the documentation of the options, and a catalog that translates the
// findings' English messages.
//
// English is the language the analyzers write and the default; Chinese
// ("zh") is chosen with -lang zh or a zh locale (Lang). The texts use the
// vocabulary of the vendor documents the rules come from (非对齐寄存器,
// 连续非对齐搬运, 双发, 执行队列, 掩码寄存器, ...).
//
// Messages are translated, not rewritten: the analyzers build them with
// fmt.Sprintf, and Message matches them against per-rule regular
// expressions whose named groups capture the identifiers, numbers and code
// of the message, which the Chinese template puts back unchanged. A message
// that no pattern matches completely stays in English, whole.
//
// The package imports nothing of ascvet, so that package ruleset can use
// it for the documentation.
package i18n

import "strings"

// The languages.
const (
	EN = "en" // English, the default
	ZH = "zh" // Chinese (simplified)
)

// Normalize maps a language name or a locale to EN or ZH: "zh", "ZH",
// "zh-CN", "zh_CN.UTF-8", "zh-Hans" are ZH, anything else is EN.
func Normalize(lang string) string {
	l := strings.ToLower(strings.TrimSpace(lang))
	if l == "zh" || strings.HasPrefix(l, "zh_") || strings.HasPrefix(l, "zh-") || strings.HasPrefix(l, "zh.") {
		return ZH
	}
	return EN
}

// Supported reports whether lang names a language ascvet has: English
// ("en", "en_US", ...) or Chinese (see Normalize). A driver rejects a -lang
// it does not support instead of silently printing English.
func Supported(lang string) bool {
	l := strings.ToLower(strings.TrimSpace(lang))
	return Normalize(l) == ZH || l == "en" || strings.HasPrefix(l, "en_") || strings.HasPrefix(l, "en-")
}

// Lang chooses the language of the output. A non-empty flag (-lang) wins;
// otherwise the locale decides as POSIX says, the first non-empty of
// LC_ALL, LC_MESSAGES and LANG, read with env (os.Getenv): a zh locale
// gives ZH, any other (C, en_US.UTF-8, ...) EN.
func Lang(flag string, env func(string) string) string {
	if flag != "" {
		return Normalize(flag)
	}
	if env == nil {
		return EN
	}
	for _, v := range []string{"LC_ALL", "LC_MESSAGES", "LANG"} {
		if s := env(v); s != "" {
			return Normalize(s)
		}
	}
	return EN
}
