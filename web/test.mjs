// The browser test of slosh's page (run by web/test.sh, which builds web/dist first).
//
// Serves web/dist on 127.0.0.1, opens it in headless Chromium (Debian's, WebGL through its
// software renderer) with Playwright, and checks that
//   - the page runs: its log reports the simulation (a line every few seconds);
//   - nothing failed: no error on the console, no uncaught error (a Rust panic is one);
//   - the box and the liquid are drawn: the screenshot is not blank or black, and a fair share of
//     it is liquid-coloured;
//   - the sound waits for the first key, click or touch, as browsers require, and starts then:
//     the page makes its AudioContext and the program renders its buffers ("on"; a browser
//     without sound says "off: …", which passes too, the page going on silent);
//   - a synthesized mouse drag changes the picture: paused, the draw tool's drag lays a wall;
//   - so does a synthesized touch drag (one finger uses the tool in hand), after a first touch
//     that brings up the touch toolbar;
//   - heat is seen and touched: the heat tool (A) and the cool tool (Z) held over the pool, then
//     the temperature view (C three times), show hot (orange to red) and cold (deep blue) liquid;
//   - rigid bodies run in the page: in `bath` (Shift+3) the crate is drawn, and the grab tool's
//     drag lifts it out of the water;
//   - replays cross between the page and the native program: the session above (its heat
//     lines too), handed out by the page (F8, a download), plays natively (`slosh --headless --replay`) to its recorded
//     checksum, and a replay recorded natively (web/dist/native.replay, written by web/test.sh)
//     plays in the page (`#replay=native.replay`) to its recorded checksum;
//   - levels run in the page: M opens the menu and Enter starts the first level; a pour over
//     its cup meets the goal, and the stars are kept in the browser's local storage;
//   - a link opens in the page: `slosh --share --preset volcano` given as the fragment, the page
//     says it opened volcano;
//   - the page computes the golden checksums (`#golden`: tests/golden/checksums.tsv, embedded):
//     every case ends with the checksum the native program gives. They run on a second page,
//     beside the checks above, once the seed's figure is taken.
// It prints the seed preset's milliseconds per substep in the page (the median of three reports
// from the box half full on) and leaves its screenshots in web/out/. Exits 1 on the first failed
// check.
//
// Nothing waits for a length of time. The page logs its state (`slosh: state {…}`: the scene,
// the pause, the tool, the view, the menu, the toolbar) whenever it changes, and the test holds
// each key down until the state shows its effect; it waits for drawn frames (the page's loop runs
// on requestAnimationFrame) after each pointer move, and polls the picture until what it looks
// for is there. Each wait has a bound (PATIENCE) so that a broken page fails rather than hangs; a
// slow machine only makes the test slower.

import { chromium } from "playwright-core";
import { PNG } from "pngjs";
import { createServer } from "node:http";
import { readFile, mkdir, writeFile } from "node:fs/promises";
import { extname, join, normalize } from "node:path";
import { fileURLToPath } from "node:url";
import { execFileSync } from "node:child_process";

const here = fileURLToPath(new URL(".", import.meta.url));
// The native program, to play the page's replay (web/test.sh builds it and names it).
const native = process.env.SLOSH_BIN ?? join(here, "..", "target", "release", "slosh");
const dist = join(here, "dist");
const out = join(here, "out");
// The longest any wait may last before the test fails, in seconds.
const PATIENCE = 300;
const types = { ".html": "text/html", ".js": "text/javascript", ".wasm": "application/wasm" };

function fail(message) {
  console.error(`web test: ${message}`);
  process.exit(1);
}

/** Serves web/dist and nothing else; resolves to the server once it listens. */
function serve() {
  const server = createServer(async (request, response) => {
    const path = normalize(decodeURIComponent(new URL(request.url, "http://x").pathname));
    const file = join(dist, path === "/" ? "index.html" : path);
    if (!file.startsWith(dist)) {
      response.writeHead(403).end();
      return;
    }
    try {
      const body = await readFile(file);
      response.writeHead(200, { "content-type": types[extname(file)] ?? "application/octet-stream" });
      response.end(body);
    } catch {
      response.writeHead(404).end();
    }
  });
  return new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve(server)));
}

/** Share of pixels that are clearly coloured (liquid), and of distinct colours, in a PNG. */
function look(buffer) {
  const png = PNG.sync.read(buffer);
  let liquid = 0;
  const colours = new Set();
  for (let i = 0; i < png.data.length; i += 4) {
    const [r, g, b] = [png.data[i], png.data[i + 1], png.data[i + 2]];
    const max = Math.max(r, g, b);
    const min = Math.min(r, g, b);
    if (max >= 60 && max - min >= 0.25 * max) liquid++;
    colours.add((r >> 3) * 1024 + (g >> 3) * 32 + (b >> 3));
  }
  const pixels = png.width * png.height;
  return { png, liquid: liquid / pixels, colours: colours.size };
}

/** Centre and count of the pixels within `tolerance` of colour `rgb` in a PNG. */
function find(buffer, rgb, tolerance = 28) {
  const png = PNG.sync.read(buffer);
  let [count, sx, sy] = [0, 0, 0];
  for (let y = 0; y < png.height; y++) {
    for (let x = 0; x < png.width; x++) {
      const i = 4 * (y * png.width + x);
      const near = [0, 1, 2].every((c) => Math.abs(png.data[i + c] - rgb[c]) <= tolerance);
      if (near) [count, sx, sy] = [count + 1, sx + x, sy + y];
    }
  }
  return { count, x: sx / Math.max(count, 1), y: sy / Math.max(count, 1) };
}

/** The checksum on a replay file's `end` line. */
function endChecksum(text) {
  const match = /^end \d+ ([0-9a-f]{16})$/m.exec(text);
  if (!match) fail("a replay without its end line");
  return match[1];
}

/**
 * Opens the page anew at `fragment` (the query makes it a new load, not a jump within the page)
 * and waits (up to `seconds`) for a console line starting with `prefix`; returns the rest of
 * that line. Errors (gathered in `errors` by the page's listeners) fail the test.
 */
async function waitForLine(page, errors, url, fragment, prefix, seconds) {
  let found = null;
  const listen = (message) => {
    const text = message.text();
    if (found === null && text.startsWith(prefix)) found = text.slice(prefix.length);
  };
  page.on("console", listen);
  await page.goto("about:blank");
  await page.goto(`${url}?${fragment.replace(/=.*/, "")}#${fragment}`);
  const deadline = Date.now() + seconds * 1000;
  while (found === null && !errors.length && Date.now() < deadline) await page.waitForTimeout(250);
  page.off("console", listen);
  await writeFile(join(out, `${fragment.replace(/\W+/g, "-")}.png`), await page.screenshot());
  if (errors.length) fail(`#${fragment}: the page reported errors:\n  ${errors.join("\n  ")}`);
  if (found === null) fail(`#${fragment}: no "${prefix}" line within ${seconds} s`);
  return found;
}

/**
 * Adds to `errors`, each after `label`, what goes wrong in `page`: a console error, an uncaught
 * error (a Rust panic is one), a crash, a failed request.
 */
function gatherErrors(page, errors, label) {
  page.on("console", (message) => {
    if (message.type() === "error") errors.push(`${label}${message.text()}`);
  });
  page.on("pageerror", (error) => errors.push(`${label}uncaught: ${error.message}`));
  page.on("crash", () => errors.push(`${label}the page crashed`));
  page.on("requestfailed", (request) => errors.push(`${label}request failed: ${request.url()}`));
}

/**
 * As `waitForLine`, on a page of its own opened now in `browser`: the golden checksums run
 * there beside the rest of the test (a single-threaded case at a time, where the interactive
 * part keeps both cores busy drawing). Its errors fail the test like the main page's.
 */
async function lineOnOwnPage(browser, errors, url, fragment, prefix, seconds) {
  const page = await browser.newPage({ viewport: { width: 1280, height: 720 } });
  gatherErrors(page, errors, `#${fragment}: `);
  const found = await waitForLine(page, errors, url, fragment, prefix, seconds);
  await page.close();
  return found;
}

/** Share of pixels that differ clearly between two same-sized PNGs. */
function changed(a, b, region = { x0: 0, y0: 0, x1: a.width, y1: a.height }) {
  let count = 0;
  for (let y = region.y0; y < region.y1; y++) {
    for (let x = region.x0; x < region.x1; x++) {
      const i = 4 * (y * a.width + x);
      const d = Math.abs(a.data[i] - b.data[i]) + Math.abs(a.data[i + 1] - b.data[i + 1]) +
        Math.abs(a.data[i + 2] - b.data[i + 2]);
      if (d > 30) count++;
    }
  }
  return count / ((region.x1 - region.x0) * (region.y1 - region.y0));
}

const started = Date.now();
await mkdir(out, { recursive: true });
const server = await serve();
const url = `http://127.0.0.1:${server.address().port}/`;
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium",
  headless: true,
  args: [
    "--no-sandbox", "--use-angle=swiftshader", "--enable-unsafe-swiftshader",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
    "--no-first-run", "--disable-quic",
  ],
});
const errors = [];
const reports = [];
// The page's state, as its last `slosh: state {…}` line said it.
let state = null;
try {
  const page = await browser.newPage({ viewport: { width: 1280, height: 720 } });
  gatherErrors(page, errors, "");
  page.on("console", (message) => {
    const text = message.text();
    const match = /slosh: (\S+) with (\d+) particles: ([\d.]+) ms per substep/.exec(text);
    if (match) reports.push({ preset: match[1], particles: +match[2], ms: +match[3], text });
    const said = /^slosh: state (\{.*\})$/.exec(text);
    if (said) state = JSON.parse(said[1]);
  });
  page.on("close", () => errors.push("the page closed"));
  if (process.env.SLOSH_WEB_LOG) page.on("console", (message) => console.log(`  page: ${message.text()}`));

  /** Waits until the page has drawn `count` more frames (its loop runs on animation frames). */
  const frames = (count) => page.evaluate((count) => new Promise((resolve) => {
    const tick = () => (--count <= 0 ? resolve() : requestAnimationFrame(tick));
    requestAnimationFrame(tick);
  }), count);
  /** Waits, a frame at a time, until `done()` holds; fails naming `what` after PATIENCE. */
  const waitUntil = async (what, done) => {
    const deadline = Date.now() + PATIENCE * 1000;
    while (!(await done())) {
      if (errors.length) fail(`waiting for ${what}, the page reported errors:\n  ${errors.join("\n  ")}`);
      if (Date.now() > deadline) fail(`waited ${PATIENCE} s for ${what}; the page's state: ${JSON.stringify(state)}`);
      await frames(1);
    }
  };
  /** Waits until the page's state satisfies `done`. */
  const waitForState = (what, done) => waitUntil(what, () => state !== null && done(state));
  /** Holds `key` down until the state satisfies `done`, then lets it go. */
  const key = async (name, what, done) => {
    await page.keyboard.down(name);
    await waitForState(`${name}: ${what}`, done);
    await page.keyboard.up(name);
    await frames(1);
  };
  /** Moves the mouse to (x, y) and waits for a frame to see it there. */
  const moveTo = async (x, y) => {
    await page.mouse.move(x, y);
    await frames(1);
  };
  /** Presses the left button and waits for the state to show it held. */
  const press = async () => {
    await page.mouse.down();
    await waitForState("the button held", (s) => s.held);
  };
  /** Lets the left button go and waits for the state to show it. */
  const release = async () => {
    await page.mouse.up();
    await waitForState("the button let go", (s) => !s.held);
  };
  /** A left drag from (x, y) by (dx, dy) per step, `steps` steps, a frame seen at each. */
  const drag = async (x, y, dx, dy, steps = 10) => {
    await moveTo(x, y);
    await press();
    for (let step = 1; step <= steps; step++) await moveTo(x + dx * step, y + dy * step);
    await release();
    await frames(1);
  };

  await page.goto(url);

  // The seed preset fills its box with 3,000 particles in about 11 simulated seconds; half full is
  // liquid enough for the picture's checks (about 8% of it); then two more reports, for the figure.
  await waitUntil("the seed's box half full", () => reports.length && reports.at(-1).particles >= 1500);
  const halfFull = reports.length;
  await waitUntil("two more reports", () => reports.length >= halfFull + 2);
  const figure = reports.slice(halfFull - 1, halfFull + 2);
  // The golden checksums in the page's wasm, on a page of their own from now on (after the
  // figure, which they would slow).
  const goldenLine = lineOnOwnPage(browser, errors, url, "golden", "slosh: golden {", PATIENCE);

  const running = await page.screenshot();
  await writeFile(join(out, "page.png"), running);
  const seen = look(running);
  if (seen.colours < 20) fail(`the page is blank: ${seen.colours} colours`);
  if (seen.liquid < 0.03) fail(`only ${(100 * seen.liquid).toFixed(1)}% liquid-coloured pixels`);

  // No sound before the first gesture; the first key (Space) starts it.
  if (state === null || state.sound !== "waiting for a click") {
    fail(`before any input the sound is ${JSON.stringify(state && state.sound)}, not waiting for a click`);
  }
  // Paused, a drag with the draw tool lays a wall: the picture changes where it goes.
  await page.focus("#glcanvas");
  await key("Space", "paused", (s) => s.paused);
  await waitForState("the sound to start after the first key", (s) => s.sound === "on" || s.sound.startsWith("off"));
  const sound = state.sound;
  if (sound !== "on") console.error(`web test: the page's sound: ${sound} (the browser gives none; the page runs silent)`);
  await key("d", "the draw tool", (s) => s.tool === "draw");
  await moveTo(1200, 700);
  const before = await page.screenshot();
  await drag(400, 330, 40, 8);
  await moveTo(1200, 700);
  await frames(2);
  const after = await page.screenshot();
  await writeFile(join(out, "drawn.png"), after);
  const difference = changed(PNG.sync.read(before), PNG.sync.read(after));
  if (difference < 0.005) {
    fail(`the drag changed only ${(100 * difference).toFixed(2)}% of the picture`);
  }
  // A finger: a touch drag with the draw tool lays another wall (one finger uses the tool in
  // hand), after a first touch that brings up the touch toolbar.
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("Emulation.setTouchEmulationEnabled", { enabled: true, maxTouchPoints: 1 });
  const touch = (type, x, y) =>
    cdp.send("Input.dispatchTouchEvent", { type, touchPoints: type === "touchEnd" ? [] : [{ x, y }] });
  // Left of the box, below the HUD: off the box, which lies right of the HUD either way.
  await touch("touchStart", 100, 400);
  await touch("touchEnd");
  await waitForState("the touch toolbar", (s) => s.toolbar);
  await frames(2);
  const untouched = await page.screenshot();
  // Across the top of the box, clear of the first wall: the new wall covers about half of the
  // strip along its middle; a refused wall (its message is drawn lower down) would change only
  // the thin cursor ring there.
  await touch("touchStart", 470, 150);
  await waitForState("the finger held", (s) => s.held);
  for (let step = 1; step <= 10; step++) {
    await touch("touchMove", 470 + 40 * step, 150 + 6 * step);
    await frames(1);
  }
  await touch("touchEnd");
  await waitForState("the finger lifted", (s) => !s.held);
  await frames(2);
  const touched = await page.screenshot();
  await writeFile(join(out, "touched.png"), touched);
  const strip = { x0: 520, y0: 140, x1: 820, y1: 220 };
  const touchDifference = changed(PNG.sync.read(untouched), PNG.sync.read(touched), strip);
  if (touchDifference < 0.15) {
    fail(`the touch drag changed only ${(100 * touchDifference).toFixed(2)}% of the strip along it (web/out/touched.png)`);
  }
  await cdp.send("Emulation.setTouchEmulationEnabled", { enabled: false });
  // Resumed, a stir drag runs without error.
  await key("Space", "running", (s) => !s.paused);
  await key("q", "the stir tool", (s) => s.tool === "stir");
  await drag(300, 600, 60, -10);
  await frames(10);
  await writeFile(join(out, "stirred.png"), await page.screenshot());
  if (errors.length) fail(`the page reported errors:\n  ${errors.join("\n  ")}`);

  // The temperature view (C three times), then heat (A) held over the pool's left and cold (Z) over its
  // right until the liquid there shows in the scale's orange to red and in its deep blue (−20 °C
  // and below). Counted below the HUD and its scale, which show the same colours.
  await key("c", "the pressure view", (s) => s.view === "pressure");
  await key("c", "the speed view", (s) => s.view === "speed");
  await key("c", "the temperature view", (s) => s.view === "temperature");
  const shadesOf = (picture) => {
    const png = PNG.sync.read(picture);
    const counted = { hot: 0, cold: 0 };
    for (let i = 4 * 300 * png.width; i < png.data.length; i += 4) {
      const [r, g, b] = [png.data[i], png.data[i + 1], png.data[i + 2]];
      if (r > 150 && g < 150 && b < 70) counted.hot++;
      if (b > 190 && r < 70 && g < 110) counted.cold++;
    }
    return counted;
  };
  let shades = { hot: 0, cold: 0 };
  const holdTool = async (name, tool, x, y, enough) => {
    await key(name, `the ${tool} tool`, (s) => s.tool === tool);
    await moveTo(x, y);
    await press();
    let step = 0;
    await waitUntil(`the ${tool} tool's effect (web/out/temperature.png)`, async () => {
      await page.mouse.move(x + 4 * (step++ % 10), y);
      await frames(4);
      const picture = await page.screenshot();
      await writeFile(join(out, "temperature.png"), picture);
      shades = shadesOf(picture);
      return enough(shades);
    });
    await release();
  };
  await holdTool("a", "heat", 480, 630, (seen) => seen.hot >= 4000);
  await holdTool("z", "cool", 860, 630, (seen) => seen.cold >= 4000);
  await moveTo(1200, 700);
  await frames(2);
  const thermal = await page.screenshot();
  await writeFile(join(out, "temperature.png"), thermal);
  shades = shadesOf(thermal);
  if (shades.hot < 2000 || shades.cold < 2000) {
    fail(`the temperature view shows ${shades.hot} hot and ${shades.cold} cold pixels (web/out/temperature.png)`);
  }
  // Back to the natural view.
  await key("c", "the natural view", (s) => s.view === "natural");
  if (errors.length) fail(`the page reported errors:\n  ${errors.join("\n  ")}`);

  // Bodies: the bath (Shift+3). The crate (colour [0.75, 0.55, 0.3]) floats; the grab tool (F)
  // takes it by its middle and a drag lifts it well above the water. Shift, 3 and Shift's release
  // go together, as a quick hand types them (within one frame of a slow page): the modifier
  // comes with the key's own event.
  await page.keyboard.down("Shift");
  await page.keyboard.press("Digit3");
  await page.keyboard.up("Shift");
  await waitForState("the bath (Shift+3)", (s) => s.preset === "bath");
  await waitUntil("a report of the bath", () => reports.some((report) => report.preset === "bath"));
  // The page steps in real time and the crate bobs, so the crate is found and taken while the
  // page is paused (a grab takes hold at once, paused or not), and the drag runs with the page
  // resumed; then the picture is watched until the crate rises. A grab that missed all the same
  // is tried once more.
  const crate = [191, 140, 77];
  const risen = (seen, from) => seen.count > 1000 && seen.y < from.y - 120;
  let floating;
  let lifted;
  await key("f", "the grab tool", (s) => s.tool === "grab");
  for (let attempt = 1; attempt <= 2; attempt++) {
    await key("Space", "paused", (s) => s.paused);
    await frames(2);
    const bath = await page.screenshot();
    await writeFile(join(out, "bath.png"), bath);
    floating = find(bath, crate);
    if (floating.count < 2000) fail(`no crate in the bath: ${floating.count} crate-coloured pixels`);
    await moveTo(floating.x, floating.y);
    await press();
    await key("Space", "running", (s) => !s.paused);
    for (let step = 1; step <= 10; step++) await moveTo(floating.x + 20 * step, floating.y - 25 * step);
    // Up to 200 frames for the crate to follow the pointer up.
    for (let look = 0; look < 20; look++) {
      await frames(10);
      const grabbed = await page.screenshot();
      lifted = find(grabbed, crate);
      await writeFile(join(out, "grabbed.png"), grabbed);
      if (risen(lifted, floating)) break;
    }
    await release();
    if (risen(lifted, floating)) break;
    if (attempt === 1) {
      console.error(`web test: the first grab missed the crate (y ${floating.y.toFixed(0)} to ${lifted.y.toFixed(0)}); once more`);
      await frames(60);
    }
  }
  if (!risen(lifted, floating)) {
    fail(`the grab did not lift the crate: from y ${floating.y.toFixed(0)} to ${lifted.y.toFixed(0)}`);
  }
  if (errors.length) fail(`the page reported errors:\n  ${errors.join("\n  ")}`);

  // The page hands out the replay of this session (F8: a download) and the native program
  // plays it to the checksum the page recorded.
  const [download] = await Promise.all([
    page.waitForEvent("download", { timeout: PATIENCE * 1000 }),
    page.keyboard.press("F8"),
  ]);
  const pageReplay = join(out, "page.replay");
  await download.saveAs(pageReplay);
  const pageReplayText = await readFile(pageReplay, "utf8");
  if (!/ heat /.test(pageReplayText)) fail("the page's replay has no heat lines");
  const recordedInPage = endChecksum(pageReplayText);
  let playedNatively;
  try {
    const output = execFileSync(native, ["--headless", "--replay", pageReplay], { encoding: "utf8" });
    playedNatively = JSON.parse(output.trim().split("\n").at(-1)).checksum;
  } catch (error) {
    fail(`the page's replay does not play natively: ${error.stderr ?? error.message}`);
  }
  if (playedNatively !== recordedInPage) {
    fail(`the page's replay ended natively at ${playedNatively}, the page at ${recordedInPage}`);
  }

  // Levels: M opens the menu, Enter starts the first level; one pour from above its cup (the
  // level hands the pour tool) fills it, and the star is kept in the browser's local storage.
  await key("m", "the level menu", (s) => s.menu);
  await frames(2);
  await writeFile(join(out, "levels.png"), await page.screenshot());
  await key("Enter", "the first level", (s) => s.level === 0 && !s.menu);
  // Held still first, so that the pour leaves the ring at rest (it takes the mouse's smoothed
  // velocity, which halves each frame). Above the cup: the box stands centred across the page,
  // below the HUD (and above the touch toolbar since the first touch), the cup 2 m right of its
  // middle. The pour is held for 24 frames.
  await moveTo(780, 366);
  await frames(20);
  await press();
  await frames(24);
  await release();
  await moveTo(1200, 700);
  let kept = null;
  await waitUntil("the level's stars in local storage", async () => {
    kept = await page.evaluate(() => localStorage.getItem("slosh-progress"));
    return kept !== null;
  });
  await writeFile(join(out, "level.png"), await page.screenshot());
  if (!kept || !/^first-pour [123]$/m.test(kept)) {
    fail(`the first level's stars are not in local storage: ${JSON.stringify(kept)} (web/out/level.png)`);
  }
  if (errors.length) fail(`the page reported errors:\n  ${errors.join("\n  ")}`);

  // A replay recorded natively (web/test.sh) plays in the page to its recorded checksum.
  const nativeReplay = await readFile(join(dist, "native.replay"), "utf8");
  const final = JSON.parse(await waitForLine(page, errors, url, "replay=native.replay", "slosh: final ", PATIENCE));
  if (final.recorded_checksum !== endChecksum(nativeReplay) || final.checksum !== final.recorded_checksum) {
    fail(`the native replay ended in the page at ${final.checksum}, natively at ${final.recorded_checksum}`);
  }

  // A link made natively (`slosh --share`) opens in the page from its fragment.
  const link = execFileSync(native, ["--share", "--preset", "volcano", "--seed", "3"], { encoding: "utf8" }).trim();
  const opened = (await waitForLine(page, errors, url, link, "slosh: opened link: ", PATIENCE)).trim();
  if (opened !== "volcano") fail(`the page opened the link as ${JSON.stringify(opened)}, not volcano`);

  // The golden checksums' tally, from their own page (opened after the figure).
  const tally = await goldenLine;
  const golden = JSON.parse(`{${tally}`);
  if (golden.matched !== golden.of) {
    fail(`the page matched ${golden.matched} of ${golden.of} golden checksums (web/out/golden.png)`);
  }

  const median = figure.map((report) => report.ms).sort((a, b) => a - b)[1];
  console.log(JSON.stringify({
    page: "ok",
    preset: figure[2].preset,
    particles: figure[2].particles,
    ms_per_substep: median,
    sound,
    liquid_share: +seen.liquid.toFixed(3),
    drag_changed_share: +difference.toFixed(4),
    touch_changed_share: +touchDifference.toFixed(4),
    temperature_view_pixels: shades,
    crate_lifted_px: +(floating.y - lifted.y).toFixed(0),
    level_stars_kept: kept.trim(),
    replay_from_page_played_natively: playedNatively,
    native_replay_played_in_page: final.checksum,
    link_opened: true,
    link_scene: opened,
    golden: { matched: golden.matched, of: golden.of, seconds: golden.seconds, lanes: golden.lanes },
    seconds: +((Date.now() - started) / 1000).toFixed(1),
  }));
} finally {
  await browser.close();
  server.close();
}
