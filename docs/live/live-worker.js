// The page's Python, in a worker so that the page stays responsive while Python starts and computes (see live.js).
// It restores the Python the site build saved right after importing the calculators (inflated meanwhile by a second
// worker running this same file), runs the page's calculator cells, and passes widget messages to and from the page.
let bridge = null, py = null;
const mark = (name) => postMessage({ type: 'mark', name, t: performance.timeOrigin + performance.now() });

async function fetchOk(url) {
  const r = await fetch(url);
  if (!r.ok) throw new Error(`${url.pathname ?? url}: HTTP ${r.status}`);
  return r;
}

async function snapshotResponse(url) {
  // The saved memory as the host sends it compressed, from a copy it keeps beside it (brotli: a third smaller than gzip),
  // which the browser inflates itself; else its gzipped copy, inflated here. Asked first with HEAD: a host that sends
  // files as they are would send the whole memory uncompressed.
  try {
    const head = await fetch(url, { method: 'HEAD' });
    if (head.ok && /\b(?:br|gzip)\b/.test(head.headers.get('Content-Encoding') ?? '')) return { r: await fetchOk(url), encoded: true };
  } catch { /* offline, or HEAD refused: the gzipped copy, which the offline copy keeps */ }
  const gz = new URL(url);
  gz.pathname += '.gz';
  return { r: await fetchOk(gz), encoded: false };
}

async function inflate(url) {
  // The saved memory (see snapshot.mjs): gzipped runs of bytes, zeros between. Inflated once per version and kept, as
  // stored, in the browser's Cache Storage where the page may use it (a secure context: https, or this machine):
  // reading it back costs less than inflating it again.
  let store = null, stored = null;
  try {
    store = await caches.open('besm-live');
    const hit = await store.match(url.href);
    if (hit) stored = new Uint8Array(await hit.arrayBuffer());
  } catch { store = null; }
  let keep = null;
  if (!stored) {
    const { r, encoded } = await snapshotResponse(url);
    stored = new Uint8Array(await (encoded ? r : new Response(r.body.pipeThrough(new DecompressionStream('gzip')))).arrayBuffer());
    if (store) {
      const copy = stored;
      keep = async () => {  // after the memory has gone to Python: only this version is kept
        for (const old of await store.keys()) await store.delete(old);
        await store.put(url.href, new Response(copy));
      };
    }
  }
  const length = new DataView(stored.buffer, stored.byteOffset).getUint32(0, true);
  const { size, base, runs, module } = JSON.parse(new TextDecoder().decode(stored.subarray(4, 4 + length)));
  const memory = new Uint8Array(size);
  let at = 4 + length;
  for (const [start, n] of runs) { memory.set(stored.subarray(at, at + n), start); at += n; }
  return { memory, base, module, keep };  // `module`: the parts the WebAssembly module's own data fills (see sizeMemory)
}

function sizeMemory(snapshot) {
  // Pyodide puts the saved memory back into the memory its WebAssembly module starts with, and that is smaller than
  // the memory of a Python that has imported every calculator: grow it to the saved size as soon as the module is
  // instantiated, before Pyodide fills it (modules that bring no memory of their own are untouched). At that moment
  // the memory holds the module's own data, untouched: the parts of the snapshot that were left out because they are
  // the same (see snapshot.mjs) are copied from it.
  const grow = async (result) => {
    const memory = (result.instance ?? result).exports?.memory, saved = await snapshot, bytes = saved.memory.length;
    if (!(memory instanceof WebAssembly.Memory)) return result;
    if (memory.buffer.byteLength < bytes) memory.grow(Math.ceil((bytes - memory.buffer.byteLength) / 65536));
    const fresh = new Uint8Array(memory.buffer);
    for (const [start, n] of saved.module ?? []) saved.memory.set(fresh.subarray(start - saved.base, start - saved.base + n), start);
    saved.filled = true;
    return result;
  };
  const streaming = WebAssembly.instantiateStreaming, plain = WebAssembly.instantiate;
  if (streaming) WebAssembly.instantiateStreaming = (...args) => streaming(...args).then(grow);
  WebAssembly.instantiate = (...args) => plain(...args).then(grow);
}

function later(python, base) {
  // What Python needs only to import something the saved Python had not: the standard library and the wheels (3.5 MB).
  // Fetched and put in place only when that happens (a cell that cannot be made, a message that imports): the saved
  // Python has imported what the calculators use, so a visit seldom moves them (the offline copy keeps them).
  const files = [[new URL(`${python.pyodide}python_stdlib.zip`, base), `/lib/python${python.lock.python.split('.').slice(0, 2).join('')}.zip`],
                 ...python.wheels.map(([name, url]) => [new URL(url, base), `${python.wheel_dir}/${name}`])];
  let placing = null;
  return (FS) => placing ??= (async () => {
    const bufs = await Promise.all(files.map(([url]) => fetchOk(url).then((r) => r.arrayBuffer())));
    FS.mkdirTree(python.wheel_dir);
    files.forEach(([, path], i) => FS.writeFile(path, new Uint8Array(bufs[i])));
    mark('later');
  })();
}

function compileEarly(url) {
  // Pyodide compiles its WebAssembly only once the saved memory is there (it needs its size first). Compile it now,
  // meanwhile: Pyodide's own request for it gets a placeholder (one download, not two), and its instantiateStreaming
  // call the compiled module. Every other request and call is untouched.
  if (!WebAssembly.compileStreaming) return;
  const load = self.fetch;
  const compiled = WebAssembly.compileStreaming(load(url));
  compiled.catch(() => {});
  const placeholder = new Response(null);
  self.fetch = (input, init) =>
    new URL(input instanceof Request ? input.url : input, location).href === url.href ? Promise.resolve(placeholder) : load(input, init);
  const original = WebAssembly.instantiateStreaming;
  WebAssembly.instantiateStreaming = async (source, imports) => {
    const response = await source;
    if (response !== placeholder) return original(response, imports);
    const module = await compiled;
    return { module, instance: await WebAssembly.instantiate(module, imports) };
  };
}

// -- trackers' saves, kept in the browser's storage ------------------------------------------------------------------
// The saves folder is Pyodide's IDBFS: files in memory, stored in IndexedDB when told (FS.syncfs). Every tab of the
// site holds its own copy in memory, so each message from the page is handled under one lock for the whole site: the
// folder is read back from storage (what other tabs stored), Python handles the message, what changed is stored, and
// the other tabs are told. Storing always follows a read-back inside the same lock, so no tab writes an old folder
// over newer files. If storage is refused or full, play goes on in memory and the page says so.
const SAVES = '/saves';
const saves = { FS: null, device: false, unsaved: false, seen: '', state: 'none', why: '' };
const others = typeof BroadcastChannel === 'function' ? new BroadcastChannel('besm-saves') : null;
const me = `${Date.now()}-${Math.random()}`;
let queue = Promise.resolve();

function serial(job) {  // one job at a time, in order: the page's messages, and news from other tabs
  const run = queue.then(job).catch((e) => postMessage({ type: 'error', error: String(e?.stack ?? e) }));
  queue = run;
  return run;
}

function locked(job) {  // one tab at a time reads, changes and stores the saves (a Web Lock, where the browser has them)
  if (!saves.device || !self.navigator?.locks) return job();
  return navigator.locks.request('besm-saves', job);
}

function syncfs(populate) {
  return new Promise((resolve, reject) => saves.FS.syncfs(populate, (err) => (err ? reject(err) : resolve())));
}

function fingerprint(dir = SAVES) {  // what the folder holds, in short: names, sizes, times (no file is read)
  const FS = saves.FS, out = [];
  for (const name of FS.readdir(dir)) {
    if (name === '.' || name === '..') continue;
    const path = `${dir}/${name}`, st = FS.stat(path);
    out.push(FS.isDir(st.mode) ? fingerprint(path) : `${path}:${st.size}:${+st.mtime}:${st.ino}`);
  }
  return out.join('|');
}

function tell(state, why = '') {  // the page's line about the saves
  if (saves.state === state && saves.why === why) return;
  Object.assign(saves, { state, why });
  postMessage({ type: 'storage', state, why });
}

const reason = (e) => String(e?.message || e?.name || e).split('\n')[0].slice(0, 160);

async function mountSaves(FS) {
  saves.FS = FS;
  FS.mkdirTree(SAVES);
  try {
    if (!self.indexedDB) throw new Error('this browser offers no storage here');
    FS.mount(FS.filesystems.IDBFS, {}, SAVES);
    saves.device = true;
    await syncfs(true);
    saves.seen = fingerprint();
    tell('device');
  } catch (e) {
    if (saves.device) { try { FS.unmount(SAVES); } catch { /* not mounted */ } }
    saves.device = false;
    FS.mkdirTree(SAVES);
    tell('memory', reason(e));
  }
}

async function readBack() {  // before Python reads the folder: what other tabs stored
  if (!saves.device || saves.unsaved) return;  // changes not yet stored are the newest: never overwritten
  try {
    await syncfs(true);
    saves.seen = fingerprint();
  } catch (e) { tell('full', reason(e)); }
}

async function store() {  // after Python has written: keep it, and tell the other tabs
  if (!saves.device) return;
  const now = fingerprint();
  if (now === saves.seen && !saves.unsaved) return;
  try {
    await syncfs(false);
    Object.assign(saves, { seen: now, unsaved: false });
    tell('device');
    others?.postMessage({ from: me });
  } catch (e) {
    saves.unsaved = true;  // kept in memory; stored with the next change, if storage takes it then
    tell('full', reason(e));
  }
}

function withSaves(work) {  // Python's part of a job, between reading the saves back and storing them
  if (!saves.FS) return work();
  return locked(async () => {
    await readBack();
    const out = work();
    await store();
    return out;
  });
}

if (others) {
  others.onmessage = ({ data }) => {
    if (data?.from === me || !bridge || !saves.device) return;
    serial(() => withSaves(() => bridge.catch_up()));  // another tab acted: show the same here
  };
}

function receive({ id, text, k, buffers }, last = false) {  // 'import': it needs what is not in place yet (tried again then)
  try { bridge.receive(id, text, py.toPy(buffers ?? [])); } catch (e) {
    if (!last && !extras && /ModuleNotFoundError|ImportError/.test(String(e))) return 'import';
    postMessage({ type: 'error', error: String(e) });
  }
  postMessage({ type: 'idle', k });
  return 'done';
}

// An empty zip file: the standard library Pyodide installs at start. The saved Python has imported what the page needs;
// the real library follows once the page is live (see `later`).
const NO_STDLIB = 'data:application/zip;base64,UEsFBgAAAAAAAAAAAAAAAAAAAAAAAA==';
let extras = null;  // the standard library and the wheels, once asked for: settles once they are in place
let place = null;  // asks for them (see `later`)
let made = null;  // settles once the page's calculators and trackers are first made: then the page's messages are handled
const settled = new Promise((resolve, reject) => { made = { resolve, reject }; });
settled.catch(() => {});  // a failed start is told to the page once, by `start`

async function start({ python, module, cells, query, port }) {
  mark('worker');
  const base = new URL(python.base);
  const snapshot = new Promise((resolve, reject) => {  // inflated by a second worker, while this one loads the runtime
    port.onmessage = ({ data }) => {
      mark('snapshot');
      port.close();
      if (data.error) reject(new Error(data.error));
      else resolve({ memory: new Uint8Array(data.memory), base: data.base, module: data.module });
    };
  });
  sizeMemory(snapshot);
  compileEarly(new URL(python.pyodide + 'pyodide.asm.wasm', base));
  import(new URL(python.pyodide + 'pyodide.asm.mjs', base)).catch(() => {});  // the runtime's script, fetched and parsed meanwhile (Pyodide imports the same URL)
  const { loadPyodide } = await import(new URL(python.pyodide + 'pyodide.mjs', base));
  mark('runtime');
  const pyodide = await loadPyodide({
    indexURL: new URL(python.pyodide, base).href,
    _loadSnapshot: snapshot.then((s) => s.memory),
    stdLibURL: NO_STDLIB,
    lockFileContents: JSON.stringify({ info: python.lock, packages: {} }),  // no package index: everything is here
    fsInit: async () => {
      mark('wasm');
      place = later(python, base);
      if ((await snapshot).module?.length && !(await snapshot).filled) throw new Error('the saved Python could not be laid out in this browser');
    },
  });
  mark('restored');
  py = pyodide;
  bridge = pyodide.pyimport('besm_nb.ui.live');
  bridge.connect((type, id, text) => postMessage({ type, id, text }));
  mark('python');
  try { pyodide.pyimport('besm_nb.ui.calc').set_page_query(query ?? ''); }  // the calculators made next take a link's inputs from it
  catch (e) { postMessage({ type: 'error', error: String(e) }); }
  if (cells.some((c) => c.tracker)) {  // a tracker saves as on its dashboard, into a folder kept in browser storage
    await mountSaves(pyodide.FS);
    bridge.use_saves(SAVES);
    mark('saves');
  }
  const make = (cell) => (cell.tracker ? bridge.build_tracker(cell.tracker) : bridge.build(module ?? null, cell.setup, cell.code)) ?? null;
  const failed = [];
  await serial(() => withSaves(() => {
    for (const cell of [...cells].sort((a, b) => Boolean(b.tracker) - Boolean(a.tracker))) {  // a page's tracker first: the tool in play
      try { postMessage({ type: 'built', n: cell.n, model: make(cell) }); }
      catch (e) { failed.push([cell, e]); }
    }
  }));
  if (failed.length) extras = place(pyodide.FS);
  made.resolve();
  await extras;
  if (failed.length) {  // made again with the whole standard library in place: it may import what the saved Python had not
    await serial(() => withSaves(() => {
      for (const [cell] of failed) {
        let model = null, error = null;
        try { model = make(cell); }
        catch (e) { error = String(e).trim().split('\n').pop(); postMessage({ type: 'error', error: String(e) }); }
        postMessage({ type: 'built', n: cell.n, model, error });
      }
    }));
  }
  postMessage({ type: 'done' });
}

onmessage = ({ data }) => {
  if (data.type === 'inflate') {  // this worker's other role: the second worker, inflating the saved memory
    inflate(new URL(data.url)).then(({ memory, base, module, keep }) => {
      data.port.postMessage({ memory: memory.buffer, base, module }, [memory.buffer]);
      return keep?.();
    }, (e) => data.port.postMessage({ error: String(e) })).catch(() => {}).finally(() => close());
  } else if (data.type === 'start') {
    start(data).catch((e) => {
      made.reject(e);
      postMessage({ type: 'failed', error: String(e) });
    });
  } else if (data.type === 'msg') {
    serial(async () => {
      await settled;
      await extras;
      if (await withSaves(() => receive(data)) !== 'import') return;
      await (extras = place(py.FS));  // what the message imports, then the message again
      await withSaves(() => receive(data, true));
    });
  }
};
