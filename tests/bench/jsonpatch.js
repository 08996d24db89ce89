// RFC 6902 JSON Patch, applied in place (the driver keeps each connection's view as the server's
// patches describe it). Supports add, remove, replace, move, copy and test.
'use strict';

function tokens(path) {
  if (path === '') return [];
  if (path[0] !== '/') throw new Error('bad JSON pointer ' + path);
  return path.slice(1).split('/').map((t) => t.replace(/~1/g, '/').replace(/~0/g, '~'));
}

function parentOf(doc, toks) {
  let node = doc;
  for (let i = 0; i < toks.length - 1; i++) {
    const t = toks[i];
    node = Array.isArray(node) ? node[Number(t)] : node[t];
    if (node === undefined || node === null || typeof node !== 'object') throw new Error('no parent at ' + toks.join('/'));
  }
  return node;
}

function get(doc, path) {
  let node = doc;
  for (const t of tokens(path)) node = Array.isArray(node) ? node[Number(t)] : node[t];
  return node;
}

function clone(v) {
  return v === null || typeof v !== 'object' ? v : JSON.parse(JSON.stringify(v));
}

function add(doc, path, value) {
  const toks = tokens(path);
  if (!toks.length) return value;
  const parent = parentOf(doc, toks);
  const last = toks[toks.length - 1];
  if (Array.isArray(parent)) {
    if (last === '-') parent.push(value);
    else {
      const i = Number(last);
      if (!Number.isInteger(i) || i < 0 || i > parent.length) throw new Error('bad index ' + path);
      parent.splice(i, 0, value);
    }
  } else parent[last] = value;
  return doc;
}

function remove(doc, path) {
  const toks = tokens(path);
  const parent = parentOf(doc, toks);
  const last = toks[toks.length - 1];
  if (Array.isArray(parent)) {
    const i = Number(last);
    if (!Number.isInteger(i) || i < 0 || i >= parent.length) throw new Error('bad index ' + path);
    return parent.splice(i, 1)[0];
  }
  if (!(last in parent)) throw new Error('no member ' + path);
  const v = parent[last];
  delete parent[last];
  return v;
}

function replace(doc, path, value) {
  const toks = tokens(path);
  if (!toks.length) return value;
  const parent = parentOf(doc, toks);
  const last = toks[toks.length - 1];
  if (Array.isArray(parent)) {
    const i = Number(last);
    if (!Number.isInteger(i) || i < 0 || i >= parent.length) throw new Error('bad index ' + path);
    parent[i] = value;
  } else {
    if (!(last in parent)) throw new Error('no member ' + path);
    parent[last] = value;
  }
  return doc;
}

function apply(doc, patch) {
  for (const op of patch) {
    switch (op.op) {
      case 'add': doc = add(doc, op.path, op.value); break;
      case 'remove': remove(doc, op.path); break;
      case 'replace': doc = replace(doc, op.path, op.value); break;
      case 'move': { const v = remove(doc, op.from); doc = add(doc, op.path, v); break; }
      case 'copy': doc = add(doc, op.path, clone(get(doc, op.from))); break;
      case 'test':
        if (JSON.stringify(get(doc, op.path)) !== JSON.stringify(op.value)) throw new Error('test failed at ' + op.path);
        break;
      default: throw new Error('unknown op ' + op.op);
    }
  }
  return doc;
}

module.exports = { apply };
