// Runs a wasm32-wasip1 build of the `slosh` program under Node's WASI (no browser): the web
// page's engine path (wasm32, simd128 lanes) from the command line, for `.ci/portable`.
//     node .ci/wasi.mjs slosh.wasm ARGUMENTS…
// Files are reached by absolute path (the whole file system is pre-opened as `/`).
import { readFile } from "node:fs/promises";
import { WASI } from "node:wasi";

const [module, ...args] = process.argv.slice(2);
const wasi = new WASI({
  version: "preview1",
  args: ["slosh", ...args],
  env: {},
  preopens: { "/": "/" },
  returnOnExit: true,
});
const wasm = await WebAssembly.compile(await readFile(module));
process.exitCode = wasi.start(await WebAssembly.instantiate(wasm, wasi.getImportObject()));
