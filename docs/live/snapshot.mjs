// Save the state of a Python that has imported the site's calculators: a Pyodide memory snapshot, gzipped. A page
// restores it instead of starting Python and importing everything itself (see live-worker.js).
// node snapshot.mjs PYODIDE_DIR OUT.gz WHEEL_DIR WHEEL...   (WHEEL_DIR: where the wheels sit inside Python's file system)
import { readFileSync, writeFileSync } from 'node:fs';
import { basename } from 'node:path';
import { pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';

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
pyodide.runPython('import besm_nb.ui.live as live; live.prepare()');
const memory = pyodide.makeMemorySnapshot();
// a third of the memory is zeros, in a few long runs: only the rest is stored (less to inflate in the page), after a
// header saying where it goes: [header length (4 bytes, little-endian)][header JSON {size, runs: [[start, length]…]}][runs' bytes]
const PAGE = 4096, runs = [];
const zero = (i) => memory.subarray(i, Math.min(i + PAGE, memory.length)).every((b) => b === 0);
for (let i = 0; i < memory.length; i += PAGE) {
  if (zero(i)) continue;
  const last = runs.at(-1);
  if (last && last[0] + last[1] === i) last[1] = Math.min(i + PAGE, memory.length) - last[0];
  else runs.push([i, Math.min(i + PAGE, memory.length) - i]);
}
const header = Buffer.from(JSON.stringify({ size: memory.length, runs }));
const length = Buffer.alloc(4);
length.writeUInt32LE(header.length);
const gz = gzipSync(Buffer.concat([length, header, ...runs.map(([s, n]) => memory.subarray(s, s + n))]), { level: 9 });
writeFileSync(out, gz);
console.log(JSON.stringify({ bytes: memory.length, stored: runs.reduce((n, [, k]) => n + k, 0), gzipped: gz.length, seconds: (Date.now() - t0) / 1000 }));
