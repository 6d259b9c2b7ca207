// agentmux web view: one WebSocket to the session; every pane an xterm drawn from the
// session's emulator; the conversation beside them. Text from agents only ever goes
// into the page through textContent or the terminals, never as HTML.
//
// The page's key: the URL's #token (one use) is moved into sessionStorage (this tab's)
// and out of the address bar; the WebSocket's first frame shows it, and the server
// answers with a page secret kept in localStorage, which the browser keeps per origin
// (port included), for reloads, reconnects and tabs opened later at the view's address
// (a notification's link). No cookie: a host's cookies reach every port of it.
(function () {
  'use strict';
  const $ = (id) => document.getElementById(id);
  const TOKEN = 'agentmux.token', PAGE = 'agentmux.page';
  (function takeToken() {
    const m = /[#&]token=([0-9a-f]+)/.exec(location.hash);
    if (!m) return;
    // Shown before the page secret another tab keeps (connect), which the secret this
    // link is traded for replaces: a link that is refused (used already) leaves it.
    sessionStorage.setItem(TOKEN, m[1]);
    history.replaceState(null, '', location.pathname + location.search);
  })();
  const MAX_ITEMS = 2000;
  const panesEl = $('panes'), convEl = $('conv');
  const state = {
    control: false, you: 'you(web)', members: [], groups: [],
    panes: new Map(),   // pane number → {el, bar, term, cols, rows}
    items: new Map(),   // conversation key → {item, li}
    zoomed: 0, current: 0, ws: null, nextID: 1, waiters: [], retry: 0,
  };

  function el(tag, cls, text) {
    const e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined) e.textContent = text;
    return e;
  }

  // ---- panes ----
  function paneFor(m) {
    let p = state.panes.get(m.pane);
    if (p) return p;
    const root = el('div', 'pane');
    root.dataset.pane = m.pane;
    const bar = el('div', 'bar');
    const termEl = el('div', 'term');
    root.append(bar, termEl);
    // The terminal measures its font where it opens: it opens in the document
    // (placePanes puts it in order next).
    panesEl.appendChild(root);
    const term = new Terminal({
      cols: m.cols || 80, rows: m.rows || 24, scrollback: 2000, disableStdin: !state.control,
      cursorBlink: false, lineHeight: 1.1, fontFamily: 'ui-monospace, "DejaVu Sans Mono", Menlo, Consolas, monospace', fontSize: 13,
      theme: { background: '#000000' },
    });
    term.open(termEl);
    term.onWriteParsed(() => checkWaiters(m.pane));
    if (state.control) {
      term.onData((d) => send({ t: 'input', pane: m.pane, data: d }));
    }
    bar.addEventListener('click', (ev) => {
      if (ev.target.closest('.acts')) return;
      zoom(state.zoomed === m.pane ? 0 : m.pane);
    });
    termEl.addEventListener('click', () => { if (state.zoomed !== m.pane) zoom(m.pane); });
    p = { el: root, bar: bar, term: term, cols: m.cols, rows: m.rows };
    state.panes.set(m.pane, p);
    placePanes();
    return p;
  }

  function placePanes() {
    const ids = [...state.panes.keys()].sort((a, b) => a - b);
    // Moving an element blurs what has focus inside it (the terminal a person types
    // into): panes are moved only when their order changed, and focus is put back.
    const want = ids.map((id) => state.panes.get(id).el);
    if (want.length !== panesEl.children.length || want.some((e, i) => panesEl.children[i] !== e)) {
      const focused = document.activeElement;
      want.forEach((e) => panesEl.appendChild(e));
      if (focused && focused !== document.activeElement && focused.isConnected) focused.focus();
    }
    const n = ids.length;
    const cols = n <= 3 ? Math.max(n, 1) : Math.ceil(Math.sqrt(n));
    panesEl.style.gridTemplateColumns = 'repeat(' + cols + ', minmax(0, 1fr))';
    const pick = $('pick');
    pick.textContent = '';
    ids.forEach((id) => {
      const m = state.members.find((x) => x.pane === id);
      pick.append(new Option(id + ' ' + (m ? m.name : ''), String(id)));
    });
    if (!state.panes.has(state.current)) state.current = ids[0] || 0;
    pick.value = String(state.current);
    showCurrent();
    fit();
  }

  function showCurrent() {
    state.panes.forEach((p, id) => p.el.classList.toggle('current', id === state.current));
  }

  function zoom(id) {
    state.zoomed = id;
    panesEl.classList.toggle('zoom', id !== 0);
    state.panes.forEach((p, pid) => p.el.classList.toggle('zoomed', pid === id));
    if (id) { state.current = id; $('pick').value = String(id); showCurrent(); }
    fit();
    const p = state.panes.get(id);
    if (p && state.control) p.term.focus();
  }

  // fit picks each terminal's font size so it fills its pane's box (the terminal keeps
  // the pane's own columns and rows: the picture is the emulator's).
  function fit() {
    requestAnimationFrame(() => {
      const phone = window.matchMedia('(max-width: 700px)').matches;
      state.panes.forEach((p) => {
        const w = p.el.clientWidth - 6;
        if (w <= 0) return;
        let size = Math.floor(w / (p.term.cols * 0.61));
        if (!phone) {
          const h = p.el.clientHeight - p.bar.offsetHeight - 6;
          size = Math.min(size, Math.floor(h / (p.term.rows * 1.3)));
        }
        size = Math.max(5, Math.min(size, 18));
        if (p.term.options.fontSize !== size) p.term.options.fontSize = size;
      });
    });
  }
  window.addEventListener('resize', fit);

  // drawBar and drawInbox redraw only what changed: a members frame comes with every
  // change of any pane, and a button replaced between a tap's press and release takes
  // no click (nor keeps an open "link with…" list).
  function drawBar(p, m) {
    const bar = p.bar;
    const g0 = state.groups.find((x) => x.id === m.group);
    const key = JSON.stringify([m.pane, m.name, m.exit, m.state, m.group, g0 && g0.label, g0 && g0.spend,
      m.spend, m.held, m.waiting, state.control,
      state.control && state.members.filter((x) => x.pane && x.pane !== m.pane && x.state !== 'exited').map((x) => [x.pane, x.name])]);
    if (p.barKey === key) return;
    p.barKey = key;
    bar.textContent = '';
    bar.append(el('span', 'num', String(m.pane)), el('span', 'name', m.name));
    const st = m.exit || m.state;
    bar.append(el('span', 'state ' + m.state.split(' ')[0], st));
    const g = state.groups.find((x) => x.id === m.group);
    if (g) bar.append(el('span', 'group', 'group ' + g.label));
    if (g && g.spend && !g.label.endsWith(g.spend)) bar.append(el('span', 'linkspend', 'link spent ' + g.spend));
    if (m.spend) bar.append(el('span', 'spend', m.spend));
    if (m.held) bar.append(el('span', 'held', 'held'));
    if (m.waiting) bar.append(el('span', 'held', m.waiting + ' waiting'));
    if (state.control && m.state !== 'exited') bar.append(actions(m));
  }

  function actions(m) {
    const box = el('span', 'acts');
    const btn = (label, f) => { const b = el('button', '', label); b.type = 'button'; b.addEventListener('click', f); box.append(b); };
    btn(m.held ? 'release' : 'hold', () => send({ t: m.held ? 'release' : 'hold', a: m.pane }));
    if (m.group) btn('unlink', () => send({ t: 'unlink', a: m.pane }));
    const sel = el('select');
    sel.append(new Option('link with…', ''));
    state.members.filter((x) => x.pane && x.pane !== m.pane && x.state !== 'exited')
      .forEach((x) => sel.append(new Option(x.pane + ' ' + x.name, String(x.pane))));
    sel.addEventListener('change', () => { if (sel.value) send({ t: 'link', a: m.pane, b: Number(sel.value) }); sel.value = ''; });
    box.append(sel);
    return box;
  }

  // ---- the inbox: every pane that needs the person, its options as buttons ----
  function drawInbox() {
    const list = $('inboxlist');
    const waiting = state.members.filter((m) => m.pane && m.state === 'needs you')
      .sort((a, b) => ((a.asks && a.asks.since) || 0) - ((b.asks && b.asks.since) || 0));
    const key = JSON.stringify([state.control, waiting.map((m) => [m.pane, m.name, m.asks])]);
    if (list.dataset.key === key) return;
    list.dataset.key = key;
    list.textContent = '';
    $('inbox').hidden = waiting.length === 0;
    waiting.forEach((m) => {
      const asks = m.asks || { question: '', options: [], rows: [] };
      const li = el('li', 'ask');
      li.dataset.pane = m.pane;
      const head = el('div', 'head');
      head.append(el('b', 'num', String(m.pane)), el('span', 'who', m.name));
      if (asks.since) head.append(el('span', 'since', 'waiting since ' + new Date(asks.since).toLocaleTimeString()));
      li.append(head, el('div', 'question', asks.question || 'waits for you'));
      if (asks.rows && asks.rows.length) li.append(el('pre', 'rows', asks.rows.join('\n')));
      const opts = el('div', 'options');
      asks.options.forEach((o) => {
        const b = el('button', 'option', o.key + '  ' + o.label);
        b.type = 'button';
        b.dataset.key = o.key;
        b.disabled = !state.control;
        b.addEventListener('click', () => {
          $('inboxanswer').textContent = 'answering ' + m.name + ': ' + o.label + '…';
          send({ t: 'answer', pane: m.pane, key: o.key, question: asks.question });
        });
        opts.append(b);
      });
      li.append(opts);
      list.append(li);
    });
  }

  function onMembers(f) {
    state.members = f.members;
    state.groups = f.groups;
    $('summary').textContent = f.summary || '';
    f.members.filter((m) => m.pane).forEach((m) => {
      const p = paneFor(m);
      drawBar(p, m);
    });
    // Filters and the recipient list follow the members. The recipient shown (picked by
    // the person, or the first member shown at the start) that is gone (renamed,
    // closed) is never swapped for another member: the list then says so and sending
    // waits until they pick one.
    const names = JSON.stringify(f.members.map((m) => [m.pane, m.name]));
    ['who', 'to'].forEach((id) => {
      const sel = $(id), keep = sel.value, chosen = sel.options.length > 0 && keep !== '';
      if (sel.dataset.key === names) return; // unchanged: an open list stays open
      sel.dataset.key = names;
      // Still waiting for the person to pick: the same notice stays.
      const waiting = keep === '' && sel.options.length > 0 && sel.options[0].disabled ? sel.options[0].textContent : '';
      sel.textContent = '';
      if (id === 'who') sel.append(new Option('everyone', ''));
      f.members.forEach((m) => sel.append(new Option((m.pane ? m.pane + ' ' : '') + m.name, m.name)));
      sel.value = keep;
      if (sel.selectedIndex >= 0 && !waiting) return;
      if (id === 'to' && (chosen || waiting)) {
        const gone = new Option(waiting || keep + ' is gone: pick who', '');
        gone.disabled = true;
        sel.prepend(gone);
        sel.value = '';
        gone.selected = true;
        return;
      }
      sel.selectedIndex = 0;
    });
    placePanes();
    drawInbox();
  }

  function onScreen(buf) {
    const v = new DataView(buf);
    const pane = v.getUint16(1), cols = v.getUint16(3), rows = v.getUint16(5), reset = v.getUint8(7);
    let p = state.panes.get(pane);
    if (!p) p = paneFor({ pane: pane, cols: cols, rows: rows });
    if (p.term.cols !== cols || p.term.rows !== rows) { p.term.resize(cols, rows); fit(); }
    // The reset goes into the terminal's write queue (ESC c), so that it comes after
    // the frames queued before it and never clears the picture that follows it.
    if (reset) p.term.write('\x1bc');
    p.term.write(new Uint8Array(buf, 8));
  }

  function onClosed(f) {
    const p = state.panes.get(f.pane);
    if (!p) return;
    p.term.dispose();
    p.el.remove();
    state.panes.delete(f.pane);
    if (state.zoomed === f.pane) zoom(0);
    placePanes();
  }

  // ---- conversation ----
  function onConv(f) {
    if (f.reset) { state.items.clear(); convEl.textContent = ''; }
    const atEnd = convEl.scrollTop + convEl.clientHeight >= convEl.scrollHeight - 4;
    (f.items || []).forEach((it) => {
      let rec = state.items.get(it.key);
      if (!rec) {
        rec = { li: el('li') };
        rec.li.addEventListener('click', () => rec.li.classList.toggle('open'));
        state.items.set(it.key, rec);
        convEl.append(rec.li);
      }
      rec.item = it;
      drawItem(rec);
    });
    // The page keeps the newest MAX_ITEMS: a long session does not grow it without end.
    while (state.items.size > MAX_ITEMS) {
      const [key, rec] = state.items.entries().next().value;
      rec.li.remove();
      state.items.delete(key);
    }
    if (atEnd) convEl.scrollTop = convEl.scrollHeight;
  }

  function drawItem(rec) {
    const it = rec.item, li = rec.li;
    li.className = it.kind + (li.classList.contains('open') ? ' open' : '');
    li.textContent = '';
    const head = el('div', 'head');
    head.append(el('span', 'time', clock(it.at)));
    if (it.from || it.to) head.append(el('span', 'who', (it.from || '') + (it.to ? ' → ' + it.to : '')));
    if (it.kind !== 'message' && it.kind !== 'turn') head.append(el('span', 'kind', it.kind));
    if (it.phase) head.append(el('span', 'phase ' + it.phase.split(' ')[0], it.phase));
    if (it.mode) head.append(el('span', 'mode', it.mode));
    li.append(head, el('div', 'body', it.text || it.note || ''));
    if (it.text && it.note) li.append(el('div', 'note', it.note));
    filterItem(rec);
  }

  // clock is a time of day as agentmux writes it everywhere: 24-hour HH:MM:SS.
  function clock(ms) {
    const d = new Date(ms), two = (n) => String(n).padStart(2, '0');
    return two(d.getHours()) + ':' + two(d.getMinutes()) + ':' + two(d.getSeconds());
  }

  function filterItem(rec) {
    const who = $('who').value, q = $('q').value.trim().toLowerCase(), it = rec.item;
    let show = !who || it.from === who || it.to === who;
    if (show && q) show = [it.from, it.to, it.text, it.note, it.phase].join(' ').toLowerCase().includes(q);
    rec.li.hidden = !show;
  }
  $('who').addEventListener('change', () => state.items.forEach(filterItem));
  $('q').addEventListener('input', () => state.items.forEach(filterItem));
  $('pick').addEventListener('change', () => { state.current = Number($('pick').value); showCurrent(); fit(); });

  // ---- sending ----
  $('sendform').addEventListener('submit', (ev) => {
    ev.preventDefault();
    const text = $('msg').value, to = $('to').value;
    if (!text.trim()) return;
    if (!to) { // kept, to send once the person picks a recipient
      $('answer').textContent = 'pick who to send to';
      $('answer').className = 'bad';
      return;
    }
    send({ t: 'send', to: to, text: text });
    $('msg').value = '';
  });

  function send(a) {
    if (!state.ws || state.ws.readyState !== WebSocket.OPEN) return;
    if (a.t !== 'input') a.id = state.nextID++; else state.inputs = (state.inputs || 0) + 1;
    if (a.t === 'answer') (state.answers = state.answers || new Set()).add(a.id);
    state.ws.send(JSON.stringify(a));
  }

  function answer(f) {
    if (state.answers && state.answers.has(f.re)) { // an inbox button's answer
      state.answers.delete(f.re);
      $('inboxanswer').textContent = f.text;
      $('inboxanswer').className = f.t === 'error' ? 'bad' : '';
      return;
    }
    const a = $('answer');
    a.textContent = f.text;
    a.className = f.t === 'error' ? 'bad' : '';
  }

  // ---- connection ----
  function refuse(text) {
    state.refused = true;
    // What this tab showed is forgotten; a secret another tab got since is kept.
    sessionStorage.removeItem(TOKEN);
    if (state.shown && localStorage.getItem(PAGE) === state.shown) localStorage.removeItem(PAGE);
    $('notice').textContent = text;
    $('notice').hidden = false;
    $('conn').textContent = 'refused';
    $('conn').className = 'badge down';
  }

  function connect() {
    // A link just opened wins over a secret another tab keeps.
    const token = sessionStorage.getItem(TOKEN), page = token ? null : localStorage.getItem(PAGE);
    if (!page && !token) {
      refuse('This page needs the URL agentmux printed (it carries a token): run agentmux web for one.');
      return;
    }
    const ws = new WebSocket((location.protocol === 'https:' ? 'wss://' : 'ws://') + location.host + '/ws');
    ws.binaryType = 'arraybuffer';
    state.ws = ws;
    ws.onopen = () => {
      state.shown = page;
      ws.send(JSON.stringify(page ? { t: 'auth', page: page } : { t: 'auth', token: token }));
      state.retry = 0; $('conn').textContent = 'live'; $('conn').className = 'badge up';
    };
    ws.onclose = (ev) => {
      if (state.refused) return;
      // Try again, slower each time (the session may be restarting, or the network
      // away); the server sends everything afresh on connect.
      const wait = Math.min(15000, 1000 * Math.pow(2, state.retry++));
      $('conn').textContent = 'disconnected' + (ev.reason ? ': ' + ev.reason : '') + ' (retrying)';
      $('conn').className = 'badge down';
      setTimeout(connect, wait);
    };
    ws.onmessage = (ev) => {
      if (typeof ev.data !== 'string') { onScreen(ev.data); return; }
      const f = JSON.parse(ev.data);
      switch (f.t) {
        case 'denied':
          refuse('The web view refused this page: ' + f.text);
          break;
        case 'hello':
          if (f.page) { localStorage.setItem(PAGE, f.page); sessionStorage.removeItem(TOKEN); }
          // A fresh start: the server sends every pane and the conversation next.
          state.panes.forEach((p) => { p.term.dispose(); p.el.remove(); });
          state.panes.clear();
          zoom(0);
          state.control = f.control; state.you = f.you;
          document.title = 'agentmux · ' + f.session;
          $('session').textContent = f.session;
          $('mode').textContent = f.control ? 'control' : 'read-only';
          $('mode').className = 'badge' + (f.control ? ' control' : '');
          $('sendform').hidden = !f.control;
          $('readonly').hidden = f.control;
          break;
        case 'members': onMembers(f); break;
        case 'conv': onConv(f); break;
        case 'closed': onClosed(f); break;
        case 'result': case 'error': answer(f); break;
      }
    };
  }

  // ---- what tests and people can ask of the page (read-only) ----
  function text(pane) {
    const p = state.panes.get(pane);
    if (!p) return '';
    const b = p.term.buffer.active, out = [];
    for (let y = 0; y < p.term.rows; y++) {
      const l = b.getLine(b.viewportY + y);
      out.push(l ? l.translateToString(true) : '');
    }
    return out.join('\n');
  }
  function checkWaiters(pane) {
    state.waiters = state.waiters.filter((w) => {
      if (w.pane !== pane || !text(pane).includes(w.s)) return true;
      w.resolve(performance.now());
      return false;
    });
  }
  window.agentmux = {
    text: text,
    // waitText resolves once pane shows s (at once when it does already).
    waitText: (pane, s) => new Promise((resolve) => {
      if (text(pane).includes(s)) { resolve(performance.now()); return; }
      state.waiters.push({ pane: pane, s: s, resolve: resolve });
    }),
    panes: () => [...state.panes.keys()],
    // inbox is what the inbox lists: each waiting pane, its question and its buttons.
    inbox: () => [...document.querySelectorAll('#inboxlist li')].map((li) => ({
      pane: Number(li.dataset.pane), question: li.querySelector('.question').textContent,
      options: [...li.querySelectorAll('button.option')].map((b) => b.textContent),
    })),
    zoomed: () => state.zoomed,
    inputs: () => state.inputs || 0,
    scrollback: (pane) => { const p = state.panes.get(pane); return p ? p.term.buffer.normal.length - p.term.rows : 0; },
    size: (pane) => { const p = state.panes.get(pane); return p ? [p.term.cols, p.term.rows] : null; },
  };
  connect();
})();
