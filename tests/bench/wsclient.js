// A small RFC 6455 websocket client for the load driver, with permessage-deflate (RFC 7692), written
// here so that the driver needs no npm package and can meter the exact payload bytes of every frame
// as it crossed the wire (compressed when the connection negotiated compression), which is what the
// peer's driver meters for boardgame.io (engine.io packet = websocket payload, no frame header).
//
//   const c = await connect('ws://127.0.0.1:8000/ws/tables/ID?token=T', { deflate: true, onMessage });
//   onMessage(text, wireBytes, textBytes)   // one call per data message, in order
//   c.send(text); c.close();
'use strict';
const net = require('net');
const crypto = require('crypto');
const zlib = require('zlib');

const TRAILER = Buffer.from([0x00, 0x00, 0xff, 0xff]);
let maskState = (Math.random() * 0x100000000) >>> 0;

function parseExtensions(header) {
  // "permessage-deflate; server_max_window_bits=12; client_max_window_bits=12"
  if (!header) return null;
  for (const ext of header.split(',')) {
    const parts = ext.split(';').map((s) => s.trim());
    if (parts[0] !== 'permessage-deflate') continue;
    const params = {};
    for (const p of parts.slice(1)) {
      const [k, v] = p.split('=').map((s) => s.trim());
      params[k] = v === undefined ? true : v.replace(/"/g, '');
    }
    return params;
  }
  return null;
}

// Synchronous processing on a zlib stream that lives as long as the connection: the loop of Node's own
// zlib *Sync functions (lib/zlib.js processChunkSync), minus the close at the end that would lose the
// window. A thread-pool hop per message (zlib's async API) would cost the driver, which shares the
// machine with the server, far more than the (de)compression itself.
class SyncZlib {
  constructor(make) {
    this.make = make;
    this.stream = null;
    this.error = null;
    this.out = Buffer.allocUnsafe(16384);
  }
  run(data, fresh) {
    if (!this.stream || fresh) {
      if (this.stream) this.stream.close();
      this.stream = this.make();
      this.stream.on('error', (e) => { this.error = e; });
    }
    const handle = this.stream._handle;
    const state = this.stream._writeState;
    const chunks = [];
    let inOff = 0;
    let availIn = data.length;
    for (;;) {
      handle.writeSync(zlib.constants.Z_SYNC_FLUSH, data, inOff, availIn, this.out, 0, this.out.length);
      if (this.error) throw this.error;
      const availOut = state[0];
      const availInAfter = state[1];
      const have = this.out.length - availOut;
      if (have > 0) chunks.push(Buffer.from(this.out.subarray(0, have)));
      inOff += availIn - availInAfter;
      availIn = availInAfter;
      if (availOut !== 0) break;
    }
    return chunks.length === 1 ? chunks[0] : Buffer.concat(chunks);
  }
  close() {
    if (this.stream) this.stream.close();
  }
}

class Inflater {
  // Server-to-client: one raw-inflate stream per connection (context takeover, the default), or a fresh
  // one per message when the server said server_no_context_takeover.
  constructor(takeover) {
    this.takeover = takeover;
    this.z = new SyncZlib(() => zlib.createInflateRaw({ windowBits: 15 }));
  }
  inflate(payload) {
    return this.z.run(Buffer.concat([payload, TRAILER]), !this.takeover);
  }
  close() { this.z.close(); }
}

class Deflater {
  // Client-to-server, as a browser does it: one raw-deflate stream per connection (or a fresh one per
  // message when client_no_context_takeover was agreed), each message ended by a sync flush whose
  // 00 00 ff ff trailer is dropped.
  constructor(params) {
    const bits = Number(params.client_max_window_bits) || 15;
    this.takeover = !params.client_no_context_takeover;
    this.z = new SyncZlib(() => zlib.createDeflateRaw({ windowBits: Math.max(9, bits) }));
  }
  deflate(payload) {
    const out = this.z.run(payload, !this.takeover);
    return out.subarray(0, out.length - 4);
  }
  close() { this.z.close(); }
}

class WSClient {
  constructor(socket, deflateParams, onMessage, onClose) {
    this.socket = socket;
    this.deflate = deflateParams;
    this.inflater = deflateParams ? new Inflater(!deflateParams.server_no_context_takeover) : null;
    this.deflater = deflateParams ? new Deflater(deflateParams) : null;
    this.onMessage = onMessage;
    this.onClose = onClose;
    this.buf = Buffer.alloc(0);
    this.frag = null; // {parts, wire, compressed}
    this.closed = false;
    this.bytesOut = 0;
    socket.setNoDelay(true);
    socket.on('data', (chunk) => this._data(chunk));
    socket.on('close', () => this._closed());
    socket.on('error', () => this._closed());
  }

  _closed() {
    if (this.closed) return;
    this.closed = true;
    if (this.inflater) this.inflater.close();
    if (this.deflater) this.deflater.close();
    if (this.onClose) this.onClose();
  }

  _data(chunk) {
    this.buf = this.buf.length ? Buffer.concat([this.buf, chunk]) : chunk;
    for (;;) {
      const b = this.buf;
      if (b.length < 2) return;
      const fin = (b[0] & 0x80) !== 0;
      const rsv1 = (b[0] & 0x40) !== 0;
      const opcode = b[0] & 0x0f;
      const masked = (b[1] & 0x80) !== 0;
      let len = b[1] & 0x7f;
      let off = 2;
      if (len === 126) {
        if (b.length < 4) return;
        len = b.readUInt16BE(2);
        off = 4;
      } else if (len === 127) {
        if (b.length < 10) return;
        len = Number(b.readBigUInt64BE(2));
        off = 10;
      }
      if (masked) off += 4;
      if (b.length < off + len) return;
      let payload = b.subarray(off, off + len);
      if (masked) {
        const key = b.subarray(off - 4, off);
        payload = Buffer.from(payload);
        for (let i = 0; i < payload.length; i++) payload[i] ^= key[i & 3];
      }
      this.buf = b.subarray(off + len);
      this._frame(fin, rsv1, opcode, payload);
      if (this.closed) return;
    }
  }

  _frame(fin, rsv1, opcode, payload) {
    if (opcode === 0x9) return this._write(0xa, payload); // ping -> pong
    if (opcode === 0xa) return undefined;
    if (opcode === 0x8) {
      if (!this.closed) this._write(0x8, payload.subarray(0, 2));
      this.socket.end();
      return this._closed();
    }
    if (opcode === 0x1 || opcode === 0x2) this.frag = { parts: [], wire: 0, compressed: rsv1 };
    if (!this.frag) return undefined;
    this.frag.parts.push(payload);
    this.frag.wire += payload.length;
    if (!fin) return undefined;
    const { parts, wire, compressed } = this.frag;
    this.frag = null;
    let data = parts.length === 1 ? parts[0] : Buffer.concat(parts);
    if (compressed) {
      try {
        data = this.inflater.inflate(data);
      } catch (e) {
        this.socket.destroy();
        return this._closed();
      }
    }
    this.onMessage(data.toString('utf8'), wire, data.length);
    return undefined;
  }

  _write(opcode, payload, rsv1 = false) {
    if (this.closed) return;
    const len = payload.length;
    const head = len < 126 ? 2 : len < 65536 ? 4 : 10;
    const frame = Buffer.allocUnsafe(head + 4 + len);
    frame[0] = 0x80 | (rsv1 ? 0x40 : 0) | opcode;
    if (len < 126) frame[1] = 0x80 | len;
    else if (len < 65536) { frame[1] = 0x80 | 126; frame.writeUInt16BE(len, 2); }
    else { frame[1] = 0x80 | 127; frame.writeBigUInt64BE(BigInt(len), 2); }
    // The masking key only has to be unpredictable to proxies (there are none on loopback): a cheap
    // generator instead of a crypto call per frame.
    maskState = (Math.imul(maskState, 1103515245) + 12345) >>> 0;
    frame.writeUInt32BE(maskState, head);
    const key = frame.subarray(head, head + 4);
    for (let i = 0; i < len; i++) frame[head + 4 + i] = payload[i] ^ key[i & 3];
    this.bytesOut += len;
    this.socket.write(frame);
  }

  send(text) {
    let payload = Buffer.from(text, 'utf8');
    let rsv1 = false;
    if (this.deflater) {
      payload = this.deflater.deflate(payload);
      rsv1 = true;
    }
    this._write(0x1, payload, rsv1);
  }

  close() {
    if (this.closed) return;
    this._write(0x8, Buffer.from([0x03, 0xe8]));
    this.socket.end();
    this._closed();
  }
}

function connect(url, { deflate = true, onMessage, onClose, timeoutMs = 30000 } = {}) {
  const u = new URL(url);
  if (u.protocol !== 'ws:') throw new Error('only ws:// is supported');
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host: u.hostname, port: Number(u.port || 80) });
    const key = crypto.randomBytes(16).toString('base64');
    let head = Buffer.alloc(0);
    const timer = setTimeout(() => { socket.destroy(); reject(new Error('websocket handshake timeout')); }, timeoutMs);
    function fail(e) { clearTimeout(timer); socket.destroy(); reject(e); }
    socket.once('error', fail);
    socket.on('connect', () => {
      const lines = [
        `GET ${u.pathname}${u.search} HTTP/1.1`,
        `Host: ${u.host}`,
        'Upgrade: websocket',
        'Connection: Upgrade',
        `Sec-WebSocket-Key: ${key}`,
        'Sec-WebSocket-Version: 13',
      ];
      if (deflate) lines.push('Sec-WebSocket-Extensions: permessage-deflate; client_max_window_bits');
      socket.write(lines.join('\r\n') + '\r\n\r\n');
    });
    function onHead(chunk) {
      head = Buffer.concat([head, chunk]);
      const end = head.indexOf('\r\n\r\n');
      if (end < 0) return;
      socket.removeListener('data', onHead);
      socket.removeListener('error', fail);
      clearTimeout(timer);
      const text = head.subarray(0, end).toString('latin1');
      const [status, ...rest] = text.split('\r\n');
      if (!/^HTTP\/1\.1 101/.test(status)) { socket.destroy(); return reject(new Error('handshake refused: ' + status)); }
      const headers = {};
      for (const line of rest) {
        const i = line.indexOf(':');
        if (i > 0) headers[line.slice(0, i).trim().toLowerCase()] = line.slice(i + 1).trim();
      }
      const accept = crypto.createHash('sha1').update(key + '258EAFA5-E914-47DA-95CA-C5AB0DC85B11').digest('base64');
      if (headers['sec-websocket-accept'] !== accept) { socket.destroy(); return reject(new Error('bad Sec-WebSocket-Accept')); }
      const params = deflate ? parseExtensions(headers['sec-websocket-extensions']) : null;
      const client = new WSClient(socket, params, onMessage, onClose);
      const restBytes = head.subarray(end + 4);
      resolve(client);
      if (restBytes.length) client._data(restBytes);
    }
    socket.on('data', onHead);
  });
}

module.exports = { connect };
