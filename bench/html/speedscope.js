/*
 * The same profile in speedscope (npm package "speedscope", its offline
 * build), for comparison: folded stacks from `callscope export --format
 * folded` are opened through its file input, as a user would.  Prints one
 * JSON line: time from choosing the file to the flame chart's first frame,
 * and the browser's memory (PSS over its processes).
 *
 *   node speedscope.js SPEEDSCOPE_DIR/dist/release/index.html PROFILE.folded
 */
'use strict';
const fs = require('fs');
const path = require('path');
const { pssTree } = require('./pss');
const { chromium } = require(path.join(__dirname, '../../tests/html/node_modules/playwright-core'));

(async () => {
  const [index, profile] = process.argv.slice(2).map((p) => path.resolve(p));
  const server = await chromium.launchServer({
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
           '--disable-component-update', '--disable-sync', '--js-flags=--expose-gc']
  });
  const browser = await chromium.connect(server.wsEndpoint());
  const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto('file://' + index);
  const input = await page.waitForSelector('input[type=file]', { state: 'attached' });
  const t0 = Date.now();
  await input.setInputFiles(profile);
  let ms = null;
  try {
    /* the flame chart view replaces the drop screen */
    await page.waitForFunction(() => !document.querySelector('input[type=file]') && document.querySelectorAll('canvas').length > 0,
                               null, { timeout: 300000, polling: 50 });
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    ms = Date.now() - t0;
  } catch (e) { errors.push(String(e.message).split('\n')[0]); }
  await page.evaluate(() => window.gc && window.gc()).catch(() => {});
  await page.waitForTimeout(500);
  console.log(JSON.stringify({ tool: 'speedscope', file: path.basename(profile), bytes: fs.statSync(profile).size,
                               firstDrawMs: ms, browserPssMB: pssTree(server.process().pid), errors }));
  await browser.close();
  await server.close();
})();
