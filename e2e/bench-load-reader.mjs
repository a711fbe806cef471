// The parts of the load benchmark (bench-load.mjs, which runs them and prints their table) that
// measure what a reader gets beyond the playground's first load: embeds on a docs page of
// another origin, and the wait for each feature the first time it is opened. A module, not a
// script: it measures and returns figures, and judges nothing.
//
// It names no file of the site but the host script (embed.js) and "*.wasm": the app may be one
// wasm or several, fetched at once or later; what was fetched, and when, comes from the pages'
// Resource Timing.

import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { constants, gzipSync } from 'node:zlib';

import { launchChromium, timeClick, watchForProblems } from './browser.mjs';
import { serveDirectory } from './harness.mjs';

const KBIT = 1024 / 8; // bytes per second in one kbit/s, as Lighthouse counts
/** How long a throttled load may take to become interactive before the page counts as broken. */
export const LOAD_TIMEOUT_MS = 120_000;

// Runs in the page, and in each of its frames, before any of their own scripts: records when the
// app is running and its Step button is first shown and enabled, and what the page holds when
// the first contentful paint is reported. A page the build rendered (`<html data-rendered>`,
// issue 41) holds an enabled Step button from its first byte, drawn by the build and not yet
// working: the button counts only once the app has drawn (`<html data-app="running">`), and
// only if it is shown (`checkVisibility()`: a button the page hides is no use to a visitor).
// `running` is when the app had first drawn, Step or not (a lesson step has no Step button);
// `hiddenStep`, when an enabled Step button of the running app was first found hidden.
export const WATCH = () => {
  const marks = (window.__lockstepLoad = { interactive: null, running: null, hiddenStep: null, paint: null });
  const running = () => document.documentElement?.dataset.app === 'running';
  const stepReady = () => {
    const step = document.querySelector('[data-testid="step"]');
    if (!running() || step === null || step.disabled) return false;
    if (step.checkVisibility({ opacityProperty: true, visibilityProperty: true })) return true;
    marks.hiddenStep ??= performance.now();
    return false;
  };
  // The second frame callback runs once the frame that first showed it is rendered.
  const afterFrame = (key) => {
    marks[key] = 'pending';
    requestAnimationFrame(() =>
      requestAnimationFrame(() => {
        marks[key] = performance.now();
      }),
    );
  };
  new MutationObserver((_, observer) => {
    if (marks.running === null && running()) afterFrame('running');
    if (marks.interactive === null && stepReady()) afterFrame('interactive');
    if (marks.running !== null && marks.interactive !== null) observer.disconnect();
  }).observe(document, { childList: true, subtree: true, attributes: true });
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      if (entry.name !== 'first-contentful-paint' || marks.paint !== null) continue;
      const root = document.documentElement;
      marks.paint = {
        at: entry.startTime,
        frame: document.querySelector('[data-testid="loading-line"]') !== null,
        app: document.querySelector('[data-testid="app"]') !== null,
        // The build's markup, shown (not stood in for by the frame) and not yet the app's.
        rendered: root.hasAttribute('data-rendered') && !root.hasAttribute('data-stale') && !running(),
      };
    }
  }).observe({ type: 'paint', buffered: true });
};

/**
 * A fresh Chromium (empty profile) with one page under `profile`'s network and CPU emulation,
 * WATCH in each of its documents, and every problem it reports collected in `problems`.
 */
export async function openThrottled(profile) {
  const browser = await launchChromium();
  try {
    // The targets are in gzip bytes: the test server would send brotli (`.br` copies) to a
    // browser that accepts it, so this browser accepts gzip only (its frames too).
    await browser.context.setExtraHTTPHeaders({ 'accept-encoding': 'gzip' });
    const page = browser.context.pages()[0] ?? (await browser.context.newPage());
    const problems = [];
    watchForProblems(page, (problem) => problems.push(problem));
    await page.addInitScript(WATCH);
    const cdp = await browser.context.newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.emulateNetworkConditions', {
      offline: false,
      latency: profile.rttMs,
      downloadThroughput: profile.downKbps * KBIT,
      uploadThroughput: profile.upKbps * KBIT,
    });
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: profile.cpuSlowdown });
    return { browser, page, cdp, problems };
  } catch (error) {
    await browser.close();
    throw error;
  }
}

/** Fails, saying what, if the page has reported a problem. */
export function failOnProblems(problems) {
  if (problems.length > 0) throw new Error(`the page reported problems:\n  ${problems.join('\n  ')}`);
}

/** How long an enabled Step button of the running app may stay hidden before the page counts as broken. */
export const HIDDEN_GRACE_MS = 10_000;

/**
 * Waits until `target` (a page or frame) has marked its Step button interactive. Fails, saying
 * so, if the app has run with its Step button enabled but hidden for HIDDEN_GRACE_MS.
 */
export async function waitInteractive(target) {
  const handle = await target.waitForFunction(
    (grace) => {
      const marks = window.__lockstepLoad;
      if (typeof marks?.interactive === 'number') return 'shown';
      return marks?.hiddenStep != null && performance.now() - marks.hiddenStep > grace ? 'hidden' : false;
    },
    HIDDEN_GRACE_MS,
    { timeout: LOAD_TIMEOUT_MS, polling: 100 },
  );
  if ((await handle.jsonValue()) === 'hidden') {
    const root = await target.evaluate(() => [...document.documentElement.attributes].map((a) => a.name).join(' '));
    throw new Error(
      `${target.url()}: the app runs and its Step button is enabled, but not shown ` +
        `${HIDDEN_GRACE_MS / 1000} s later (<html ${root}>): the page shows no working player`,
    );
  }
}

/** One Step in `target` (a page or frame) must move its position on: interactive means working. */
export async function stepWorks(target) {
  const before = await target.locator('[data-testid="position"]').innerText();
  await target.locator('[data-testid="step"]').click();
  await target.waitForFunction(
    (was) => document.querySelector('[data-testid="position"]')?.textContent !== was,
    before,
    { timeout: 10_000 },
  );
}

// ---- Embeds on a docs page of another origin ----

/** The embeds of the docs page, top to bottom; far apart, so that each is fetched when scrolled to. */
export const EMBEDS = [
  { box: 'first', attributes: 'data-lockstep="s2-gc-pause-fenced" data-at="10"' },
  { box: 'second', attributes: 'data-lockstep="s1-gc-pause-unfenced" data-controls="transport"' },
  { box: 'third', attributes: 'data-lockstep="s3-fencing-gap" data-at="5"' },
];

/**
 * A docs page as a reader finds one: text, then three embeds with the host script (as the book
 * has them), each below the last by more than Chromium's lazy-frame distance (2,500 px on a slow
 * link), so the second and third load only when scrolled to, after the first has.
 */
function docsPage(app) {
  const paragraph = '<p>A client that stops for a garbage-collection pause can outlive its lease; ' +
    'the lock service cannot tell, and the resource must.</p>';
  const gap = '<div style="height: 4000px"></div>';
  const embeds = EMBEDS.map(({ box, attributes }) => `<div class="box" id="${box}" ${attributes}></div>`);
  return `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
  <link rel="icon" href="data:,">
  <title>Fencing tokens — the docs</title>
  <style>body { margin: 0 auto; max-width: 46em; font: 17px/1.6 Georgia, serif; } .box { margin: 24px 0; }</style>
</head>
<body>
<h1>Fencing tokens</h1>
${paragraph.repeat(3)}
${embeds.join(`\n${gap}\n${paragraph}\n`)}
${paragraph}
<script src="${app}embed.js" defer></script>
</body>
</html>
`;
}

/**
 * Serves the docs page from its own origin (another port), gzipped as the app is: the server
 * compresses nothing itself, so the page gets the level-9 `.gz` copy `cargo xtask dist` would
 * write beside it. With `{ precompressed: false }`, as it is, like an app served plain.
 */
export async function serveDocsPage(appUrl, { precompressed = true } = {}) {
  const dir = await mkdtemp(join(tmpdir(), 'lockstep-docs-'));
  const page = docsPage(appUrl);
  await writeFile(join(dir, 'fencing.html'), page);
  await writeFile(join(dir, 'fencing.html.gz'), gzipSync(page, { level: constants.Z_BEST_COMPRESSION }));
  const site = await serveDirectory(dir, '/docs/', { precompressed });
  return {
    url: `${site.url}fencing.html`,
    close: async () => {
      await site.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/**
 * What a document fetched until `until` ms of its own clock (Infinity: everything so far), from
 * its Resource Timing: each file's compressed body (`encodedBodySize`) and bytes over the wire
 * (`transferSize`: 0 when the HTTP cache answered). Frames the document holds are left out
 * (each frame's own timing counts its document). A file of another origin shows no sizes
 * without Timing-Allow-Origin; `sizes` (URL → body bytes, from the DevTools protocol) fills it.
 */
async function fetched(target, until, sizes = new Map()) {
  const entries = await target.evaluate((end) => {
    const all = [...performance.getEntriesByType('navigation'), ...performance.getEntriesByType('resource')];
    return all
      .filter((e) => e.responseEnd <= end && e.initiatorType !== 'iframe')
      .map((e) => ({ name: e.name, body: e.encodedBodySize, wire: e.transferSize, end: e.responseEnd }));
  }, until);
  return entries.map((e) => (e.body === 0 && sizes.has(e.name) ? { ...e, body: sizes.get(e.name), wire: sizes.get(e.name) } : e));
}

const sum = (files, key) => files.reduce((total, file) => total + file[key], 0);
const isWasm = (file) => new URL(file.name).pathname.endsWith('.wasm');

/**
 * The frame of the embed in box `box`, once its document is the app's; fails at once if the page
 * has reported a problem meanwhile (a host script that never came makes no frame).
 */
export async function frameOf(page, box, problems) {
  for (let waited = 0; waited < LOAD_TIMEOUT_MS; waited += 100) {
    failOnProblems(problems);
    const handle = await page.$(`#${box} iframe`);
    const frame = await handle?.contentFrame();
    // The app at `#embed&…`, or an embed's document the build rendered (`embed/<id>/…/`).
    if (frame && (frame.url().includes('#embed') || frame.url().includes('/embed/'))) return frame;
    await new Promise((done) => setTimeout(done, 100));
  }
  throw new Error(`the embed in #${box} never loaded`);
}

/**
 * One fresh visit to the docs page under `profile`: the first embed's story interactive (ms
 * from the page's navigation), the bytes before it (host page's and frame's), and what the
 * second and third embeds fetched once scrolled to and interactive.
 */
export async function loadDocsPage(url, profile) {
  const { browser, page, cdp, problems } = await openThrottled(profile);
  try {
    // Bodies of another origin's files, which Resource Timing hides from the host page.
    const sizes = new Map();
    page.on('requestfinished', async (request) => {
      sizes.set(request.url(), (await request.sizes()).responseBodySize);
    });
    await page.goto(url, { waitUntil: 'commit' });
    const first = await frameOf(page, EMBEDS[0].box, problems);
    // The reader goes straight to the first embed: a document the build rendered (decision 44)
    // loads its wasm only once the reader points at it.
    await first.locator('[data-testid="embed"]').hover({ timeout: LOAD_TIMEOUT_MS });
    await waitInteractive(first);
    const firstAt = await first.evaluate(() => performance.timeOrigin + window.__lockstepLoad.interactive);
    const hostOrigin = await page.evaluate(() => performance.timeOrigin);
    const interactiveMs = firstAt - hostOrigin;
    const frameFiles = await fetched(first, await first.evaluate(() => window.__lockstepLoad.interactive));
    const hostFiles = await fetched(page, interactiveMs, sizes);
    const hostDocument = hostFiles.find((file) => file.name === url);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 1 });
    await stepWorks(first);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: profile.cpuSlowdown });
    const later = [];
    for (const { box } of EMBEDS.slice(1)) {
      await page.locator(`#${box}`).scrollIntoViewIfNeeded();
      const frame = await frameOf(page, box, problems);
      await waitInteractive(frame);
      const files = await fetched(frame, Infinity);
      later.push({ box, wire: sum(files, 'wire'), wasmWire: sum(files.filter(isWasm), 'wire') });
    }
    failOnProblems(problems);
    return {
      interactiveMs,
      bytes: sum(frameFiles, 'body') + sum(hostFiles, 'body'),
      hostBytes: sum(hostFiles, 'body'),
      hostDocumentBytes: hostDocument?.body ?? 0,
      later,
    };
  } finally {
    await browser.close();
  }
}

// ---- Features fetched when first opened ----

/**
 * A feature is shown once `selector` matches: something of the feature's own content, not its
 * frame (a feature fetched later may show its frame, and a loading line, first). As text, for
 * timeClick.
 */
const shown = (selector) => `() => document.querySelector('${selector}') !== null`;

/**
 * The features a reader opens from the playground, each with how it is opened (a click on a
 * `data-testid`, after the clicks in `before`) and what shows it opened.
 */
export const FEATURES = [
  { name: 'Lessons tab → the lesson list', click: 'nav-lessons', check: shown('[data-testid="lesson-link"]') },
  { name: 'Chaos lab tab → its form', click: 'nav-lab', check: shown('[data-testid="lab-run"]') },
  {
    name: '"Build your own" → its form',
    before: ['more-menu'],
    click: 'build-scenario',
    check: shown('[data-testid="build-clients"]'),
  },
  { name: 'Compare with another service → both runs', compare: 'consensus', check: shown('[data-testid="timeline-twin"]') },
  { name: 'Knowledge check tab → its first question', click: 'nav-quiz', check: shown('[data-testid="question"]') },
  { name: 'Interview deck tab → its cards', click: 'nav-deck', check: shown('[data-testid="card"]') },
  { name: '"Efficiency or correctness?" tab → its choices', click: 'nav-guide', check: shown('[data-testid="consequence"]') },
];

/**
 * Chooses `value` in the compare menu and returns the ms from the choice's change event to the
 * first frame after `check` holds (a select is chosen, not clicked: timeClick cannot time it).
 */
async function timeCompare(page, value, check) {
  return page.evaluate(
    ([choice, holdsText]) => {
      // eslint-disable-next-line no-new-func
      const holds = new Function(`return (${holdsText})()`);
      const select = document.querySelector('[data-testid="compare-with"]');
      return new Promise((done) => {
        const start = performance.now();
        const frame = () => requestAnimationFrame(() => done(performance.now() - start));
        const observer = new MutationObserver(() => {
          if (!holds()) return;
          observer.disconnect();
          frame();
        });
        observer.observe(document.body, { subtree: true, childList: true, attributes: true, characterData: true });
        select.value = choice;
        select.dispatchEvent(new Event('change', { bubbles: true }));
      });
    },
    [value, check],
  );
}

/** How long a feature may take to show once opened before the benchmark counts it as broken. */
const FEATURE_TIMEOUT_MS = 30_000;

/**
 * One fresh load of the playground under `profile`, then `feature` opened for the first time:
 * the ms from the click (or choice) to the first frame that shows it, and the bytes fetched
 * meanwhile.
 */
export async function openFeature(url, profile, feature) {
  const { browser, page, problems } = await openThrottled(profile);
  try {
    await page.goto(url, { waitUntil: 'commit' });
    await waitInteractive(page);
    const loaded = await page.evaluate(() => performance.now());
    for (const testid of feature.before ?? []) await page.locator(`[data-testid="${testid}"]`).click();
    const opened = feature.compare
      ? timeCompare(page, feature.compare, feature.check)
      : timeClick(page, feature.click, [feature.check]).then(([ms]) => ms);
    opened.catch(() => {}); // once given up on, its page closes under it: that is not news
    // A feature never shown (or a page that went elsewhere) fails the benchmark, saying where the page is.
    let gaveUp;
    const waitMs = await Promise.race([
      opened,
      new Promise((_, fail) => {
        gaveUp = setTimeout(
          () => fail(new Error(`${feature.name}: not shown ${FEATURE_TIMEOUT_MS / 1000} s after it was opened (the page is at ${page.url()})`)),
          FEATURE_TIMEOUT_MS,
        );
      }),
    ]).finally(() => clearTimeout(gaveUp));
    const after = (await fetched(page, Infinity)).filter((file) => file.end > loaded);
    failOnProblems(problems);
    return { waitMs, bytes: sum(after, 'body'), wasm: after.some(isWasm) };
  } finally {
    await browser.close();
  }
}
