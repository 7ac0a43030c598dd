-- warplint --lsp in Neovim's built-in LSP client, headless: open a file,
-- wait for the published diagnostics, hover on the flagged load, edit the
-- buffer (Neovim sends incremental changes), wait for the new result, stop
-- the client. What Neovim saw is written as JSON to $LSP_OUT for the shell
-- test to check. Works with Neovim 0.7 (Debian 12: vim.lsp.start_client)
-- and later (vim.lsp.start).
local warplint, source, out = os.getenv('WARPLINT'), os.getenv('LSP_SOURCE'), os.getenv('LSP_OUT')
local result = { steps = {} }

local function finish()
  local f = assert(io.open(out, 'w'))
  f:write(vim.fn.json_encode(result))
  f:close()
  vim.cmd('qall!')
end

local ok, err = pcall(function()
  vim.cmd('edit ' .. vim.fn.fnameescape(source))
  local buf = vim.api.nvim_get_current_buf()
  vim.bo[buf].filetype = 'cuda'
  local config = {
    name = 'warplint',
    cmd = { warplint, '--lsp' },
    root_dir = vim.fn.fnamemodify(source, ':h'),
    on_exit = function(code) result.exit_code = code end,
  }
  local id
  if vim.lsp.start then
    id = vim.lsp.start(config)
  else
    id = vim.lsp.start_client(config)
    vim.lsp.buf_attach_client(buf, id)
  end
  result.client = id ~= nil

  result.steps.first = vim.wait(60000, function() return #vim.diagnostic.get(buf) > 0 end, 50)
  result.first = vim.diagnostic.get(buf)

  -- Hover on the shared load that the server flagged.
  local lines = vim.api.nvim_buf_get_lines(buf, 0, -1, false)
  for i, l in ipairs(lines) do
    local col = l:find('tile[threadIdx.x][threadIdx.y]', 1, true)
    if col and l:find('/*', 1, true) then
      local _, utf16 = vim.str_utfindex(l, col - 1)
      result.hover_line = i - 1
      local replies = vim.lsp.buf_request_sync(buf, 'textDocument/hover', {
        textDocument = { uri = vim.uri_from_bufnr(buf) },
        position = { line = i - 1, character = utf16 + 2 },
      }, 10000)
      for _, r in pairs(replies or {}) do
        result.hover = r.result
        result.hover_error = r.err
      end
      break
    end
  end

  -- The fix, typed into the buffer: pad the tile of transposeTile.
  for i, l in ipairs(lines) do
    local s, e = l:find('__shared__ float tile[TILE][TILE];', 1, true)
    if s then
      local at = l:find('];', s, true) -- after the second TILE
      vim.api.nvim_buf_set_text(buf, i - 1, at - 1, i - 1, at - 1, { ' + 1' })
      break
    end
  end
  local function fixed()
    local ds = vim.diagnostic.get(buf)
    if #ds == 0 then return false end
    for _, d in ipairs(ds) do
      if d.code == 'smem-bank-conflict' then return false end
    end
    return true
  end
  result.steps.after = vim.wait(60000, fixed, 50)
  result.after = vim.diagnostic.get(buf)

  -- Stopping the client sends shutdown and exit.
  vim.lsp.stop_client(id)
  result.steps.stopped = vim.wait(10000, function() return result.exit_code ~= nil end, 50)
end)
if not ok then result.error = tostring(err) end
finish()
