/*
 * Browser tests of `callscope html`, run by tests/t/0400-html-browser.t in
 * Debian's headless Chromium through playwright-core.  It reads the pages
 * and the `callscope report --json` outputs that the .t file made in WORK
 * and prints TAP lines numbered from START, then "# counted N failed F".
 *
 *   node browser.js WORK START
 */
'use strict';
const fs = require('fs');
const path = require('path');
const { chromium } = require('playwright-core');

const [work, startArg] = process.argv.slice(2);
let count = Number(startArg || 0), failed = 0;
const golden = path.join(__dirname, 'golden', 'fixture.png');

function ok(cond, name, detail) {
  count++;
  if (cond) console.log(`ok ${count} - ${name}`);
  else {
    failed++;
    console.log(`not ok ${count} - ${name}`);
    if (detail !== undefined) console.log('#   ' + String(typeof detail === 'string' ? detail : JSON.stringify(detail)).slice(0, 2000).replace(/\n/g, '\n#   '));
  }
  return cond;
}
function near(a, b, eps) { return Math.abs(a - b) <= eps; }
const json = (f) => JSON.parse(fs.readFileSync(path.join(work, f), 'utf8'));
const url = (f, hash) => 'file://' + path.join(work, f) + (hash || '');

/* A page whose every console error, page error, dialog and request to
 * anything but the file itself is recorded. */
async function open(browser, file, hash, opts) {
  const page = await browser.newPage(Object.assign({ viewport: { width: 1200, height: 800 } }, opts || {}));
  const problems = [];
  page.on('console', (m) => { if (m.type() === 'error' || m.type() === 'warning') problems.push(m.type() + ': ' + m.text()); });
  page.on('pageerror', (e) => problems.push('page error: ' + e.message));
  page.on('dialog', (d) => { problems.push('dialog: ' + d.message()); d.dismiss(); });
  page.on('request', (r) => { if (r.url() !== url(file, '') && !r.url().startsWith(url(file, '') + '#')) problems.push('request: ' + r.url()); });
  const t0 = Date.now();
  await page.goto(url(file, hash));
  await page.waitForFunction(() => window.__callscope && (window.__callscope.ready || window.__callscope.error),
                             null, { timeout: 60000 });
  const err = await page.evaluate(() => window.__callscope.error);
  page.loadMs = Date.now() - t0;
  page.problems = problems;
  if (err) problems.push('viewer: ' + err);
  return page;
}

const hookRects = (page) => page.evaluate(() => window.__callscope.flameRects());
const state = (page) => page.evaluate(() => window.__callscope.state());

/* Where a frame is on screen, scrolled into view first. */
async function frameCentre(page, r) {
  return page.evaluate((r) => {
    const box = document.getElementById('cs-flame');
    if (r.y < box.scrollTop || r.y + r.h > box.scrollTop + box.clientHeight) box.scrollTop = r.y - 40;
    const c = box.querySelector('canvas').getBoundingClientRect();
    return { x: c.left + r.x + Math.min(r.w / 2, 40), y: c.top + r.y - box.scrollTop + r.h / 2 };
  }, r);
}

/* The fixture's shape (tests/progs/html_fixture.c): each function on one path. */
const PARENT = { main: 'all', stage_a: 'main', stage_b: 'main', stage_a_leaf: 'stage_a', stage_b_leaf: 'stage_b' };
for (let k = 0; k < 6; k++) PARENT['tiny_' + k] = 'main';

function expectedRects(report, W) {
  const by = {};
  report.functions.forEach((f) => { by[f.name] = f; });
  const rootTotal = by.main.total_ns;
  const scale = W / rootTotal;
  const out = { all: { x: 0, w: W, depth: 0 } };
  const folds = {};
  const order = (p) => Object.keys(PARENT).filter((n) => PARENT[n] === p && by[n])
    .sort((a, b) => by[b].total_ns - by[a].total_ns || by[b].calls - by[a].calls || (a < b ? -1 : 1));
  const place = (p) => {
    let x = out[p].x;
    for (const n of order(p)) {
      const w = by[n].total_ns * scale;
      if (w < 1) {
        folds[p] = folds[p] || { x: x, w: 0, count: 0, depth: out[p].depth + 1 };
        folds[p].w += w; folds[p].count++;
      } else {
        out[n] = { x: x, w: w, depth: out[p].depth + 1 };
        place(n);
      }
      x += w;
    }
  };
  place('all');
  return { rects: out, folds: folds };
}

async function testFixture(browser) {
  const report = json('fixture.json');
  const page = await open(browser, 'fixture.html', '#th=light');
  ok(page.problems.length === 0, 'fixture: loads with no console error, no dialog and no request outside the file', page.problems);
  const W = await page.evaluate(() => window.__callscope.flameWidth());
  const rects = await hookRects(page);
  const exp = expectedRects(report, W);
  const got = {};
  rects.forEach((r) => { if (!r.fold) got[r.name] = r; });
  const bad = [];
  for (const [name, e] of Object.entries(exp.rects)) {
    const g = got[name];
    if (!g || !near(g.x, e.x, 0.5) || !near(g.w, e.w, 0.5) || g.depth !== e.depth) bad.push({ name, expected: e, got: g });
  }
  const extra = Object.keys(got).filter((n) => !exp.rects[n]);
  ok(bad.length === 0 && extra.length === 0, 'fixture: every frame drawn where report --json puts it (x, width, row)', { bad, extra });
  const viewH = await page.evaluate(() => document.getElementById('cs-flame').clientHeight);
  const rowsOk = rects.every((r) => r.y === Math.max((Math.max(...rects.map((q) => q.depth)) + 1) * 18, viewH) - (r.depth + 1) * 18);
  ok(rowsOk, 'fixture: rows stacked upwards from the bottom, 18 px each (flame graph)');
  const folds = rects.filter((r) => r.fold);
  const ef = exp.folds.main;
  ok(ef ? folds.length === 1 && folds[0].fold === ef.count && near(folds[0].w, ef.w, 0.01) && folds[0].name === `[${ef.count} smaller frames]`
        : folds.length === 0,
     `fixture: frames under a pixel folded into one counted box (${ef ? ef.count : 0} of them)`, { folds, ef });
  /* widths add up: children + self = parent, everywhere */
  const sums = [];
  for (const r of rects.filter((q) => !q.fold && !q.ancestor)) {
    const kids = rects.filter((q) => q.parent === r.node && !q.ancestor && q.depth === r.depth + 1);
    if (!kids.length) continue;
    const scale = r.w / r.value;
    const sum = kids.reduce((s, q) => s + q.w, 0) + r.self * scale;
    if (!near(sum, r.w, 0.01)) sums.push({ name: r.name, w: r.w, sum });
  }
  ok(sums.length === 0, "fixture: each row's widths (plus the parent's self) add up to the parent", sums);

  /* click zooms, Back restores */
  const a = got.stage_a;
  let p = await frameCentre(page, a);
  await page.mouse.click(p.x, p.y);
  let st = await state(page);
  let zr = (await hookRects(page)).find((r) => r.name === 'stage_a' && !r.ancestor);
  ok(st.zoom === a.node && zr && near(zr.w, W, 0.01) && /z=/.test(page.url()),
     'fixture: a click on stage_a zooms to it (full width, in the URL)', { st, zr });
  const crumbs = await page.$$eval('.cs-crumbs button', (b) => b.map((x) => x.textContent));
  ok(JSON.stringify(crumbs) === JSON.stringify(['all', 'main', 'stage_a']), 'fixture: breadcrumbs name the path', crumbs);
  await page.goBack();
  await page.waitForFunction(() => window.__callscope.state().zoom === 0);
  zr = (await hookRects(page)).find((r) => r.name === 'main');
  ok(zr && near(zr.w, got.main.w, 0.01), "fixture: the browser's Back restores the whole graph");
  p = await frameCentre(page, got.stage_b);
  await page.mouse.click(p.x, p.y);
  const zb = (await state(page)).zoom;
  await page.click('#cs-back');
  await page.waitForFunction(() => window.__callscope.state().zoom === 0);
  ok(zb === got.stage_b.node, 'fixture: the Back button undoes a zoom');

  /* search: a regular expression finds what the CLI lists */
  await page.fill('#cs-search', '^stage_');
  /* what the clicks above announced must not pass for the match */
  await page.evaluate(() => { document.getElementById('cs-live').textContent = ''; });
  await page.press('#cs-search', 'Enter');
  await page.waitForFunction(() => document.getElementById('cs-search-status').getAttribute('data-functions') !== null);
  const nf = Number(await page.getAttribute('#cs-search-status', 'data-functions'));
  const want = report.functions.filter((f) => /^stage_/.test(f.name)).length;
  st = await state(page);
  const sel = await page.evaluate(() => { const r = window.__callscope.flameRects(); return r; });
  ok(nf === want && st.q === '^stage_' && /q=%5Estage_/.test(page.url()), `search: '^stage_' matches the ${want} functions report --json has`, { nf, want });
  const live = await page.textContent('#cs-live');
  ok(/^stage_/.test(live), 'search: Enter selects the first match and announces it', live);
  void sel;
  await page.fill('#cs-search', '(');
  await page.waitForFunction(() => /not a valid/.test(document.getElementById('cs-search-status').textContent));
  ok(page.problems.length === 0, 'search: a bad expression is reported in the page, not as an error', page.problems);
  await page.fill('#cs-search', '');
  await page.press('#cs-search', 'Escape');

  /* the top table equals report --json, row by row, in the CLI's order */
  await page.click('#cs-tab-top');
  const rows = await page.$$eval('#cs-top .cs-row:not([hidden])', (rs) => rs.map((r) => {
    const c = Array.from(r.children);
    const v = (i) => Number(c[i].getAttribute('data-value'));
    return { k: Number(r.dataset.k), pct: c[0].textContent, self_ns: v(1), total_ns: v(2), calls: v(3), avg_ns: v(5), min_ns: v(6), max_ns: v(7), name: c[c.length - 1].textContent };
  }).sort((x, y) => x.k - y.k));
  const diffs = [];
  report.functions.forEach((f, i) => {
    const r = rows[i];
    if (!r) { diffs.push({ missing: f.name }); return; }
    for (const k of ['name', 'calls', 'self_ns', 'total_ns', 'min_ns', 'avg_ns', 'max_ns'])
      if (r[k] !== f[k]) diffs.push({ row: i, field: k, page: r[k], cli: f[k] });
    if (r.pct !== f.self_pct.toFixed(2)) diffs.push({ row: i, field: 'self_pct', page: r.pct, cli: f.self_pct });
  });
  ok(rows.length === report.functions.length && diffs.length === 0, `top table: ${rows.length} rows equal report --json (name, calls, self, total, min, avg, max, %)`, diffs);

  /* the timeline draws every call, a range re-aggregates */
  await page.click('#cs-tab-timeline');
  const tl = await page.evaluate(() => window.__callscope.timelineRects());
  const win = await page.evaluate(() => window.__callscope.timelineWindow());
  const pxNs = (win[1] - win[0]) / W;
  /* every call a pixel wide or more is drawn; the tiny ones only when zoomed in */
  const wide = report.functions.filter((f) => f.min_ns >= 2 * pxNs).reduce((n, f) => n + f.calls, 0);
  const drawnWide = tl.filter((r) => r.dur >= 2 * pxNs).length;
  ok(drawnWide === wide && wide >= 6 && tl.some((r) => r.name === 'stage_a_leaf'), `timeline: the ${wide} calls wider than two pixels drawn`, { drawnWide, wide });
  const leaf = tl.filter((r) => r.name === 'stage_a_leaf').sort((x, y) => x.start - y.start)[0];
  await page.evaluate((r) => window.__callscope.range(r.start, r.start + r.dur), leaf);
  await page.click('#cs-tab-flame');
  const rr = await hookRects(page);
  const top = rr.filter((r) => r.depth === 1).map((r) => r.name);
  ok(near(rr.find((r) => r.depth === 0).value, leaf.dur, 1) && top.length === 1 && top[0] === 'main' &&
     rr.some((r) => r.name === 'stage_a_leaf' && near(r.value, leaf.dur, 1)),
     'timeline: a range of one stage_a_leaf call re-aggregates the flame graph to it', { leaf, rr: rr.slice(0, 5) });
  /* and the top table: that one call, its time */
  await page.click('#cs-tab-top');
  const inRange = await page.evaluate(() => window.__callscope.topRows());
  const lr = inRange.find((r) => r.name === 'stage_a_leaf');
  ok(lr && lr.calls === 1 && near(lr.total_ns, leaf.dur, 1) && !inRange.some((r) => r.name === 'stage_b'),
     'timeline: the range re-aggregates the top table too: one stage_a_leaf call, its duration', inRange);
  await page.screenshot({ path: path.join(work, 'fixture-range.png') });
  await page.close();
}

/* The search takes the CLI's symbol spec OBJECT:NAME (NAME a regular
 * expression): it finds the function `tree --focus` finds. */
async function testSymspec(browser) {
  const focus = json('twin-focus.json').tree;
  const page = await open(browser, 'twin.html', '#th=light&v=top');
  const find = async (q) => {
    await page.fill('#cs-search', q);
    await page.waitForFunction((q) => window.__callscope.state().q === q, q);
    await page.click('#cs-tab-top');
    return { n: Number(await page.getAttribute('#cs-search-status', 'data-functions')),
             rows: await page.evaluate(() => window.__callscope.topRows()) };
  };
  /* the two are named apart, "twin [twin]" and "twin [libtwin.so]" */
  const both = await find('^twin\\b');
  const lib = await find('libtwin.so:^twin\\b');
  ok(both.n === 2 && lib.n === 1 && lib.rows.length === 1 && lib.rows[0].name === 'twin [libtwin.so]' &&
     lib.rows[0].total_ns === focus.total_ns && /libtwin\.so$/.test(focus.object),
     "search: 'libtwin.so:^twin\\b' finds the one twin() 'tree --focus libtwin.so:twin' finds, '^twin\\b' both",
     { both, lib, focus });
  ok(page.problems.length === 0, 'search: no console error', page.problems);
  await page.close();
}

/* What a screen reader is given: Chromium's accessibility tree of the
 * tables, not just their attributes. */
async function testScreenReader(browser) {
  const page = await open(browser, 'fixture.html', '#th=light&v=top');
  const top = await page.locator('#cs-top').ariaSnapshot();
  await page.click('#cs-tab-tree');
  const tree = await page.locator('#cs-panel-tree [role="treegrid"]').ariaSnapshot();
  ok(/^- grid "Top functions":/m.test(top) && /columnheader "Calls"/.test(top) && /gridcell "stage_a"/.test(top) &&
     /row "[^"]*stage_a_leaf"/.test(top) &&
     /treegrid "Call tree"/.test(tree) && /row "main [^"]*" \[expanded\] \[level=1\]/.test(tree) &&
     /rowheader "stage_a"/.test(tree),
     'screen reader: the top table is a grid of named cells, the call tree a treegrid with levels', { top: top.slice(0, 600), tree: tree.slice(0, 600) });
  await page.close();
}

/* Every thread has its lane on the one time axis. */
async function testThreads(browser) {
  const tids = json('threads-info.json').threads.map((t) => t.tid);
  const page = await open(browser, 'threads.html', '#th=light&v=timeline');
  const lanes = await page.evaluate(() => Array.from(new Set(window.__callscope.timelineRects().map((r) => r.tid))));
  ok(page.problems.length === 0 && tids.length === 5 && lanes.length === tids.length && tids.every((t) => lanes.includes(t)),
     `timeline: each of the ${tids.length} threads has calls drawn in its lane`, { tids, lanes });
  await page.close();
}

async function testScreenshot(browser) {
  const page = await open(browser, 'fixture.html', '#th=light');
  const shot = path.join(work, 'fixture.png');
  await page.screenshot({ path: shot });
  await page.close();
  if (process.env.CALLSCOPE_UPDATE_GOLDEN === '1' || !fs.existsSync(golden)) {
    fs.mkdirSync(path.dirname(golden), { recursive: true });
    fs.copyFileSync(shot, golden);
    console.log('# golden image written to ' + golden);
  }
  /* decode both PNGs in a blank page and count pixels that differ */
  const cmp = await browser.newPage();
  const res = await cmp.evaluate(async ([a, b]) => {
    const load = (src) => new Promise((ok, no) => { const i = new Image(); i.onload = () => ok(i); i.onerror = no; i.src = src; });
    const [x, y] = await Promise.all([load(a), load(b)]);
    if (x.width !== y.width || x.height !== y.height) return { size: [x.width, x.height, y.width, y.height] };
    const px = (img) => { const c = document.createElement('canvas'); c.width = img.width; c.height = img.height;
      const g = c.getContext('2d'); g.drawImage(img, 0, 0); return g.getImageData(0, 0, c.width, c.height).data; };
    const p = px(x), q = px(y);
    let diff = 0;
    for (let i = 0; i < p.length; i += 4)
      if (Math.abs(p[i] - q[i]) + Math.abs(p[i + 1] - q[i + 1]) + Math.abs(p[i + 2] - q[i + 2]) > 48) diff++;
    return { w: x.width, h: x.height, fraction: diff / (p.length / 4) };
  }, ['data:image/png;base64,' + fs.readFileSync(shot).toString('base64'),
      'data:image/png;base64,' + fs.readFileSync(golden).toString('base64')]);
  await cmp.close();
  /* the fixture's timing varies from run to run, so frames move a little:
   * same size, and at most 12% of the pixels differ */
  ok(res.w === 1200 && res.h === 800 && res.fraction <= 0.12,
     'screenshot: the fixture looks like tests/html/golden/fixture.png (' + (res.fraction * 100).toFixed(2) + '% of pixels differ)', res);
}

async function testKeyboard(browser) {
  const page = await open(browser, 'fixture.html', '#th=light');
  /* from the top of the page, Tab until a view tab has focus */
  let role = '';
  for (let i = 0; i < 40 && role !== 'tab'; i++) {
    await page.keyboard.press('Tab');
    role = await page.evaluate(() => document.activeElement && document.activeElement.getAttribute('role'));
  }
  ok(role === 'tab', 'keyboard: Tab reaches the view tabs');
  const seen = [];
  const tabs = await page.$$eval('[role="tab"]', (t) => t.map((x) => x.id));
  for (let i = 0; i < tabs.length; i++) {
    const s = await page.evaluate(() => {
      const t = document.activeElement, panel = document.getElementById(t.getAttribute('aria-controls'));
      return { id: t.id, selected: t.getAttribute('aria-selected'), shown: panel && !panel.hidden };
    });
    if (s.selected === 'true' && s.shown) seen.push(s.id);
    await page.keyboard.press('ArrowRight');
  }
  ok(seen.length === tabs.length && new Set(seen).size === tabs.length, 'keyboard: arrow keys on the tabs reach every view', { seen, tabs });
  /* each view's content takes the focus and answers keys */
  const results = {};
  await page.keyboard.press('1');
  results.flameFocus = await page.evaluate(() => document.activeElement.id);
  await page.keyboard.press('ArrowUp');
  const selName = await page.textContent('#cs-live');
  await page.keyboard.press('Enter');
  const z1 = (await state(page)).zoom;
  await page.keyboard.press('Escape');
  const z2 = (await state(page)).zoom;
  results.flame = { selName, z1, z2 };
  ok(results.flameFocus === 'cs-flame' && /^main/.test(selName) && z1 > 0 && z2 < z1,
     'keyboard: flame graph: arrows select frames, Enter zooms, Escape zooms out', results);
  await page.keyboard.press('2');
  const rowsNow = () => page.$$eval('#cs-panel-tree .cs-row:not([hidden])', (r) => r.length);
  const before = await rowsNow();
  await page.keyboard.press('ArrowLeft');
  const closed = await rowsNow();
  await page.keyboard.press('ArrowRight');
  const after = await rowsNow();
  const focusRole = await page.evaluate(() => document.activeElement.getAttribute('role'));
  ok(focusRole === 'row' && closed < before && after > closed, 'keyboard: call tree: rows take the focus, Left closes one, Right opens it', { before, closed, after, focusRole });
  await page.keyboard.press('3');
  ok(await page.evaluate(() => document.activeElement.closest('#cs-panel-bottomup') !== null), 'keyboard: 3 opens the bottom-up tree with a row focused');
  await page.keyboard.press('5');
  await page.keyboard.press('ArrowDown');
  const k = await page.evaluate(() => document.activeElement.dataset.k);
  ok(k === '1', 'keyboard: top functions: ArrowDown moves to the next row', k);
  await page.keyboard.press('s');
  ok((await state(page)).view === 'sandwich' && (await state(page)).sw >= 0, 'keyboard: s opens the sandwich of the focused function');
  await page.keyboard.press('6');
  const w0 = await page.evaluate(() => window.__callscope.timelineWindow());
  await page.keyboard.press('+');
  const w1 = await page.evaluate(() => window.__callscope.timelineWindow());
  ok(w1[1] - w1[0] < w0[1] - w0[0], 'keyboard: timeline: + zooms in', { w0, w1 });
  await page.keyboard.press('?');
  const help = await page.evaluate(() => !document.querySelector('.cs-help').hidden && document.activeElement.classList.contains('cs-help'));
  await page.keyboard.press('Escape');
  const helpClosed = await page.evaluate(() => document.querySelector(".cs-help").hidden);
  ok(help && helpClosed, 'keyboard: ? opens the key list, Escape closes it');
  await page.keyboard.press('t');
  const dark = await page.evaluate(() => document.documentElement.getAttribute('data-theme'));
  ok(dark === 'dark' && /th=dark/.test(page.url()), 'keyboard: t switches to dark mode, kept in the URL');
  ok(page.problems.length === 0, 'keyboard: no console error on the way', page.problems);
  await page.close();
}

async function testState(browser) {
  const page = await open(browser, 'fixture.html', '#v=top&q=stage&th=dark');
  const s = await page.evaluate(() => ({
    view: window.__callscope.state().view, q: document.getElementById('cs-search').value,
    rows: document.querySelectorAll('#cs-top .cs-row:not([hidden])').length,
    theme: document.documentElement.getAttribute('data-theme')
  }));
  ok(s.view === 'top' && s.q === 'stage' && s.rows === 4 && s.theme === 'dark', 'URL fragment: view, search and theme restored from it', s);
  await page.close();
}

async function testDeep(browser) {
  const page = await open(browser, 'deep.html', '#th=light');
  const t = await page.evaluate(() => window.__callscope.tree());
  const rects = await hookRects(page);
  const deepest = Math.max(...rects.map((r) => r.depth));
  /* How deep the whole graph draws depends on the run's timing: the last
   * frames are narrower than a pixel when the deep calls took longer than
   * the hooks' subtracted cost, and are then folded into a counted box. */
  const foldAt = (rs, d) => rs.find((r) => r.fold && r.depth === d);
  ok(page.problems.length === 0 && t.maxDepth >= 10002 && deepest >= 1000 &&
     (deepest === t.maxDepth || foldAt(rects, deepest)),
     `deep: a 10 000-deep recursion renders (${deepest} rows, loaded in ${page.loadMs} ms)`, { t, deepest, problems: page.problems });
  /* zooming where frames fold reaches the deepest one */
  let zr = rects, low = deepest, zooms = 0;
  for (let f = foldAt(zr, low); low < t.maxDepth && f && zooms < 100; f = foldAt(zr, low), zooms++) {
    await page.evaluate((n) => window.__callscope.zoom(n), f.parent + 1);
    zr = await hookRects(page);
    low = Math.max(...zr.map((r) => r.depth));
  }
  ok(low === t.maxDepth, `deep: zooming into the folded frames reaches row ${t.maxDepth} (${zooms} zooms)`, { low, zooms });
  await page.goto(url('deep.html', '#th=light'));
  await page.waitForFunction(() => window.__callscope.ready);
  await page.evaluate(() => { document.getElementById('cs-flame').scrollTop = 0; });
  await page.waitForTimeout(100);
  const drawn = await page.evaluate(() => window.__callscope.draws);
  ok(drawn > 1, 'deep: scrolling to the deepest frames draws them');
  for (const v of ['tree', 'bottomup', 'timeline', 'top']) await page.evaluate((v) => window.__callscope.view(v), v);
  const tl = await page.evaluate(() => window.__callscope.timelineRects().length);
  ok(page.problems.length === 0, 'deep: every view opens on it', page.problems);
  void tl;
  await page.close();
}

async function testHostile(browser) {
  const report = json('hostile.json');
  const page = await open(browser, 'hostile.html', '#v=top');
  const name = report.functions[0].name;
  const s = await page.evaluate(() => ({
    images: document.images.length,
    first: document.querySelector('#cs-top .cs-row:not([hidden]) .cs-name').textContent,
    title: document.title
  }));
  ok(/<img src=x onerror=alert\(1\)>/.test(name) && s.images === 0 && s.first === name && page.problems.length === 0,
     'hostile: a function named after <img src=x onerror=alert(1)> is shown as text, nothing runs', { s, name, problems: page.problems });
  await page.evaluate(() => window.__callscope.setNames([
    '</script><script>window.__pwned = 1</script>', '<b onmouseover="x()">bold</b>', '"\' & &amp; <!--']));
  const t = await page.evaluate(() => ({
    pwned: window.__pwned, bolds: document.querySelectorAll('b').length,
    names: Array.from(document.querySelectorAll('#cs-top .cs-row:not([hidden]) .cs-name')).map((n) => n.textContent)
  }));
  ok(t.pwned === undefined && t.bolds === 0 && t.names.includes('</script><script>window.__pwned = 1</script>'),
     'hostile: names with </script> and markup loaded by the test hook stay text in every view', t);
  for (const v of ['flame', 'tree', 'bottomup', 'timeline']) await page.evaluate((v) => window.__callscope.view(v), v);
  const crumbs = await page.$$eval('.cs-crumbs button', (b) => b.map((x) => x.textContent));
  ok(page.problems.length === 0 && (await page.evaluate(() => window.__pwned)) === undefined && crumbs[0] === 'all',
     'hostile: flame graph, trees and timeline draw them without error', page.problems);
  await page.close();
  /* source lines with markup in them are shown as text too */
  const sp = await open(browser, 'marked.html', '#th=light&v=source');
  const src = await sp.evaluate(() => ({
    images: document.images.length, pwned: window.__pwned,
    marked: Array.from(document.querySelectorAll('#cs-source .cs-row:not([hidden]) .cs-code'))
      .filter((c) => c.textContent.includes('</script><img src=x onerror=window.__pwned=1>')).length
  }));
  ok(src.images === 0 && src.pwned === undefined && src.marked >= 2 && sp.problems.length === 0,
     'hostile: source lines with </script><img ...> in them are shown as text', { src, problems: sp.problems });
  await sp.close();
  /* without JavaScript: the summary table, escaped by the C side */
  const ctx = await browser.newContext({ javaScriptEnabled: false });
  const nojs = await ctx.newPage();
  await nojs.goto(url('hostile.html'));
  const r = await nojs.evaluate(() => ({
    images: document.images.length,
    cells: Array.from(document.querySelectorAll('#cs-summary th[scope="row"]')).map((c) => c.textContent),
    banner: document.getElementById('cs-banner').textContent
  }));
  ok(r.images === 0 && r.cells[0] === name && /lost events: 0/.test(r.banner),
     'no JavaScript: the summary table and the banner are there, names escaped', r);
  await ctx.close();
}

async function testDiff(browser) {
  const page = await open(browser, 'diff.html', '#v=diff&thr=0');
  const cells = await page.$$eval('#cs-panel-diff .cs-row:not([hidden])', (rs) => rs.map((r) =>
    [3, 6, 9].map((i) => Number(r.children[i].getAttribute('data-value')))));
  const rects = await page.evaluate(() => { window.__callscope.view('flame'); return window.__callscope.flameRects(); });
  const nonzero = cells.flat().filter((v) => v !== 0).length + rects.filter((r) => r.delta !== 0).length;
  ok(page.problems.length === 0 && cells.length > 5 && nonzero === 0, `diff: a profile against itself: ${cells.length} functions, every change 0`, { cells, nonzero });
  const banner = await page.textContent('#cs-banner');
  ok(/base: /.test(banner), 'diff: the banner shows the base run too');
  /* at the default threshold (1 % of the whole) zero changes are hidden, and counted */
  await page.goto(url('diff.html', '#v=diff'));
  await page.waitForFunction(() => window.__callscope.ready);
  const shown = await page.$$eval('#cs-panel-diff .cs-row:not([hidden])', (rs) => rs.length);
  const note = await page.textContent('#cs-panel-diff .cs-status');
  ok(shown === 0 && new RegExp('^' + cells.length + ' functions with smaller changes hidden').test(note),
     'diff: changes under the threshold are hidden and counted', { shown, note });
  await page.close();
}

const byName = (report) => { const by = {}; report.functions.forEach((f) => { by[f.name] = f; }); return by; };
const named = (rects, name) => rects.filter((r) => r.name === name && !r.fold);

/* Focus, hide, merge and collapse recursion, each from the URL fragment:
 * the flame graph's weights move where they should and none is lost. */
async function testTransforms(browser) {
  const report = json('fixture.json'), by = byName(report);
  let page = await open(browser, 'fixture.html', '#th=light');
  const fa = await page.evaluate(() => window.__callscope.func('stage_a'));
  const show = async (hash) => {
    await page.goto(url('fixture.html', hash));
    await page.waitForFunction(() => window.__callscope.ready);
    return hookRects(page);
  };
  let r = await show(`#th=light&t=focus${fa}`);
  const root = (rs) => rs.find((q) => q.depth === 0);
  ok(near(root(r).value, by.stage_a.total_ns, 1) && r.filter((q) => q.depth === 1).map((q) => q.name).join() === 'stage_a' &&
     named(r, 'stage_a_leaf').length === 1 && !named(r, 'stage_b').length,
     'transforms: focus on stage_a keeps its calls alone, its total the whole', r.slice(0, 4));
  r = await show(`#th=light&t=hide${fa}`);
  ok(near(root(r).value, by.main.total_ns - by.stage_a.total_ns, 1) && !named(r, 'stage_a').length && !named(r, 'stage_a_leaf').length,
     'transforms: hide stage_a takes it and its callees out, and their time', r.slice(0, 4));
  r = await show(`#th=light&t=merge${fa}`);
  const leaf = named(r, 'stage_a_leaf')[0], main = named(r, 'main')[0];
  ok(near(root(r).value, by.main.total_ns, 1) && !named(r, 'stage_a').length && leaf && leaf.depth === 2 &&
     near(main.self, by.main.self_ns + by.stage_a.self_ns, 1),
     'transforms: merge stage_a gives its callees and its self time to main', { leaf, main });
  ok(page.problems.length === 0, 'transforms: no console error', page.problems);
  await page.close();

  page = await open(browser, 'deep.html', '#th=light');
  const down = await page.evaluate(() => window.__callscope.func('down'));
  const before = await page.evaluate(() => window.__callscope.tree());
  for (const k of ['rec' + down, 'drec']) {
    await page.goto(url('deep.html', '#th=light&t=' + k));
    await page.waitForFunction(() => window.__callscope.ready);
    const t = await page.evaluate(() => window.__callscope.tree());
    ok(t.maxDepth === 2 && near(t.total, before.total, 1),
       `transforms: ${k.replace(/\d+$/, '')} folds the 10 000-deep recursion of down into one frame, its time kept`, { before, t });
  }
  await page.close();
}

/* Icicle, the metric switch, search next/previous, sorting, the sandwich. */
async function testControls(browser) {
  const report = json('fixture.json'), by = byName(report);
  const page = await open(browser, 'fixture.html', '#th=light');
  await page.keyboard.press('i');
  let r = await hookRects(page);
  ok(r.every((q) => q.y === q.depth * 18) && (await state(page)).icicle && /o=icicle/.test(page.url()),
     'icicle: i turns the graph upside down, rows from the top, kept in the URL');
  await page.keyboard.press('i');
  await page.selectOption('#cs-metric', 'calls');
  r = await hookRects(page);
  const calls = report.functions.reduce((n, f) => n + f.calls, 0);
  const sa = named(r, 'stage_a')[0];
  ok(near(r.find((q) => q.depth === 0).value, calls, 0) && sa && near(sa.value, by.stage_a.calls + by.stage_a_leaf.calls, 0) &&
     /m=calls/.test(page.url()),
     `metric: calls weighs the frames by calls (${calls} in all)`, { sa, calls });
  await page.selectOption('#cs-metric', 'time');

  await page.fill('#cs-search', '^stage_');
  await page.evaluate(() => { document.getElementById('cs-live').textContent = ''; });
  await page.press('#cs-search', 'Enter');
  const seen = [await page.textContent('#cs-live')];
  for (let k = 0; k < 4; k++) { await page.click('#cs-next'); seen.push(await page.textContent('#cs-live')); }
  await page.click('#cs-prev');
  const back = await page.textContent('#cs-live');
  const status = await page.textContent('#cs-search-status');
  const names = seen.map((x) => x.split(/[,:]/)[0]);
  ok(new Set(names.slice(0, 4)).size === 4 && names.every((n) => /^stage_/.test(n)) && names[4] === names[0] &&
     back === seen[3] && /match 4 of 4/.test(status),
     'search: Next steps through the 4 matching frames and wraps, Previous steps back', { seen, back, status });
  await page.fill('#cs-search', '');
  await page.press('#cs-search', 'Enter');

  await page.click('#cs-tab-top');
  const callsCol = async () => page.$$eval('#cs-top .cs-row:not([hidden])', (rs) => rs.map((x) => ({ k: Number(x.dataset.k), v: Number(x.children[3].getAttribute('data-value')) }))
    .sort((a, b) => a.k - b.k).map((x) => x.v));
  await page.click('#cs-top [role="columnheader"]:nth-child(4) button');
  const down = await callsCol();
  const sortDown = await page.getAttribute('#cs-top [role="columnheader"]:nth-child(4)', 'aria-sort');
  await page.click('#cs-top [role="columnheader"]:nth-child(4) button');
  const up = await callsCol();
  const sorted = (a, dir) => a.every((v, i) => !i || (v - a[i - 1]) * dir >= 0);
  ok(down.length === report.functions.length && sorted(down, -1) && sorted(up, 1) && sortDown === 'descending' &&
     JSON.stringify(up) !== JSON.stringify(down),
     'top table: a click on Calls sorts by it, a second click the other way', { down, up });

  const fa = await page.evaluate(() => window.__callscope.func('stage_a'));
  await page.goto(url('fixture.html', `#th=light&v=sandwich&s=${fa}`));
  await page.waitForFunction(() => window.__callscope.ready);
  const sw = await page.evaluate(() => window.__callscope.sandwichRects());
  const callers = sw.callers.filter((q) => !q.fold).map((q) => q.name), callees = sw.callees.filter((q) => !q.fold).map((q) => q.name);
  ok(callers.includes('main') && callers.includes('stage_a') && !callers.includes('stage_b') &&
     callees.includes('stage_a_leaf') && !callees.includes('stage_b_leaf') &&
     near(sw.callees.find((q) => q.depth === 0).value, by.stage_a.total_ns, 1),
     'sandwich: stage_a between its caller main and its callee stage_a_leaf', { callers, callees });
  ok(page.problems.length === 0, 'controls: no console error', page.problems);
  await page.close();
}

/* Only the rows on screen are in the DOM, however long the table. */
async function testVirtualRows(browser) {
  const page = await open(browser, 'deep.html', '#th=light&v=tree');
  await page.keyboard.press('2');
  for (let k = 0; k < 600; k++) await page.keyboard.press('ArrowRight');
  const s = await page.evaluate(() => {
    const g = document.querySelector('#cs-panel-tree [role="treegrid"]');
    return { rows: Number(g.getAttribute('aria-rowcount')) - 1, dom: g.querySelectorAll('.cs-row').length,
             focused: document.activeElement.getAttribute('aria-level') };
  });
  ok(s.rows >= 300 && s.dom <= 80 && Number(s.focused) >= 300,
     `call tree: ${s.rows} rows open, ${s.dom} of them in the DOM`, s);
  await page.close();
}

/* The top table's counter columns equal report --json's (record -e). */
async function testCounters(browser) {
  const report = json('counters.json');
  const page = await open(browser, 'counters.html', '#th=light&v=top');
  const heads = await page.$$eval('#cs-top [role="columnheader"]', (h) => h.map((x) => x.textContent));
  const rows = await page.$$eval('#cs-top .cs-row:not([hidden])', (rs) => rs.map((r) => {
    const c = Array.from(r.children), v = (i) => Number(c[i].getAttribute('data-value'));
    return { k: Number(r.dataset.k), name: c[c.length - 1].textContent, c1: v(8), c1_total: v(9), c2: v(10), c2_total: v(11) };
  }).sort((x, y) => x.k - y.k));
  const diffs = [];
  report.functions.forEach((f, i) => {
    for (const k of ['name', 'c1', 'c1_total', 'c2', 'c2_total'])
      if (!rows[i] || rows[i][k] !== f[k]) diffs.push({ row: i, field: k, page: rows[i] && rows[i][k], cli: f[k] });
  });
  ok(heads.includes('page-faults') && heads.includes('context-switches') && rows.length === report.functions.length &&
     diffs.length === 0 && report.functions.some((f) => f.c1 > 0),
     'counters: the top table shows each counter and its +children as report --json', { heads, diffs });
  ok(page.problems.length === 0, 'counters: no console error', page.problems);
  await page.close();
}

/* A sampled run: frames as wide as their samples, the table's samples
 * and shares those of report --json. */
async function testSampled(browser) {
  const report = json('sampled.json'), by = byName(report);
  const page = await open(browser, 'sampled.html', '#th=light');
  const W = await page.evaluate(() => window.__callscope.flameWidth());
  const r = await hookRects(page);
  /* a loaded machine may leave cold() unsampled: check what was sampled */
  const bad = ['hot', 'cold', 'main'].filter((n) => by[n] && by[n].samples).filter((n) => {
    const q = named(r, n)[0];
    return !q || !near(q.w, W * by[n].samples / report.samples, 0.5);
  });
  ok(bad.length === 0 && (await state(page)).metric === 'samples' && near(r[0].value, report.samples, 0),
     `sampled: frames as wide as their share of the ${report.samples} samples`, { bad, r: r.slice(0, 6) });
  await page.click('#cs-tab-top');
  const rows = await page.$$eval('#cs-top .cs-row:not([hidden])', (rs) => rs.map((x) => {
    const c = Array.from(x.children);
    return { k: Number(x.dataset.k), pct: c[0].textContent, self_samples: Number(c[8].getAttribute('data-value')),
             samples: Number(c[9].getAttribute('data-value')), name: c[c.length - 1].textContent };
  }).sort((a, b) => a.k - b.k));
  const diffs = [];
  report.functions.forEach((f, i) => {
    const row = rows[i] || {};
    if (row.name !== f.name || row.self_samples !== f.self_samples || row.samples !== f.samples || row.pct !== f.self_pct.toFixed(2))
      diffs.push({ row, cli: [f.name, f.self_samples, f.samples, f.self_pct] });
  });
  ok(rows.length === report.functions.length && diffs.length === 0,
     'sampled: the top table\'s samples and shares equal report --json', diffs);

  /* the source view, reached by key 7, sorted by samples: the hottest line
   * of report --lines with the text the file has there */
  const lines = json('sampled-lines.json').lines;
  await page.keyboard.press('7');
  const onSource = await page.evaluate(() => window.__callscope.state().view === 'source' &&
    document.activeElement.closest('#cs-source') !== null);
  await page.click('#cs-source [role="columnheader"]:nth-child(1) button');
  const first = await page.$eval('#cs-source .cs-row[data-k="0"]', (x) => Array.from(x.children).map((c) => c.textContent));
  const want = fs.readFileSync(lines[0].file, 'utf8').split('\n')[lines[0].line - 1];
  ok(onSource && Number(first[0].replace(/\D/g, '')) === lines[0].samples && Number(first[2]) === lines[0].line &&
     first[3] === want && first[4] === lines[0].function,
     `source: 7 opens it; sorted by samples, ${lines[0].function}'s line ${lines[0].line} comes first with its text`, { onSource, first, want, top: lines[0] });
  ok(page.problems.length === 0, 'sampled: no console error', page.problems);
  await page.close();

  /* against itself: the diff table weighs by samples, every change 0 */
  const dp = await open(browser, 'sampled-diff.html', '#th=light&v=diff&thr=0');
  const cells = await dp.$$eval('#cs-panel-diff .cs-row:not([hidden])', (rs) => rs.map((x) => ({
    name: x.children[0].textContent, self: Number(x.children[2].getAttribute('data-value')),
    changes: [3, 6, 9].map((i) => Number(x.children[i].getAttribute('data-value'))) })));
  const hot = cells.find((c) => c.name === 'hot');
  ok(dp.problems.length === 0 && (await state(dp)).metric === 'samples' && hot && hot.self === by.hot.self_samples &&
     cells.every((c) => c.changes.every((v) => v === 0)),
     'sampled: a diff against itself shows the samples, every change 0', { cells, problems: dp.problems });
  await dp.close();
}

/* html --static: parse's calls that never ran, greyed under its sandwich with count 0. */
async function testStatic(browser) {
  const page = await open(browser, 'static.html', '#th=light');
  const f = await page.evaluate(() => window.__callscope.func('parse'));
  await page.goto(url('static.html', `#th=light&v=sandwich&s=${f}`));
  await page.waitForFunction(() => window.__callscope.ready);
  const rows = await page.$$eval('.cs-static .cs-static-arc', (rs) => rs.map((r) => ({
    text: r.textContent, opacity: getComputedStyle(r).opacity, visible: r.offsetParent !== null })));
  const texts = rows.map((r) => r.text).sort();
  ok(page.problems.length === 0 && rows.every((r) => r.visible && Number(r.opacity) < 1) &&
     JSON.stringify(texts) === JSON.stringify(['0never_called \u2192 parse', '0parse \u2192 cleanup', '0parse \u2192 report_error']),
     'static: the calls from and to parse that never ran are listed greyed with count 0', { rows, problems: page.problems });
  await page.close();
}

(async () => {
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
           '--disable-component-update', '--disable-sync', '--force-color-profile=srgb', '--font-render-hinting=none']
  });
  try {
    for (const t of [testFixture, testScreenshot, testKeyboard, testState, testDeep, testHostile, testDiff,
                     testTransforms, testControls, testVirtualRows, testCounters, testSampled, testThreads,
                     testSymspec, testScreenReader, testStatic]) {
      try { await t(browser); } catch (e) { ok(false, t.name + ' ran to its end', e.stack); }
    }
  } finally {
    await browser.close();
  }
  console.log(`# counted ${count} failed ${failed}`);
  process.exit(failed ? 1 : 0);
})();
