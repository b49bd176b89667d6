package report

import (
	"fmt"
	"io"
	"os"
)

// Write writes r in format to w; color colours the text format (on
// stdout only, never in a -o file).
func Write(w io.Writer, format string, r *Report, color bool) error {
	switch format {
	case "json":
		return WriteJSON(w, r.Issues)
	case "sarif":
		return WriteSARIF(w, r)
	case "github":
		var summary io.Writer
		if p := os.Getenv("GITHUB_STEP_SUMMARY"); p != "" {
			f, err := os.OpenFile(p, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
			if err != nil {
				return fmt.Errorf("GITHUB_STEP_SUMMARY: %w", err)
			}
			defer f.Close()
			summary = f
		}
		return WriteGitHub(w, r, summary)
	case "checkstyle":
		return WriteCheckstyle(w, r)
	case "codequality":
		return WriteCodeQuality(w, r)
	}
	return WriteText(w, r.Issues, r.Files, TextStyle{Lang: r.Lang, Color: color, Spared: r.Spared})
}

// Formats are the output formats, in the order -h lists them.
var Formats = []string{"text", "json", "sarif", "github", "checkstyle", "codequality"}
