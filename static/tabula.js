// Tabula's page script: a small layer over htmx. Everything works without it (forms post and come back);
// with it, the table page is live (htmx websocket extension + out-of-band swaps), actions post without a
// reload, "click a card, then where it goes" selections, copy buttons and the tab title.
// It never decides what is legal: it only shows or hides the server's own controls.
(function () {
  "use strict";

  // ------------------------------------------------------------------------------ picks (selections)
  // A pickable element has data-pick="group:value" (and data-pick-multi to select several). The selection
  // forms a key ("inf:3", or "dice:3,5,5" sorted); each control with data-need-pick equal to that key shows.
  let selected = []; // ids of the selected pickable elements

  function pickables() { return Array.from(document.querySelectorAll("[data-pick]")); }

  function groupOf(el) { return el.dataset.pick.split(":")[0]; }
  function valueOf(el) { return el.dataset.pick.slice(el.dataset.pick.indexOf(":") + 1); }

  function currentKey() {
    const els = selected.map((id) => document.getElementById(id)).filter(Boolean);
    if (!els.length) return null;
    if (!els[0].hasAttribute("data-pick-multi")) return els[0].dataset.pick;
    return groupOf(els[0]) + ":" + els.map(valueOf).sort().join(",");
  }

  function applyPicks() {
    // Name the pickables by what they are and their rank among equals ("pk-dice-3-1"), so that a selection
    // survives a re-render of its region; forget selected elements that are gone.
    const seen = {};
    pickables().forEach((el) => {
      const base = "pk-" + el.dataset.pick.replace(/[^A-Za-z0-9_-]/g, "-");
      seen[base] = (seen[base] || 0) + 1;
      if (!el.id || el.id.indexOf("pk-") === 0) el.id = base + "-" + seen[base];
    });
    selected = selected.filter((id) => document.getElementById(id));
    const key = currentKey();
    pickables().forEach((el) => {
      const on = selected.includes(el.id);
      el.setAttribute("aria-pressed", on ? "true" : "false");
      el.classList.toggle("picked", on);
    });
    let shown = 0;
    document.querySelectorAll("[data-need-pick]").forEach((form) => {
      const show = key !== null && form.dataset.needPick === key;
      form.classList.toggle("shown", show);
      if (show) shown += 1;
    });
    const root = document.getElementById("tb");
    if (root) {
      root.classList.toggle("has-pick", key !== null);
      root.classList.toggle("pick-matches", shown > 0);
    }
    document.querySelectorAll("[data-pick-hint]").forEach((hint) => {
      hint.textContent = key === null ? hint.dataset.hintNone : shown ? hint.dataset.hintSome : hint.dataset.hintNo;
    });
  }

  function togglePick(el) {
    if (!el.id) return;
    const multi = el.hasAttribute("data-pick-multi");
    const at = selected.indexOf(el.id);
    if (multi) {
      const first = selected.length ? document.getElementById(selected[0]) : null;
      if (first && (groupOf(first) !== groupOf(el) || !first.hasAttribute("data-pick-multi"))) selected = [];
      if (at >= 0) selected.splice(at, 1); else selected.push(el.id);
    } else {
      selected = at >= 0 ? [] : [el.id];
    }
    applyPicks();
  }

  // --------------------------------------------------------------------------------------- clicks
  document.addEventListener("click", (event) => {
    const copy = event.target.closest("[data-copy]");
    if (copy) {
      const input = document.querySelector(copy.dataset.copy);
      if (input) {
        input.select();
        const done = () => {
          const text = copy.textContent;
          copy.textContent = "✓";
          setTimeout(() => { copy.textContent = text; }, 1500);
        };
        if (navigator.clipboard && window.isSecureContext) {
          navigator.clipboard.writeText(input.value).then(done, () => { document.execCommand("copy"); done(); });
        } else {
          document.execCommand("copy");
          done();
        }
      }
      return;
    }
    const close = event.target.closest("[data-close-flash]");
    if (close) {
      const flash = document.getElementById("tb-flash");
      if (flash) { flash.classList.remove("show"); flash.textContent = ""; }
      return;
    }
    const pick = event.target.closest("[data-pick]");
    if (pick) { togglePick(pick); return; }
  });

  document.addEventListener("keydown", (event) => {
    if (event.key === "Escape" && selected.length) { selected = []; applyPicks(); }
  });

  // --------------------------------------------------------------------- confirm what cannot be taken back
  // A form with data-confirm (or a select whose chosen option has it) is the engine's final move: the dialog
  // #tb-ask says why and asks first; the post then says "confirmed", else the server asks again itself.
  let asked = null; // {form, action}: the confirmed request under way

  function confirmReason(form) {
    const select = form.querySelector("select[name=action]");
    if (select) {
      const option = select.options[select.selectedIndex];
      return option ? option.dataset.confirm || "" : "";
    }
    return form.dataset.confirm || "";
  }

  document.addEventListener("htmx:confirm", (event) => {
    const form = event.detail.elt && event.detail.elt.closest && event.detail.elt.closest("form.act");
    const dialog = document.getElementById("tb-ask");
    if (!form || !dialog) return;
    const reason = confirmReason(form);
    if (!reason) return;
    event.preventDefault();
    const button = form.querySelector("button[name=action]");
    const select = form.querySelector("select[name=action]");
    const action = button ? button.value : select.value;
    const back = document.activeElement;
    document.getElementById("tb-ask-reason").textContent = reason;
    dialog.returnValue = "";
    dialog.onclose = () => {
      if (dialog.returnValue === "yes" && document.body.contains(form)) {
        asked = {form: form, action: action};
        event.detail.issueRequest(true);
      } else if (back && back.focus) {
        back.focus();
      }
    };
    dialog.showModal();
  });

  document.addEventListener("click", (event) => {
    const answer = event.target.closest("#tb-ask [data-ask]");
    if (answer) document.getElementById("tb-ask").close(answer.dataset.ask);
  });

  // ------------------------------------------------------------------------------- live table page
  function tableVersion() {
    const v = document.getElementById("tb-version");
    return v ? v.dataset.version : null;
  }

  // ------------------------------------------------------------------ "your turn" reaches you
  // Whenever the game starts waiting for this seat (its turn, or a window out of turn), the favicon shows a
  // badge; the sound and the browser notification are the player's choice, kept by this browser.
  const SETTINGS = "tabula.alerts";
  let myTurn = null; // what the page showed last (null: not yet read)

  function settings() {
    try { return JSON.parse(localStorage.getItem(SETTINGS)) || {}; } catch (e) { return {}; }
  }
  function saveSettings(changes) {
    try { localStorage.setItem(SETTINGS, JSON.stringify(Object.assign(settings(), changes))); } catch (e) { /* private mode */ }
  }

  function showFavicon(on) {
    const icon = document.querySelector("link[rel=icon]");
    if (icon) icon.href = on ? "/static/img/favicon-turn.svg" : "/static/img/favicon.svg";
  }

  function chime() {
    const Audio = window.AudioContext || window.webkitAudioContext;
    if (!Audio) return;
    const audio = new Audio();
    const tone = audio.createOscillator();
    const gain = audio.createGain();
    tone.frequency.value = 660;
    gain.gain.setValueAtTime(0.2, audio.currentTime);
    gain.gain.exponentialRampToValueAtTime(0.001, audio.currentTime + 0.6);
    tone.connect(gain).connect(audio.destination);
    tone.start();
    tone.stop(audio.currentTime + 0.6);
    tone.onended = () => audio.close();
  }

  function notify() {
    const panel = document.getElementById("tb-alerts");
    if (!panel || !("Notification" in window) || Notification.permission !== "granted") return;
    const status = document.querySelector("#tb-status .status-text");
    const root = document.getElementById("tb");
    const note = new Notification(panel.dataset.notifyTitle, {body: status ? status.textContent.trim() : "",
                                                               tag: "tabula-" + (root ? root.dataset.table : "")});
    note.onclick = () => { window.focus(); note.close(); };
  }

  function turnChanged(now) {
    showFavicon(now);
    if (myTurn === false && now) {
      const chosen = settings();
      if (chosen.sound) chime();
      if (chosen.notify && document.hidden) notify();
    }
    myTurn = now;
  }

  function showAlertSettings() {
    const chosen = settings();
    const sound = document.getElementById("tb-alert-sound");
    if (sound) sound.checked = !!chosen.sound;
    const button = document.getElementById("tb-alert-notify");
    if (button) {
      const on = !!chosen.notify && "Notification" in window && Notification.permission === "granted";
      button.setAttribute("aria-pressed", on ? "true" : "false");
      button.hidden = !("Notification" in window);
    }
  }

  document.addEventListener("change", (event) => {
    if (event.target.id === "tb-alert-sound") {
      saveSettings({sound: event.target.checked});
      if (event.target.checked) chime(); // what it will sound like
    }
  });
  document.addEventListener("click", (event) => {
    const button = event.target.closest("#tb-alert-notify");
    if (!button) return;
    if (button.getAttribute("aria-pressed") === "true") { saveSettings({notify: false}); showAlertSettings(); return; }
    Notification.requestPermission().then((permission) => {
      saveSettings({notify: permission === "granted"});
      const note = document.getElementById("tb-alert-note");
      if (note) note.textContent = permission === "denied" ? document.getElementById("tb-alerts").dataset.denied : "";
      showAlertSettings();
    });
  });

  // ------------------------------------------------------------------ the clock: timer and presence
  // The server renders times (the turn's deadline, since when a player is away); what they mean now is
  // counted here once a second, into the empty [data-ticker] next to them (the server's words stay for
  // pages without script).
  function minutes(seconds) {
    return Math.floor(seconds / 60) + ":" + String(seconds % 60).padStart(2, "0");
  }
  function tick() {
    document.querySelectorAll("[data-deadline]").forEach((el) => {
      const left = Math.max(0, Math.round((Date.parse(el.dataset.deadline) - Date.now()) / 1000));
      const out = el.querySelector("[data-ticker]");
      if (out) out.textContent = minutes(left);
      el.classList.toggle("urgent", left <= 15);
    });
    document.querySelectorAll("[data-since]").forEach((el) => {
      const out = el.querySelector("[data-ticker]");
      const spent = Math.max(0, Math.round((Date.now() - Date.parse(el.dataset.since)) / 1000));
      if (out) out.textContent = minutes(spent);
    });
  }
  setInterval(tick, 1000);

  // ----------------------------------------------------------------- what a screen reader hears
  // The socket replaces the banner and the log by id, and a screen reader does not read an element that
  // replaces another: the new log lines and the banner's new words are copied into #tb-say (which stays),
  // once each, oldest first. What the page showed when it loaded is not repeated (the reader reads the page),
  // nor the lines of the reader's own moves (data-own: the seat whose move the line tells); a spectator hears
  // every line.
  let heardLine = null; // the number of the newest log line said (or shown at load)
  let heardStatus = null;
  const SAY_AT_ONCE = 6; // after a long gap (a socket that came back), only the newest lines

  function say(texts) {
    const out = document.getElementById("tb-say");
    if (!out || !texts.length) return;
    texts.forEach((text) => {
      const line = document.createElement("p");
      line.textContent = text;
      out.appendChild(line);
    });
    while (out.children.length > 20) out.removeChild(out.firstChild);
  }

  function announce() {
    const root = document.getElementById("tb");
    const me = root ? root.dataset.seat : "";
    const lines = Array.from(document.querySelectorAll("#tb-log-lines > li[id^='tb-log-']"))
      .map((li) => [Number(li.id.slice("tb-log-".length)), li.textContent.replace(/\s+/g, " ").trim(),
                    me !== "" && li.dataset.own === me])
      .filter((line) => !isNaN(line[0]))
      .sort((a, b) => a[0] - b[0]);
    const newest = lines.length ? lines[lines.length - 1][0] : 0;
    const status = document.querySelector("#tb-status .status-text");
    const words = status ? status.textContent.replace(/\s+/g, " ").trim() : "";
    const texts = [];
    if (heardLine !== null) {
      const fresh = lines.filter((line) => line[0] > heardLine && !line[2]);
      texts.push(...fresh.slice(-SAY_AT_ONCE).map((line) => line[1]));
    }
    if (heardStatus !== null && words && words !== heardStatus) texts.push(words);
    if (lines.length) heardLine = Math.max(heardLine || 0, newest);
    else if (heardLine === null) heardLine = 0;
    if (words) heardStatus = words;
    say(texts);
  }

  function afterUpdate() {
    const v = document.getElementById("tb-version");
    if (v) {
      if (v.dataset.title) document.title = v.dataset.title;
      const root = document.getElementById("tb");
      if (root) root.classList.toggle("my-turn", v.dataset.myTurn === "1");
      turnChanged(v.dataset.myTurn === "1");
    }
    showAlertSettings(); // the panel may have been drawn again (the game started)
    tick();
    applyPicks();
    announce();
  }

  document.addEventListener("htmx:configRequest", (event) => {
    // An action carries the version the page shows now (the regions swapped in since the page loaded
    // may have left an older one in the form).
    const version = tableVersion();
    if (version !== null && event.detail.elt && event.detail.elt.closest && event.detail.elt.closest("#tb")) {
      event.detail.parameters["version"] = version;
    }
    if (asked && asked.form === event.detail.elt) {
      event.detail.parameters["action"] = asked.action;
      event.detail.parameters["confirmed"] = "yes";
      asked = null;
    }
  });

  document.addEventListener("htmx:beforeRequest", (event) => {
    const form = event.detail.elt && event.detail.elt.closest && event.detail.elt.closest("form.act");
    if (form) form.classList.add("sending");
  });
  document.addEventListener("htmx:afterRequest", (event) => {
    const form = event.detail.elt && event.detail.elt.closest && event.detail.elt.closest("form.act");
    if (form) form.classList.remove("sending");
    if (event.detail.failed) {
      const flash = document.getElementById("tb-flash");
      if (flash) { flash.classList.add("show"); flash.textContent = flash.dataset.offline || "⚠"; }
    }
  });

  // ------------------------------------------------------------------ the focus across a swap
  // A swap replaces the focused control with a copy: a keyboard player would be sent back to the top of the
  // page after each move. The same control (same id, or same action) takes the focus again; when it is gone
  // (the move is made), the status banner takes it, so that the next Tab goes on from the top of the table.
  let focusBefore = null; // [element, how to find it again]

  function focusKey(el) {
    if (!el || !el.closest || !el.closest("#tb")) return null;
    if (el.id && el.id.indexOf("pk-") !== 0) return "#" + CSS.escape(el.id);
    if (el.matches("button.pick")) return '[data-pick="' + CSS.escape(el.dataset.pick) + '"]';
    if (el.matches("form.act button[name=action]")) return 'form.act button[name=action][value="' + CSS.escape(el.value) + '"]';
    if (el.matches("form.act select[name=action]")) return null;  // its form's actions change with the move
    return null;
  }

  document.addEventListener("htmx:wsBeforeMessage", () => {
    const el = document.activeElement;
    focusBefore = el && el !== document.body ? [el, focusKey(el)] : null;
  });

  function restoreFocus() {
    if (!focusBefore) return;
    const [el, key] = focusBefore;
    focusBefore = null;
    if (document.body.contains(el)) return; // it was not replaced
    const again = key ? document.querySelector(key) : null;
    const status = document.getElementById("tb-status");
    if (again && again.offsetParent !== null) again.focus({preventScroll: true});
    else if (status) status.focus({preventScroll: true});
  }

  document.addEventListener("htmx:wsAfterMessage", (event) => {
    const message = event.detail.message || "";
    if (message.indexOf('id="tb-ping"') >= 0) {
      event.detail.socketWrapper.send('{"type":"pong"}');
    }
    afterUpdate();
    restoreFocus();
  });
  document.addEventListener("htmx:afterSwap", afterUpdate);
  document.addEventListener("htmx:oobAfterSwap", () => {});

  // Presence: the server hears when this tab is hidden and shown again (a seat whose every tab is hidden is
  // away); a new socket starts as shown.
  let socket = null;
  function tellVisibility() {
    if (socket) socket.send(JSON.stringify({type: document.hidden ? "away" : "back"}));
  }
  document.addEventListener("visibilitychange", tellVisibility);

  document.addEventListener("htmx:wsOpen", (event) => {
    const conn = document.getElementById("tb-conn");
    if (conn) conn.hidden = true;
    socket = event.detail.socketWrapper;
    if (document.hidden) tellVisibility();
  });

  let retries = 0;
  document.addEventListener("htmx:wsClose", (event) => {
    const code = event.detail.event ? event.detail.event.code : 0;
    if (code === 4403 || code === 4404) return; // refused for good
    const conn = document.getElementById("tb-conn");
    if (conn) conn.hidden = false;
    // The extension itself retries only after abnormal closes; a server restart (1001) or a heartbeat
    // close (4408) is retried here. Either way the server sends every region again on connect.
    if ([1006, 1011, 1012, 1013].indexOf(code) < 0) {
      const delay = Math.min(10000, 500 * Math.pow(2, retries)) * (0.5 + Math.random());
      retries += 1;
      setTimeout(() => event.detail.socketWrapper.reconnect(), delay);
    }
  });
  document.addEventListener("htmx:wsOpen", () => { retries = 0; });

  document.addEventListener("DOMContentLoaded", afterUpdate);
})();
