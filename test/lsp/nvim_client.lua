-- Neovim's own LSP client against `torchtidy lsp`: opens $LSP_FILE, waits for
-- the diagnostics, prints them (line:col code), applies the quick fix of the
-- finding on line $FIX_LINE and prints that line, then the diagnostics again.
-- Run headless: nvim --headless -u NONE -c 'luafile nvim_client.lua'
local function out(s)
  io.stdout:write(s .. "\n")
end

local function fail(s)
  out("FAILED: " .. s)
  vim.cmd("cquit 1")
end

local file = os.getenv("LSP_FILE")
local fix_line = tonumber(os.getenv("FIX_LINE"))
vim.cmd("edit " .. vim.fn.fnameescape(file))
local bufnr = vim.api.nvim_get_current_buf()
local client_id = vim.lsp.start_client({
  name = "torchtidy",
  cmd = { os.getenv("TORCHTIDY"), "lsp" },
  root_dir = vim.fn.fnamemodify(file, ":h"),
  init_options = { checks = os.getenv("CHECKS"), debounceMs = 200 },
})
if not client_id then
  fail("the server did not start")
end
vim.lsp.buf_attach_client(bufnr, client_id)

local function print_diagnostics()
  local diags = vim.diagnostic.get(bufnr)
  table.sort(diags, function(a, b)
    return a.lnum < b.lnum or (a.lnum == b.lnum and a.col < b.col)
  end)
  out(#diags .. " diagnostic(s)")
  for _, d in ipairs(diags) do
    out(string.format("%d:%d %s %s: %s", d.lnum + 1, d.col + 1, d.source, d.code, d.message))
  end
end

-- The first analysis parses LibTorch: give it time.
if not vim.wait(300000, function()
  return #vim.diagnostic.get(bufnr) > 0
end, 50) then
  fail("no diagnostics")
end
print_diagnostics()

local client = vim.lsp.get_client_by_id(client_id)
local params = {
  textDocument = { uri = vim.uri_from_bufnr(bufnr) },
  range = { start = { line = fix_line - 1, character = 0 }, ["end"] = { line = fix_line - 1, character = 0 } },
  context = { diagnostics = vim.lsp.diagnostic.get_line_diagnostics(bufnr, fix_line - 1) },
}
local responses = vim.lsp.buf_request_sync(bufnr, "textDocument/codeAction", params, 10000) or {}
local applied = false
for _, r in pairs(responses) do
  for _, action in ipairs(r.result or {}) do
    if not applied and action.kind == "quickfix" and action.isPreferred then
      out("code action: " .. action.title)
      vim.lsp.util.apply_workspace_edit(action.edit, client.offset_encoding)
      applied = true
    end
  end
end
if not applied then
  fail("no quick fix on line " .. fix_line)
end
out("line " .. fix_line .. ": " .. vim.api.nvim_buf_get_lines(bufnr, fix_line - 1, fix_line, false)[1])

-- The edit is analysed once typing pauses: one diagnostic fewer.
local before = #vim.diagnostic.get(bufnr)
if not vim.wait(120000, function()
  return #vim.diagnostic.get(bufnr) == before - 1
end, 50) then
  fail("the diagnostics did not follow the edit")
end
print_diagnostics()
vim.lsp.stop_client(client_id)
vim.wait(5000, function()
  return vim.lsp.get_client_by_id(client_id) == nil
end, 50)
vim.cmd("qall!")
