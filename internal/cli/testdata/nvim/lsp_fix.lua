-- lsp_fix.lua: Neovim's built-in LSP client against ascvet lsp, for
-- TestNeovimLSP (nvim_test.go). It does what an author does in the editor:
-- open a kernel, see the findings, take a code action on one of them, and
-- save. Only APIs Neovim 0.7 has are used (Debian 12 ships 0.7.2).
--
--   nvim --headless --clean -u NONE -n -c 'luafile lsp_fix.lua'
--
-- Inputs, from the environment:
--   ASCVET_BIN     the ascvet binary; the server is `ASCVET_BIN lsp -cache off`
--   ASCVET_FILE    the kernel to open, edit and write (an absolute path)
--   ASCVET_RULE    the rule whose code action to take, e.g. ASC1001
--   ASCVET_ACTION  "fix" (default): the quick fix titled "... (RULE)";
--                  "suppress": "Suppress RULE with a reason (ascvet:ignore)"
--   ASCVET_OUT     where to write the JSON report
--
-- The report: nvim (the version), diagnostics (what vim.diagnostic holds
-- for the buffer once the server published for its version: code, lnum,
-- col, end_lnum, end_col as Neovim has them, 0-based, and message),
-- actions (the titles offered for the rule's diagnostic), chosen (the
-- title taken), after (the diagnostics once the written buffer was
-- analysed again), exit_code (the server's, after shutdown and exit), log
-- (the server's window/logMessage texts) and, on failure, error. The
-- report is written whatever happens, with what was seen up to the
-- failure; then Neovim exits 0 (:qa!) on success, 1 (:cq) on failure.

local report = { diagnostics = {}, actions = {}, after = {}, log = {} }

local function getenv(name)
  local v = os.getenv(name)
  if v == nil or v == '' then
    error(name .. ' is not set', 0)
  end
  return v
end

-- wait runs the event loop until cond holds, or fails after ms saying what
-- it waited for.
local function wait(ms, what, cond)
  if not vim.wait(ms, cond, 20) then
    error(string.format('timed out after %d ms waiting for %s', ms, what), 0)
  end
end

local function main()
  local v = vim.version()
  report.nvim = string.format('%d.%d.%d', v.major, v.minor, v.patch)
  local bin, file, rule = getenv('ASCVET_BIN'), getenv('ASCVET_FILE'), getenv('ASCVET_RULE')
  local action = os.getenv('ASCVET_ACTION') or 'fix'
  if action ~= 'fix' and action ~= 'suppress' then
    error('ASCVET_ACTION=' .. action .. ': want fix or suppress', 0)
  end

  -- edit!: a buffer Neovim may have read from a stdin that is not a
  -- terminal is dropped.
  vim.cmd('edit! ' .. vim.fn.fnameescape(file))
  local buf = vim.api.nvim_get_current_buf()
  local uri = vim.uri_from_bufnr(buf)

  -- The version of the buffer the server last published diagnostics for:
  -- the diagnostics that vim.diagnostic holds are current once it is
  -- the buffer's (vim.lsp.util.buf_versions, what the client sent last).
  local published
  local client_id = vim.lsp.start_client({
    name = 'ascvet',
    cmd = { bin, 'lsp', '-cache', 'off' },
    root_dir = vim.fn.fnamemodify(file, ':p:h'),
    handlers = {
      ['textDocument/publishDiagnostics'] = function(err, result, ctx, config)
        vim.lsp.diagnostic.on_publish_diagnostics(err, result, ctx, config)
        if result and result.uri == uri then
          published = result.version
        end
      end,
      ['window/logMessage'] = function(_, result)
        table.insert(report.log, result.message)
      end,
    },
    on_exit = function(code, signal)
      report.exit_code, report.signal = code, signal
    end,
  })
  if not client_id then
    error('vim.lsp.start_client did not start ' .. bin, 0)
  end
  if not vim.lsp.buf_attach_client(buf, client_id) then
    error('vim.lsp.buf_attach_client failed', 0)
  end
  local ns = vim.lsp.diagnostic.get_namespace(client_id)

  local function current()
    return published ~= nil and published == vim.lsp.util.buf_versions[buf]
  end
  local function code_of(d)
    if d.code ~= nil then
      return d.code
    end
    return d.user_data and d.user_data.lsp and d.user_data.lsp.code
  end
  local function seen()
    local out = {}
    for _, d in ipairs(vim.diagnostic.get(buf, { namespace = ns })) do
      table.insert(out, {
        code = code_of(d),
        lnum = d.lnum,
        col = d.col,
        end_lnum = d.end_lnum,
        end_col = d.end_col,
        message = d.message,
        source = d.source,
      })
    end
    table.sort(out, function(a, b)
      return a.lnum < b.lnum or a.lnum == b.lnum and a.col < b.col
    end)
    return out
  end

  wait(20000, 'the diagnostics of ' .. file, function()
    return current() and #vim.diagnostic.get(buf, { namespace = ns }) > 0
  end)
  report.diagnostics = seen()

  -- The rule's diagnostic, back in LSP's form: UTF-16 characters where
  -- Neovim holds byte columns.
  local target
  for _, d in ipairs(vim.diagnostic.get(buf, { namespace = ns })) do
    if code_of(d) == rule then
      target = d
      break
    end
  end
  if not target then
    error('no ' .. rule .. ' diagnostic', 0)
  end
  local function position(lnum, col)
    local line = vim.api.nvim_buf_get_lines(buf, lnum, lnum + 1, false)[1] or ''
    local _, utf16 = vim.str_utfindex(line, math.min(col, #line))
    return { line = lnum, character = utf16 }
  end
  local range = {
    start = position(target.lnum, target.col),
    ['end'] = position(target.end_lnum or target.lnum, target.end_col or target.col),
  }
  local params = {
    textDocument = { uri = uri },
    range = range,
    context = {
      diagnostics = {
        { range = range, severity = target.severity, code = rule, source = target.source, message = target.message },
      },
    },
  }
  local responses, err = vim.lsp.buf_request_sync(buf, 'textDocument/codeAction', params, 10000)
  if not responses then
    error('textDocument/codeAction: ' .. tostring(err), 0)
  end
  local resp = responses[client_id]
  if not resp or resp.err or resp.error then
    error('textDocument/codeAction: ' .. vim.inspect(resp), 0)
  end

  local chosen
  local fix_suffix = '(' .. rule .. ')'
  local suppress_prefix = 'Suppress ' .. rule .. ' '
  for _, a in ipairs(resp.result or {}) do
    table.insert(report.actions, a.title)
    local match
    if action == 'fix' then
      match = a.title:sub(-#fix_suffix) == fix_suffix
    else
      match = a.title:sub(1, #suppress_prefix) == suppress_prefix
    end
    if match and not chosen then
      chosen = a
    end
  end
  if not chosen then
    error('no ' .. action .. ' action for ' .. rule, 0)
  end
  report.chosen = chosen.title
  if not chosen.edit then
    error('the action "' .. chosen.title .. '" has no edit', 0)
  end
  vim.lsp.util.apply_workspace_edit(chosen.edit, 'utf-16')
  vim.cmd('write')

  -- The written buffer, analysed again (the client sends the change, then
  -- the save).
  wait(20000, 'the diagnostics of the edited buffer', current)
  report.after = seen()

  vim.lsp.stop_client(client_id)
  wait(10000, 'the server to exit', function()
    return report.exit_code ~= nil
  end)
end

local ok, err = xpcall(main, debug.traceback)
if not ok then
  report.error = tostring(err)
end
local out = os.getenv('ASCVET_OUT')
if out and out ~= '' then
  local f = io.open(out, 'w')
  if f then
    f:write(vim.fn.json_encode(report))
    f:close()
  end
end
if ok then
  vim.cmd('qa!')
else
  io.stderr:write(report.error .. '\n')
  vim.cmd('cq')
end
