// Live updates for the plain table page: the websocket protocol of app/realtime/PROTOCOL.md.
// Keeps the seat's view, applies each JSON Patch (RFC 6902) in order, asks for a full view on a gap,
// and sends the action buttons over the socket (the forms still work without this script).
(function () {
  "use strict";
  const root = document.getElementById("table");
  if (!root) return;
  const tableId = root.dataset.table;
  let version = Number(root.dataset.version);
  let view = null;
  let socket = null;
  let nextId = 1;

  function unescape(token) { return token.replace(/~1/g, "/").replace(/~0/g, "~"); }
  function walk(doc, path) {
    const parts = path.split("/").slice(1).map(unescape);
    const last = parts.pop();
    let parent = doc;
    for (const p of parts) parent = parent[Array.isArray(parent) ? Number(p) : p];
    return [parent, last];
  }
  function get(doc, path) {
    if (path === "") return doc;
    const [parent, key] = walk(doc, path);
    return parent[Array.isArray(parent) ? Number(key) : key];
  }
  function put(doc, path, value, insert) {
    if (path === "") return value;
    const [parent, key] = walk(doc, path);
    if (Array.isArray(parent)) {
      const i = key === "-" ? parent.length : Number(key);
      if (insert) parent.splice(i, 0, value); else parent[i] = value;
    } else parent[key] = value;
    return doc;
  }
  function remove(doc, path) {
    const [parent, key] = walk(doc, path);
    if (Array.isArray(parent)) parent.splice(Number(key), 1); else delete parent[key];
  }
  function applyPatch(doc, ops) {
    for (const op of ops) {
      const clone = (v) => JSON.parse(JSON.stringify(v));
      if (op.op === "add") doc = put(doc, op.path, op.value, true);
      else if (op.op === "replace") doc = put(doc, op.path, op.value, false);
      else if (op.op === "remove") remove(doc, op.path);
      else if (op.op === "move") { const v = get(doc, op.from); remove(doc, op.from); doc = put(doc, op.path, v, true); }
      else if (op.op === "copy") doc = put(doc, op.path, clone(get(doc, op.from)), true);
      else if (op.op === "test") { if (JSON.stringify(get(doc, op.path)) !== JSON.stringify(op.value)) throw new Error("test failed"); }
    }
    return doc;
  }

  function render() {
    document.getElementById("view").textContent = JSON.stringify(view, null, 1);
    root.querySelector('[data-field="version"]').textContent = version;
    root.querySelector('[data-field="status"]').textContent = view.table.status;
    const box = document.getElementById("actions");
    box.textContent = "";
    for (const action of (view.game && view.game.legal_actions) || []) {
      const button = document.createElement("button");
      button.textContent = JSON.stringify(action);
      button.addEventListener("click", () => {
        socket.send(JSON.stringify({ type: "act", id: nextId++, version: version, action: action }));
        box.querySelectorAll("button").forEach((b) => (b.disabled = true));
      });
      box.appendChild(button);
    }
  }

  function showPresence(msg) {
    root.querySelectorAll("[data-seat]").forEach((li) => {
      li.classList.toggle("connected", msg.connected.includes(Number(li.dataset.seat)));
    });
    root.querySelector('[data-field="spectators"]').textContent = msg.spectators;
  }

  function connect() {
    const scheme = location.protocol === "https:" ? "wss:" : "ws:";
    let query = root.dataset.wsQuery || "";
    if (view !== null) query += (query ? "&" : "?") + "since=" + version;  // a reconnect resynchronises
    socket = new WebSocket(`${scheme}//${location.host}/ws/tables/${tableId}${query}`);
    socket.addEventListener("message", (event) => {
      const msg = JSON.parse(event.data);
      if (msg.type === "synced") { if (view !== null) render(); }
      else if (msg.type === "full") { view = msg.view; version = msg.version; render(); }
      else if (msg.type === "patch") {
        if (view === null || msg.from !== version) { socket.send(JSON.stringify({ type: "sync" })); return; }
        view = applyPatch(view, msg.patch); version = msg.version; render();
      }
      else if (msg.type === "presence") showPresence(msg);
      else if (msg.type === "ping") socket.send(JSON.stringify({ type: "pong" }));
      else if (msg.type === "error" && msg.view) { view = msg.view; version = msg.version; render(); }
      else if (msg.type === "error") { render(); }
    });
    socket.addEventListener("close", (event) => {
      if (event.code >= 4400 && event.code < 4500 && event.code !== 4408) return;  // refused: do not retry
      setTimeout(connect, 1000 + Math.random() * 2000);
    });
  }
  connect();
})();
