// The page's Python, in a worker so that the page stays responsive while Python starts and computes (see live.js).
// It restores the Python the site build saved right after importing the calculators (inflated meanwhile by a second
// worker running this same file), runs the page's calculator cells, and passes widget messages to and from the page.
let bridge = null;
const early = [];  // the page's widget messages that come before Python is ready
const mark = (name) => postMessage({ type: 'mark', name, t: performance.timeOrigin + performance.now() });

async function fetchOk(url) {
  const r = await fetch(url);
  if (!r.ok) throw new Error(`${url.pathname ?? url}: HTTP ${r.status}`);
  return r;
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
    const r = await fetchOk(url);
    stored = new Uint8Array(await new Response(r.body.pipeThrough(new DecompressionStream('gzip'))).arrayBuffer());
    if (store) {
      const copy = stored;
      keep = async () => {  // after the memory has gone to Python: only this version is kept
        for (const old of await store.keys()) await store.delete(old);
        await store.put(url.href, new Response(copy));
      };
    }
  }
  const length = new DataView(stored.buffer, stored.byteOffset).getUint32(0, true);
  const { size, runs } = JSON.parse(new TextDecoder().decode(stored.subarray(4, 4 + length)));
  const memory = new Uint8Array(size);
  let at = 4 + length;
  for (const [start, n] of runs) { memory.set(stored.subarray(at, at + n), start); at += n; }
  return { memory, keep };
}

function sizeMemory(snapshot) {
  // Pyodide puts the saved memory back into the memory its WebAssembly module starts with, and that is smaller than
  // the memory of a Python that has imported every calculator: grow it to the saved size as soon as the module is
  // instantiated, before Pyodide fills it (modules that bring no memory of their own are untouched).
  const grow = async (result) => {
    const memory = (result.instance ?? result).exports?.memory, bytes = (await snapshot).length;
    if (memory instanceof WebAssembly.Memory && memory.buffer.byteLength < bytes) memory.grow(Math.ceil((bytes - memory.buffer.byteLength) / 65536));
    return result;
  };
  const streaming = WebAssembly.instantiateStreaming, plain = WebAssembly.instantiate;
  if (streaming) WebAssembly.instantiateStreaming = (...args) => streaming(...args).then(grow);
  WebAssembly.instantiate = (...args) => plain(...args).then(grow);
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

function receive({ id, text, k }) {
  try { bridge.receive(id, text); } catch (e) { postMessage({ type: 'error', error: String(e) }); }
  postMessage({ type: 'idle', k });
}

async function start({ python, module, cells, port }) {
  mark('worker');
  const base = new URL(python.base);
  const snapshot = new Promise((resolve, reject) => {  // inflated by a second worker, while this one loads the runtime
    port.onmessage = ({ data }) => { mark('snapshot'); port.close(); data.error ? reject(new Error(data.error)) : resolve(new Uint8Array(data)); };
  });
  sizeMemory(snapshot);
  compileEarly(new URL(python.pyodide + 'pyodide.asm.wasm', base));
  const wheels = python.wheels.map(([, url]) => fetchOk(new URL(url, base)).then((r) => r.arrayBuffer()));
  import(new URL(python.pyodide + 'pyodide.asm.mjs', base)).catch(() => {});  // the runtime's script, fetched and parsed meanwhile (Pyodide imports the same URL)
  const { loadPyodide } = await import(new URL(python.pyodide + 'pyodide.mjs', base));
  mark('runtime');
  const pyodide = await loadPyodide({
    indexURL: new URL(python.pyodide, base).href,
    _loadSnapshot: snapshot,
    lockFileContents: JSON.stringify({ info: python.lock, packages: {} }),  // no package index: everything is here
    fsInit: async (FS) => {  // the wheels, where the saved Python imported them from (for anything it imports later)
      mark('wasm');
      const bufs = await Promise.all(wheels);
      FS.mkdirTree(python.wheel_dir);
      python.wheels.forEach(([name], i) => FS.writeFile(`${python.wheel_dir}/${name}`, new Uint8Array(bufs[i])));
    },
  });
  mark('restored');
  bridge = pyodide.pyimport('besm_nb.ui.live');
  bridge.connect((type, id, text) => postMessage({ type, id, text }));
  mark('python');
  for (const m of early.splice(0)) receive(m);
  for (const cell of cells) {
    let model = null, error = null;
    try { model = bridge.build(module ?? null, cell.setup, cell.code) ?? null; }
    catch (e) { error = String(e).trim().split('\n').pop(); postMessage({ type: 'error', error: String(e) }); }
    postMessage({ type: 'built', n: cell.n, model, error });
  }
  postMessage({ type: 'done' });
}

onmessage = ({ data }) => {
  if (data.type === 'inflate') {  // this worker's other role: the second worker, inflating the saved memory
    inflate(new URL(data.url)).then(({ memory, keep }) => {
      data.port.postMessage(memory.buffer, [memory.buffer]);
      return keep?.();
    }, (e) => data.port.postMessage({ error: String(e) })).catch(() => {}).finally(() => close());
  } else if (data.type === 'start') start(data).catch((e) => postMessage({ type: 'failed', error: String(e) }));
  else if (data.type === 'msg') (bridge ? receive(data) : early.push(data));
};
