package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/ascvet/ascvet/internal/testfs"
)

// nvimReport is what testdata/nvim/lsp_fix.lua saw in Neovim.
type nvimReport struct {
	Nvim        string     `json:"nvim"`
	Diagnostics []nvimDiag `json:"diagnostics"`
	Actions     []string   `json:"actions"`
	Chosen      string     `json:"chosen"`
	After       []nvimDiag `json:"after"`
	ExitCode    *int       `json:"exit_code"`
	Log         []string   `json:"log"`
	Error       string     `json:"error"`
}

// nvimDiag is a diagnostic as vim.diagnostic holds it: lines from 0,
// columns in bytes from 0.
type nvimDiag struct {
	Code    string `json:"code"`
	Lnum    int    `json:"lnum"`
	Col     int    `json:"col"`
	EndLnum int    `json:"end_lnum"`
	EndCol  int    `json:"end_col"`
	Message string `json:"message"`
	Source  string `json:"source"`
}

// TestNeovimLSP runs ascvet lsp under a real editor: Neovim, headless,
// with its built-in LSP client started as docs/editors.md's set-up for Neovim
// 0.7 to 0.10 starts it (vim.lsp.start_client, buf_attach_client). The
// script testdata/nvim/lsp_fix.lua opens unaligned_copy.asc, waits for the
// diagnostics, takes a code action and writes the file; the test checks
// what Neovim saw and the file it wrote. Where the in-process protocol
// tests (lsp_test.go) check what the server sends, this checks that a
// client that is not ours reads it as meant: the positions, the action
// titles, the workspace edit applied by Neovim's own code, the change and
// save that follow, and shutdown.
//
// The test needs nvim (Debian's neovim package, 0.7 on Debian 12; .ci/run
// installs it in CI). Without it the test installs it with apt-get when it
// runs as root, else skips, except under CI=true, where it fails.
func TestNeovimLSP(t *testing.T) {
	if raceEnabled {
		t.Skip("runs ascvet lsp as a built binary, without -race; the run without -race covers it")
	}
	nvim := debianTool(t, "nvim", "neovim", "see https://github.com/neovim/neovim/blob/master/INSTALL.md")
	bin := filepath.Join(buildAscvet(t), "ascvet")
	original := testfs.Kernel(t, "unaligned_copy.asc")

	// The hoist: the Pre in the loop's first line moves before the loop,
	// at the start of the row; the rest of the file is as it was (compare
	// unaligned_copy_fixed.asc, lines 15-16).
	t.Run("fix ASC1001", func(t *testing.T) {
		rep, got := runNeovim(t, nvim, bin, original, "ASC1001", "fix")
		checkSession(t, rep)
		checkActions(t, rep, "ASC1001")
		if !strings.HasSuffix(rep.Chosen, "(ASC1001)") || strings.HasPrefix(rep.Chosen, "Suppress") {
			t.Errorf("action taken %q, want ASC1001's quick fix", rep.Chosen)
		}
		inLoop := "        AscendC::Reg::LoadUnAlignPre(uIn, src + i * VL);\n"
		loop := "    for (uint16_t i = 0; i < repeat; ++i) {\n"
		if strings.Count(original, inLoop) != 1 || strings.Count(original, loop) != 1 {
			t.Fatalf("unaligned_copy.asc changed: want one %q and one %q", inLoop, loop)
		}
		want := strings.Replace(original, inLoop, "", 1)
		want = strings.Replace(want, loop, "    AscendC::Reg::LoadUnAlignPre(uIn, src);\n"+loop, 1)
		if got != want {
			t.Errorf("the file Neovim wrote:\n%s\nwant:\n%s", got, want)
		}
		// The buffer analysed again: the Post is left, on its line.
		if len(rep.After) != 1 || rep.After[0].Code != "ASC1002" || rep.After[0].Lnum != 20 {
			t.Errorf("diagnostics after the fix %+v, want ASC1002 alone on line 21", rep.After)
		}
	})

	// The suppression: a directive above the Post, indented as it is, with
	// the reason to write.
	t.Run("suppress ASC1002", func(t *testing.T) {
		rep, got := runNeovim(t, nvim, bin, original, "ASC1002", "suppress")
		checkSession(t, rep)
		checkActions(t, rep, "ASC1002")
		if rep.Chosen != "Suppress ASC1002 with a reason (ascvet:ignore)" {
			t.Errorf("action taken %q, want the suppression of ASC1002", rep.Chosen)
		}
		post := "        AscendC::Reg::StoreUnAlignPost(dst, uOut, 0);\n"
		if strings.Count(original, post) != 1 {
			t.Fatalf("unaligned_copy.asc changed: want one %q", post)
		}
		want := strings.Replace(original, post, "        // ascvet:ignore ASC1002 REASON: say why this finding does not apply\n"+post, 1)
		if got != want {
			t.Errorf("the file Neovim wrote:\n%s\nwant:\n%s", got, want)
		}
		// The placeholder is no reason: the directive is reported and
		// suppresses nothing until the author writes theirs.
		var after []string
		for _, d := range rep.After {
			after = append(after, fmt.Sprintf("%s@%d", d.Code, d.Lnum+1))
		}
		slices.Sort(after)
		if want := []string{"ASC0002@21", "ASC1001@17", "ASC1002@22"}; !slices.Equal(after, want) {
			t.Errorf("diagnostics after the suppression %v, want %v", after, want)
		}
	})
}

// checkSession checks what Neovim held for unaligned_copy.asc as opened:
// ASC1001 on the Pre (line 17), ASC1002 on the Post (line 21), from
// ascvet; and the server's exit once Neovim stopped it.
func checkSession(t *testing.T, rep *nvimReport) {
	t.Helper()
	want := []struct {
		code      string
		lnum, col int
		call      string
	}{
		{"ASC1001", 16, 8, "LoadUnAlignPre"},
		{"ASC1002", 20, 8, "StoreUnAlignPost"},
	}
	if len(rep.Diagnostics) != len(want) {
		t.Fatalf("diagnostics in Neovim %+v, want ASC1001 on line 17 and ASC1002 on line 21", rep.Diagnostics)
	}
	for i, w := range want {
		d := rep.Diagnostics[i]
		if d.Code != w.code || d.Lnum != w.lnum || d.Col != w.col || d.EndLnum != w.lnum || d.Source != "ascvet" || !strings.Contains(d.Message, w.call) {
			t.Errorf("diagnostic %d in Neovim %+v, want %s at line %d, column %d, from ascvet, about %s", i, d, w.code, w.lnum+1, w.col+1, w.call)
		}
	}
	if rep.ExitCode == nil {
		t.Error("ascvet lsp did not exit when Neovim stopped it")
	} else if *rep.ExitCode != 0 {
		t.Errorf("ascvet lsp exit code %d after Neovim stopped it, want 0", *rep.ExitCode)
	}
}

// checkActions checks the code actions Neovim was offered on rule's
// diagnostic: its quick fix and its suppression, and nothing for the other
// finding.
func checkActions(t *testing.T, rep *nvimReport, rule string) {
	t.Helper()
	if len(rep.Actions) != 2 || !strings.HasSuffix(rep.Actions[0], "("+rule+")") || rep.Actions[1] != "Suppress "+rule+" with a reason (ascvet:ignore)" {
		t.Errorf("code actions on %s %q, want its quick fix and its suppression", rule, rep.Actions)
	}
}

// runNeovim writes text to a kernel k.asc in a scratch directory, runs
// testdata/nvim/lsp_fix.lua in headless Neovim on it to take action on
// rule's diagnostic, and returns the script's report and the file as
// Neovim left it. Neovim runs with a home, XDG directories and a temporary
// directory of its own, in English, without any user configuration.
func runNeovim(t *testing.T, nvim, bin, text, rule, action string) (*nvimReport, string) {
	t.Helper()
	script, err := filepath.Abs("testdata/nvim/lsp_fix.lua")
	if err != nil {
		t.Fatal(err)
	}
	dir, home := t.TempDir(), t.TempDir()
	file, out := filepath.Join(dir, "k.asc"), filepath.Join(home, "report.json")
	if err := os.WriteFile(file, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	env := []string{"HOME=" + home, "TMPDIR=" + home}
	for _, xdg := range []string{"XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_STATE_HOME", "XDG_CACHE_HOME", "XDG_RUNTIME_DIR"} {
		d := filepath.Join(home, strings.ToLower(xdg))
		if err := os.Mkdir(d, 0o700); err != nil {
			t.Fatal(err)
		}
		env = append(env, xdg+"="+d)
	}
	env = append(env,
		"LANG=C.UTF-8",
		"ASCVET_BIN="+bin,
		"ASCVET_FILE="+file,
		"ASCVET_RULE="+rule,
		"ASCVET_ACTION="+action,
		"ASCVET_OUT="+out,
	)
	for _, kv := range os.Environ() {
		name, _, _ := strings.Cut(kv, "=")
		switch {
		case name == "HOME", name == "TMPDIR", name == "MYVIMRC", name == "VIMINIT", name == "VIM", name == "VIMRUNTIME",
			name == "LANG", name == "LANGUAGE", strings.HasPrefix(name, "LC_"),
			strings.HasPrefix(name, "XDG_"), strings.HasPrefix(name, "NVIM"), strings.HasPrefix(name, "ASCVET_"):
			// Neovim's or the server's from the user: theirs alone.
		default:
			env = append(env, kv)
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, nvim, "--headless", "--clean", "-u", "NONE", "-n", "-c", "luafile "+script)
	cmd.Dir, cmd.Env = dir, env
	cmd.WaitDelay = 5 * time.Second
	start := time.Now()
	code, output := exitAndOutput(t, cmd)
	elapsed := time.Since(start)

	var rep nvimReport
	data, readErr := os.ReadFile(out)
	if readErr == nil {
		readErr = json.Unmarshal(data, &rep)
	}
	got, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("Neovim %s, %s of %s: %.1fs; actions offered %q", rep.Nvim, action, rule, elapsed.Seconds(), rep.Actions)
	switch {
	case ctx.Err() != nil:
		t.Fatalf("nvim did not finish in 60 s (killed)\nreport: %s\noutput:\n%s", data, output)
	case readErr != nil:
		t.Fatalf("nvim exited %d with no report (%v)\noutput:\n%s", code, readErr, output)
	case code != 0 || rep.Error != "":
		t.Fatalf("nvim exited %d: %s\nreport: %s\noutput:\n%s\nfile:\n%s", code, rep.Error, data, output, got)
	}
	return &rep, string(got)
}
