/*
 * Measures one page of `callscope html` in Debian's headless Chromium:
 * time to the first drawn flame graph, zoom and search latency (the
 * viewer's own synchronous paths, timed inside the page), and the memory
 * of the whole browser (PSS summed over its processes) and of the page's
 * JavaScript heap.  Prints one JSON line.
 *
 *   node measure.js PAGE.html        (playwright-core from tests/html)
 */
'use strict';
const fs = require('fs');
const path = require('path');
const { pssTree } = require('./pss');
const { chromium } = require(path.join(__dirname, '../../tests/html/node_modules/playwright-core'));

(async () => {
  const file = path.resolve(process.argv[2]);
  const server = await chromium.launchServer({
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
           '--disable-component-update', '--disable-sync', '--enable-precise-memory-info',
           '--js-flags=--expose-gc']
  });
  const browser = await chromium.connect(server.wsEndpoint());
  const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
  await page.goto('file://' + file);
  await page.waitForFunction(() => window.__callscope && (window.__callscope.ready || window.__callscope.error), null, { timeout: 120000 });
  const r = await page.evaluate(() => {
    const h = window.__callscope, t = h.timings;
    const rects = h.flameRects().filter((x) => !x.fold && x.node > 0);
    /* zoom into the widest frames three levels down, then back to the root */
    const targets = [2, 3, 4, 6].map((d) => rects.filter((x) => x.depth === d).sort((a, b) => b.w - a.w)[0]).filter(Boolean);
    const zoom = targets.map((x) => h.zoom(x.node));
    zoom.push(h.zoom(0));
    const search = ['f1[0-3]', '^f2', 'f34[0-9]$', ''].map((q) => h.search(q));
    /* what stays alive, not what awaits the collector */
    if (window.gc) window.gc();
    return {
      error: h.error, nodes: h.tree().n, firstDrawMs: t.firstDrawMs, inflateMs: t.inflateMs, modelMs: t.modelMs,
      zoomMs: zoom, searchMs: search, heapMB: performance.memory ? performance.memory.usedJSHeapSize / 1048576 : null,
      rects: rects.length
    };
  });
  await page.waitForTimeout(500);
  const res = Object.assign({ file: path.basename(file), bytes: fs.statSync(file).size }, r,
    { browserPssMB: pssTree(server.process().pid), errors });
  console.log(JSON.stringify(res));
  await browser.close();
  await server.close();
})();
