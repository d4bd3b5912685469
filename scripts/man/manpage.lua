-- Turns one docs/ page into a manual page's structure (pandoc Lua filter).
--
-- A command's page starts with "# callscope CMD" and its usage block; the
-- manual wants NAME, SYNOPSIS and DESCRIPTION.  The page's own sections
-- move up one level (## becomes a section, ### a subsection), links to
-- other command pages become callscope-CMD(1) references, and links to the
-- other documents name the file installed beside them.  The metadata gives
-- name (callscope-record) and summary (the command table's line).

local commands = {}
local seealso = {}

local function meta_string(m)
  return m and pandoc.utils.stringify(m) or ""
end

-- "record.md#sampling" -> the page it points to, or nil for an outside URL.
local function page_of(target)
  if target:match("^%a+:") then return nil end
  return target:match("^([%w_-]+)%.md") or (target:match("^#") and "")
end

local function rewrite_link(link, self)
  local page = page_of(link.target)
  if page == nil then return link end
  if page == "" or page == self then return link.content end
  if commands[page] then
    seealso["callscope-" .. page] = true
    return { pandoc.Strong(pandoc.Str("callscope-" .. page)), pandoc.Str("(1)") }
  end
  if pandoc.utils.stringify(link.content) == page .. ".md" then
    return { pandoc.Str(page .. ".md"), pandoc.Space(), pandoc.Str("in"), pandoc.Space(),
             pandoc.Str("the"), pandoc.Space(), pandoc.Str("documentation") }
  end
  local out = pandoc.List(link.content)
  out:extend({ pandoc.Space(), pandoc.Str("(" .. page .. ".md"), pandoc.Space(),
               pandoc.Str("in"), pandoc.Space(), pandoc.Str("the"), pandoc.Space(),
               pandoc.Str("documentation)") })
  return out
end

-- Tables are not handed to tbl: groff warns about its text blocks where a
-- page would break, and cannot fit a wide table into 80 columns.  A table
-- whose lines fit the page is shown preformatted, columns aligned; any
-- other becomes a list of tagged paragraphs, one per row: the first cell
-- is the tag, each other cell a paragraph led by its column's heading.
local function cell_text(cell)
  return pandoc.utils.stringify(cell.contents or cell.content or cell)
end

local function cell_blocks(cell)
  return cell.contents or cell.content or cell
end

-- an 80-column terminal leaves 71 beside the indent, less within a list
local PAGE = 64

local function preformatted(head, rows, width)
  local lines = {}
  local function line(row)
    local parts = {}
    for i, cell in ipairs(row.cells) do
      local t = cell_text(cell)
      parts[i] = t .. string.rep(" ", width[i] - utf8.len(t))
    end
    table.insert(lines, (table.concat(parts, "  "):gsub("%s+$", "")))
  end
  for _, row in ipairs(head) do line(row) end
  if #head > 0 then
    local rule = {}
    for i = 1, #width do rule[i] = string.rep("-", width[i]) end
    table.insert(lines, table.concat(rule, "  "))
  end
  for _, row in ipairs(rows) do line(row) end
  return pandoc.CodeBlock(table.concat(lines, "\n"))
end

local function tagged(head, rows)
  local names = {}
  if #head > 0 then
    for i, cell in ipairs(head[1].cells) do names[i] = cell_text(cell) end
  end
  local items = {}
  for _, row in ipairs(rows) do
    local term = pandoc.utils.blocks_to_inlines(cell_blocks(row.cells[1]))
    local defs = pandoc.List()
    for i = 2, #row.cells do
      local blocks = pandoc.List(cell_blocks(row.cells[i]))
      if #row.cells > 2 and names[i] and names[i] ~= "" and #blocks > 0 then
        local inl = pandoc.List({ pandoc.Emph(pandoc.Str(names[i] .. ":")), pandoc.Space() })
        inl:extend(pandoc.utils.blocks_to_inlines(blocks))
        blocks = pandoc.List({ pandoc.Plain(inl) })
      end
      defs:extend(blocks)
    end
    table.insert(items, { term, { defs } })
  end
  return pandoc.DefinitionList(items)
end

local function man_table(tbl)
  local head = tbl.head.rows
  local rows = {}
  for _, body in ipairs(tbl.bodies) do
    for _, row in ipairs(body.body) do table.insert(rows, row) end
  end
  local width, total = {}, 0
  for _, set in ipairs({ head, rows }) do
    for _, row in ipairs(set) do
      for i, cell in ipairs(row.cells) do
        width[i] = math.max(width[i] or 0, utf8.len(cell_text(cell)))
      end
    end
  end
  for _, w in ipairs(width) do total = total + w + 2 end
  if total - 2 <= PAGE then return preformatted(head, rows, width) end
  return tagged(head, rows)
end

function Pandoc(doc)
  local name = meta_string(doc.meta.name)
  local summary = meta_string(doc.meta.summary)
  for c in meta_string(doc.meta.commands):gmatch("%S+") do commands[c] = true end
  local self = name:match("^callscope%-(.+)$") or ""

  local blocks = pandoc.List(doc.blocks)
  if #blocks > 0 and blocks[1].t == "Header" and blocks[1].level == 1 then
    blocks:remove(1)
  end
  local out = pandoc.List({
    pandoc.RawBlock("man", ".ad l"),
    pandoc.Header(1, "NAME"),
    pandoc.Para({ pandoc.Str(name), pandoc.Space(), pandoc.Str("-"), pandoc.Space(),
                  pandoc.Str(summary) }),
  })
  if #blocks > 0 and blocks[1].t == "CodeBlock" then
    out:insert(pandoc.Header(1, "SYNOPSIS"))
    out:insert(blocks:remove(1))
  end
  out:insert(pandoc.Header(1, "DESCRIPTION"))
  for _, b in ipairs(blocks) do
    if b.t == "Header" then b.level = math.max(1, b.level - 1) end
    out:insert(b)
  end

  out = pandoc.Pandoc(out, doc.meta):walk({
    Link = function(l) return rewrite_link(l, self) end,
    Table = man_table,
  })

  if self ~= "" then seealso["callscope"] = true end
  local refs = {}
  for page in pairs(seealso) do table.insert(refs, page) end
  table.sort(refs)
  if #refs > 0 then
    local inl = pandoc.List()
    for i, page in ipairs(refs) do
      if i > 1 then inl:extend({ pandoc.Str(","), pandoc.Space() }) end
      inl:extend({ pandoc.Strong(pandoc.Str(page)), pandoc.Str("(1)") })
    end
    out.blocks:insert(pandoc.Header(1, "SEE ALSO"))
    out.blocks:insert(pandoc.Para(inl))
  end
  return out
end
