/*
 * The memory of a whole browser: the PSS of a process and all its
 * descendants (Chromium's renderer, GPU and utility processes), in MB.
 */
'use strict';
const fs = require('fs');

function pssTree(pid) {
  let kb = 0;
  const kids = (p) => {
    try { return fs.readFileSync(`/proc/${p}/task/${p}/children`, 'utf8').trim().split(/\s+/).filter(Boolean); } catch (e) { return []; }
  };
  const walk = (p) => {
    try {
      const m = /Pss:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${p}/smaps_rollup`, 'utf8'));
      if (m) kb += Number(m[1]);
    } catch (e) { /* gone */ }
    kids(p).forEach(walk);
  };
  walk(pid);
  return kb / 1024;
}

module.exports = { pssTree };
