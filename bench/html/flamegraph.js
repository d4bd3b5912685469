/*
 * FlameGraph's SVG of the same profile, for comparison: folded stacks
 * (`callscope export --format folded`) drawn by the npm package
 * "flamegraph" (a port of Brendan Gregg's flamegraph.pl: the same flow
 * merge, the same SVG, frames under 0.1 px left out), then opened in
 * Debian's headless Chromium (inline in an HTML page, see below).  Prints one JSON line: the time to make the
 * SVG, its size and frames, the time until the browser has drawn it, and
 * the browser's memory (PSS of all its processes).
 *
 *   node flamegraph.js FLAMEGRAPH_DIR FILE.folded OUT.svg
 *
 * FLAMEGRAPH_DIR holds node_modules/flamegraph (run.sh installs it).
 */
'use strict';
const fs = require('fs');
const path = require('path');
const { chromium } = require(path.join(__dirname, '../../tests/html/node_modules/playwright-core'));
const { pssTree } = require('./pss');

const [dir, folded, out] = process.argv.slice(2);
const flamegraph = require(path.join(path.resolve(dir), 'node_modules/flamegraph'));

/* The folded lines as the tree the package's flow merge walks. */
function tree(file) {
  const head = { functionName: 'all', url: '', children: [], hitCount: 0, kids: new Map() };
  for (const line of fs.readFileSync(file, 'utf8').split('\n')) {
    const sp = line.lastIndexOf(' ');
    if (sp <= 0) continue;
    let node = head;
    for (const name of line.slice(0, sp).split(';')) {
      let k = node.kids.get(name);
      if (!k) {
        k = { functionName: name, url: '', children: [], hitCount: 0, kids: new Map() };
        node.kids.set(name, k);
        node.children.push(k);
      }
      node = k;
    }
    node.hitCount += Number(line.slice(sp + 1));
  }
  return head;
}

(async () => {
  const res = { tool: 'flamegraph', file: path.basename(folded), errors: [] };
  const t0 = Date.now();
  const svg = flamegraph.fromCpuProfile({ head: tree(folded) }, {});
  res.svgMs = Date.now() - t0;
  fs.writeFileSync(out, svg);
  res.bytes = Buffer.byteLength(svg);
  res.frames = (svg.match(/<g class="func_g/g) || []).length;

  const server = await chromium.launchServer({
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking',
           '--disable-component-update', '--disable-sync']
  });
  const browser = await chromium.connect(server.wsEndpoint());
  const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
  page.on('pageerror', (e) => res.errors.push(e.message));
  /* The package writes "&&" unescaped in its frames' onmouseover, which
   * is not XML: opened as an .svg, the browser shows a parse error.  An
   * HTML page with the SVG inline parses it as its author meant. */
  const html = out.replace(/\.svg$/, '') + '.svg.html';
  fs.writeFileSync(html, '<!DOCTYPE html><meta charset="utf-8"><body style="margin:0">' + svg);
  const t1 = Date.now();
  await page.goto('file://' + path.resolve(html), { timeout: 600000 });
  /* two animation frames after load: the SVG has been drawn */
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  res.firstDrawMs = Date.now() - t1;
  res.browserPssMB = pssTree(server.process().pid);
  console.log(JSON.stringify(res));
  await browser.close();
  await server.close();
})().catch((e) => { console.error(e); process.exit(1); });
