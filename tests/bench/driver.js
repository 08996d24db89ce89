// Load driver for Tabula: the card-game workload of ../shared/bench/peer-boardgameio (its README defines
// it), replayed against Tabula's server with the same phases, move rule, spectators, timeouts and
// metrics as the peer's driver.js, and the same result JSON, so one table shows both servers.
//
// usage: node tests/bench/driver.js --url http://127.0.0.1:8000[,http://127.0.0.1:8001...] --matches 50
//          [--spectators 1] [--moves 60] [--client ws|http] [--deflate 1|0] [--server-pid PID]
//          [--db-name NAME] [--timeout 100] [--label NAME] [--out FILE] [--storage postgres|sqlite]
//          [--verify 1] [--pause-before-play 1] [--ack patch|message] [--every-latency 1]
//
// Phases: (1) setup: create T tables and join both seats over the JSON API (3 requests per table, at
// most 16 tables in flight), open 2+S websockets per table (at most 64 connecting at once) and wait
// until each holds its first full view; (2) play: at t_go the first player of every table moves; every
// player moves as soon as its view says it is its turn (card index (moves so far + table index) % 5);
// the phase ends when every connection has seen the game finished. Only phase (2) is measured.
//
// `--client ws` sends each move on the player's websocket (as the site's page does); `--client http`
// posts it to POST /api/tables/{id}/actions. Updates always arrive on the websocket as JSON Patches.
// Bytes are websocket payload bytes as they crossed the wire (compressed when the connection
// negotiated permessage-deflate, as every browser does), without the frame header: what the peer's
// driver meters. The uncompressed text size is reported beside them.
'use strict';
const fs = require('fs');
const http = require('http');
const os = require('os');
const { performance } = require('perf_hooks');
const { connect } = require('./wsclient');
const jsonpatch = require('./jsonpatch');

// ---------------------------------------------------------------- arguments
function arg(name, dflt) {
  const i = process.argv.indexOf('--' + name);
  return i >= 0 && i + 1 < process.argv.length ? process.argv[i + 1] : dflt;
}
// Several servers (comma-separated: processes on one database): table i is created on server i % n and its
// seats and spectators are spread over the servers from there, so a move's opponent is on another process
// than its mover (the news crosses by LISTEN/NOTIFY). --server-pid then names their pids in the same order.
const URL_BASES = arg('url', 'http://127.0.0.1:8000').split(',').map((u) => u.replace(/\/$/, ''));
const URL_BASE = URL_BASES[0];
const serverOf = (mi, role) => URL_BASES[(mi + role) % URL_BASES.length];
const T = Number(arg('matches', '10'));
const SPECTATORS = Number(arg('spectators', '1'));
const MOVES = Number(arg('moves', '60'));
const CLIENT = arg('client', 'ws');
const DEFLATE = arg('deflate', '1') !== '0';
const SERVER_PIDS = arg('server-pid', '').split(',').filter(Boolean);
const DB_NAME = arg('db-name', '');
const TIMEOUT_S = Number(arg('timeout', '100'));
const LABEL = arg('label', `T${T}`);
const OUT = arg('out', '');
const SERVER_NAME = arg('server-name', 'tabula');
const STORAGE = arg('storage', 'postgres');
const VERIFY = arg('verify', '0') === '1';
// Also every opponent latency, in the order the moves were made (which moves of a game are slow, run after run).
const EVERY_LATENCY = arg('every-latency', '0') === '1';
// How a move over the websocket is acknowledged: inside the patch that brings it back ("patch", one
// message) or by an ack message of its own ("message"). See app/realtime/PROTOCOL.md.
const ACK = arg('ack', 'patch');
// For profilers: after setup, print "SETUP DONE" and wait for SIGUSR1 before playing.
const PAUSE = arg('pause-before-play', '0') === '1';
const GAME = 'bench_cards';
const HAND_SIZE = 5;
const SETUP_CONCURRENCY = 16;
const CLK_TCK = Number(process.env.CLK_TCK || 100);
const CARD = /^(A|[2-9]|10|J|Q|K)[SHDC]$/;

for (const base of URL_BASES) {
  const host = new URL(base).hostname;
  if (!['127.0.0.1', 'localhost', '::1', '[::1]'].includes(host)) {
    console.error('refusing non-loopback target ' + host);
    process.exit(2);
  }
}
if (!['ws', 'http'].includes(CLIENT)) {
  console.error('--client is ws or http');
  process.exit(2);
}

// ---------------------------------------------------------------- /proc sampling (as the peer's driver)
function procCpu(pid) {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(f[11]) + Number(f[12])) / CLK_TCK;
}
// The servers' figures summed (CPU, RSS, peak RSS), or null if one of them cannot be read.
function procSample(pids) {
  if (!pids.length) return null;
  const each = pids.map(procSampleOne);
  if (each.some((x) => x === null)) return null;
  return { cpu_s: each.reduce((a, x) => a + x.cpu_s, 0), rss_mb: each.reduce((a, x) => a + x.rss_mb, 0),
    hwm_mb: each.reduce((a, x) => a + x.hwm_mb, 0) };
}
function procSampleOne(pid) {
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (k) => {
      const m = status.match(new RegExp('^' + k + ':\\s+(\\d+)', 'm'));
      return m ? Number(m[1]) : null;
    };
    return { cpu_s: procCpu(pid), rss_mb: kb('VmRSS') / 1024, hwm_mb: kb('VmHWM') / 1024 };
  } catch (e) {
    return null;
  }
}
function sysCpu() {
  try {
    const f = fs.readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1).map(Number);
    const idle = f[3] + (f[4] || 0);
    const total = f.reduce((a, b) => a + b, 0);
    return { busy_s: (total - idle) / CLK_TCK, total_s: total / CLK_TCK };
  } catch (e) {
    return null;
  }
}
// The database's CPU, which the peer (in-memory) does not have: Postgres backends serving our database
// plus the cluster's own background processes (WAL writer, checkpointer...). pid -> cpu seconds.
function dbCpu() {
  if (!DB_NAME) return null;
  const out = new Map();
  const background = /: (walwriter|checkpointer|background writer|autovacuum launcher|autovacuum worker|logical replication launcher) *$/;
  for (const pid of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(pid)) continue;
    try {
      if (fs.readFileSync(`/proc/${pid}/comm`, 'utf8').trim() !== 'postgres') continue;
      const cmd = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ').trim();
      if (cmd.includes(` ${DB_NAME} `) || background.test(cmd)) out.set(pid, procCpu(pid));
    } catch (e) { /* gone */ }
  }
  return out;
}
function dbDelta(a, b) {
  if (!a || !b) return null;
  let s = 0;
  for (const [pid, cpu] of b) s += cpu - (a.has(pid) ? a.get(pid) : 0);
  return s;
}

// ---------------------------------------------------------------- helpers
// Requests go through node's http module on kept-alive connections (as a script's HTTP client would):
// `fetch` (undici) cost the driver about 1.8 ms of CPU per request here, more than the server's whole move,
// and on a 2-core machine the driver's core is the server's rival.
const httpAgent = new http.Agent({ keepAlive: true, maxSockets: 256 });
function request(method, url, body, token) {
  const headers = {};
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (token) headers.authorization = 'Bearer ' + token;
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method, headers, agent: httpAgent }, (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode, text: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body === undefined ? undefined : JSON.stringify(body));
  });
}
async function postJSON(path, body, token, base = URL_BASE) {
  const res = await request('POST', base + path, body, token);
  if (res.status < 200 || res.status >= 300) throw new Error(`POST ${path} -> ${res.status} ${res.text}`);
  return JSON.parse(res.text);
}
async function getJSON(path) {
  const res = await request('GET', URL_BASE + path);
  if (res.status < 200 || res.status >= 300) throw new Error(`GET ${path} -> ${res.status} ${res.text}`);
  return JSON.parse(res.text);
}

async function pool(n, limit, fn) {
  const out = new Array(n);
  let next = 0;
  async function worker() {
    while (next < n) {
      const i = next++;
      out[i] = await fn(i);
    }
  }
  await Promise.all(Array.from({ length: Math.min(limit, n) }, worker));
  return out;
}

function pct(sorted, p) {
  if (sorted.length === 0) return null;
  const idx = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[idx];
}
function summary(arr) {
  const s = Float64Array.from(arr).sort();
  const mean = s.length ? s.reduce((a, b) => a + b, 0) / s.length : null;
  const r = (x) => (x === null ? null : Math.round(x * 1000) / 1000);
  return { n: s.length, mean: r(mean), p50: r(pct(s, 50)), p95: r(pct(s, 95)), p99: r(pct(s, 99)), max: r(s.length ? s[s.length - 1] : null) };
}
function canonical(v) {
  if (Array.isArray(v)) return '[' + v.map(canonical).join(',') + ']';
  if (v && typeof v === 'object') return '{' + Object.keys(v).sort().map((k) => JSON.stringify(k) + ':' + canonical(v[k])).join(',') + '}';
  return JSON.stringify(v);
}
function strings(v, out) {
  if (typeof v === 'string') out.push(v);
  else if (Array.isArray(v)) for (const x of v) strings(x, out);
  else if (v && typeof v === 'object') for (const k of Object.keys(v)) { out.push(k); strings(v[k], out); }
  return out;
}

// ---------------------------------------------------------------- Tabula adapter
async function createMatch(mi) {
  const base = serverOf(mi, 0);
  const t = await postJSON('/api/tables', { game: GAME, players: 2 }, null, base);
  const seats = [];
  for (const seat of [0, 1]) {
    const j = await postJSON(`/api/tables/${t.id}/join`, { invite: t.invite_key, name: 'p' + seat, seat }, null, base);
    seats.push({ playerID: seat, credentials: j.token });
  }
  return { matchID: t.id, spectatorKey: t.spectator_key, seats };
}

// ---------------------------------------------------------------- run
async function main() {
  const lat = { opponent: [], self: [], spectator: [], ack: [] };
  const bytes = { player: [], spectator: [], playerText: [], spectatorText: [] };
  const counters = { bytesOut: 0, bytesInAll: 0, errors: [], gaps: 0, leaks: [] };
  const matches = [];
  let finished = 0;
  let tGo = 0;
  let tLast = 0;
  let playing = false;
  let done;
  let tReady = 0;
  let proc1 = null;
  let cpu1 = null;
  let db1 = null;
  let bytesOut0 = 0;
  let bytesIn0 = 0;
  let rssMax = null;
  let sampler = null;
  let sys1 = null;
  let reported = false;
  let nextId = 1;
  const allDone = new Promise((r) => (done = r));

  const proc0 = procSample(SERVER_PIDS);
  const tSetup0 = performance.now();

  // (1a) lobby: create + join
  const created = await pool(T, SETUP_CONCURRENCY, (mi) => createMatch(mi));
  const tLobby = performance.now();

  let readyCount = 0;
  const totalClients = T * (2 + SPECTATORS);
  let allReady;
  const ready = new Promise((r) => (allReady = r));

  for (let mi = 0; mi < T; mi++) {
    const { matchID, seats, spectatorKey } = created[mi];
    matches.push({
      mi, matchID, spectatorKey, clients: [], sent: new Map(), over: 0, moves: 0, lastSeen: -1, texts: [],
      roles: [...seats, ...Array.from({ length: SPECTATORS }, () => ({ playerID: null, credentials: spectatorKey }))]
        .map((r, role) => ({ ...r, base: serverOf(mi, role) })),
    });
  }

  function sendMove(m, c, stateID, cardIndex) {
    const action = { type: 'play', index: cardIndex };
    const t0 = performance.now();
    m.sent.set(stateID, { t: t0, mover: c.playerID });
    if (CLIENT === 'ws') {
      const id = nextId++;
      c.pendingAcks.set(id, t0);
      const act = { type: 'act', id, version: c.version, action };
      if (ACK === 'patch') act.ack = 'patch';
      c.ws.send(JSON.stringify(act));
    } else {
      postJSON(`/api/tables/${m.matchID}/actions`, { version: c.version, action }, c.credentials, c.base)
        .then(() => { if (playing) lat.ack.push(performance.now() - t0); })
        .catch((e) => counters.errors.push('act ' + e.message.slice(0, 200)));
    }
  }

  function maybePlay(m, c) {
    if (!playing || c.playerID === null || !c.view) return;
    const g = c.view.game;
    if (g.finished) return;
    if (!g.to_act.includes(c.playerID)) return;
    const stateID = g.move_count;
    if (m.sent.has(stateID)) return; // already sent a move for this state
    sendMove(m, c, stateID, (stateID + m.mi) % HAND_SIZE);
  }

  function checkLeaks(m, c, msgView) {
    // Every card a message names must be one this connection may know: its own hand or the pile.
    const g = c.view.game;
    const known = new Set([...(g.hand || []), ...g.pile]);
    for (const s of strings(msgView, [])) {
      if (CARD.test(s) && !known.has(s) && counters.leaks.length < 5) counters.leaks.push(`${m.matchID} seat ${c.playerID}: ${s}`);
    }
  }

  function onState(m, c, wire, text, isSync) {
    const now = performance.now();
    const g = c.view.game;
    if (isSync && !c.ready) {
      c.ready = true;
      c.onReady();
      if (++readyCount === totalClients) allReady();
      return;
    }
    if (playing) {
      if (c.playerID === null) { bytes.spectator.push(wire); bytes.spectatorText.push(text); }
      else { bytes.player.push(wire); bytes.playerText.push(text); }
      const p = m.sent.get(g.move_count - 1);
      if (p && c.lastStateID !== g.move_count) {
        const dt = now - p.t;
        if (c.playerID === null) lat.spectator.push(dt);
        else if (c.playerID === p.mover) lat.self.push(dt);
        else lat.opponent.push(dt);
      }
      if (c.playerID !== null && g.move_count > m.lastSeen) {
        m.lastSeen = g.move_count;
        m.moves++;
      }
    }
    c.lastStateID = g.move_count;
    if (g.finished) {
      if (!c.over) {
        c.over = true;
        if (++m.over === m.clients.length) {
          tLast = Math.max(tLast, now);
          if (!VERIFY) for (const x of m.clients) x.ws.close();
          if (++finished === T) done();
        }
      }
      return;
    }
    maybePlay(m, c);
  }

  function ackReceived(c, id) {
    const t0 = c.pendingAcks.get(id);
    if (t0 !== undefined) {
      c.pendingAcks.delete(id);
      if (playing) lat.ack.push(performance.now() - t0);
    }
  }

  function onMessage(m, c, raw, wire, textBytes) {
    counters.bytesInAll += wire;
    m.texts.push(raw);
    let msg;
    try { msg = JSON.parse(raw); } catch (e) { counters.errors.push('bad json'); return; }
    switch (msg.type) {
      case 'full': {
        c.view = msg.view;
        c.version = msg.version;
        checkLeaks(m, c, msg.view);
        if (c.syncWaiter) { const w = c.syncWaiter; c.syncWaiter = null; w(msg.view); return; }
        onState(m, c, wire, textBytes, !c.ready);
        return;
      }
      case 'patch': {
        if (!c.view || msg.from !== c.version) {
          counters.gaps++;
          c.ws.send('{"type":"sync"}');
          return;
        }
        try {
          c.view = jsonpatch.apply(c.view, msg.patch);
        } catch (e) {
          counters.errors.push('patch ' + e.message);
          c.ws.send('{"type":"sync"}');
          return;
        }
        c.version = msg.version;
        checkLeaks(m, c, msg.patch);
        if (msg.ack !== undefined) ackReceived(c, msg.ack);
        onState(m, c, wire, textBytes, false);
        return;
      }
      case 'ack':
        ackReceived(c, msg.id);
        return;
      case 'ping':
        c.ws.send('{"type":"pong"}');
        return;
      case 'error':
        counters.errors.push(`${msg.status} ${msg.error}`);
        return;
      default:
        return; // presence, pong, synced
    }
  }

  const flat = [];
  for (const m of matches) for (const r of m.roles) flat.push([m, r]);
  const setupTimer = setTimeout(() => abort('setup timeout'), TIMEOUT_S * 1000);
  await pool(flat.length, SETUP_CONCURRENCY * 4, async (i) => {
    const [m, r] = flat[i];
    const c = { playerID: r.playerID, credentials: r.credentials, base: r.base, ready: false, over: false, view: null,
      version: null, lastStateID: null, pendingAcks: new Map(), syncWaiter: null };
    const synced = new Promise((res) => (c.onReady = res));
    m.clients.push(c);
    const query = r.playerID === null ? `spectate=${encodeURIComponent(r.credentials)}` : `token=${encodeURIComponent(r.credentials)}`;
    c.ws = await connect(`${r.base.replace(/^http:/, 'ws:')}/ws/tables/${m.matchID}?${query}`, {
      deflate: DEFLATE,
      onMessage: (raw, wire, textBytes) => onMessage(m, c, raw, wire, textBytes),
      onClose: () => { if (!c.over && !reported) counters.errors.push('closed early'); },
    });
    await synced; // bounds the number of connections being opened at once
  });
  await ready;
  clearTimeout(setupTimer);
  tReady = performance.now();
  if (PAUSE) {
    console.error('SETUP DONE');
    await new Promise((res) => process.once('SIGUSR1', res));
  }

  // (2) play
  proc1 = procSample(SERVER_PIDS);
  db1 = dbCpu();
  sys1 = sysCpu();
  cpu1 = process.cpuUsage();
  bytesIn0 = counters.bytesInAll;
  bytesOut0 = matches.reduce((a, m) => a + m.clients.reduce((b, c) => b + c.ws.bytesOut, 0), 0);
  rssMax = proc1 ? proc1.rss_mb : null;
  sampler = setInterval(() => {
    const s = procSample(SERVER_PIDS);
    if (s && s.rss_mb > rssMax) rssMax = s.rss_mb;
  }, 250);
  const playTimer = setTimeout(() => abort('play timeout'), TIMEOUT_S * 1000);
  tGo = performance.now();
  playing = true;
  for (const m of matches) for (const c of m.clients) maybePlay(m, c);
  await allDone;
  clearTimeout(playTimer);
  clearInterval(sampler);
  const ctx = { tSetup0, tLobby, tReady, proc0, proc1, cpu1, db1, bytesOut0, bytesIn0, rssMax,
    proc2: procSample(SERVER_PIDS), db2: dbCpu(), sys2: sysCpu(), cpu2: process.cpuUsage(cpu1), tEnd: tLast };
  playing = false;
  ctx.verify = await afterPlay();
  report('ok', ctx);

  async function afterPlay() {
    // Not timed. The seed of each finished table (now public in its log) must appear in no message,
    // and with --verify every connection's patched view must equal a full view fetched afresh.
    const out = { seed_in_messages: 0, views_checked: 0, views_differ: 0 };
    await pool(matches.length, SETUP_CONCURRENCY, async (i) => {
      const m = matches[i];
      try {
        const logBody = await getJSON(`/api/tables/${m.matchID}/log?spectate=${encodeURIComponent(m.spectatorKey)}`);
        const seed = String(logBody.seed);
        if (logBody.seed !== undefined && m.texts.some((t) => t.includes(seed))) out.seed_in_messages++;
      } catch (e) {
        counters.errors.push('log ' + e.message.slice(0, 120));
      }
      if (!VERIFY) return;
      for (const c of m.clients) {
        const full = await new Promise((res) => { c.syncWaiter = res; c.ws.send('{"type":"sync"}'); });
        out.views_checked++;
        if (canonical(full) !== canonical(c.view)) out.views_differ++;
        c.ws.close();
      }
    });
    return out;
  }

  function abort(why) {
    if (sampler) clearInterval(sampler);
    if (!tGo) tGo = performance.now();
    report(why, { tSetup0, tLobby, tReady: tReady || performance.now(), proc0, proc1, cpu1, db1, bytesOut0,
      bytesIn0, rssMax, proc2: procSample(SERVER_PIDS), db2: dbCpu(), sys2: sysCpu(),
      cpu2: cpu1 ? process.cpuUsage(cpu1) : null, tEnd: tLast || performance.now(), verify: null });
  }

  function report(status, ctx) {
    if (reported) return;
    reported = true;
    const wall = (ctx.tEnd - tGo) / 1000;
    const proc2 = ctx.proc2;
    const cpuD = ctx.cpu2;
    const totalMoves = matches.reduce((a, m) => a + m.moves, 0);
    if (status === 'ok' && totalMoves !== T * MOVES) status = `moves ${totalMoves} != ${T * MOVES}`;
    if (status === 'ok' && counters.leaks.length) status = 'leak';
    if (status === 'ok' && ctx.verify && (ctx.verify.seed_in_messages || ctx.verify.views_differ)) status = 'verify failed';
    const sys2 = ctx.sys2;
    const busyCores = sys1 && sys2 ? (sys2.busy_s - sys1.busy_s) / wall : null;
    const srvCpu = proc2 && ctx.proc1 ? proc2.cpu_s - ctx.proc1.cpu_s : null;
    const drvCpu = cpuD ? (cpuD.user + cpuD.system) / 1e6 : null;
    const dbCpuS = dbDelta(ctx.db1, ctx.db2);
    const bytesOut = matches.reduce((a, m) => a + m.clients.reduce((b, c) => b + c.ws.bytesOut, 0), 0);
    const r = {
      label: LABEL,
      status,
      server_name: SERVER_NAME,
      storage: STORAGE,
      // "ws": moves on the websocket, acknowledged inside their patch; "ws-ackmsg": with an ack message of
      // their own (what the site's page sends today); "http": posted to the JSON API.
      client: (CLIENT === 'ws' && ACK === 'message' ? 'ws-ackmsg' : CLIENT)
        + (URL_BASES.length > 1 ? `-${URL_BASES.length}proc` : ''),
      processes: URL_BASES.length,
      ack: CLIENT === 'ws' ? ACK : null,
      deflate: DEFLATE,
      matches: T,
      spectators_per_match: SPECTATORS,
      connections: totalClients,
      moves_per_match: MOVES,
      matches_finished: finished,
      moves_total: totalMoves,
      setup_s: { lobby: +((ctx.tLobby - ctx.tSetup0) / 1000).toFixed(3), connect_sync: +((ctx.tReady - ctx.tLobby) / 1000).toFixed(3) },
      play_wall_s: +wall.toFixed(3),
      moves_per_s: +(totalMoves / wall).toFixed(1),
      ...(EVERY_LATENCY ? { opponent_latencies_ms: lat.opponent } : {}),
      latency_ms: { opponent: summary(lat.opponent), self_echo: summary(lat.self), spectator: summary(lat.spectator), ack: summary(lat.ack) },
      update_bytes: { player: summary(bytes.player), spectator: summary(bytes.spectator),
        player_text: summary(bytes.playerText), spectator_text: summary(bytes.spectatorText) },
      bytes_received_play_total: bytes.player.concat(bytes.spectator).reduce((a, b) => a + b, 0),
      bytes_received_play_all_messages: counters.bytesInAll - ctx.bytesIn0,
      bytes_sent_play_total: bytesOut - ctx.bytesOut0,
      server: proc2 && ctx.proc1 ? {
        pids: SERVER_PIDS.map(Number),
        cpu_s_play: +srvCpu.toFixed(2),
        cpu_util_play: +(srvCpu / wall).toFixed(2),
        cpu_ms_per_move: +(1000 * srvCpu / Math.max(1, totalMoves)).toFixed(3),
        cpu_s_setup: +(ctx.proc1.cpu_s - ctx.proc0.cpu_s).toFixed(2),
        cpu_s_since_start: +proc2.cpu_s.toFixed(2),
        rss_mb_before_setup: +ctx.proc0.rss_mb.toFixed(1),
        rss_mb_max_play: +Math.max(ctx.rssMax || 0, proc2.rss_mb).toFixed(1),
        rss_mb_peak_process: +proc2.hwm_mb.toFixed(1),
      } : null,
      database: dbCpuS === null ? null : {
        cpu_s_play: +dbCpuS.toFixed(2),
        cpu_util_play: +(dbCpuS / wall).toFixed(2),
        cpu_ms_per_move: +(1000 * dbCpuS / Math.max(1, totalMoves)).toFixed(3),
      },
      driver: drvCpu === null ? null : {
        cpu_s_play: +drvCpu.toFixed(2),
        cpu_util_play: +(drvCpu / wall).toFixed(2),
      },
      machine: busyCores === null ? null : {
        cores: os.cpus().length,
        busy_cores_play: +busyCores.toFixed(2),
        // busy cores not explained by server + driver + (for Postgres) the database
        other_busy_cores_play: srvCpu !== null && drvCpu !== null
          ? +(busyCores - srvCpu / wall - drvCpu / wall - (dbCpuS || 0) / wall).toFixed(2)
          : null,
        loadavg_1m_end: +os.loadavg()[0].toFixed(2),
      },
      checks: {
        hidden_cards_seen: counters.leaks.length,
        leaks: counters.leaks,
        seed_in_messages: ctx.verify ? ctx.verify.seed_in_messages : null,
        views_checked: ctx.verify ? ctx.verify.views_checked : null,
        views_differ: ctx.verify ? ctx.verify.views_differ : null,
        patch_gaps: counters.gaps,
      },
      errors: counters.errors.slice(0, 5),
      error_count: counters.errors.length,
    };
    const txt = JSON.stringify(r, null, 2);
    if (OUT) fs.writeFileSync(OUT, txt + '\n');
    console.log(txt);
    for (const m of matches) for (const c of m.clients) if (c.ws) try { c.ws.close(); } catch (e) { /* closing anyway */ }
    setTimeout(() => process.exit(status === 'ok' ? 0 : 3), 200);
  }
}

main().catch((e) => {
  console.error('driver failed:', e && e.stack ? e.stack : e);
  process.exit(1);
});
// absolute backstop: never outlive 2 x timeout + 10 s
setTimeout(() => { console.error('driver backstop exit'); process.exit(4); }, (2 * TIMEOUT_S + 10) * 1000).unref();
