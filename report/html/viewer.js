/*
 * callscope html: the viewer.  No framework, no network: the profile is
 * the base64 text of the #cs-data element, raw deflate, decoded with the
 * browser's DecompressionStream; its layout is in docs/html.md.
 *
 * The model is columnar: typed arrays per field.  A call tree is in
 * preorder, so a node's subtree is the index range [i, i + size[i]) and
 * its children are found by skipping subtrees.  Every view (flame graph,
 * call tree, bottom-up, sandwich, top functions, timeline, diff) reads the
 * "current" tree: the recorded one, or one rebuilt for a timeline range,
 * then through the transforms (focus, hide, merge, collapse recursion).
 * Names reach the page only through textContent and canvas fillText.
 */
(function () {
  'use strict';

  var ROW = 18;            /* flame graph row height, CSS px */
  var TL_ROW = 16;         /* timeline row height */
  var TL_HEAD = 20;        /* timeline lane header */
  var TL_AXIS = 22;        /* timeline time axis */
  var MIN_W = 1;           /* narrower frames are folded into one counted box */
  var ELLIPSIS = '\u2026';

  var doc = document;
  var hook = { ready: false, error: null, timings: {}, draws: 0 };
  window.__callscope = hook;

  function $(id) { return doc.getElementById(id); }
  function el(tag, attrs, text) {
    var e = doc.createElement(tag);
    if (attrs) for (var k in attrs) if (attrs[k] !== null && attrs[k] !== undefined) e.setAttribute(k, attrs[k]);
    if (text !== undefined && text !== null) e.textContent = text;
    return e;
  }
  function now() { return performance.now(); }

  /* ---------------- formatting (as report/units.c) ---------------- */

  function fmtDuration(ns) {
    var units = ['ns', 'us', 'ms', 's'], u = 0;
    while (u < 3 && ns >= 999.9995) { ns /= 1000; u++; }
    return (u === 0 ? ns.toFixed(0) : ns.toFixed(3)) + ' ' + units[u];
  }
  function fmtCount(n) { return String(Math.round(n)); }
  function fmtPct(v, whole) { return (whole ? 100 * v / whole : 0).toFixed(2) + '%'; }
  function fmtSigned(v, fmt) { return (v > 0 ? '+' : v < 0 ? '\u2212' : '') + fmt(Math.abs(v)); }

  /* ---------------- decoding ---------------- */

  function base64Bytes(text) {
    if (Uint8Array.fromBase64) return Uint8Array.fromBase64(text);
    var s = atob(text), out = new Uint8Array(s.length);
    for (var i = 0; i < s.length; i++) out[i] = s.charCodeAt(i);
    return out;
  }

  function inflate(bytes) {
    var stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream('deflate-raw'));
    return new Response(stream).arrayBuffer().then(function (b) { return new Uint8Array(b); });
  }

  function parseContainer(raw) {
    var magic = 'CSHTML1\n';
    for (var i = 0; i < 8; i++)
      if (raw[i] !== magic.charCodeAt(i)) throw new Error('not a callscope report data block');
    var len = raw[8] | raw[9] << 8 | raw[10] << 16 | raw[11] << 24;
    var meta = JSON.parse(new TextDecoder().decode(raw.subarray(12, 12 + len)));
    var cols = {}, at = 12 + len;
    meta.columns.forEach(function (c) {
      if (at + c.bytes > raw.length) throw new Error('data block truncated at column ' + c.name);
      cols[c.name] = { enc: c.enc, count: c.count, bytes: raw.subarray(at, at + c.bytes) };
      at += c.bytes;
    });
    return { meta: meta, cols: cols };
  }

  /* LEB128 into a typed array (Float64Array keeps every integer < 2^53). */
  function decodeU(col, Type) {
    var out = new (Type || Float64Array)(col ? col.count : 0);
    if (!col) return out;
    var b = col.bytes, p = 0;
    for (var k = 0; k < col.count; k++) {
      var v = 0, mul = 1, c;
      do { c = b[p++]; v += (c & 127) * mul; mul *= 128; } while (c & 128);
      out[k] = v;
    }
    return out;
  }
  function decodeS(col, Type) {
    var u = decodeU(col), out = new (Type || Float64Array)(u.length);
    for (var k = 0; k < u.length; k++) out[k] = u[k] % 2 ? -(u[k] + 1) / 2 : u[k] / 2;
    return out;
  }
  function decodeStrings(col) {
    if (!col || !col.count) return [];
    var s = new TextDecoder().decode(col.bytes).split('\0');
    s.length = col.count;
    return s;
  }

  /* ---------------- the model ---------------- */

  var M = null;  /* meta, funcs F, base funcs B, data tree, timeline */

  function Funcs(cols, prefix, n) {
    var g = function (name) { return decodeU(cols[prefix + name]); };
    this.present = cols[prefix + 'present'] ? g('present') : null;
    this.listed = g('listed'); this.rank = g('rank'); this.calls = g('calls');
    this.self = g('self.time'); this.total = g('total.time'); this.min = g('min.time');
    this.avg = g('avg.time'); this.max = g('max.time'); this.sumcall = g('sumcall.time');
    this.vr = g('virtual_returns'); this.unwound = g('unwound'); this.cycle = g('cycle');
    /* a count run without per-call times: min and max are not known */
    this.untimed = cols[prefix + 'calls_untimed'] ? g('calls_untimed') : null;
    /* record -e: counters c1, c2, themselves and with their callees */
    this.cself = {}; this.ctotal = {};
    var f = this;
    /* record --sample: samples are one more such pair */
    ['c1', 'c2', 'samples'].forEach(function (c) {
      if (!cols[prefix + 'self.' + c]) return;
      f.cself[c] = g('self.' + c); f.ctotal[c] = g('total.' + c);
    });
    this.unreliable = cols[prefix + 'counters_unreliable'] ? g('counters_unreliable') : null;
    this.n = n;
  }

  function Tree(n, metrics, hasBase) {
    this.n = n;
    this.func = new Int32Array(n);
    this.depth = new Int32Array(n);
    this.parent = new Int32Array(n);
    this.size = new Int32Array(n);
    this.cut = new Float64Array(n);
    this.self = {};
    this.bself = hasBase ? {} : null;
    var t = this;
    metrics.forEach(function (m) {
      t.self[m] = new Float64Array(n);
      if (hasBase) t.bself[m] = new Float64Array(n);
    });
    this.metrics = metrics;
    this.tot = {};
    this.btot = {};
    this.maxDepth = 0;
  }
  /* parent and size from the depths of a preorder */
  Tree.prototype.shape = function () {
    var n = this.n, depth = this.depth, parent = this.parent, size = this.size;
    var last = new Int32Array(16), maxd = 0;
    parent[0] = -1;
    for (var i = 1; i < n; i++) {
      var d = depth[i];
      if (d >= last.length) { var g = new Int32Array(last.length * 2 + d); g.set(last); last = g; }
      parent[i] = last[d - 1];
      last[d] = i;
      if (d > maxd) maxd = d;
    }
    for (i = 0; i < n; i++) size[i] = 1;
    for (i = n - 1; i > 0; i--) size[parent[i]] += size[i];
    this.maxDepth = maxd;
  };
  Tree.prototype.total = function (m) {
    var t = this.tot[m];
    if (t) return t;
    t = Float64Array.from(this.self[m]);
    for (var i = this.n - 1; i > 0; i--) t[this.parent[i]] += t[i];
    return (this.tot[m] = t);
  };
  Tree.prototype.btotal = function (m) {
    if (!this.bself) return null;
    var t = this.btot[m];
    if (t) return t;
    t = Float64Array.from(this.bself[m]);
    for (var i = this.n - 1; i > 0; i--) t[this.parent[i]] += t[i];
    return (this.btot[m] = t);
  };
  Tree.prototype.children = function (i) {
    var out = [], e = i + this.size[i];
    for (var c = i + 1; c < e; c += this.size[c]) out.push(c);
    return out;
  };
  Tree.prototype.path = function (i) {
    var p = [];
    for (; i >= 0; i = this.parent[i]) p.push(i);
    return p.reverse();
  };

  /*
   * Builds a tree by merging paths: child(parent, func) finds or makes a
   * node, add() puts a source node's own values on it; finish() sums
   * totals and lays it out in preorder, heaviest child first by SORTM.
   */
  function Builder(metrics, hasBase) {
    this.metrics = metrics;
    this.hasBase = hasBase;
    this.cap = 1024;
    this.n = 1;
    this.parent = new Int32Array(this.cap);
    this.func = new Int32Array(this.cap);
    this.cut = new Float64Array(this.cap);
    this.vals = {}; this.bvals = {};
    var b = this;
    metrics.forEach(function (m) {
      b.vals[m] = new Float64Array(b.cap);
      if (hasBase) b.bvals[m] = new Float64Array(b.cap);
    });
    this.parent[0] = -1;
    this.func[0] = -1;
    this.keymul = (M ? M.F.n : 0) + 3;
    this.map = new Map();
  }
  Builder.prototype.grow = function () {
    var cap = this.cap * 2, b = this;
    function g(a, T) { var x = new T(cap); x.set(a); return x; }
    this.parent = g(this.parent, Int32Array);
    this.func = g(this.func, Int32Array);
    this.cut = g(this.cut, Float64Array);
    this.metrics.forEach(function (m) {
      b.vals[m] = g(b.vals[m], Float64Array);
      if (b.hasBase) b.bvals[m] = g(b.bvals[m], Float64Array);
    });
    this.cap = cap;
  };
  Builder.prototype.child = function (p, f) {
    var key = p * this.keymul + f + 2, id = this.map.get(key);
    if (id !== undefined) return id;
    if (this.n === this.cap) this.grow();
    id = this.n++;
    this.parent[id] = p;
    this.func[id] = f;
    this.map.set(key, id);
    return id;
  };
  Builder.prototype.add = function (id, src, i) {
    var ms = this.metrics;
    for (var k = 0; k < ms.length; k++) {
      this.vals[ms[k]][id] += src.self[ms[k]][i];
      if (this.hasBase && src.bself) this.bvals[ms[k]][id] += src.bself[ms[k]][i];
    }
    this.cut[id] += src.cut[i];
  };
  Builder.prototype.finish = function (sortm) {
    var n = this.n, parent = this.parent, func = this.func;
    var key = Float64Array.from(this.vals[sortm].subarray(0, n));
    for (var i = n - 1; i > 0; i--) key[parent[i]] += key[i];
    /* children of each node, grouped (CSR) */
    var start = new Int32Array(n + 1);
    for (i = 1; i < n; i++) start[parent[i] + 1]++;
    for (i = 0; i < n; i++) start[i + 1] += start[i];
    var fill = start.slice(0, n), kids = new Int32Array(Math.max(n - 1, 1));
    for (i = 1; i < n; i++) kids[fill[parent[i]]++] = i;
    var cmp = function (a, b) {
      if (key[a] !== key[b]) return key[b] - key[a];
      var na = nameOf(func[a]), nb = nameOf(func[b]);
      return na < nb ? -1 : na > nb ? 1 : func[a] - func[b];
    };
    for (i = 0; i < n; i++) {
      if (start[i + 1] - start[i] > 1) kids.subarray(start[i], start[i + 1]).sort(cmp);
    }
    var t = new Tree(n, this.metrics, this.hasBase);
    var stack = new Int32Array(n + 1), sp = 0, out = 0;
    var depthOf = new Int32Array(n);
    stack[sp++] = 0;
    while (sp) {
      var v = stack[--sp];
      t.func[out] = func[v];
      t.depth[out] = v ? depthOf[parent[v]] + 1 : 0;
      depthOf[v] = t.depth[out];
      t.cut[out] = this.cut[v];
      for (var k = 0; k < this.metrics.length; k++) {
        var m = this.metrics[k];
        t.self[m][out] = this.vals[m][v];
        if (this.hasBase) t.bself[m][out] = this.bvals[m][v];
      }
      out++;
      for (var c = start[v + 1] - 1; c >= start[v]; c--) stack[sp++] = kids[c];
    }
    t.shape();
    return t;
  };

  function nameOf(f) {
    if (f < 0) return 'all';
    if (f >= M.F.n) return '[smaller call paths]';
    return M.F.name[f];
  }

  function buildDataTree(cols, metrics, hasBase) {
    var n = cols['node.depth'].count + 1;
    var t = new Tree(n, metrics, hasBase);
    var dd = decodeU(cols['node.depth'], Int32Array);
    var fn = decodeU(cols['node.func'], Int32Array);
    t.func[0] = -1;
    for (var i = 1; i < n; i++) {
      t.depth[i] = t.depth[i - 1] + 1 - dd[i - 1];
      t.func[i] = fn[i - 1];
    }
    metrics.forEach(function (m) {
      t.self[m].set(decodeU(cols['node.self.' + m]), 1);
      if (hasBase) t.bself[m].set(decodeU(cols['base.node.self.' + m]), 1);
    });
    var cut = decodeU(cols['node.cut']), ci = 0, cf = M.F.n;
    for (i = 1; i < n && ci < cut.length; i++) if (t.func[i] === cf) t.cut[i] = cut[ci++];
    t.shape();
    return t;
  }

  /* Per thread: calls sorted by start, and an index by duration class
   * (level L holds calls of 2^L..2^(L+1) ns, by start), so drawing a
   * window visits only the calls wide enough to be seen. */
  function buildTimeline(meta, cols, tree) {
    var starts = decodeU(cols['tl.start']), durs = decodeU(cols['tl.dur']);
    var nodes = decodeS(cols['tl.node'], Float64Array);
    var lanes = [], at = 0;
    meta.thread_list.forEach(function (th, ti) {
      var n = th.timeline_calls, start = new Float64Array(n), dur = new Float64Array(n);
      var node = new Int32Array(n), s = 0, nd = 0, maxd = 0;
      var count = new Int32Array(65), lvl = new Uint8Array(n);
      for (var i = 0; i < n; i++) {
        s += starts[at + i]; nd += nodes[at + i];
        start[i] = s; dur[i] = durs[at + i]; node[i] = nd;
        var d = tree.depth[nd];
        if (d > maxd) maxd = d;
        var L = dur[i] < 1 ? 0 : Math.floor(Math.log2(dur[i]));
        lvl[i] = L; count[L + 1]++;
      }
      at += n;
      for (var L = 0; L < 64; L++) count[L + 1] += count[L];
      var order = new Int32Array(n), pos = count.slice(0, 64);
      for (i = 0; i < n; i++) order[pos[lvl[i]]++] = i;
      var levels = [];
      for (L = 0; L < 64; L++) {
        if (count[L + 1] === count[L]) continue;
        var idx = order.subarray(count[L], count[L + 1]), st = new Float64Array(idx.length);
        for (var k = 0; k < idx.length; k++) st[k] = start[idx[k]];
        levels.push({ L: L, idx: idx, start: st });
      }
      lanes.push({ info: th, index: ti, n: n, start: start, dur: dur, node: node, depth: maxd,
                   levels: levels });
    });
    var t0 = Infinity, t1 = 0, c0 = Infinity, c1 = 0;
    meta.thread_list.forEach(function (th) {
      if (th.start_ns < t0) t0 = th.start_ns;
      if (th.end_ns > t1) t1 = th.end_ns;
    });
    lanes.forEach(function (ln) {
      for (var q = 0; q < ln.levels.length; q++) {
        var lv = ln.levels[q];
        if (lv.start[0] < c0) c0 = lv.start[0];
      }
      for (var i = 0; i < ln.n; i++) if (ln.start[i] + ln.dur[i] > c1) c1 = ln.start[i] + ln.dur[i];
    });
    if (!(t0 < t1)) { t0 = 0; t1 = 1; }
    /* the first view: from the first call shown to the last one's end */
    if (!(c0 < c1)) { c0 = t0; c1 = t1; }
    return { lanes: lanes, t0: t0, t1: t1, c0: c0, c1: c1 };
  }

  function buildModel(c) {
    var meta = c.meta, cols = c.cols;
    var names = decodeStrings(cols['func.name']);
    var objects = decodeStrings(cols.objects);
    var objIdx = decodeU(cols['func.object'], Int32Array);
    M = { meta: meta, diff: !!meta.base };
    M.metrics = meta.metrics.map(function (m) { return m.id; });
    M.metricInfo = {};
    meta.metrics.forEach(function (m) { M.metricInfo[m.id] = m; });
    M.F = new Funcs(cols, 'func.', names.length);
    M.F.name = names;
    M.F.object = Array.prototype.map.call(objIdx, function (k) { return objects[k] || ''; });
    M.B = M.diff ? new Funcs(cols, 'base.func.', names.length) : null;
    M.tree = buildDataTree(cols, M.metrics, M.diff);
    M.lines = cols['line.weight'] ? {
      byTime: meta.cuts.lines_unit === 'ns',
      file: decodeU(cols['line.file'], Int32Array), line: decodeU(cols['line.line'], Int32Array),
      func: decodeU(cols['line.func'], Int32Array), samples: decodeU(cols['line.weight']),
      files: decodeStrings(cols.files), srcFile: decodeU(cols['src.file'], Int32Array),
      srcLine: decodeU(cols['src.line'], Int32Array), srcText: decodeStrings(cols['src.text'])
    } : null;
    M.tl = buildTimeline(meta, cols, M.tree);
    /* html --static: the calls in the code that never ran (count 0) */
    M.staticArcs = cols['static.caller'] ? {
      caller: decodeU(cols['static.caller'], Int32Array), callee: decodeU(cols['static.callee'], Int32Array),
      tail: decodeU(cols['static.tail'], Int32Array)
    } : null;
  }

  /* ---------------- derived trees ---------------- */

  var DROP = -1, OUTSIDE = -2;

  /* One transform over SRC: focus / hide / merge / rec (one function's
   * recursion, direct or not) / drec (every direct recursion). */
  function transform(src, tr, sortm) {
    var b = new Builder(src.metrics, !!src.bself);
    var map = new Int32Array(src.n), anc = new Int32Array(src.n + 1);
    var f0 = tr.f, kind = tr.k;
    map[0] = kind === 'focus' ? OUTSIDE : 0;
    anc[0] = -1;
    for (var i = 1; i < src.n; i++) {
      var p = map[src.parent[i]], f = src.func[i], id;
      if (p === DROP) { map[i] = DROP; continue; }
      if (p === OUTSIDE) {
        if (f === f0) { id = b.child(0, f); b.add(id, src, i); map[i] = id; }
        else map[i] = OUTSIDE;
        continue;
      }
      if (kind === 'hide' && f === f0) { map[i] = DROP; continue; }
      if (kind === 'merge' && f === f0) { map[i] = p; b.add(p, src, i); continue; }
      if (kind === 'rec' && f === f0 && anc[p] >= 0) { map[i] = anc[p]; b.add(anc[p], src, i); continue; }
      if (kind === 'drec' && p !== 0 && b.func[p] === f) { map[i] = p; b.add(p, src, i); continue; }
      id = b.child(p, f);
      b.add(id, src, i);
      map[i] = id;
      anc[id] = f === f0 ? id : anc[p];
    }
    return b.finish(sortm);
  }

  /* The calls of the timeline inside [a, b], clipped: each call's time
   * is its own node's, less its kept callees'.  Calls left off the
   * timeline (too short) count in their callers' self time. */
  function rangeTree(a, bnd, sortm) {
    var tree = M.tree, n = tree.n;
    var self = new Float64Array(n), calls = new Float64Array(n);
    var fmin = new Float64Array(M.F.n + 1).fill(Infinity), fmax = new Float64Array(M.F.n + 1);
    var fsum = new Float64Array(M.F.n + 1), fcnt = new Float64Array(M.F.n + 1);
    M.tl.lanes.forEach(function (ln) {
      for (var i = 0; i < ln.n; i++) {
        var s = ln.start[i], e = s + ln.dur[i];
        if (s >= bnd) break;
        if (e <= a) continue;
        var clip = Math.min(e, bnd) - Math.max(s, a), nd = ln.node[i], p = tree.parent[nd];
        self[nd] += clip;
        if (p > 0) self[p] -= clip;
        if (s >= a) calls[nd] += 1;
        var f = tree.func[nd];
        if (clip < fmin[f]) fmin[f] = clip;
        if (clip > fmax[f]) fmax[f] = clip;
        fsum[f] += clip; fcnt[f] += 1;
      }
    });
    var src = { n: n, parent: tree.parent, func: tree.func, cut: tree.cut,
                self: { time: self, calls: calls }, bself: null, metrics: ['time', 'calls'] };
    var b = new Builder(['time', 'calls'], false), map = new Int32Array(n);
    var keep = new Uint8Array(n);
    for (var i = n - 1; i > 0; i--) {
      if (self[i] > 0 || calls[i] > 0) keep[i] = 1;
      if (keep[i]) keep[tree.parent[i]] = 1;
    }
    for (i = 1; i < n; i++) {
      if (!keep[i]) continue;
      map[i] = b.child(map[tree.parent[i]], tree.func[i]);
      b.add(map[i], src, i);
    }
    var t = b.finish(sortm === 'calls' ? 'calls' : 'time');
    t.rangeStats = { min: fmin, max: fmax, sum: fsum, count: fcnt };
    return t;
  }

  /* ---------------- state, kept in the URL fragment ---------------- */

  var S = {
    view: 'flame', metric: 'time', icicle: false, zoom: 0, q: '', tr: [], sw: -1,
    range: null, theme: '', thr: 1, tl: null
  };
  var VIEWS = [
    { id: 'flame', label: 'Flame graph' },
    { id: 'tree', label: 'Call tree' },
    { id: 'bottomup', label: 'Bottom-up' },
    { id: 'sandwich', label: 'Sandwich' },
    { id: 'top', label: 'Top functions' },
    { id: 'timeline', label: 'Timeline' },
    { id: 'source', label: 'Source' },
    { id: 'diff', label: 'Diff table' }
  ];
  /* a view the data has: a diff needs a base, the source view lines */
  function hasView(id) { return id === 'diff' ? M.diff : id === 'source' ? !!M.lines : true; }

  function encodeState() {
    var p = [];
    p.push('v=' + S.view);
    if (S.metric !== firstMetric()) p.push('m=' + S.metric);
    if (S.icicle) p.push('o=icicle');
    if (S.zoom) p.push('z=' + S.zoom);
    if (S.q) p.push('q=' + encodeURIComponent(S.q));
    if (S.tr.length) p.push('t=' + S.tr.map(function (t) { return t.k + (t.f >= 0 ? t.f : ''); }).join('.'));
    if (S.sw >= 0) p.push('s=' + S.sw);
    if (S.range) p.push('r=' + Math.round(S.range[0]) + '-' + Math.round(S.range[1]));
    if (S.theme) p.push('th=' + S.theme);
    if (S.thr !== 1) p.push('thr=' + S.thr);
    if (S.tl) p.push('w=' + Math.round(S.tl[0]) + '-' + Math.round(S.tl[1]));
    return '#' + p.join('&');
  }

  function decodeState(hash) {
    var s = { view: 'flame', metric: firstMetric(), icicle: false, zoom: 0, q: '', tr: [], sw: -1,
              range: null, theme: S.theme, thr: 1, tl: null };
    (hash || '').replace(/^#/, '').split('&').forEach(function (kv) {
      var i = kv.indexOf('='), k = i < 0 ? kv : kv.slice(0, i), v = i < 0 ? '' : kv.slice(i + 1);
      var num = Number(v);
      switch (k) {
        case 'v': if (VIEWS.some(function (x) { return x.id === v; })) s.view = v; break;
        case 'm': if (M.metrics.indexOf(v) >= 0) s.metric = v; break;
        case 'o': s.icicle = v === 'icicle'; break;
        case 'z': if (num >= 0 && num === Math.floor(num)) s.zoom = num; break;
        case 'q': try { s.q = decodeURIComponent(v); } catch (e) { s.q = ''; } break;
        case 't':
          v.split('.').forEach(function (t) {
            var m = /^(focus|hide|merge|rec|drec)(\d*)$/.exec(t);
            if (m) s.tr.push({ k: m[1], f: m[2] === '' ? -1 : Number(m[2]) });
          });
          break;
        case 's': if (num >= 0 && num < M.F.n) s.sw = num; break;
        case 'r': case 'w': {
          var m2 = /^(\d+)-(\d+)$/.exec(v);
          if (m2 && Number(m2[1]) < Number(m2[2])) s[k === 'r' ? 'range' : 'tl'] = [Number(m2[1]), Number(m2[2])];
          break;
        }
        case 'th': if (v === 'dark' || v === 'light') s.theme = v; break;
        case 'thr': if (num >= 0 && num <= 100) s.thr = num; break;
      }
    });
    if (!hasView(s.view)) s.view = 'flame';
    return s;
  }

  var lastHash = '';
  function commit(push) {
    var h = encodeState();
    if (h === lastHash) return;
    lastHash = h;
    if (push) history.pushState(null, '', h);
    else history.replaceState(null, '', h);
  }

  /* ---------------- the current tree ---------------- */

  var cur = { key: '', tree: null };
  function currentTree() {
    var key = (S.range ? S.range.join('-') : '') + '|' + S.tr.map(function (t) { return t.k + t.f; }).join('.');
    if (cur.key === key && cur.tree) return cur.tree;
    var t = S.range ? rangeTree(S.range[0], S.range[1], 'time') : M.tree;
    S.tr.forEach(function (tr) { t = transform(t, tr, M.metrics[0]); });
    cur = { key: key, tree: t };
    search.nodes = null;
    return t;
  }
  function metricOf(t) { return t.self[S.metric] ? S.metric : 'time'; }
  /* the metric the page opens with: the data's first (samples in a
   * sampled-only run, time otherwise) */
  function firstMetric() { return M ? M.metrics[0] : 'time'; }

  /* ---------------- search ---------------- */

  var search = { re: null, object: '', match: null, nodes: null, at: -1, error: '' };
  function setSearch(q) {
    S.q = q;
    search.re = null; search.match = null; search.nodes = null; search.at = -1; search.error = '';
    search.object = '';
    if (q) {
      var spec = splitSpec(q);
      search.object = spec[0];
      try { search.re = new RegExp(spec[1]); } catch (e) { search.error = 'not a valid regular expression'; }
    }
    if (search.re) {
      var m = new Uint8Array(M.F.n + 1), re = search.re, obj = search.object;
      for (var f = 0; f < M.F.n; f++)
        m[f] = re.test(M.F.name[f]) && (!obj || baseName(M.F.object[f]) === obj) ? 1 : 0;
      search.match = m;
    }
  }
  function baseName(path) { return path.slice(path.lastIndexOf('/') + 1); }
  /* The CLI's symbol spec OBJECT:NAME (report, tree, graph): OBJECT is a
   * file name the profile has, NAME here a regular expression.  Returns
   * [object, expression], object '' when Q is no such spec. */
  function splitSpec(q) {
    var m = /^([^:]+):(?!:)([^]*)$/.exec(q);
    if (!m || !M.F.object.some(function (o) { return baseName(o) === m[1]; })) return ['', q];
    return [m[1], m[2]];
  }
  function matchedNodes(t) {
    if (!search.match) return [];
    if (search.nodes && search.nodes.tree === t) return search.nodes.list;
    var list = [];
    for (var i = 1; i < t.n; i++) if (t.func[i] >= 0 && search.match[t.func[i]]) list.push(i);
    search.nodes = { tree: t, list: list };
    return list;
  }
  /* matched weight, each stack counted once */
  function matchedWeight(t, m) {
    var tot = t.total(m), sum = 0, match = search.match;
    for (var i = 1; i < t.n;) {
      if (match[t.func[i]]) { sum += tot[i]; i += t.size[i]; } else i++;
    }
    return sum;
  }

  /* ---------------- colours ---------------- */

  var theme = {};
  function readTheme() {
    var cs = getComputedStyle(doc.documentElement);
    ['--bg', '--fg', '--muted', '--line', '--panel', '--sel', '--match', '--grow', '--shrink', '--same', '--accent']
      .forEach(function (v) { theme[v.slice(2)] = cs.getPropertyValue(v).trim(); });
    theme.dark = isDark();
  }
  function isDark() {
    if (S.theme) return S.theme === 'dark';
    return window.matchMedia && window.matchMedia('(prefers-color-scheme: dark)').matches;
  }
  var colourCache = new Map();
  function hashName(s) {
    var h = 2166136261;
    for (var i = 0; i < s.length; i++) { h ^= s.charCodeAt(i); h = Math.imul(h, 16777619); }
    return h >>> 0;
  }
  function frameColour(f) {
    var key = f + (theme.dark ? 'd' : 'l'), c = colourCache.get(key);
    if (c) return c;
    if (f < 0 || f >= M.F.n) c = theme.dark ? '#3a4048' : '#c8ccd2';
    else {
      var h = hashName(M.F.name[f]);
      var hue = 10 + (h % 45), sat = 70 + (h >>> 8) % 25, lig = 55 + (h >>> 16) % 15;
      if (theme.dark) lig -= 18;
      c = 'hsl(' + hue + ',' + sat + '%,' + lig + '%)';
    }
    colourCache.set(key, c);
    return c;
  }
  function diffColour(delta, scale) {
    if (!delta || !scale) return theme.dark ? '#4a5059' : '#d5d9de';
    var k = Math.min(1, Math.abs(delta) / scale);
    var lig = theme.dark ? 30 + 25 * k : 88 - 40 * k;
    return delta > 0 ? 'hsl(4,80%,' + lig + '%)' : 'hsl(216,80%,' + lig + '%)';
  }

  /* ---------------- the flame graph ---------------- */

  /*
   * One flame graph on a canvas in a vertically scrolled box.  Rows are
   * tree depths; the zoomed node spans the width, its ancestors are full
   * rows above (or below) it; frames narrower than MIN_W are folded per
   * run of siblings into one "[N smaller frames]" box of their total
   * width, so no weight disappears.
   */
  function Flame(box, opts) {
    this.box = box;
    this.opts = opts;
    this.canvas = el('canvas');
    this.spacer = el('div', { 'class': 'cs-spacer' });
    box.appendChild(this.canvas);
    box.appendChild(this.spacer);
    this.layout = null;
    this.sel = -1;          /* selected rect index */
    var self = this;
    box.addEventListener('scroll', function () { self.requestDraw(); });
    this.canvas.addEventListener('mousemove', function (e) { self.hover(e); });
    this.canvas.addEventListener('mouseleave', function () { tip.hide(); });
    this.canvas.addEventListener('click', function (e) {
      var r = self.hit(e);
      if (r >= 0) { self.select(r); self.opts.onZoom(self, r); }
    });
    box.addEventListener('keydown', function (e) { self.key(e); });
  }
  Flame.prototype.set = function (tree, zoom, metric, icicle) {
    this.tree = tree;
    this.zoom = zoom >= 0 && zoom < tree.n ? zoom : 0;
    this.metric = metric;
    this.icicle = icicle;
    this.relayout();
  };
  Flame.prototype.relayout = function () {
    var t0 = now();
    var W = Math.max(100, this.box.clientWidth || 800);
    this.width = W;
    this.layout = layoutFlame(this.tree, this.zoom, this.metric, W);
    this.spacer.style.height = Math.max(0, (this.layout.maxDepth + 1) * ROW) + 'px';
    this.canvas.style.marginBottom = '-' + this.canvas.style.height;
    this.sel = -1;
    if (this.pendingSelNode !== undefined) {
      this.sel = this.rectOf(this.pendingSelNode);
      this.pendingSelNode = undefined;
    }
    if (!this.icicle && !this.scrolledOnce) {
      this.scrolledOnce = true;
    }
    this.layoutMs = now() - t0;
  };
  Flame.prototype.rectOf = function (node) {
    var L = this.layout;
    for (var k = 0; k < L.n; k++) if (L.node[k] === node && !L.fold[k]) return k;
    return -1;
  };
  /* the scrolled height: a flame graph shorter than its box sits on
   * the box's bottom */
  Flame.prototype.virtH = function () {
    return Math.max((this.layout.maxDepth + 1) * ROW, this.icicle ? 0 : this.box.clientHeight);
  };
  Flame.prototype.rowY = function (d) {
    return this.icicle ? d * ROW : this.virtH() - (d + 1) * ROW;
  };
  Flame.prototype.scrollToRoot = function () {
    this.box.scrollTop = this.icicle ? 0 : Math.max(0, this.virtH() - this.box.clientHeight);
  };
  Flame.prototype.ensureVisible = function (k) {
    if (k < 0) return;
    var y = this.rowY(this.layout.depth[k]), top = this.box.scrollTop, view = this.box.clientHeight;
    if (y < top) this.box.scrollTop = y;
    else if (y + ROW > top + view) this.box.scrollTop = y + ROW - view;
  };
  Flame.prototype.requestDraw = function () {
    var self = this;
    if (this.rafPending) return;
    this.rafPending = true;
    requestAnimationFrame(function () { self.rafPending = false; self.draw(); });
  };
  Flame.prototype.draw = function () {
    if (!this.layout || !this.box.clientWidth) return;
    var t0 = now();
    var L = this.layout, tree = this.tree, ratio = window.devicePixelRatio || 1;
    var W = this.box.clientWidth, Hv = this.box.clientHeight || 300;
    if (Math.abs(W - this.width) > 0.5) { this.relayout(); L = this.layout; }
    var c = this.canvas;
    if (c.width !== Math.round(W * ratio) || c.height !== Math.round(Hv * ratio)) {
      c.width = Math.round(W * ratio); c.height = Math.round(Hv * ratio);
      c.style.width = W + 'px'; c.style.height = Hv + 'px';
      c.style.marginBottom = '-' + Hv + 'px';
    }
    var ctx = c.getContext('2d');
    ctx.setTransform(ratio, 0, 0, ratio, 0, 0);
    ctx.fillStyle = theme.bg;
    ctx.fillRect(0, 0, W, Hv);
    ctx.font = '12px ' + getComputedStyle(doc.body).getPropertyValue('--mono');
    ctx.textBaseline = 'middle';
    var charW = ctx.measureText('MMMMMMMMMM').width / 10;
    var top = this.box.scrollTop, match = search.match, m = this.metric;
    var diff = tree.bself && !S.range, dself = null, dscale = 0;
    if (diff) {
      dself = function (i) { return tree.self[m][i] - tree.bself[m][i]; };
      dscale = L.maxAbsDelta;
    }
    var drawn = [];
    for (var d = 0; d <= L.maxDepth; d++) {
      var y = this.rowY(d) - top;
      if (y + ROW < 0 || y > Hv) continue;
      var row = L.rows[d];
      for (var q = 0; q < row.length; q++) {
        var k = row[q], x = L.x[k], w = L.w[k], node = L.node[k], f = L.fold[k] ? -2 : tree.func[node];
        var fill;
        if (L.fold[k]) fill = theme.dark ? '#30363d' : '#e1e4e8';
        else if (diff) fill = diffColour(L.delta[k], dscale);
        else fill = frameColour(f);
        ctx.globalAlpha = match && !L.fold[k] && !(f >= 0 && match[f]) && d > 0 ? 0.35 : 1;
        ctx.fillStyle = fill;
        ctx.fillRect(x, y, Math.max(w - 0.5, 0.5), ROW - 1);
        if (match && f >= 0 && match[f]) {
          ctx.globalAlpha = 1;
          ctx.strokeStyle = theme.match;
          ctx.lineWidth = 2;
          ctx.strokeRect(x + 1, y + 1, Math.max(w - 2.5, 0), ROW - 3);
        }
        if (w > 3 * charW) {
          var label = L.fold[k] ? '[' + L.fold[k] + ' smaller frames]' : nameOf(f);
          var max = Math.floor((w - 6) / charW);
          if (label.length > max) label = max > 1 ? label.slice(0, max - 1) + ELLIPSIS : '';
          ctx.fillStyle = theme.dark ? '#f0f3f6' : '#1b1f24';
          if (L.fold[k]) ctx.fillStyle = theme.muted;
          ctx.fillText(label, x + 3, y + ROW / 2);
        }
        drawn.push(k);
      }
    }
    ctx.globalAlpha = 1;
    if (this.sel >= 0) {
      var sy = this.rowY(L.depth[this.sel]) - top;
      ctx.strokeStyle = theme.sel;
      ctx.lineWidth = 2;
      ctx.strokeRect(L.x[this.sel] + 1, sy + 1, Math.max(L.w[this.sel] - 2, 1), ROW - 3);
    }
    this.drawn = drawn;
    this.drawMs = now() - t0;
    hook.draws++;
  };
  Flame.prototype.hit = function (e) {
    if (!this.layout) return -1;
    var r = this.canvas.getBoundingClientRect(), x = e.clientX - r.left, y = e.clientY - r.top + this.box.scrollTop;
    var d = this.icicle ? Math.floor(y / ROW) : Math.floor((this.virtH() - y) / ROW);
    if (d < 0 || d > this.layout.maxDepth) return -1;
    var row = this.layout.rows[d], lo = 0, hi = row.length - 1, L = this.layout;
    while (lo <= hi) {
      var mid = (lo + hi) >> 1, k = row[mid];
      if (x < L.x[k]) hi = mid - 1;
      else if (x >= L.x[k] + L.w[k]) lo = mid + 1;
      else return k;
    }
    return -1;
  };
  Flame.prototype.describe = function (k) {
    var L = this.layout, tree = this.tree, m = this.metric, tot = tree.total(m);
    var fmt = valueFormat(m), whole = tot[0];
    if (L.fold[k]) {
      return '[' + L.fold[k] + ' smaller frames]\n' + fmt(L.value[k]) + ' (' + fmtPct(L.value[k], whole) +
        ') in frames too narrow to draw at this zoom';
    }
    var i = L.node[k], f = tree.func[i];
    var s = nameOf(f) + '\n' + m + ': ' + fmt(tot[i]) + ' (' + fmtPct(tot[i], whole) + '), self ' + fmt(tree.self[m][i]);
    if (m !== 'calls' && tree.self.calls) s += '\ncalls: ' + fmtCount(tree.self.calls[i]);
    if (tree.cut[i]) s += '\n' + fmtCount(tree.cut[i]) + ' call paths folded here to fit the page budget';
    if (tree.bself && !S.range) {
      var bt = tree.btotal(m);
      s += '\nbase: ' + fmt(bt[i]) + ', change ' + fmtSigned(tot[i] - bt[i], fmt) + ' (self ' +
        fmtSigned(tree.self[m][i] - tree.bself[m][i], fmt) + ')';
    }
    if (f >= 0 && f < M.F.n && M.F.object[f]) s += '\n' + M.F.object[f];
    return s;
  };
  Flame.prototype.hover = function (e) {
    var k = this.hit(e);
    if (k < 0) { tip.hide(); this.canvas.style.cursor = ''; return; }
    this.canvas.style.cursor = 'pointer';
    tip.show(this.describe(k), e.clientX, e.clientY);
  };
  Flame.prototype.select = function (k) {
    this.sel = k;
    this.draw();
    if (k >= 0) {
      this.ensureVisible(k);
      announce(this.describe(k).replace(/\n/g, '; '));
      if (this.opts.onSelect) this.opts.onSelect(this, k);
    }
  };
  Flame.prototype.selectedNode = function () {
    return this.sel >= 0 && !this.layout.fold[this.sel] ? this.layout.node[this.sel] : -1;
  };
  Flame.prototype.key = function (e) {
    var L = this.layout;
    if (!L) return;
    var k = this.sel < 0 ? L.rows[this.zoomDepth()][0] : this.sel, d = L.depth[k], row, pos;
    var up = this.icicle ? 'ArrowDown' : 'ArrowUp', down = this.icicle ? 'ArrowUp' : 'ArrowDown';
    switch (e.key) {
      case up: {             /* towards the callees */
        var next = d + 1 <= L.maxDepth ? L.rows[d + 1] : null, best = -1;
        if (next) for (var q = 0; q < next.length; q++) {
          var c = next[q];
          if (L.x[c] >= L.x[k] - 0.01 && L.x[c] < L.x[k] + L.w[k]) { best = c; break; }
        }
        if (best >= 0) this.select(best);
        break;
      }
      case down:
        if (d > 0) {
          row = L.rows[d - 1];
          for (q = 0; q < row.length; q++) {
            c = row[q];
            if (L.x[c] <= L.x[k] + 0.01 && L.x[c] + L.w[c] >= L.x[k] + L.w[k] - 0.01) { this.select(c); break; }
          }
        }
        break;
      case 'ArrowLeft': case 'ArrowRight':
        row = L.rows[d]; pos = row.indexOf(k);
        pos += e.key === 'ArrowLeft' ? -1 : 1;
        if (pos >= 0 && pos < row.length) this.select(row[pos]);
        break;
      case 'Enter': case ' ':
        if (this.sel < 0) this.select(k);
        this.opts.onZoom(this, this.sel);
        break;
      case 'Escape':
        this.opts.onZoomOut(this);
        break;
      case 'Home':
        this.select(L.rows[0][0]);
        break;
      default:
        return;
    }
    e.preventDefault();
    e.stopPropagation();
  };
  Flame.prototype.zoomDepth = function () { return this.tree.depth[this.zoom]; };
  Flame.prototype.rects = function () {
    var L = this.layout, tree = this.tree, out = [];
    for (var k = 0; k < L.n; k++) {
      var i = L.node[k], fold = L.fold[k];
      out.push({
        name: fold ? '[' + fold + ' smaller frames]' : nameOf(tree.func[i]), node: fold ? -1 : i,
        parent: fold ? i : tree.parent[i], fold: fold, depth: L.depth[k], x: L.x[k], w: L.w[k],
        y: this.rowY(L.depth[k]), h: ROW, value: L.value[k],
        self: fold ? 0 : tree.self[this.metric][i], delta: L.delta ? L.delta[k] : 0,
        ancestor: !fold && L.depth[k] < tree.depth[this.zoom]
      });
    }
    return out;
  };

  function layoutFlame(tree, zoom, m, W) {
    var tot = tree.total(m), self = tree.self[m];
    var cap = 1024, n = 0;
    var node = new Int32Array(cap), x = new Float64Array(cap), w = new Float64Array(cap);
    var depth = new Int32Array(cap), fold = new Int32Array(cap), value = new Float64Array(cap);
    var diff = tree.bself && !S.range, delta = diff ? new Float64Array(cap) : null;
    var bself = diff ? tree.bself[m] : null, maxAbs = 0;
    function push(i, px, pw, d, f, v) {
      if (n === cap) {
        cap *= 2;
        var g = function (a, T) { var b = new T(cap); b.set(a); return b; };
        node = g(node, Int32Array); x = g(x, Float64Array); w = g(w, Float64Array);
        depth = g(depth, Int32Array); fold = g(fold, Int32Array); value = g(value, Float64Array);
        if (delta) delta = g(delta, Float64Array);
      }
      node[n] = i; x[n] = px; w[n] = pw; depth[n] = d; fold[n] = f; value[n] = v;
      if (delta) {
        var dv = f ? 0 : self[i] - bself[i];
        delta[n] = dv;
        if (Math.abs(dv) > maxAbs) maxAbs = Math.abs(dv);
      }
      return n++;
    }
    /* the ancestors, full width */
    var path = tree.path(zoom);
    for (var a = 0; a < path.length - 1; a++) push(path[a], 0, W, tree.depth[path[a]], 0, tot[path[a]]);
    var whole = tot[zoom] || 1, scale = W / whole, maxDepth = tree.depth[zoom];
    var stackN = [zoom], stackX = [0];
    var kids = [];
    while (stackN.length) {
      var i = stackN.pop(), xi = stackX.pop(), d = tree.depth[i];
      push(i, xi, tot[i] * scale, d, 0, tot[i]);
      if (d > maxDepth) maxDepth = d;
      var cx = xi, foldX = 0, foldN = 0, foldV = 0;
      kids.length = 0;
      var e = i + tree.size[i];
      for (var c = i + 1; c < e; c += tree.size[c]) {
        var cw = tot[c] * scale;
        if (cw < MIN_W) {
          if (!foldN) foldX = cx;
          foldN++; foldV += tot[c];
        } else {
          if (foldN) { push(i, foldX, foldV * scale, d + 1, foldN, foldV); foldN = 0; foldV = 0; }
          kids.push(c, cx);
        }
        cx += cw;
      }
      if (foldN) {
        push(i, foldX, foldV * scale, d + 1, foldN, foldV);
        if (d + 1 > maxDepth) maxDepth = d + 1;
      }
      for (var q = kids.length - 2; q >= 0; q -= 2) { stackN.push(kids[q]); stackX.push(kids[q + 1]); }
    }
    /* rows by depth, left to right */
    var rows = [];
    for (d = 0; d <= maxDepth; d++) rows.push([]);
    for (var k = 0; k < n; k++) rows[depth[k]].push(k);
    rows.forEach(function (r) { r.sort(function (p, q2) { return x[p] - x[q2]; }); });
    return { n: n, node: node, x: x, w: w, depth: depth, fold: fold, value: value, delta: delta,
             maxAbsDelta: maxAbs, rows: rows, maxDepth: maxDepth };
  }

  function valueFormat(m) {
    var info = M.metricInfo[m];
    return info && info.unit === 'ns' ? fmtDuration : fmtCount;
  }

  /* ---------------- tooltip and announcements ---------------- */

  var tip = {
    node: null,
    show: function (text, x, y) {
      if (!this.node) { this.node = el('div', { 'class': 'cs-tip', role: 'tooltip' }); doc.body.appendChild(this.node); }
      this.node.textContent = text;
      this.node.hidden = false;
      var w = this.node.offsetWidth, h = this.node.offsetHeight;
      var px = x + 14 + w > innerWidth ? x - w - 10 : x + 14, py = y + 16 + h > innerHeight ? y - h - 10 : y + 16;
      this.node.style.left = Math.max(0, px) + 'px';
      this.node.style.top = Math.max(0, py) + 'px';
    },
    hide: function () { if (this.node) this.node.hidden = true; }
  };
  var live;
  function announce(text) { if (live) live.textContent = text; }

  /* ---------------- the virtual grid ---------------- */

  /*
   * A table of any length with only its visible rows in the DOM; a tree
   * grid when the provider has levels.  Keyboard: arrows, Home/End,
   * PageUp/PageDown, Right/Left expand and collapse, Enter activates.
   */
  function Grid(container, label, columns, provider) {
    this.columns = columns;
    this.p = provider;
    this.focus = 0;
    var tmpl = columns.map(function (c) { return c.width || 'minmax(6em, 1fr)'; }).join(' ');
    this.tmpl = tmpl;
    var root = el('div', { 'class': 'cs-grid cs-scroll', role: provider.tree ? 'treegrid' : 'grid', 'aria-label': label,
                          'aria-readonly': 'true' });
    this.root = root;
    var head = el('div', { 'class': 'cs-head', role: 'row', 'aria-rowindex': '1' });
    head.style.gridTemplateColumns = tmpl;
    var self = this;
    this.heads = columns.map(function (c, ci) {
      var h = el('div', { role: 'columnheader', 'aria-sort': 'none', 'class': c.num ? 'cs-num' : '' });
      var b = el('button', { type: 'button', tabindex: '-1', title: c.title || null,
                             'aria-label': c.title || null }, c.label);
      b.addEventListener('click', function () { self.sortBy(ci); });
      h.appendChild(b);
      head.appendChild(h);
      return h;
    });
    root.appendChild(head);
    this.body = el('div', { role: 'rowgroup' });
    this.body.style.position = 'relative';
    root.appendChild(this.body);
    container.appendChild(root);
    this.pool = [];
    root.addEventListener('scroll', function () { self.render(); });
    root.addEventListener('keydown', function (e) { self.key(e); });
    root.addEventListener('click', function (e) {
      var r = e.target.closest('.cs-row');
      if (!r) return;
      var k = Number(r.dataset.k);
      if (e.target.classList.contains('cs-tw')) self.p.toggle(k);
      self.setFocus(k, true);
      if (self.p.select) self.p.select(k);
    });
    root.addEventListener('dblclick', function (e) {
      var r = e.target.closest('.cs-row');
      if (r && self.p.activate) self.p.activate(Number(r.dataset.k));
    });
    this.sortCol = -1;
    this.sortDir = 0;
  }
  Grid.prototype.sortBy = function (ci, dir) {
    if (dir === undefined) dir = this.sortCol === ci ? -this.sortDir : (this.columns[ci].num ? -1 : 1);
    this.sortCol = ci; this.sortDir = dir;
    this.heads.forEach(function (h, i) {
      h.setAttribute('aria-sort', i === ci ? (dir > 0 ? 'ascending' : 'descending') : 'none');
    });
    this.p.sort(this.columns[ci].id, dir);
    this.render();
  };
  Grid.prototype.refresh = function () {
    if (this.focus >= this.p.count()) this.focus = Math.max(0, this.p.count() - 1);
    this.render();
  };
  Grid.prototype.render = function () {
    var n = this.p.count(), RH = 22;
    this.root.setAttribute('aria-rowcount', String(n + 1));
    this.body.style.height = n * RH + 'px';
    var top = Math.max(0, this.root.scrollTop - 26), view = this.root.clientHeight || 400;
    var first = Math.max(0, Math.floor(top / RH) - 5), last = Math.min(n, Math.ceil((top + view) / RH) + 5);
    var need = last - first;
    while (this.pool.length < need) {
      var r = el('div', { 'class': 'cs-row', role: 'row', tabindex: '-1' });
      r.style.gridTemplateColumns = this.tmpl;
      for (var c = 0; c < this.columns.length; c++) {
        var col = this.columns[c];
        r.appendChild(el('div', { role: c === 0 && this.p.tree ? 'rowheader' : 'gridcell',
                                  'class': (col.num ? 'cs-num' : 'cs-name') }));
      }
      this.body.appendChild(r);
      this.pool.push(r);
    }
    for (var q = 0; q < this.pool.length; q++) {
      var row = this.pool[q], k = first + q;
      if (k >= last) { row.hidden = true; continue; }
      row.hidden = false;
      row.dataset.k = k;
      row.style.top = k * RH + 'px';
      row.setAttribute('aria-rowindex', String(k + 2));
      row.setAttribute('tabindex', k === this.focus ? '0' : '-1');
      row.setAttribute('aria-selected', k === this.focus ? 'true' : 'false');
      if (this.p.tree) {
        row.setAttribute('aria-level', String(this.p.level(k) + 1));
        if (this.p.expandable(k)) row.setAttribute('aria-expanded', this.p.expanded(k) ? 'true' : 'false');
        else row.removeAttribute('aria-expanded');
      }
      for (c = 0; c < this.columns.length; c++) {
        var cell = row.children[c], v = this.p.cell(k, this.columns[c].id);
        if (c === 0 && this.p.tree) {
          cell.textContent = '';
          var pad = el('span');
          pad.style.paddingLeft = Math.min(this.p.level(k), 60) * 12 + 'px';
          cell.appendChild(pad);
          cell.appendChild(el('span', { 'class': 'cs-tw', 'aria-hidden': 'true' },
                              this.p.expandable(k) ? (this.p.expanded(k) ? '\u25BE' : '\u25B8') : ''));
          cell.appendChild(el('span', null, v.text));
        } else {
          cell.textContent = v.text;
        }
        cell.className = (this.columns[c].num ? 'cs-num' : 'cs-name') + (v.cls ? ' ' + v.cls : '');
        if (v.value !== undefined) cell.setAttribute('data-value', String(v.value));
        else cell.removeAttribute('data-value');
        if (v.title) cell.title = v.title; else cell.removeAttribute('title');
      }
    }
  };
  Grid.prototype.setFocus = function (k, move) {
    var n = this.p.count();
    if (!n) return;
    k = Math.max(0, Math.min(n - 1, k));
    this.focus = k;
    var RH = 22, y = k * RH, top = this.root.scrollTop, view = this.root.clientHeight - 26;
    if (y < top) this.root.scrollTop = y;
    else if (y + RH > top + view) this.root.scrollTop = y + RH - view;
    this.render();
    if (move) {
      for (var q = 0; q < this.pool.length; q++) {
        if (Number(this.pool[q].dataset.k) === k && !this.pool[q].hidden) { this.pool[q].focus({ preventScroll: true }); break; }
      }
    }
    if (this.p.describe) announce(this.p.describe(k));
    /* the focused row is the selection the actions (s, f, ...) act on */
    if (this.p.select) this.p.select(k);
  };
  Grid.prototype.key = function (e) {
    var k = this.focus, p = this.p, page = Math.max(1, Math.floor((this.root.clientHeight - 26) / 22) - 1);
    switch (e.key) {
      case 'ArrowDown': this.setFocus(k + 1, true); break;
      case 'ArrowUp': this.setFocus(k - 1, true); break;
      case 'PageDown': this.setFocus(k + page, true); break;
      case 'PageUp': this.setFocus(k - page, true); break;
      case 'Home': this.setFocus(0, true); break;
      case 'End': this.setFocus(p.count() - 1, true); break;
      case 'ArrowRight':
        if (p.tree && p.expandable(k)) {
          if (!p.expanded(k)) { p.toggle(k); this.render(); } else this.setFocus(k + 1, true);
        }
        break;
      case 'ArrowLeft':
        if (p.tree) {
          if (p.expandable(k) && p.expanded(k)) { p.toggle(k); this.render(); }
          else { var up = p.parentRow(k); if (up >= 0) this.setFocus(up, true); }
        }
        break;
      case 'Enter':
        if (p.activate) p.activate(k);
        break;
      case ' ':
        if (p.select) p.select(k);
        break;
      default: return;
    }
    e.preventDefault();
    e.stopPropagation();
  };

  /* The call tree: rows are the expanded nodes; children in the
   * chosen column's order. */
  function TreeRows(opts) {
    this.tree = true;
    this.opts = opts;
    this.sortId = 'total'; this.dir = -1;
    this.t = null;
    this.rows = []; this.levels = []; this.open = new Set();
  }
  TreeRows.prototype.reset = function () {
    var t = this.opts.tree();
    this.t = t;
    this.rows = [];
    this.levels = [];
    this.open = new Set();
    var kids = this.kids(0);
    for (var q = 0; q < kids.length; q++) { this.rows.push(kids[q]); this.levels.push(0); }
    /* open the heaviest path a few levels down */
    var m = metricOf(t), tot = t.total(m), k = 0;
    for (var steps = 0; steps < 12 && k < this.rows.length; steps++) {
      var i = this.rows[k];
      if (!this.expandable(k) || tot[i] < tot[0] * 0.3) break;
      this.toggle(k);
      k++;
    }
  };
  TreeRows.prototype.kids = function (i) {
    var t = this.t, c = t.children(i), id = this.sortId, dir = this.dir, m = metricOf(t);
    if (id === 'total' && dir < 0) return c;
    var key = this.key(id, m);
    c.sort(function (a, b) {
      var ka = key(a), kb = key(b);
      return (ka < kb ? -1 : ka > kb ? 1 : a - b) * dir;
    });
    return c;
  };
  TreeRows.prototype.key = function (id, m) {
    var t = this.t;
    switch (id) {
      case 'name': return function (i) { return nameOf(t.func[i]); };
      case 'self': return function (i) { return t.self[m][i]; };
      case 'calls': return function (i) { return t.self.calls ? t.self.calls[i] : 0; };
      case 'base': { var bt = t.btotal(m); return function (i) { return bt ? bt[i] : 0; }; }
      case 'dtotal': { var tt = t.total(m), b2 = t.btotal(m); return function (i) { return tt[i] - (b2 ? b2[i] : 0); }; }
      case 'dself': return function (i) { return t.self[m][i] - (t.bself ? t.bself[m][i] : 0); };
      default: { var tot = t.total(m); return function (i) { return tot[i]; }; }
    }
  };
  TreeRows.prototype.count = function () { return this.rows.length; };
  TreeRows.prototype.level = function (k) { return this.levels[k]; };
  TreeRows.prototype.expandable = function (k) { return this.t.size[this.rows[k]] > 1; };
  TreeRows.prototype.expanded = function (k) { return this.open.has(this.rows[k]); };
  TreeRows.prototype.parentRow = function (k) {
    for (var q = k - 1; q >= 0; q--) if (this.levels[q] < this.levels[k]) return q;
    return -1;
  };
  TreeRows.prototype.toggle = function (k) {
    var i = this.rows[k], lv = this.levels[k];
    if (this.open.has(i)) {
      var e = k + 1;
      while (e < this.rows.length && this.levels[e] > lv) { this.open.delete(this.rows[e]); e++; }
      this.rows.splice(k + 1, e - k - 1);
      this.levels.splice(k + 1, e - k - 1);
      this.open.delete(i);
    } else if (this.t.size[i] > 1) {
      var c = this.kids(i), lvls = c.map(function () { return lv + 1; });
      Array.prototype.splice.apply(this.rows, [k + 1, 0].concat(c));
      Array.prototype.splice.apply(this.levels, [k + 1, 0].concat(lvls));
      this.open.add(i);
    }
  };
  TreeRows.prototype.sort = function (id, dir) {
    this.sortId = id; this.dir = dir;
    /* keep what is open, re-listed in the new order */
    var open = this.open, t = this, rows = [], levels = [];
    function walk(i, lv) {
      t.kids(i).forEach(function (c) {
        rows.push(c); levels.push(lv);
        if (open.has(c)) walk(c, lv + 1);
      });
    }
    walk(0, 0);
    this.rows = rows; this.levels = levels;
  };
  TreeRows.prototype.cell = function (k, id) {
    var t = this.t, i = this.rows[k], m = metricOf(t), fmt = valueFormat(m), tot = t.total(m);
    switch (id) {
      case 'name': {
        var f = t.func[i];
        return { text: nameOf(f) + (t.cut[i] ? ' (' + fmtCount(t.cut[i]) + ' paths)' : ''),
                 cls: search.match && f >= 0 && search.match[f] ? 'cs-match' : '' };
      }
      case 'total': return { text: fmt(tot[i]), value: tot[i] };
      case 'pct': return { text: fmtPct(tot[i], tot[0]) };
      case 'self': return { text: fmt(t.self[m][i]), value: t.self[m][i] };
      case 'calls': return { text: t.self.calls ? fmtCount(t.self.calls[i]) : '', value: t.self.calls ? t.self.calls[i] : 0 };
      case 'base': { var bt = t.btotal(m); return { text: fmt(bt[i]), value: bt[i] }; }
      case 'dtotal': { var d = tot[i] - t.btotal(m)[i]; return { text: fmtSigned(d, fmt), value: d, cls: d > 0 ? 'cs-grow' : d < 0 ? 'cs-shrink' : '' }; }
      case 'dself': { var ds = t.self[m][i] - t.bself[m][i]; return { text: fmtSigned(ds, fmt), value: ds, cls: ds > 0 ? 'cs-grow' : ds < 0 ? 'cs-shrink' : '' }; }
    }
    return { text: '' };
  };
  TreeRows.prototype.describe = function (k) {
    var t = this.t, i = this.rows[k], m = metricOf(t), fmt = valueFormat(m), tot = t.total(m);
    return nameOf(t.func[i]) + ', level ' + (this.levels[k] + 1) + ', total ' + fmt(tot[i]) + ' (' +
      fmtPct(tot[i], tot[0]) + '), self ' + fmt(t.self[m][i]);
  };
  TreeRows.prototype.activate = function (k) { this.opts.activate(this.rows[k]); };
  TreeRows.prototype.select = function (k) { if (this.opts.select) this.opts.select(this.t.func[this.rows[k]]); };
  TreeRows.prototype.revealNode = function (node) {
    /* open the ancestors of NODE; returns its row */
    var path = this.t.path(node);
    var k = -1;
    for (var a = 1; a < path.length; a++) {
      k = this.rows.indexOf(path[a], k + 1);
      if (k < 0) return -1;
      if (a < path.length - 1 && !this.open.has(path[a])) this.toggle(k);
    }
    return k;
  };

  /* Bottom-up: each row is a function and a set of call paths ending in
   * it, weighed by the self time of the frames where the paths end;
   * opening a row groups the paths by the next caller up. */
  function BottomUpRows(opts) {
    this.tree = true;
    this.opts = opts;
    this.sortId = 'self'; this.dir = -1;
    /* built when first shown: it holds a list of every frame */
    this.t = null;
    this.rows = [];
  }
  BottomUpRows.prototype.reset = function () {
    var t = this.opts.tree(), m = metricOf(t);
    this.t = t; this.m = m;
    var self = t.self[m], groups = new Map();
    for (var i = 1; i < t.n; i++) {
      if (!self[i]) continue;
      var g = groups.get(t.func[i]);
      if (!g) groups.set(t.func[i], (g = { f: t.func[i], leaf: [], at: [], w: 0, level: 0 }));
      g.leaf.push(i); g.at.push(i); g.w += self[i];
    }
    this.rows = this.order(Array.from(groups.values()));
  };
  BottomUpRows.prototype.order = function (list) {
    var dir = this.dir;
    if (this.sortId === 'name') list.sort(function (a, b) { var x = nameOf(a.f), y = nameOf(b.f); return (x < y ? -1 : x > y ? 1 : 0) * dir; });
    else list.sort(function (a, b) { return (a.w - b.w) * dir || a.f - b.f; });
    return list;
  };
  BottomUpRows.prototype.count = function () { return this.rows.length; };
  BottomUpRows.prototype.level = function (k) { return this.rows[k].level; };
  BottomUpRows.prototype.expandable = function (k) {
    var r = this.rows[k], t = this.t;
    for (var q = 0; q < r.at.length; q++) if (t.parent[r.at[q]] > 0) return true;
    return false;
  };
  BottomUpRows.prototype.expanded = function (k) { return !!this.rows[k].open; };
  BottomUpRows.prototype.parentRow = function (k) {
    for (var q = k - 1; q >= 0; q--) if (this.rows[q].level < this.rows[k].level) return q;
    return -1;
  };
  BottomUpRows.prototype.toggle = function (k) {
    var r = this.rows[k], t = this.t, self = t.self[this.m];
    if (r.open) {
      var e = k + 1;
      while (e < this.rows.length && this.rows[e].level > r.level) e++;
      this.rows.splice(k + 1, e - k - 1);
      r.open = false;
      return;
    }
    var groups = new Map();
    for (var q = 0; q < r.at.length; q++) {
      var p = t.parent[r.at[q]];
      if (p <= 0) continue;
      var g = groups.get(t.func[p]);
      if (!g) groups.set(t.func[p], (g = { f: t.func[p], leaf: [], at: [], w: 0, level: r.level + 1 }));
      g.leaf.push(r.leaf[q]); g.at.push(p); g.w += self[r.leaf[q]];
    }
    var kids = this.order(Array.from(groups.values()));
    Array.prototype.splice.apply(this.rows, [k + 1, 0].concat(kids));
    r.open = true;
  };
  BottomUpRows.prototype.sort = function (id, dir) {
    this.sortId = id === 'name' ? 'name' : 'self'; this.dir = dir;
    this.reset();
  };
  BottomUpRows.prototype.cell = function (k, id) {
    var r = this.rows[k], fmt = valueFormat(this.m), whole = this.t.total(this.m)[0];
    if (id === 'name') return { text: nameOf(r.f), cls: search.match && r.f >= 0 && search.match[r.f] ? 'cs-match' : '' };
    if (id === 'self') return { text: fmt(r.w), value: r.w };
    if (id === 'pct') return { text: fmtPct(r.w, whole) };
    return { text: '' };
  };
  BottomUpRows.prototype.describe = function (k) {
    var r = this.rows[k];
    return nameOf(r.f) + ', level ' + (r.level + 1) + ', ' + valueFormat(this.m)(r.w);
  };
  BottomUpRows.prototype.select = function (k) { if (this.opts.select) this.opts.select(this.rows[k].f); };
  BottomUpRows.prototype.activate = function (k) { this.opts.activate(this.rows[k].f); };

  /* Top functions: the flat profile's numbers, exact as the CLI's. */
  function funcStats() {
    var t = currentTree();
    if (!S.range && !S.tr.length) {
      var F = M.F;
      return { self: F.self, total: F.total, calls: F.calls, min: F.min, avg: F.avg, max: F.max,
               listed: F.listed, cself: F.cself, ctotal: F.ctotal, exact: true };
    }
    var counters = M.metrics.filter(function (x) { return (x === 'c1' || x === 'c2' || x === 'samples') && t.self[x]; });
    var cself = {}, ctotal = {}, ctot = {};
    counters.forEach(function (c) {
      cself[c] = new Float64Array(M.F.n + 1); ctotal[c] = new Float64Array(M.F.n + 1); ctot[c] = t.total(c);
    });
    /* re-aggregated: self summed, total over outermost frames */
    var n = M.F.n + 1, self = new Float64Array(n), total = new Float64Array(n), calls = new Float64Array(n);
    var active = new Int32Array(n), stack = [], m = 'time', tot = t.total(m);
    for (var i = 1; i < t.n; i++) {
      while (stack.length && stack[stack.length - 1] + t.size[stack[stack.length - 1]] <= i) active[t.func[stack.pop()]]--;
      var f = t.func[i];
      if (f < 0) continue;
      self[f] += t.self.time[i];
      if (t.self.calls) calls[f] += t.self.calls[i];
      if (!active[f]) total[f] += tot[i];
      for (var k = 0; k < counters.length; k++) {
        var cc = counters[k];
        cself[cc][f] += t.self[cc][i];
        if (!active[f]) ctotal[cc][f] += ctot[cc][i];
      }
      active[f]++;
      stack.push(i);
    }
    var listed = new Float64Array(n), min = new Float64Array(n), avg = new Float64Array(n), max = new Float64Array(n);
    var rs = t.rangeStats;
    for (f = 0; f < n; f++) {
      listed[f] = self[f] || calls[f] || (cself.samples && cself.samples[f]) ? 1 : 0;
      if (rs && rs.count[f]) { min[f] = rs.min[f]; max[f] = rs.max[f]; avg[f] = Math.floor(rs.sum[f] / rs.count[f]); }
      else if (!rs && f < M.F.n) { min[f] = M.F.min[f]; max[f] = M.F.max[f]; avg[f] = M.F.avg[f]; }
    }
    return { self: self, total: total, calls: calls, min: min, avg: avg, max: max, listed: listed,
             cself: cself, ctotal: ctotal, exact: false };
  }

  function TopRows(opts) {
    this.opts = opts;
    this.sortId = 'self'; this.dir = -1;
    this.rows = [];
  }
  TopRows.prototype.reset = function () {
    this.st = funcStats();
    var st = this.st, rows = [];
    for (var f = 0; f < M.F.n; f++) {
      if (!st.listed[f]) continue;
      if (search.match && !search.match[f]) continue;
      rows.push(f);
    }
    var all = 0;
    for (f = 0; f < M.F.n; f++) all += st.self[f];
    this.all = all;
    /* a sampled-only run's share is its samples' (as the CLI's) */
    var sall = 0;
    if (st.cself.samples) for (f = 0; f < M.F.n; f++) sall += st.cself.samples[f];
    this.sall = st.exact && M.meta.samples ? M.meta.samples : sall;
    this.rows = rows;
    this.order();
  };
  TopRows.prototype.value = function (f, id) {
    var st = this.st;
    switch (id) {
      case 'pct': case 'self': return st.self[f];
      case 'total': return st.total[f];
      case 'calls': return st.calls[f];
      case 'selfcall': return st.calls[f] ? st.self[f] / st.calls[f] : 0;
      case 'avg': return st.avg[f];
      case 'min': return st.calls[f] ? st.min[f] : 0;
      case 'max': return st.max[f];
      case 'c1': case 'c2': return st.cself[id] ? st.cself[id][f] : 0;
      case 'c1t': case 'c2t': return st.ctotal[id[0] + id[1]] ? st.ctotal[id[0] + id[1]][f] : 0;
      case 'sself': return st.cself.samples ? st.cself.samples[f] : 0;
      case 'stotal': return st.ctotal.samples ? st.ctotal.samples[f] : 0;
      default: return 0;
    }
  };
  TopRows.prototype.order = function () {
    var id = this.sortId, dir = this.dir, st = this.st, t = this;
    if (id === 'self' && dir < 0 && st.exact) {
      /* the CLI's own order */
      this.rows.sort(function (a, b) { return M.F.rank[a] - M.F.rank[b]; });
      return;
    }
    this.rows.sort(function (a, b) {
      var c;
      if (id === 'name') { var x = M.F.name[a], y = M.F.name[b]; c = x < y ? -1 : x > y ? 1 : 0; }
      else c = t.value(a, id) - t.value(b, id);
      if (!c) c = st.calls[b] - st.calls[a];
      if (!c) c = a - b;
      return c * dir;
    });
  };
  TopRows.prototype.count = function () { return this.rows.length; };
  TopRows.prototype.sort = function (id, dir) { this.sortId = id; this.dir = dir; this.order(); };
  TopRows.prototype.cell = function (k, id) {
    var f = this.rows[k], v;
    if (id === 'name') return { text: M.F.name[f], cls: search.match && search.match[f] ? 'cs-match' : '', title: M.F.object[f] };
    if (id === 'pct') {
      var share = this.all ? 100 * this.st.self[f] / this.all
        : this.sall ? 100 * this.value(f, 'sself') / this.sall : 0;
      return { text: share.toFixed(2) };
    }
    v = this.value(f, id);
    if ((id === 'min' || id === 'max') && M.F.untimed && M.F.untimed[f])
      return { text: '-', value: v, title: 'not recorded: record --mode=count --call-stats keeps each call\'s time' };
    if (id === 'calls' || id === 'sself' || id === 'stotal') return { text: fmtCount(v), value: v };
    if (/^c[12]t?$/.test(id)) {
      var doubt = M.F.unreliable && M.F.unreliable[f] && this.st.exact;
      return { text: fmtCount(v) + (doubt ? ' *' : ''), value: v,
               title: doubt ? 'possibly incorrect: the kernel time-shared the counter' : '' };
    }
    /* the CLI prints the mean unrounded; the value is its JSON avg_ns */
    if (id === 'avg' && this.st.exact && M.F.calls[f]) return { text: fmtDuration(M.F.sumcall[f] / M.F.calls[f]), value: v };
    return { text: fmtDuration(v), value: v };
  };
  TopRows.prototype.describe = function (k) {
    var f = this.rows[k], st = this.st;
    return M.F.name[f] + ': self ' + fmtDuration(st.self[f]) + ', total ' + fmtDuration(st.total[f]) + ', ' +
      fmtCount(st.calls[f]) + ' calls';
  };
  TopRows.prototype.select = function (k) { if (this.opts.select) this.opts.select(this.rows[k]); };
  TopRows.prototype.activate = function (k) { this.opts.activate(this.rows[k]); };

  /* Source lines: every sampled line and the text read around the
   * hottest, by file (the most sampled first) and line, or sorted by a
   * column.  A row whose function matches the search is marked. */
  function SourceRows(opts) {
    this.opts = opts;
    this.sortId = ''; this.dir = 1;
    this.rows = [];
  }
  SourceRows.prototype.reset = function () {
    var L = M.lines, at = new Map(), rows = [];
    var row = function (f, ln) {
      var key = f * 4294967296 + ln, r = at.get(key);
      if (!r) { r = { file: f, line: ln, samples: 0, func: -1, text: '' }; at.set(key, r); rows.push(r); }
      return r;
    };
    for (var i = 0; i < L.srcText.length; i++) row(L.srcFile[i], L.srcLine[i]).text = L.srcText[i];
    var fileTotal = new Float64Array(L.files.length), all = 0;
    for (i = 0; i < L.samples.length; i++) {
      var r = row(L.file[i], L.line[i]);
      r.samples += L.samples[i]; r.func = L.func[i];
      fileTotal[L.file[i]] += L.samples[i]; all += L.samples[i];
    }
    this.fileTotal = fileTotal; this.all = all;
    this.base = rows;
    this.order();
  };
  SourceRows.prototype.order = function () {
    var id = this.sortId, dir = this.dir, t = this, ft = this.fileTotal;
    this.rows = this.base.slice().sort(function (a, b) {
      var c = 0;
      if (id === 'samples' || id === 'pct') c = (a.samples - b.samples) * dir;
      else if (id === 'func') c = t.cell(0, 'func', a).text < t.cell(0, 'func', b).text ? -dir : dir;
      else if (id === 'text') c = a.text < b.text ? -dir : a.text > b.text ? dir : 0;
      if (c) return c;
      if (a.file !== b.file) {
        if (ft[a.file] !== ft[b.file]) return ft[b.file] - ft[a.file];
        return M.lines.files[a.file] < M.lines.files[b.file] ? -1 : 1;
      }
      return (a.line - b.line) * (id === 'line' ? dir : 1);
    });
  };
  SourceRows.prototype.count = function () { return this.rows.length; };
  SourceRows.prototype.sort = function (id, dir) { this.sortId = id === 'file' ? '' : id; this.dir = dir; this.order(); };
  SourceRows.prototype.cell = function (k, id, given) {
    var r = given || this.rows[k];
    switch (id) {
      case 'samples': return { text: r.samples ? (M.lines.byTime ? fmtDuration : fmtCount)(r.samples) : '', value: r.samples };
      case 'pct': return { text: r.samples ? fmtPct(r.samples, this.all) : '' };
      case 'line': return { text: r.line ? String(r.line) : '?', value: r.line };
      case 'text': return { text: r.text, cls: 'cs-code' + (r.samples ? ' cs-hot' : '') };
      case 'func': return { text: r.func >= 0 ? nameOf(r.func) : '', cls: search.match && r.func >= 0 && search.match[r.func] ? 'cs-match' : '' };
      case 'file': return { text: M.lines.files[r.file] || '(no line information)' };
    }
    return { text: '' };
  };
  SourceRows.prototype.describe = function (k) {
    var r = this.rows[k];
    return (M.lines.files[r.file] || '?') + ':' + r.line + ', ' +
      (r.samples ? (M.lines.byTime ? fmtDuration(r.samples) + ' self time, ' : fmtCount(r.samples) + ' samples, ') : '') + r.text;
  };
  SourceRows.prototype.select = function (k) { if (this.opts.select && this.rows[k].func >= 0) this.opts.select(this.rows[k].func); };
  SourceRows.prototype.activate = function (k) { if (this.rows[k].func >= 0) this.opts.activate(this.rows[k].func); };

  /* The differential table: per function, self and total before and
   * after; rows whose change is under the threshold (% of the base's
   * whole time) are left out. */
  function DiffRows(opts) {
    this.opts = opts;
    this.sortId = 'dself'; this.dir = -1;
    this.reset();
  }
  /* Self and total of both runs in time, or in samples when the metric
   * is samples (a diff of two sampled runs) */
  DiffRows.prototype.weights = function () {
    var F = M.F, B = M.B;
    if (S.metric === 'samples' && F.cself.samples && B.cself.samples)
      return { self: F.cself.samples, total: F.ctotal.samples, bself: B.cself.samples, btotal: B.ctotal.samples, fmt: fmtCount };
    return { self: F.self, total: F.total, bself: B.self, btotal: B.total, fmt: fmtDuration };
  };
  DiffRows.prototype.reset = function () {
    var F = M.F, B = M.B, rows = [], base = 0, curAll = 0, w = this.w = this.weights();
    for (var f = 0; f < F.n; f++) { base += w.bself[f]; curAll += w.self[f]; }
    var limit = Math.max(base, curAll) * S.thr / 100;
    this.hidden = 0;
    for (f = 0; f < F.n; f++) {
      if (!F.listed[f] && !B.listed[f]) continue;
      if (search.match && !search.match[f]) continue;
      var ds = w.self[f] - w.bself[f], dt = w.total[f] - w.btotal[f];
      if (Math.abs(ds) < limit && Math.abs(dt) < limit && (ds || dt || limit)) { this.hidden++; continue; }
      rows.push(f);
    }
    this.rows = rows;
    this.order();
  };
  DiffRows.prototype.value = function (f, id) {
    var F = M.F, B = M.B, w = this.w;
    switch (id) {
      case 'bself': return w.bself[f];
      case 'self': return w.self[f];
      case 'dself': return w.self[f] - w.bself[f];
      case 'btotal': return w.btotal[f];
      case 'total': return w.total[f];
      case 'dtotal': return w.total[f] - w.btotal[f];
      case 'bcalls': return B.calls[f];
      case 'calls': return F.calls[f];
      case 'dcalls': return F.calls[f] - B.calls[f];
    }
    return 0;
  };
  DiffRows.prototype.order = function () {
    var id = this.sortId, dir = this.dir, t = this;
    this.rows.sort(function (a, b) {
      var c;
      if (id === 'name') { var x = M.F.name[a], y = M.F.name[b]; c = x < y ? -1 : x > y ? 1 : 0; }
      else if (id[0] === 'd') c = Math.abs(t.value(a, id)) - Math.abs(t.value(b, id));
      else c = t.value(a, id) - t.value(b, id);
      return (c || a - b) * dir;
    });
  };
  DiffRows.prototype.count = function () { return this.rows.length; };
  DiffRows.prototype.sort = function (id, dir) { this.sortId = id; this.dir = dir; this.order(); };
  DiffRows.prototype.cell = function (k, id) {
    var f = this.rows[k];
    if (id === 'name') return { text: M.F.name[f], cls: search.match && search.match[f] ? 'cs-match' : '' };
    var v = this.value(f, id), fmt = /calls/.test(id) ? fmtCount : this.w.fmt;
    if (id[0] === 'd') {
      var was = this.value(f, id.slice(1) === 'calls' ? 'bcalls' : 'b' + id.slice(1));
      return { text: fmtSigned(v, fmt) + (was ? ' (' + fmtSigned(100 * v / was, function (x) { return x.toFixed(1); }) + '%)' : ''),
               value: v, cls: v > 0 ? 'cs-grow' : v < 0 ? 'cs-shrink' : '' };
    }
    return { text: fmt(v), value: v };
  };
  DiffRows.prototype.describe = function (k) {
    var f = this.rows[k];
    return M.F.name[f] + ': self ' + fmtSigned(this.value(f, 'dself'), this.w.fmt) + ', total ' +
      fmtSigned(this.value(f, 'dtotal'), this.w.fmt);
  };
  DiffRows.prototype.select = function (k) { if (this.opts.select) this.opts.select(this.rows[k]); };
  DiffRows.prototype.activate = function (k) { this.opts.activate(this.rows[k]); };

  /* ---------------- the timeline ---------------- */

  function Timeline(box, opts) {
    this.box = box;
    this.opts = opts;
    this.canvas = el('canvas');
    this.spacer = el('div', { 'class': 'cs-spacer' });
    box.appendChild(this.canvas);
    box.appendChild(this.spacer);
    var tl = M.tl, y = TL_AXIS;
    this.laneY = tl.lanes.map(function (ln) { var v = y; y += TL_HEAD + ln.depth * TL_ROW + 4; return v; });
    this.height = y;
    this.spacer.style.height = y + 'px';
    this.win = [tl.c0, tl.c1];
    this.drag = null;
    this.sel = null;
    var self = this;
    box.addEventListener('scroll', function () { self.requestDraw(); });
    box.addEventListener('wheel', function (e) {
      if (!e.ctrlKey && !e.altKey && !e.shiftKey) return;
      e.preventDefault();
      var r = self.canvas.getBoundingClientRect(), fx = (e.clientX - r.left) / r.width;
      if (e.shiftKey) self.pan((e.deltaY || e.deltaX) > 0 ? 0.1 : -0.1);
      else self.zoomBy((e.deltaY > 0 ? 1.25 : 0.8), fx);
    }, { passive: false });
    this.canvas.addEventListener('mousedown', function (e) {
      var t = self.timeAt(e);
      self.drag = { a: t, b: t, x: e.clientX };
    });
    window.addEventListener('mousemove', function (e) {
      if (self.drag) { self.drag.b = self.timeAt(e); self.draw(); return; }
    });
    this.canvas.addEventListener('mousemove', function (e) {
      if (self.drag) return;
      var h = self.hit(e);
      if (h) tip.show(self.describe(h), e.clientX, e.clientY); else tip.hide();
    });
    this.canvas.addEventListener('mouseleave', function () { tip.hide(); });
    window.addEventListener('mouseup', function (e) {
      if (!self.drag) return;
      var d = self.drag;
      self.drag = null;
      if (Math.abs(e.clientX - d.x) < 4) {
        var h = self.hit(e);
        if (h) { self.sel = h; announce(self.describe(h).replace(/\n/g, '; ')); }
        self.draw();
        return;
      }
      var a = Math.min(d.a, d.b), b = Math.max(d.a, d.b);
      self.opts.onRange([a, b]);
    });
    box.addEventListener('keydown', function (e) { self.key(e); });
  }
  Timeline.prototype.setWindow = function (w) {
    var tl = M.tl;
    if (!w) w = [tl.c0, tl.c1];
    var a = Math.max(tl.t0, w[0]), b = Math.min(tl.t1, w[1]);
    if (b - a < 10) { var mid = (a + b) / 2; a = mid - 5; b = mid + 5; }
    this.win = [a, b];
  };
  Timeline.prototype.zoomBy = function (f, fx) {
    var a = this.win[0], b = this.win[1], t = a + (b - a) * (fx === undefined ? 0.5 : fx);
    this.setWindow([t - (t - a) * f, t + (b - t) * f]);
    this.opts.onWindow(this.win);
    this.draw();
  };
  Timeline.prototype.pan = function (f) {
    var span = this.win[1] - this.win[0], tl = M.tl;
    var a = Math.min(Math.max(tl.t0, this.win[0] + span * f), tl.t1 - span);
    this.setWindow([a, a + span]);
    this.opts.onWindow(this.win);
    this.draw();
  };
  Timeline.prototype.timeAt = function (e) {
    var r = this.canvas.getBoundingClientRect();
    var fx = Math.min(1, Math.max(0, (e.clientX - r.left) / r.width));
    return this.win[0] + (this.win[1] - this.win[0]) * fx;
  };
  Timeline.prototype.requestDraw = function () {
    var self = this;
    if (this.rafPending) return;
    this.rafPending = true;
    requestAnimationFrame(function () { self.rafPending = false; self.draw(); });
  };
  Timeline.prototype.draw = function () {
    var W = this.box.clientWidth, Hv = this.box.clientHeight || 300;
    if (!W) return;
    var t0 = now(), ratio = window.devicePixelRatio || 1, c = this.canvas;
    if (c.width !== Math.round(W * ratio) || c.height !== Math.round(Hv * ratio)) {
      c.width = Math.round(W * ratio); c.height = Math.round(Hv * ratio);
      c.style.width = W + 'px'; c.style.height = Hv + 'px';
      c.style.marginBottom = '-' + Hv + 'px';
    }
    var ctx = c.getContext('2d');
    ctx.setTransform(ratio, 0, 0, ratio, 0, 0);
    ctx.fillStyle = theme.bg;
    ctx.fillRect(0, 0, W, Hv);
    ctx.font = '11px ' + getComputedStyle(doc.body).getPropertyValue('--mono');
    ctx.textBaseline = 'middle';
    var charW = ctx.measureText('MMMMMMMMMM').width / 10;
    var a = this.win[0], b = this.win[1], ns = (b - a) / W, top = this.box.scrollTop;
    var tree = M.tree, match = search.match, drawn = [], self = this;
    M.tl.lanes.forEach(function (ln, li) {
      var ly = self.laneY[li] - top, lh = TL_HEAD + ln.depth * TL_ROW;
      if (ly > Hv || ly + lh < TL_AXIS) return;
      ctx.fillStyle = theme.muted;
      ctx.fillText('thread ' + ln.info.tid + ' of process ' + ln.info.pid + '  (' + fmtCount(ln.n) + ' calls shown)', 4, ly + TL_HEAD / 2);
      ctx.fillStyle = theme.line;
      ctx.fillRect(0, ly + TL_HEAD - 1, W, 1);
      for (var q = 0; q < ln.levels.length; q++) {
        var lv = ln.levels[q], maxDur = Math.pow(2, lv.L + 1);
        if (maxDur < ns * 0.5) continue;          /* all narrower than half a pixel */
        var st = lv.start, lo = 0, hi = st.length, from = a - maxDur;
        while (lo < hi) { var mid = (lo + hi) >> 1; if (st[mid] < from) lo = mid + 1; else hi = mid; }
        for (var k = lo; k < st.length && st[k] <= b; k++) {
          var i = lv.idx[k], s = ln.start[i], e = s + ln.dur[i];
          if (e < a) continue;
          var d = tree.depth[ln.node[i]], y = ly + TL_HEAD + (d - 1) * TL_ROW;
          if (y + TL_ROW < TL_AXIS || y > Hv) continue;
          var x = (s - a) / ns, w = ln.dur[i] / ns;
          if (x < -1) { w += x + 1; x = -1; }
          if (x + w > W + 1) w = W + 1 - x;
          var f = tree.func[ln.node[i]];
          ctx.globalAlpha = match && !match[f] ? 0.35 : 1;
          ctx.fillStyle = frameColour(f);
          ctx.fillRect(x, y, Math.max(w - 0.5, 0.5), TL_ROW - 1);
          if (w > 4 * charW) {
            var label = nameOf(f), max = Math.floor((w - 6) / charW);
            if (label.length > max) label = label.slice(0, max - 1) + ELLIPSIS;
            ctx.fillStyle = theme.dark ? '#f0f3f6' : '#1b1f24';
            ctx.fillText(label, Math.max(x, 0) + 3, y + TL_ROW / 2);
          }
          drawn.push({ lane: li, i: i, x: x, y: y + top, w: w });
        }
      }
    });
    ctx.globalAlpha = 1;
    /* the range selected (or being selected) */
    var r = this.drag ? [Math.min(this.drag.a, this.drag.b), Math.max(this.drag.a, this.drag.b)] : S.range;
    if (r) {
      ctx.fillStyle = theme.accent;
      ctx.globalAlpha = 0.15;
      ctx.fillRect((r[0] - a) / ns, TL_AXIS, (r[1] - r[0]) / ns, Hv);
      ctx.globalAlpha = 1;
    }
    if (this.sel) {
      var sl = M.tl.lanes[this.sel.lane], sy = this.laneY[this.sel.lane] - top + TL_HEAD + (tree.depth[sl.node[this.sel.i]] - 1) * TL_ROW;
      ctx.strokeStyle = theme.sel; ctx.lineWidth = 2;
      ctx.strokeRect((sl.start[this.sel.i] - a) / ns, sy, Math.max(sl.dur[this.sel.i] / ns, 2), TL_ROW - 1);
    }
    /* the time axis */
    ctx.fillStyle = theme.panel;
    ctx.fillRect(0, 0, W, TL_AXIS);
    ctx.fillStyle = theme.line;
    ctx.fillRect(0, TL_AXIS - 1, W, 1);
    var step = Math.pow(10, Math.floor(Math.log10((b - a) / 8 || 1)));
    while ((b - a) / step > 12) step *= 2;
    ctx.fillStyle = theme.muted;
    var base = M.tl.t0;
    for (var t = base + Math.ceil((a - base) / step) * step; t <= b; t += step) {
      var tx = (t - a) / ns;
      ctx.fillRect(tx, TL_AXIS - 6, 1, 6);
      ctx.fillText(fmtDuration(t - M.tl.t0), tx + 3, TL_AXIS / 2 - 2);
    }
    this.drawn = drawn;
    this.drawMs = now() - t0;
    hook.draws++;
  };
  Timeline.prototype.hit = function (e) {
    var r = this.canvas.getBoundingClientRect(), x = e.clientX - r.left, y = e.clientY - r.top + this.box.scrollTop;
    var d = this.drawn || [];
    for (var q = d.length - 1; q >= 0; q--) {
      var h = d[q];
      if (x >= h.x && x < h.x + Math.max(h.w, 1) && y >= h.y && y < h.y + TL_ROW) return h;
    }
    return null;
  };
  Timeline.prototype.describe = function (h) {
    var ln = M.tl.lanes[h.lane], i = h.i, nd = ln.node[i];
    return nameOf(M.tree.func[nd]) + '\nstart ' + fmtDuration(ln.start[i] - M.tl.t0) + ', lasted ' +
      fmtDuration(ln.dur[i]) + ' (as recorded)\nthread ' + ln.info.tid;
  };
  Timeline.prototype.key = function (e) {
    switch (e.key) {
      case '+': case '=': case 'w': this.zoomBy(0.5); break;
      case '-': case 's': this.zoomBy(2); break;
      case 'ArrowLeft': case 'a': this.pan(-0.2); break;
      case 'ArrowRight': case 'd': this.pan(0.2); break;
      case '0': this.setWindow(null); this.opts.onWindow(null); this.draw(); break;
      case 'Enter':
        /* the window becomes the range the other views show */
        this.opts.onRange([this.win[0], this.win[1]]);
        break;
      default: return;
    }
    e.preventDefault();
    e.stopPropagation();
  };

  /* ---------------- the application ---------------- */

  var ui = {};

  function button(label, attrs, onclick) {
    var b = el('button', Object.assign({ type: 'button' }, attrs || {}), label);
    if (onclick) b.addEventListener('click', onclick);
    return b;
  }

  function buildUI() {
    var app = $('cs-app');
    var bar = el('div', { 'class': 'cs-toolbar', role: 'toolbar', 'aria-label': 'Views and tools' });
    var tabs = el('div', { 'class': 'cs-tabs', role: 'tablist', 'aria-label': 'Views' });
    ui.tabs = {};
    ui.panels = {};
    VIEWS.filter(function (v) { return hasView(v.id); }).forEach(function (v, n) {
      var t = button(v.label, { role: 'tab', id: 'cs-tab-' + v.id, 'aria-controls': 'cs-panel-' + v.id,
                                 'aria-selected': 'false', tabindex: '-1',
                                 'aria-keyshortcuts': String(n + 1) });
      t.addEventListener('click', function () { showView(v.id, true); });
      t.addEventListener('keydown', function (e) {
        var ids = Object.keys(ui.tabs), k = ids.indexOf(v.id);
        if (e.key === 'ArrowRight' || e.key === 'ArrowLeft') {
          k = (k + (e.key === 'ArrowRight' ? 1 : ids.length - 1)) % ids.length;
        } else if (e.key === 'Home') k = 0;
        else if (e.key === 'End') k = ids.length - 1;
        else return;
        e.preventDefault();
        showView(ids[k], true);
        ui.tabs[ids[k]].focus();
      });
      ui.tabs[v.id] = t;
      tabs.appendChild(t);
    });
    bar.appendChild(tabs);

    var metric = el('select', { id: 'cs-metric', 'aria-label': 'Weigh frames by' });
    M.meta.metrics.forEach(function (m) { metric.appendChild(el('option', { value: m.id }, m.label)); });
    metric.addEventListener('change', function () { S.metric = metric.value; commit(true); refresh(); });
    var ml = el('label', null, 'Metric ');
    ml.appendChild(metric);
    bar.appendChild(ml);
    ui.metric = metric;

    var sbox = el('div', { 'class': 'cs-search', role: 'search' });
    var q = el('input', { id: 'cs-search', type: 'search', placeholder: 'search (regular expression)',
                          'aria-label': 'Search functions by regular expression', spellcheck: 'false',
                          autocomplete: 'off' });
    var timer = 0;
    q.addEventListener('input', function () {
      clearTimeout(timer);
      timer = setTimeout(function () { doSearch(q.value); }, 120);
    });
    q.addEventListener('keydown', function (e) {
      if (e.key === 'Enter') { clearTimeout(timer); if (q.value !== S.q) doSearch(q.value); step(e.shiftKey ? -1 : 1); e.preventDefault(); }
      else if (e.key === 'Escape') { q.value = ''; doSearch(''); }
    });
    sbox.appendChild(q);
    sbox.appendChild(button('Previous', { id: 'cs-prev', 'aria-label': 'Previous match', 'aria-keyshortcuts': 'Shift+N' }, function () { step(-1); }));
    sbox.appendChild(button('Next', { id: 'cs-next', 'aria-label': 'Next match', 'aria-keyshortcuts': 'N' }, function () { step(1); }));
    ui.status = el('span', { id: 'cs-search-status', 'class': 'cs-status', role: 'status', 'aria-live': 'polite' });
    sbox.appendChild(ui.status);
    bar.appendChild(sbox);
    ui.search = q;

    ui.back = button('Back', { id: 'cs-back', 'aria-keyshortcuts': 'Backspace' }, function () { goBack(); });
    bar.appendChild(ui.back);
    ui.theme = button('Dark mode', { id: 'cs-theme', 'aria-pressed': 'false', 'aria-keyshortcuts': 'T' }, function () {
      S.theme = isDark() ? 'light' : 'dark'; commit(false); applyTheme(); redrawAll();
    });
    bar.appendChild(ui.theme);
    bar.appendChild(button('Keys', { id: 'cs-keys', 'aria-keyshortcuts': '?' }, function () { toggleHelp(); }));
    app.appendChild(bar);

    /* the flame graph panel */
    var fp = panel('flame');
    var fbar = el('div', { 'class': 'cs-bar' });
    ui.crumbs = el('ol', { 'class': 'cs-crumbs', 'aria-label': 'Zoomed to' });
    var nav = el('nav', { 'aria-label': 'Breadcrumbs' });
    nav.appendChild(ui.crumbs);
    fbar.appendChild(nav);
    ui.orient = button('Icicle', { id: 'cs-orient', 'aria-pressed': 'false', 'aria-keyshortcuts': 'I' }, function () {
      S.icicle = !S.icicle; commit(true); refresh();
    });
    fbar.appendChild(ui.orient);
    fp.appendChild(fbar);
    var abar = el('div', { 'class': 'cs-bar', role: 'group', 'aria-label': 'Transforms' });
    ui.actions = {};
    [['focus', 'Focus on function', 'F'], ['hide', 'Hide function', 'H'], ['merge', 'Merge into callers', 'G'],
     ['rec', 'Collapse recursion', 'R'], ['sandwich', 'Sandwich', 'S']].forEach(function (a) {
      var b = button(a[1], { 'data-action': a[0], 'aria-keyshortcuts': a[2], disabled: '' }, function () { action(a[0]); });
      ui.actions[a[0]] = b;
      abar.appendChild(b);
    });
    abar.appendChild(button('Collapse all direct recursion', { 'data-action': 'drec' }, function () { addTransform({ k: 'drec', f: -1 }); }));
    ui.chips = el('span', { 'class': 'cs-chips', 'aria-label': 'Transforms applied' });
    abar.appendChild(ui.chips);
    fp.appendChild(abar);
    var fbox = el('div', { 'class': 'cs-canvasbox', id: 'cs-flame', tabindex: '0', role: 'application',
                           'aria-roledescription': 'flame graph',
                           'aria-label': 'Flame graph. Arrow keys move between frames, Enter zooms, Escape zooms out.' });
    fp.appendChild(fbox);
    ui.flame = new Flame(fbox, {
      onZoom: function (fl, k) {
        var L = fl.layout;
        var node = L.fold[k] ? L.node[k] : L.node[k];
        zoomTo(node, true, L.fold[k] ? -1 : node);
      },
      onZoomOut: function (fl) { if (fl.zoom) zoomTo(fl.tree.parent[fl.zoom], true, fl.zoom); },
      onSelect: function (fl, k) { updateActions(); void k; }
    });

    /* call tree */
    var tp = panel('tree');
    var cols = [{ id: 'name', label: 'Function', width: 'minmax(16em, 3fr)' },
                { id: 'total', label: 'Total', num: true }, { id: 'pct', label: 'Total %', num: true },
                { id: 'self', label: 'Self', num: true }, { id: 'calls', label: 'Calls', num: true }];
    if (M.diff) cols.push({ id: 'base', label: 'Base total', num: true }, { id: 'dtotal', label: '\u0394 total', num: true },
                          { id: 'dself', label: '\u0394 self', num: true });
    ui.treeRows = new TreeRows({ tree: currentTree, activate: function (node) { zoomTo(node, true, node, 'flame'); },
                                  select: selectFunc });
    ui.treeGrid = new Grid(tp, 'Call tree', cols, ui.treeRows);
    ui.treeGrid.heads[1].setAttribute('aria-sort', 'descending');

    var bp = panel('bottomup');
    ui.buRows = new BottomUpRows({ tree: currentTree, activate: function (f) { openSandwich(f); }, select: selectFunc });
    ui.buGrid = new Grid(bp, 'Bottom-up: functions by self time, opened towards their callers',
                         [{ id: 'name', label: 'Function', width: 'minmax(16em, 3fr)' },
                          { id: 'self', label: 'Self', num: true }, { id: 'pct', label: '%', num: true }], ui.buRows);
    ui.buGrid.heads[1].setAttribute('aria-sort', 'descending');

    var sp = panel('sandwich');
    var sw = el('div', { 'class': 'cs-sandwich' });
    ui.swTitle = el('h2', { id: 'cs-sw-callers' }, 'Callers');
    sw.appendChild(ui.swTitle);
    var cbox = el('div', { 'class': 'cs-canvasbox', tabindex: '0', role: 'application', 'aria-roledescription': 'flame graph',
                           'aria-labelledby': 'cs-sw-callers' });
    sw.appendChild(cbox);
    sw.appendChild(el('h2', { id: 'cs-sw-callees' }, 'Callees'));
    var ebox = el('div', { 'class': 'cs-canvasbox', tabindex: '0', role: 'application', 'aria-roledescription': 'flame graph',
                           'aria-labelledby': 'cs-sw-callees' });
    sw.appendChild(ebox);
    ui.swStaticTitle = el('h2', { id: 'cs-sw-static' }, 'Calls in the code that never ran');
    ui.swStatic = el('ul', { 'class': 'cs-static', 'aria-labelledby': 'cs-sw-static' });
    sw.appendChild(ui.swStaticTitle);
    sw.appendChild(ui.swStatic);
    ui.swEmpty = el('p', { 'class': 'cs-empty' }, 'Pick a function (select a frame or a row, then press S or the Sandwich button) to see its callers above and its callees below.');
    sp.appendChild(ui.swEmpty);
    sp.appendChild(sw);
    ui.sw = sw;
    var swOpts = function () {
      return {
        onZoom: function (fl, k) { if (!fl.layout.fold[k]) { fl.set(fl.tree, fl.layout.node[k], fl.metric, fl.icicle); fl.draw(); } },
        onZoomOut: function (fl) { if (fl.zoom) { fl.set(fl.tree, fl.tree.parent[fl.zoom], fl.metric, fl.icicle); fl.draw(); } }
      };
    };
    ui.callers = new Flame(cbox, swOpts());
    ui.callees = new Flame(ebox, swOpts());

    var topP = panel('top');
    ui.topNote = el('p', { 'class': 'cs-note', style: null });
    ui.topNote.style.margin = '4px 12px';
    topP.appendChild(ui.topNote);
    ui.topRows = new TopRows({ activate: openSandwich, select: selectFunc });
    ui.topGrid = new Grid(topP, 'Top functions', [
      { id: 'pct', label: '% time', num: true, width: '5em' }, { id: 'self', label: 'Self', num: true },
      { id: 'total', label: 'Total', num: true }, { id: 'calls', label: 'Calls', num: true },
      { id: 'selfcall', label: 'Self/call', num: true }, { id: 'avg', label: 'Total/call', num: true },
      { id: 'min', label: 'Min', num: true }, { id: 'max', label: 'Max', num: true }].concat(
      M.metrics.filter(function (m) { return m === 'c1' || m === 'c2'; }).reduce(function (a, m) {
        var label = M.metricInfo[m].label;
        return a.concat([{ id: m, label: label, num: true, width: 'minmax(8em, 1fr)' },
                         { id: m + 't', label: '+children', title: label + ' with the callees\u2019', num: true }]);
      }, []),
      M.metricInfo.samples ? [{ id: 'sself', label: 'Self samples', num: true },
                              { id: 'stotal', label: 'Samples', title: 'samples with the function anywhere on the stack', num: true }] : [],
      [{ id: 'name', label: 'Function', width: 'minmax(14em, 3fr)' }]), ui.topRows);
    ui.topGrid.heads[1].setAttribute('aria-sort', 'descending');
    ui.topGrid.root.id = 'cs-top';

    var tlp = panel('timeline');
    var tbar = el('div', { 'class': 'cs-bar' });
    tbar.appendChild(button('Zoom in', { 'aria-keyshortcuts': '+' }, function () { ui.timeline.zoomBy(0.5); }));
    tbar.appendChild(button('Zoom out', { 'aria-keyshortcuts': '-' }, function () { ui.timeline.zoomBy(2); }));
    tbar.appendChild(button('Whole run', { 'aria-keyshortcuts': '0' }, function () { ui.timeline.setWindow(null); S.tl = null; commit(false); ui.timeline.draw(); }));
    tbar.appendChild(button('Use this window as the range', { 'aria-keyshortcuts': 'Enter' }, function () { setRange([ui.timeline.win[0], ui.timeline.win[1]]); }));
    ui.rangeClear = button('Clear range', { disabled: '' }, function () { setRange(null); });
    tbar.appendChild(ui.rangeClear);
    ui.tlNote = el('span', { 'class': 'cs-status' });
    tbar.appendChild(ui.tlNote);
    tlp.appendChild(tbar);
    var tlbox = el('div', { 'class': 'cs-canvasbox', id: 'cs-timeline', tabindex: '0', role: 'application',
                            'aria-roledescription': 'timeline',
                            'aria-label': 'Timeline of every thread. Plus and minus zoom, arrows pan, drag to select a range, Enter uses the window as the range.' });
    tlp.appendChild(tlbox);
    ui.timeline = new Timeline(tlbox, {
      onRange: function (r) { setRange(r); },
      onWindow: function (w) { S.tl = w; commit(false); }
    });

    if (M.lines) {
      var sp = panel('source');
      ui.srcNote = el('p', { 'class': 'cs-note' });
      ui.srcNote.style.margin = '4px 12px';
      sp.appendChild(ui.srcNote);
      ui.srcRows = new SourceRows({ activate: openSandwich, select: selectFunc });
      ui.srcGrid = new Grid(sp, M.lines.byTime ? 'Source: where the functions begin, by self time' : 'Source lines by samples', [
        { id: 'samples', label: M.lines.byTime ? 'Self time' : 'Samples', num: true }, { id: 'pct', label: '%', num: true, width: '5em' },
        { id: 'line', label: 'Line', num: true, width: '5em' }, { id: 'text', label: 'Source', width: 'minmax(20em, 4fr)' },
        { id: 'func', label: 'Function', width: 'minmax(10em, 1fr)' }, { id: 'file', label: 'File', width: 'minmax(10em, 1fr)' }],
        ui.srcRows);
      ui.srcGrid.root.id = 'cs-source';
    }

    if (M.diff) {
      var dp = panel('diff');
      var dbar = el('div', { 'class': 'cs-bar' });
      var thr = el('input', { type: 'number', min: '0', max: '100', step: '0.1', id: 'cs-threshold', value: String(S.thr) });
      thr.style.width = '6em';
      thr.addEventListener('change', function () { S.thr = Math.max(0, Math.min(100, Number(thr.value) || 0)); commit(false); ui.diffRows.reset(); ui.diffGrid.refresh(); diffNote(); });
      var tl2 = el('label', null, 'Hide changes under ');
      tl2.appendChild(thr);
      tl2.appendChild(doc.createTextNode(' % of the whole'));
      dbar.appendChild(tl2);
      ui.diffNote = el('span', { 'class': 'cs-status' });
      dbar.appendChild(ui.diffNote);
      dp.appendChild(dbar);
      ui.thr = thr;
      ui.diffRows = new DiffRows({ activate: openSandwich, select: selectFunc });
      ui.diffGrid = new Grid(dp, 'Differences by function', [
        { id: 'name', label: 'Function', width: 'minmax(14em, 3fr)' },
        { id: 'bself', label: 'Base self', num: true }, { id: 'self', label: 'Self', num: true },
        { id: 'dself', label: '\u0394 self', num: true, width: 'minmax(9em, 1.3fr)' },
        { id: 'btotal', label: 'Base total', num: true }, { id: 'total', label: 'Total', num: true },
        { id: 'dtotal', label: '\u0394 total', num: true, width: 'minmax(9em, 1.3fr)' },
        { id: 'bcalls', label: 'Base calls', num: true }, { id: 'calls', label: 'Calls', num: true },
        { id: 'dcalls', label: '\u0394 calls', num: true }], ui.diffRows);
      ui.diffGrid.heads[3].setAttribute('aria-sort', 'descending');
    }

    live = el('div', { 'class': 'cs-sr', 'aria-live': 'polite', id: 'cs-live' });
    app.appendChild(live);
    ui.help = el('div', { 'class': 'cs-help', role: 'dialog', 'aria-modal': 'true', 'aria-label': 'Keyboard', hidden: '', tabindex: '-1' });
    ui.help.appendChild(el('h2', null, 'Keyboard'));
    var dl = el('dl');
    [['1 \u2026 ' + Object.keys(ui.tabs).length, 'switch view, in the order of the tabs (or arrow keys on them)'], ['/', 'search: a regular expression, or OBJECT:expression as the CLI\u2019s symbol specs; Enter: next match'],
     ['n, N', 'next, previous match'], ['Backspace', 'back (undo the last zoom or change)'],
     ['arrows', 'move between frames (flame graph), rows (tables), pan (timeline)'],
     ['Enter', 'zoom to the frame; open in the flame graph (tables)'], ['Escape', 'zoom out; close this help'],
     ['f, h, g, r, s', 'focus on, hide, merge, collapse recursion of, sandwich the selected function'],
     ['i', 'flame graph / icicle'], ['m', 'next metric'], ['t', 'dark / light'],
     ['+, -, 0', 'timeline: zoom in, out, whole run'], ['?', 'this help']].forEach(function (r) {
      dl.appendChild(el('dt', null, r[0])); dl.appendChild(el('dd', null, r[1]));
    });
    ui.help.appendChild(dl);
    ui.help.appendChild(button('Close', null, function () { toggleHelp(); }));
    doc.body.appendChild(ui.help);

    function panel(id) {
      var p = el('section', { 'class': 'cs-panel', id: 'cs-panel-' + id, role: 'tabpanel', 'aria-labelledby': 'cs-tab-' + id, hidden: '' });
      app.appendChild(p);
      ui.panels[id] = p;
      return p;
    }
  }

  function applyTheme() {
    if (S.theme) doc.documentElement.setAttribute('data-theme', S.theme);
    else doc.documentElement.removeAttribute('data-theme');
    readTheme();
    colourCache.clear();
    if (ui.theme) {
      ui.theme.setAttribute('aria-pressed', theme.dark ? 'true' : 'false');
    }
  }

  function redrawAll() {
    if (S.view === 'flame') ui.flame.draw();
    if (S.view === 'sandwich') { ui.callers.draw(); ui.callees.draw(); }
    if (S.view === 'timeline') ui.timeline.draw();
  }

  function showView(id, push) {
    if (!hasView(id)) id = 'flame';
    S.view = id;
    commit(push);
    refresh();
  }

  function selectedFunc() {
    if (S.view === 'flame') {
      var n = ui.flame.selectedNode();
      if (n > 0) return ui.flame.tree.func[n];
    }
    return ui.selFunc === undefined ? -1 : ui.selFunc;
  }
  function selectFunc(f) { ui.selFunc = f; updateActions(); }
  function updateActions() {
    var f = selectedFunc(), ok = f >= 0 && f < M.F.n;
    Object.keys(ui.actions).forEach(function (k) {
      if (ok) ui.actions[k].removeAttribute('disabled'); else ui.actions[k].setAttribute('disabled', '');
    });
  }
  function action(kind) {
    var f = selectedFunc();
    if (f < 0 || f >= M.F.n) return;
    if (kind === 'sandwich') openSandwich(f);
    else addTransform({ k: kind, f: f });
  }
  function addTransform(tr) {
    S.tr = S.tr.concat([tr]);
    S.zoom = 0;
    commit(true);
    refresh();
  }
  /* The calls from and to F that the code makes but the run never did
   * (html --static), greyed with their count 0; a tail call is said. */
  function showStaticArcs(f) {
    var a = M.staticArcs, list = ui.swStatic;
    while (list.firstChild) list.removeChild(list.firstChild);
    var n = 0;
    for (var i = 0; a && i < a.caller.length; i++) {
      if (a.caller[i] !== f && a.callee[i] !== f) continue;
      var li = el('li', { 'class': 'cs-static-arc', title: 'never ran: count 0' });
      var from = el('button', { type: 'button', 'class': 'cs-link' }, nameOf(a.caller[i]));
      var to = el('button', { type: 'button', 'class': 'cs-link' }, nameOf(a.callee[i]));
      from.addEventListener('click', openSandwich.bind(null, a.caller[i]));
      to.addEventListener('click', openSandwich.bind(null, a.callee[i]));
      li.appendChild(el('span', { 'class': 'cs-num' }, '0'));
      li.appendChild(from);
      li.appendChild(doc.createTextNode(a.tail[i] ? ' \u2192 (tail call) ' : ' \u2192 '));
      li.appendChild(to);
      list.appendChild(li);
      n++;
    }
    ui.swStaticTitle.hidden = list.hidden = !a;
    if (a && !n) list.appendChild(el('li', { 'class': 'cs-static-arc' }, 'none: every call of its code ran'));
  }

  function openSandwich(f) {
    S.sw = f;
    S.view = 'sandwich';
    commit(true);
    refresh();
  }
  function setRange(r) {
    S.range = r;
    S.zoom = 0;
    commit(true);
    refresh();
  }
  function zoomTo(node, push, sel, view) {
    S.zoom = node;
    if (view) S.view = view;
    ui.flame.pendingSelNode = sel === undefined ? node : sel;
    commit(push);
    refresh();
  }
  function goBack() {
    if (history.length > 1 && hook.pushed) history.back();
    else if (S.zoom) zoomTo(currentTree().parent[S.zoom], false);
  }

  function doSearch(q) {
    var t0 = now();
    setSearch(q);
    ui.search.setAttribute('aria-invalid', search.error ? 'true' : 'false');
    commit(false);
    refresh();
    hook.lastSearchMs = now() - t0;
  }
  function searchStatus() {
    if (!S.q) { ui.status.textContent = ''; return; }
    if (search.error) { ui.status.textContent = search.error; return; }
    var nf = 0;
    for (var f = 0; f < M.F.n; f++) if (search.match[f] && M.F.listed[f]) nf++;
    var t = currentTree(), m = metricOf(t), w = matchedWeight(t, m), tot = t.total(m)[0];
    ui.status.textContent = nf + (nf === 1 ? ' function' : ' functions') + ', ' + fmtPct(w, tot) + ' of ' + m +
      (search.at >= 0 ? '; match ' + (search.at + 1) + ' of ' + matchedNodes(t).length : '');
    ui.status.setAttribute('data-functions', String(nf));
  }
  function step(dir) {
    var t = currentTree(), list = matchedNodes(t);
    if (!list.length) return;
    search.at = search.at < 0 ? (dir > 0 ? 0 : list.length - 1) : (search.at + dir + list.length) % list.length;
    var node = list[search.at];
    if (S.view === 'tree') {
      var k = ui.treeRows.revealNode(node);
      if (k >= 0) ui.treeGrid.setFocus(k, true);
      searchStatus();
      return;
    }
    if (S.view !== 'flame') { S.view = 'flame'; }
    /* zoom out far enough for the match to be drawn */
    var z = S.zoom, tot = t.total(metricOf(t));
    var inside = z === 0 || (node >= z && node < z + t.size[z]);
    if (!inside || tot[node] / (tot[z] || 1) * ui.flame.width < MIN_W) z = t.parent[node] > 0 ? t.parent[node] : 0;
    zoomTo(z, z !== S.zoom, node);
    /* a zoom that did not change lays nothing out again, so select the
     * match here, which also says which frame it is */
    ui.flame.pendingSelNode = undefined;
    ui.flame.select(ui.flame.rectOf(node));
    searchStatus();
  }

  function crumbs(tree, zoom) {
    ui.crumbs.textContent = '';
    tree.path(zoom).forEach(function (i, n, all) {
      var li = el('li');
      var b = button(nameOf(tree.func[i]), n === all.length - 1 ? { 'aria-current': 'true' } : null,
                     function () { zoomTo(i, true); });
      li.appendChild(b);
      ui.crumbs.appendChild(li);
    });
  }

  function chips() {
    ui.chips.textContent = '';
    var list = S.tr.map(function (t, n) { return { label: t.k + (t.f >= 0 ? ' ' + nameOf(t.f) : ' (all)'), drop: function () { S.tr = S.tr.filter(function (x, k) { return k !== n; }); } }; });
    if (S.range) list.push({ label: 'range ' + fmtDuration(S.range[0] - M.tl.t0) + ' \u2013 ' + fmtDuration(S.range[1] - M.tl.t0), drop: function () { S.range = null; } });
    list.forEach(function (c) {
      var chip = el('span', { 'class': 'cs-chip' }, c.label);
      chip.appendChild(button('\u00D7', { 'aria-label': 'Remove ' + c.label }, function () { c.drop(); S.zoom = 0; commit(true); refresh(); }));
      ui.chips.appendChild(chip);
    });
  }

  function topNote() {
    var s = S.range ? 'Numbers for the range selected on the timeline, from the calls it shows (as recorded; the hooks\u2019 cost not subtracted).'
      : S.tr.length ? 'Numbers after the transforms applied in the flame graph.'
      : 'The numbers of callscope report: ' + fmtCount(M.meta.calls) + ' calls, ' + M.meta.lost_events + ' lost events.';
    ui.topNote.textContent = s;
  }
  function diffNote() {
    if (ui.diffNote) ui.diffNote.textContent = ui.diffRows.hidden ? ui.diffRows.hidden + ' functions with smaller changes hidden' : '';
  }

  function sandwichTrees(tree, f, m) {
    /* callers: each outermost frame of F, its path upwards, weighed by
     * its total; callees: F's outermost frames merged */
    var tot = tree.total(m), b = new Builder([m], false), inF = 0, root = -1;
    var pathBuf = [];
    for (var i = 1; i < tree.n;) {
      if (tree.func[i] !== f) { i++; continue; }
      if (root < 0) root = b.child(0, f);
      pathBuf.length = 0;
      for (var p = tree.parent[i]; p > 0; p = tree.parent[p]) pathBuf.push(tree.func[p]);
      var at = root;
      b.vals[m][root] += 0;
      for (var q = 0; q < pathBuf.length; q++) at = b.child(at, pathBuf[q]);
      /* the weight goes to the last frame of the path, so each
       * ancestor's total is the sum over paths through it */
      b.vals[m][at] += tot[i];
      inF += tot[i];
      i += tree.size[i];
    }
    var callers = b.finish(m);
    var callees = transform(tree, { k: 'focus', f: f }, m);
    return { callers: callers, callees: callees, weight: inF };
  }

  function refresh() {
    var t0 = now();
    var tree = currentTree(), m = metricOf(tree);
    applyTheme();
    Object.keys(ui.tabs).forEach(function (id) {
      var on = id === S.view;
      ui.tabs[id].setAttribute('aria-selected', on ? 'true' : 'false');
      ui.tabs[id].setAttribute('tabindex', on ? '0' : '-1');
      ui.panels[id].hidden = !on;
    });
    ui.metric.value = m;
    if (ui.search.value !== S.q) ui.search.value = S.q;
    ui.orient.setAttribute('aria-pressed', S.icicle ? 'true' : 'false');
    ui.rangeClear[S.range ? 'removeAttribute' : 'setAttribute']('disabled', '');
    chips();
    if (S.zoom >= tree.n) S.zoom = 0;
    if (S.view === 'flame') {
      var fl = ui.flame, relayout = fl.tree !== tree || fl.zoom !== S.zoom || fl.metric !== m || fl.icicle !== S.icicle;
      if (relayout) {
        var keepSel = fl.pendingSelNode;
        fl.set(tree, S.zoom, m, S.icicle);
        if (keepSel === undefined) fl.sel = -1;
        fl.scrollToRoot();
        if (fl.sel >= 0) fl.ensureVisible(fl.sel);
      }
      crumbs(tree, S.zoom);
      fl.draw();
      updateActions();
    } else if (S.view === 'tree') {
      if (ui.treeRows.t !== tree || ui.treeRows.m !== m) { ui.treeRows.reset(); ui.treeRows.m = m; }
      ui.treeGrid.refresh();
    } else if (S.view === 'bottomup') {
      if (ui.buRows.t !== tree || ui.buRows.m !== m) ui.buRows.reset();
      ui.buGrid.refresh();
    } else if (S.view === 'sandwich') {
      var has = S.sw >= 0 && S.sw < M.F.n;
      ui.swEmpty.hidden = has;
      ui.sw.hidden = !has;
      if (has) {
        var key = tree.n + ':' + S.sw + ':' + m;
        if (ui.swKey !== key) {
          var st = sandwichTrees(tree, S.sw, m);
          ui.swKey = key;
          ui.swTitle.textContent = 'Callers of ' + nameOf(S.sw) + ' (' + valueFormat(m)(st.weight) + ', each stack counted once)';
          ui.callers.set(st.callers, 0, m, false);
          ui.callees.set(st.callees, 0, m, true);
          ui.callers.scrollToRoot();
          ui.callees.scrollToRoot();
          showStaticArcs(S.sw);
        }
        ui.callers.draw();
        ui.callees.draw();
      }
    } else if (S.view === 'source') {
      ui.srcRows.reset();
      ui.srcNote.textContent = (M.lines.byTime
        ? fmtCount(M.lines.samples.length) + ' functions where they begin, each with its self time (a traced run ' +
          'knows no line inside a function; record with --sample for that); the first lines of the hottest'
        : fmtCount(M.lines.samples.length) + ' sampled lines, by file and line; the text of the hottest lines and ' +
          'their neighbours') + ' was read when the page was made' +
        (M.meta.cuts.unreadable_sources ? ' (' + M.meta.cuts.unreadable_sources + ' source files could not be read)' : '') +
        '. Sort by ' + (M.lines.byTime ? 'Self time' : 'Samples') + ' for the hottest first.';
      ui.srcGrid.refresh();
    } else if (S.view === 'top') {
      ui.topRows.reset();
      topNote();
      ui.topGrid.refresh();
    } else if (S.view === 'timeline') {
      if (S.tl) ui.timeline.setWindow(S.tl);
      var shown = 0, all = M.meta.cuts.calls_kept + M.meta.cuts.calls_dropped;
      M.tl.lanes.forEach(function (ln) { shown += ln.n; });
      ui.tlNote.textContent = fmtCount(shown) + ' of ' + fmtCount(all) + ' calls' +
        (M.meta.cuts.calls_dropped ? ' (the longest; shorter than ' + fmtDuration(M.meta.cuts.min_call_ns) + ' left out)' : '');
      ui.timeline.draw();
    } else if (S.view === 'diff') {
      if (ui.thr.value !== String(S.thr)) ui.thr.value = String(S.thr);
      ui.diffRows.reset();
      ui.diffGrid.refresh();
      diffNote();
    }
    searchStatus();
    hook.lastRefreshMs = now() - t0;
  }

  function toggleHelp() {
    ui.help.hidden = !ui.help.hidden;
    if (!ui.help.hidden) { ui.helpReturn = doc.activeElement; ui.help.focus(); }
    else if (ui.helpReturn) ui.helpReturn.focus();
  }

  function globalKeys(e) {
    if (e.ctrlKey || e.metaKey || e.altKey) {
      if (e.altKey && e.key === 'ArrowLeft') { goBack(); e.preventDefault(); }
      return;
    }
    var tag = e.target && e.target.tagName;
    if (tag === 'INPUT' || tag === 'SELECT' || tag === 'TEXTAREA') return;
    if (!ui.help.hidden) {
      if (e.key === 'Escape' || e.key === '?') { toggleHelp(); e.preventDefault(); }
      return;
    }
    var ids = Object.keys(ui.tabs);
    if (/^[1-9]$/.test(e.key) && Number(e.key) <= ids.length) {
      showView(ids[Number(e.key) - 1], true);
      focusView();
    } else if (e.key === '/') { ui.search.focus(); ui.search.select(); }
    else if (e.key === 'n') step(1);
    else if (e.key === 'N') step(-1);
    else if (e.key === 'Backspace') goBack();
    else if (e.key === 'i') { S.icicle = !S.icicle; commit(true); refresh(); }
    else if (e.key === 'm') {
      var k = (M.metrics.indexOf(S.metric) + 1) % M.metrics.length;
      S.metric = M.metrics[k]; commit(true); refresh();
    } else if (e.key === 't') ui.theme.click();
    else if (e.key === '?') toggleHelp();
    else if (e.key === 'f' || e.key === 'h' || e.key === 'r') action({ f: 'focus', h: 'hide', r: 'rec' }[e.key]);
    else if (e.key === 'g') action('merge');
    else if (e.key === 's') action('sandwich');
    else return;
    e.preventDefault();
  }
  function focusView() {
    var p = ui.panels[S.view], target = p.querySelector('.cs-canvasbox, [role="treegrid"], [role="grid"]');
    if (!target) return;
    if (target.getAttribute('role') === 'grid' || target.getAttribute('role') === 'treegrid') {
      var g = { tree: ui.treeGrid, bottomup: ui.buGrid, top: ui.topGrid, source: ui.srcGrid, diff: ui.diffGrid }[S.view];
      g.setFocus(g.focus, true);
    } else target.focus();
  }

  /* ---------------- start ---------------- */

  function fail(e) {
    hook.error = String(e && e.message || e);
    hook.stack = e && e.stack;
    var p = $('cs-loading');
    if (p) p.textContent = 'The interactive views could not start: ' + hook.error;
  }

  function start() {
    var t0 = now();
    var node = $('cs-data');
    var text = node ? node.textContent.trim() : '';
    if (!text) { fail('the page carries no data'); return; }
    if (typeof DecompressionStream === 'undefined') { fail('this browser lacks DecompressionStream'); return; }
    var bytes = base64Bytes(text);
    /* the text is not needed once decoded: let it go */
    text = null;
    node.textContent = '';
    inflate(bytes).then(function (raw) {
      bytes = null;
      hook.timings.inflateMs = now() - t0;
      var t1 = now();
      buildModel(parseContainer(raw));
      hook.timings.modelMs = now() - t1;
      S = decodeState(location.hash);
      setSearch(S.q);
      $('cs-summary').hidden = true;
      $('cs-app').hidden = false;
      buildUI();
      applyTheme();
      lastHash = encodeState();
      history.replaceState(null, '', lastHash);
      refresh();
      hook.timings.firstDrawMs = now();
      hook.timings.startMs = now() - t0;
      doc.addEventListener('keydown', globalKeys);
      window.addEventListener('popstate', function () {
        S = decodeState(location.hash);
        lastHash = location.hash;
        setSearch(S.q);
        refresh();
      });
      var origPush = history.pushState.bind(history);
      history.pushState = function (a, b, c) { hook.pushed = true; return origPush(a, b, c); };
      window.addEventListener('resize', function () { redrawAll(); if (S.view !== 'flame') refresh(); });
      if (window.matchMedia) window.matchMedia('(prefers-color-scheme: dark)').addEventListener('change', function () { applyTheme(); redrawAll(); });
      hook.ready = true;
    }).catch(fail);
  }

  /* ---------------- hooks for tests and benchmarks ---------------- */

  hook.state = function () { return JSON.parse(JSON.stringify(S)); };
  hook.flameRects = function () { return ui.flame.rects(); };
  hook.flameWidth = function () { return ui.flame.width; };
  hook.sandwichRects = function () { return { callers: ui.callers.rects(), callees: ui.callees.rects() }; };
  hook.timelineRects = function () {
    return (ui.timeline.drawn || []).map(function (h) {
      var ln = M.tl.lanes[h.lane];
      return { name: nameOf(M.tree.func[ln.node[h.i]]), tid: ln.info.tid, x: h.x, y: h.y, w: h.w,
               start: ln.start[h.i], dur: ln.dur[h.i], depth: M.tree.depth[ln.node[h.i]] };
    });
  };
  /* A function's number, as the URL fragment's transforms and sandwich name it. */
  hook.func = function (name) { return M.F.name.indexOf(name); };
  hook.timelineWindow = function () { return ui.timeline.win.slice(); };
  hook.topRows = function () {
    var r = ui.topRows, st = r.st;
    return r.rows.map(function (f) {
      return { name: M.F.name[f], calls: st.calls[f], self_ns: st.self[f], total_ns: st.total[f],
               min_ns: M.F.untimed && M.F.untimed[f] ? null : st.calls[f] ? st.min[f] : 0, avg_ns: st.avg[f],
               max_ns: M.F.untimed && M.F.untimed[f] ? null : st.max[f] };
    });
  };
  hook.tree = function () {
    var t = currentTree(), m = metricOf(t);
    return { n: t.n, maxDepth: t.maxDepth, total: t.total(m)[0] };
  };
  hook.zoom = function (node) { var t0 = now(); zoomTo(node, true); return now() - t0; };
  hook.search = function (q) { var t0 = now(); ui.search.value = q; doSearch(q); return now() - t0; };
  hook.view = function (id) { showView(id, true); };
  hook.range = function (a, b) { setRange([a, b]); };
  /* Replaces the function names (tests: hostile names must show as text). */
  hook.setNames = function (list) {
    for (var f = 0; f < M.F.n; f++) M.F.name[f] = list[f % list.length];
    colourCache.clear();
    ui.swKey = '';
    ui.topRows.reset(); ui.treeRows.reset(); ui.buRows.reset();
    refresh();
  };

  if (doc.readyState === 'loading') doc.addEventListener('DOMContentLoaded', start);
  else start();
})();
