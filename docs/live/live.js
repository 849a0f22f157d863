// The calculators on this page, live in the reader's browser (see the contributors' page "Live calculators in the
// browser"). A worker (live-worker.js) runs Python; this script draws the calculators with the widget manager (loaded
// here, after the page: the snapshots are drawn into the page), and carries the widgets' messages between the two. Nothing leaves the
// browser. Whatever fails, the snapshot stays, and its note says so.
const STATIC = new URL('./', import.meta.url);
const live = window.besmLive = { state: 'loading', times: {}, errors: [], shown: 0, storage: null };
const mark = (name, t = performance.now()) => { live.times[name] ??= Math.round(t); };
mark('script');

const SAY = {
  loading: '<strong>Calculator loading…</strong> Python is starting in your browser; until it runs, this is a snapshot with its inputs disabled.',
  live: '<strong>Live:</strong> computed in your browser, exactly; nothing you type leaves this page.',
};
const SAY_TRACKER = {
  loading: '<strong>Tracker loading…</strong> Python is starting in your browser; until it runs, this is a snapshot of an example, its inputs disabled.',
  live: '<strong>Live:</strong> your own game, run in your browser and saved on this device after every action; a reload or a later '
    + 'visit carries on, and other tabs on it show the same. Nothing leaves this device.',
};
const STORAGE = {  // the line under a live tracker's note: where its saves go
  device: () => 'Saved in this browser’s storage for this site (Download save keeps a copy anywhere).',
  memory: (why) => `⚠ Not saved on this device: the browser refuses storage here (${why}; a private window?). `
    + 'Play goes on in this page only: Download save keeps it.',
  full: (why) => `⚠ Not saved on this device just now: storage is full or refused (${why}). `
    + 'Play goes on in this page; Download save keeps it, and the next action tries again.',
};

function say(state, why = '', cell = null) {  // the note above each calculator (all, or one cell's)
  for (const el of document.querySelectorAll('.besm-live-note')) {
    if (cell !== null && el.dataset.cell !== String(cell)) continue;
    if (el.dataset.state === 'live' && state !== 'live') continue;
    const p = el.querySelector('.besm-live-text') ?? el;
    el.dataset.snapshot ??= p.innerHTML;
    p.innerHTML = (el.dataset.kind === 'tracker' ? SAY_TRACKER : SAY)[state] ?? `${el.dataset.snapshot} <small>(${why})</small>`;
    el.dataset.state = state;
  }
}

function sayStorage(state, why) {  // one line beside each live tracker's controls
  live.storage = { state, why };
  for (const el of document.querySelectorAll('.besm-live-note[data-kind="tracker"]')) {
    let line = el.querySelector('.besm-storage');
    if (!line) {
      line = document.createElement('p');
      line.className = 'besm-storage';
      el.append(line);
    }
    line.textContent = STORAGE[state]?.(why) ?? '';
    line.dataset.state = state;
  }
  if (state === 'device') navigator.storage?.persist?.().catch(() => {});  // ask the browser to keep it, not evict it
}

const parsed = new Promise((resolve) => {  // the page's text and snapshots are all there
  if (document.readyState !== 'loading') resolve();
  else document.addEventListener('DOMContentLoaded', resolve, { once: true });
});

const loaded = new Promise((resolve) => {  // the page has loaded (and been painted)
  if (document.readyState === 'complete') resolve();
  else addEventListener('load', resolve, { once: true });
});
const idle = () => new Promise((resolve) => {  // a moment when the browser has nothing else to do: what comes next is a task of its own
  if (window.requestIdleCallback) requestIdleCallback(() => resolve(), { timeout: 1000 });
  else setTimeout(resolve, 20);
});

function script(src) {
  return new Promise((resolve, reject) => {
    const tag = document.createElement('script');
    tag.src = src;
    tag.onload = resolve;
    tag.onerror = () => reject(new Error(`${src} did not load`));
    document.head.append(tag);
  });
}

async function widgetManager() {  // the page's widget manager (vendored @jupyter-widgets/html-manager)
  const runtime = document.getElementById('besm-widget-runtime');
  if (runtime && !window.require?.defined?.('@jupyter-widgets/html-manager')) {
    // the snapshots are drawn into the page (docs/build.py bake): the widget manager (its three modules, 2.4 MB) loads
    // once Python has made the calculators, a script and then a module at a time, each when the browser is idle, so
    // that no one task holds up the reader for long
    const srcs = JSON.parse(runtime.textContent).map((src) => new URL(src, document.baseURI).href);
    await loaded;
    for (const src of srcs) { await idle(); await script(src); }
    for (const m of ['@jupyter-widgets/base', '@jupyter-widgets/controls', '@jupyter-widgets/html-manager']) {
      await idle();
      await new Promise((resolve, reject) => window.require([m], resolve, reject));
    }
    await idle();
  }
  return new Promise((resolve, reject) => {  // a page that loads the runtime in its head: once its script has run
    const wait = (n) => {
      if (window.require?.defined?.('@jupyter-widgets/html-manager'))
        return window.require(['@jupyter-widgets/html-manager'], (hm) => resolve(new hm.HTMLManager()), reject);
      if (n > 3000) return reject(new Error('the widget manager did not load'));
      setTimeout(() => wait(n + 1), 10);
    };
    wait(0);
  });
}

function outputOf(model) {  // the output area showing the snapshot of this model
  const tag = [...document.querySelectorAll('script[type="application/vnd.jupyter.widget-view+json"]')]
    .find((s) => { try { return JSON.parse(s.textContent).model_id === model; } catch { return false; } });
  return tag?.closest('.cell_output') ?? tag?.parentElement ?? null;
}

class PageComm {  // one widget's line to Python, in the shape the widget manager expects of a kernel's comm
  constructor(worker, id, target, pending) {
    Object.assign(this, { worker, comm_id: id, target_name: target, pending, handler: null, closer: null, early: [] });
  }
  open() { return ''; }
  close() { return ''; }
  send(data, callbacks, metadata, buffers = []) {  // buffers: a file uploaded, as binary parts
    const k = this.pending.next++;
    this.pending.calls.set(k, callbacks);
    const parts = buffers.map((b) => new Uint8Array(b.buffer ? b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength) : b.slice(0)));
    const go = () => this.worker.postMessage({ type: 'msg', id: this.comm_id, text: JSON.stringify(data), k, buffers: parts }, parts.map((p) => p.buffer));
    (window.besmOutgoing ?? ((lane, d, send) => send()))(this.worker, data, go);  // a click waits for the box typed in before it (besm-order.js)
    return `${this.comm_id}-${k}`;
  }
  on_msg(cb) { this.handler = cb; for (const m of this.early.splice(0)) cb(m); }  // updates sent before the model existed
  on_close(cb) { this.closer = cb; }
  deliver(m) { if (this.handler) this.handler(m); else this.early.push(m); }
}

async function show(manager, id, el, n, tracker = false) {  // draw a live calculator, then put it in its snapshot's place
  const model = await manager.get_model(id);
  const view = await manager.create_view(model);
  const box = document.createElement('div');
  box.className = 'besm-live';
  box.dataset.cell = n;
  box.hidden = true;
  el.append(box);
  await manager.display_view(view, box);
  await slice.drawn();  // every view inside it made, before it takes the snapshot's place
  el.replaceChildren(box);
  box.hidden = false;
  live.shown++;
  say('live', '', n);
  mark('first');
  if (tracker) mark('tracker');  // a tracker page's tool, live
}

const slice = {  // long work cut into tasks of about 10 ms: between them the page answers the reader
  until: 0,
  views: 0,  // views being made (a box makes its children's after itself: its own view is ready before they are)
  async drawn() { while (this.views) await idle(); },
  async yield() {
    if (performance.now() < this.until) return;
    await idle();
    this.until = performance.now() + 10;
  },
};

async function start(spec) {
  const worker = new Worker(new URL(spec.python.worker, STATIC), { type: 'module' });
  const inflater = new Worker(new URL(spec.python.worker, STATIC), { type: 'module' });
  const line = new MessageChannel();  // the inflated memory goes straight from one worker to the other
  inflater.postMessage({ type: 'inflate', url: new URL(spec.python.snapshot, STATIC).href, port: line.port1 }, [line.port1]);
  const inbox = [];
  let handle = (m) => inbox.push(m);  // Python's messages wait for the widget manager
  let ready;  // Python has made a page's calculator (or cannot): the widget manager is needed only from then on
  const python = new Promise((resolve) => { ready = resolve; });
  worker.onmessage = ({ data }) => {
    if (data.type === 'mark') return mark(data.name, data.t - performance.timeOrigin);  // not the widget manager's: at once
    if (['built', 'done', 'failed'].includes(data.type)) ready();
    handle(data);
  };
  let finished;
  const done = new Promise((resolve, reject) => { finished = { resolve, reject }; });
  worker.onerror = inflater.onerror = (e) => finished.reject(new Error(e.message || 'the Python worker could not start'));
  setTimeout(() => finished.reject(new Error('it took too long')), 120_000);  // a runtime that never answers
  worker.postMessage({ type: 'start', python: { ...spec.python, base: STATIC.href }, module: spec.module, cells: spec.cells,
    query: location.search, port: line.port2 }, [line.port2]);  // a link's inputs (see 'Copy link') are in the page's address
  await parsed;
  say('loading');
  await Promise.race([python, done]);  // the page is read and used as its snapshot meanwhile: the widget manager loads only now
  const manager = await widgetManager();
  const create = manager.create_view.bind(manager);
  manager.create_view = async (...args) => {  // a tracker's hundreds of views, a slice at a time
    slice.views++;
    try { await slice.yield(); return await create(...args); } finally { slice.views--; }
  };
  const comms = new Map();
  const pending = { next: 0, calls: new Map() };
  const shown = [];
  handle = (m) => {
    if (m.type === 'batch') {  // one job's messages, in order: all handled now, so every model it opens is known before any is read
      for (const [type, id, msg] of JSON.parse(m.text)) handle({ type, id, msg });
    } else if (m.type === 'comm_open') {
      const msg = m.msg ?? JSON.parse(m.text);
      const c = new PageComm(worker, m.id, msg.target_name, pending);
      comms.set(m.id, c);
      manager.handle_comm_open(c, { content: { comm_id: m.id, target_name: msg.target_name, data: msg.data }, metadata: msg.metadata, buffers: [] });
    } else if (m.type === 'comm_msg') {
      comms.get(m.id)?.deliver({ content: { comm_id: m.id, data: (m.msg ?? JSON.parse(m.text)).data }, buffers: [] });
    } else if (m.type === 'idle') {  // Python has handled the widget's message: it may send the next
      const callbacks = pending.calls.get(m.k);
      pending.calls.delete(m.k);
      callbacks?.iopub?.status?.({ content: { execution_state: 'idle' } });
    } else if (m.type === 'storage') {
      sayStorage(m.state, m.why);
    } else if (m.type === 'mark') {
      mark(m.name, m.t - performance.timeOrigin);
    } else if (m.type === 'built') {
      const cell = spec.cells.find((c) => c.n === m.n);
      const el = m.model && outputOf(cell.model);
      if (el) shown.push(show(manager, m.model, el, cell.n, Boolean(cell.tracker)).catch((e) => { live.errors.push(String(e)); say('failed', String(e), cell.n); }));
      else say('failed', m.error ?? 'this calculator could not start here', cell.n);
    } else if (m.type === 'done') {
      Promise.all(shown).then(() => finished.resolve(live.shown), finished.reject);
    } else if (m.type === 'error') {
      console.error(m.error);
      live.errors.push(m.error);
    } else if (m.type === 'failed') {
      finished.reject(new Error(m.error));
    }
  };
  // what Python sent meanwhile (for a tracker, hundreds of widgets), handled in slices of about 10 ms, each a task of its
  // own (a phone is several times slower); new messages wait behind them, in order
  const real = handle;
  handle = (m) => inbox.push(m);
  const slices = (m) => (m.type === 'batch' ? JSON.parse(m.text).map(([type, id, msg]) => ({ type, id, msg })) : [m]);
  while (inbox.length) {
    for (const m of slices(inbox.shift())) {
      real(m);
      await slice.yield();
    }
  }
  handle = real;
  return done;
}

const spec = document.getElementById('besm-live-spec');
if (spec) {
  start(JSON.parse(spec.textContent)).then((n) => {
    mark('all');
    live.state = n ? 'live' : 'failed';
  }).catch((e) => {
    console.error(e);
    live.state = 'failed';
    live.errors.push(String(e));
    say('failed', `Python could not start in this browser: ${e.message ?? e}`);
  });
}
