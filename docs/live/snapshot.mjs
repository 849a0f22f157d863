// Save the state of a Python that has imported the site's calculators: a Pyodide memory snapshot, compressed. A page
// restores it instead of starting Python and importing everything itself (see live-worker.js).
// node snapshot.mjs PYODIDE_DIR OUT WHEEL_DIR WHEEL...   (writes OUT, OUT.gz and OUT.br)   (WHEEL_DIR: where the wheels sit inside Python's file system)
import { readFileSync, writeFileSync } from 'node:fs';
import { basename } from 'node:path';
import { pathToFileURL } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

const [pyodideDir, out, wheelDir, ...wheels] = process.argv.slice(2);
const t0 = Date.now();
const { loadPyodide } = await import(pathToFileURL(`${pyodideDir}/pyodide.mjs`).href);
const pyodide = await loadPyodide({
  indexURL: `${pyodideDir}/`,
  _makeSnapshot: true,
  lockFileContents: JSON.stringify({ info: JSON.parse(readFileSync(`${pyodideDir}/pyodide-lock.json`)).info, packages: {} }),
  fsInit: async (FS) => {
    FS.mkdirTree(wheelDir);
    for (const w of wheels) FS.writeFile(`${wheelDir}/${basename(w)}`, new Uint8Array(readFileSync(w)));
  },
});
// pure-Python wheels import straight from their zip files, as the page will find them
pyodide.runPython(`import sys; sys.path[1:1] = ${JSON.stringify(wheels.map((w) => `${wheelDir}/${basename(w)}`))}`);
pyodide.runPython('import besm_nb.ui.live as live; live.prepare(); import gc; gc.collect()');
zeroFreeMemory(pyodide._module);
const memory = pyodide.makeMemorySnapshot();
// Stored: only what the page cannot have otherwise. A third of the memory is zeros, in a few long runs; and most of the
// WebAssembly module's own data (what its memory holds when instantiated) is unchanged, and the page downloads the
// module anyway: those pages are copied from the page's fresh instance (live-worker.js). The rest is stored, gzipped,
// after a header saying where each part goes:
// [header length (4 bytes, little-endian)][header JSON {size, base, runs: [[start, length]…], module: [[start, length]…]}][runs' bytes]
// (positions in the snapshot; `base`: where the memory starts in it, after Pyodide's own header)
const PAGE = 4096, runs = [], module = [];
const base = new Uint32Array(memory.buffer, memory.byteOffset, 2)[1];
const initial = moduleData(readFileSync(`${pyodideDir}/pyodide.asm.wasm`));
const add = (list, start, end) => {
  const last = list.at(-1);
  if (last && last[0] + last[1] === start) last[1] = end - last[0];
  else list.push([start, end - start]);
};
add(runs, 0, base);
for (let i = base; i < memory.length; i += PAGE) {
  const end = Math.min(i + PAGE, memory.length), page = memory.subarray(i, end);
  if (page.every((b) => b === 0)) continue;
  const from = initial.subarray(i - base, end - base);
  if (from.length === page.length && from.every((b, k) => b === page[k])) add(module, i, end);
  else add(runs, i, end);
}
const header = Buffer.from(JSON.stringify({ size: memory.length, base, runs, module }));
const length = Buffer.alloc(4);
length.writeUInt32LE(header.length);
// written as is, and as the two copies a host may send compressed (brotli, gzip): the page asks for the first the host
// sends so, else inflates the gzipped copy itself (live-worker.js)
const stored = Buffer.concat([length, header, ...runs.map(([s, n]) => memory.subarray(s, s + n))]);
const gz = gzipSync(stored, { level: 9 });
const br = brotliCompressSync(stored, { params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_LGWIN]: 24,
                                                  [constants.BROTLI_PARAM_SIZE_HINT]: stored.length } });
writeFileSync(out, stored);
writeFileSync(`${out}.gz`, gz);
writeFileSync(`${out}.br`, br);
console.log(JSON.stringify({ bytes: memory.length, stored: runs.reduce((n, [, k]) => n + k, 0),
                             module: module.reduce((n, [, k]) => n + k, 0), gzipped: gz.length, brotli: br.length, seconds: (Date.now() - t0) / 1000 }));

function moduleData(wasm) {  // the memory a module starts with: its active data segments, each at its constant address
  const image = new Uint8Array(memory.length);
  let i = 8;
  const leb = () => { let r = 0, s = 0, x; do { x = wasm[i++]; r += (x & 0x7f) * 2 ** s; s += 7; } while (x & 0x80); return r; };
  while (i < wasm.length) {
    const id = wasm[i++], size = leb(), next = i + size;
    if (id === 11) {
      for (let n = leb(); n > 0; n--) {
        const flag = leb();
        if (flag === 1) { i += leb(); continue; }  // a passive segment: not in the memory at the start
        if (flag === 2) leb();
        if (wasm[i++] !== 0x41) throw new Error('snapshot: a data segment at an address that is not a constant');
        const at = leb();
        if (wasm[i++] !== 0x0b) throw new Error('snapshot: a data segment at an address that is not a constant');
        const n2 = leb();
        image.set(wasm.subarray(i, i + n2), at);
        i += n2;
      }
    }
    i = next;
  }
  return image;
}

function zeroFreeMemory(M) {
  // The memory Python has freed still holds what was there (import machinery, compiled code thrown away): taken and
  // zeroed block by block, then given back, it is zeros the snapshot leaves out and compresses to nothing.
  const end = M.HEAPU8.length, held = [];
  for (const size of [1 << 20, 1 << 16, 1 << 12, 1 << 8, 64]) {
    for (;;) {
      const p = M._malloc(size);
      if (!p) break;
      if (p + size > end) { M._free(p); break; }  // the memory's free space is used up: no growing it
      M.HEAPU8.fill(0, p, p + size);
      held.push(p);
    }
  }
  for (const p of held) M._free(p);
}
