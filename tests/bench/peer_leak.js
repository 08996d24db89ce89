// What boardgame.io sends a spectator and a player when they connect (its `sync` reply), checked for
// the hidden deck and the PRNG seed: the peer's known leak (its README, upstream issue #1159), observed
// in the same run as Tabula's figures rather than quoted.
//
// usage (from the peer's folder, which has socket.io-client in node_modules):
//   node /path/to/tests/bench/peer_leak.js --url http://127.0.0.1:PORT [--out FILE]
'use strict';
const path = require('path');
const fs = require('fs');

function arg(name, dflt) {
  const i = process.argv.indexOf('--' + name);
  return i >= 0 && i + 1 < process.argv.length ? process.argv[i + 1] : dflt;
}
const URL_BASE = arg('url', 'http://127.0.0.1:18000').replace(/\/$/, '');
const OUT = arg('out', '');
const host = new URL(URL_BASE).hostname;
if (!['127.0.0.1', 'localhost', '::1', '[::1]'].includes(host)) {
  console.error('refusing non-loopback target ' + host);
  process.exit(2);
}
const ioc = require(path.join(process.cwd(), 'node_modules', 'socket.io-client'));

async function post(p, body) {
  const res = await fetch(URL_BASE + p, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  if (!res.ok) throw new Error(`POST ${p} -> ${res.status}`);
  return res.json();
}

function syncReply(matchID, playerID, credentials) {
  return new Promise((resolve, reject) => {
    const sock = ioc(`${URL_BASE}/cards`, { forceNew: true, transports: ['websocket'], reconnection: false });
    const timer = setTimeout(() => { sock.close(); reject(new Error('no sync reply')); }, 10000);
    sock.on('connect', () => sock.emit('sync', matchID, playerID, credentials, 2));
    sock.on('sync', (_m, info) => { clearTimeout(timer); sock.close(); resolve(info); });
    sock.on('connect_error', (e) => { clearTimeout(timer); reject(e); });
  });
}

function findDeck(node, out, where) {
  // Any array of 60+ card codes is the hidden deck (hands hold 5, the pile is empty at the start).
  if (Array.isArray(node)) {
    if (node.length >= 60 && node.every((c) => typeof c === 'string' && /^(A|[2-9]|10|J|Q|K)[SHDC]$/.test(c))) out.push(where);
    node.forEach((x, i) => findDeck(x, out, `${where}[${i}]`));
  } else if (node && typeof node === 'object') {
    for (const k of Object.keys(node)) findDeck(node[k], out, `${where}.${k}`);
  }
  return out;
}
function findSeed(node, out, where) {
  if (node && typeof node === 'object') {
    for (const k of Object.keys(node)) {
      if ((k === 'seed' || k === 'prngstate') && node[k] !== undefined && node[k] !== null) out.push(`${where}.${k}`);
      findSeed(node[k], out, `${where}.${k}`);
    }
  }
  return out;
}

async function main() {
  const { matchID } = await post('/games/cards/create', { numPlayers: 2 });
  const j = await post(`/games/cards/${matchID}/join`, { playerID: '0', playerName: 'p0' });
  const result = {};
  for (const [who, pid, cred] of [['spectator', null, undefined], ['player 0', '0', j.playerCredentials]]) {
    const info = await syncReply(matchID, pid, cred);
    result[who] = { deck_at: findDeck(info, [], 'sync'), seed_at: findSeed(info, [], 'sync') };
  }
  const leaks = Object.values(result).some((r) => r.deck_at.length || r.seed_at.length);
  const out = { server_name: 'boardgame.io', leaks, sync: result };
  if (OUT) fs.writeFileSync(OUT, JSON.stringify(out, null, 2) + '\n');
  console.log(JSON.stringify(out));
}
main().then(() => process.exit(0), (e) => { console.error('peer_leak failed:', e.message); process.exit(1); });
