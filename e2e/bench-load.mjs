// Benchmark (not a test: it measures and prints, and never fails on slowness) of the first load
// of the built site (dist/), as a new visitor on a slow link sees it, in headless Chromium with
// the DevTools protocol's network and CPU emulation. The site is served gzipped (level 9, as
// `cargo xtask dist` measures), from a sub-path like the browser tests, and every load starts
// with an empty profile: nothing cached.
//
// For each link profile it loads the page RUNS times and reports the median of:
// - bytes before the playground is interactive: the compressed bodies of every response that
//   ended by then (the page's Resource Timing: `encodedBodySize` of the document and of each
//   resource with `responseEnd` before the moment below), headers not counted;
// - first meaningful paint: the page's first-contentful-paint, checked to be the loading frame
//   (the frame and its loading line are in the page, the app is not, when it is reported); a page
//   whose first paint is the app itself reports that paint, and says so;
// - playground interactive: once the first frame that shows the Step button in the page and
//   enabled has been rendered (a MutationObserver watches from before the page's first byte,
//   then two animation-frame callbacks: the second runs after that frame); after the load, one
//   click on Step must move the position on, or the benchmark fails: an interactive that does
//   not work is not counted.
//
// Profiles: Lighthouse's mobile "slow 4G" (150 ms round trip, 1.6 Mbit/s down, 750 kbit/s up,
// CPU 4× slower) and its desktop one (40 ms, 10 Mbit/s both ways, CPU 1×), with Lighthouse's
// numbers (kbit = 1024 bit). Emulated as the DevTools protocol does it: `latency` is added to
// each request's round trip, throughput caps what the browser receives and sends; the machine's
// own network (loopback) is not throttled beyond that. It prints a markdown table with the
// targets of issue 11 beside the figures and how far each is from its target, on stdout;
// progress on stderr. It exits non-zero, saying why, if the page reports a problem (console
// error, page error, failed request) or never becomes interactive; never because of a time.
//
// `cargo xtask bench` sets LOCKSTEP_DIST and LOCKSTEP_CHROMIUM; by hand (`node bench-load.mjs`
// in e2e/) they default to ../dist and /usr/bin/chromium. LOCKSTEP_LOAD_RUNS sets RUNS.

import { existsSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

import { launchChromium, watchForProblems } from './browser.mjs';
import { serveDirectory } from './harness.mjs';

const HERE = dirname(fileURLToPath(import.meta.url));
const DIST = process.env.LOCKSTEP_DIST ?? resolve(HERE, '..', 'dist');
const BASE_PATH = '/bench/sub/path/';
const RUNS = Number(process.env.LOCKSTEP_LOAD_RUNS ?? 5);
/** How long a throttled load may take to become interactive before the page counts as broken. */
const LOAD_TIMEOUT_MS = 120_000;

const KBIT = 1024 / 8; // bytes per second in one kbit/s, as Lighthouse counts
const PROFILES = [
  {
    name: 'slow 4G (Lighthouse mobile)',
    rttMs: 150,
    downKbps: 1638.4,
    upKbps: 750,
    cpuSlowdown: 4,
  },
  {
    name: '10 Mbit/s (Lighthouse desktop)',
    rttMs: 40,
    downKbps: 10240,
    upKbps: 10240,
    cpuSlowdown: 1,
  },
];

/** Issue 11's targets, for the slow link (the desktop row shows the same targets for scale). */
const TARGETS = {
  bytes: 200_000,
  paintMs: 1000,
  interactiveMs: 2500,
};

// Runs in the page before any of its own scripts: records when the Step button first exists
// and is enabled, and what the page holds when the first contentful paint is reported.
const WATCH = () => {
  const marks = (window.__lockstepLoad = { interactive: null, paint: null });
  const stepReady = () => {
    const step = document.querySelector('[data-testid="step"]');
    return step !== null && !step.disabled;
  };
  new MutationObserver((_, observer) => {
    if (marks.interactive !== null || !stepReady()) return;
    marks.interactive = 'pending';
    observer.disconnect();
    // The second frame callback runs once the frame that first showed the button is rendered.
    requestAnimationFrame(() =>
      requestAnimationFrame(() => {
        marks.interactive = performance.now();
      }),
    );
  }).observe(document, { childList: true, subtree: true, attributes: true });
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      if (entry.name !== 'first-contentful-paint' || marks.paint !== null) continue;
      marks.paint = {
        at: entry.startTime,
        frame: document.querySelector('[data-testid="loading-line"]') !== null,
        app: document.querySelector('[data-testid="app"]') !== null,
      };
    }
  }).observe({ type: 'paint', buffered: true });
};

/** One fresh load under `profile`: its three figures and the files it fetched by then. */
async function load(url, profile) {
  const browser = await launchChromium();
  try {
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

    await page.goto(url, { waitUntil: 'commit' });
    await page.waitForFunction(() => typeof window.__lockstepLoad?.interactive === 'number', null, {
      timeout: LOAD_TIMEOUT_MS,
      polling: 100,
    });
    // The paint observer reports a little after the paint; wait for it.
    await page.waitForFunction(() => window.__lockstepLoad.paint !== null, null, { timeout: 10_000, polling: 50 });
    const marks = await page.evaluate(() => window.__lockstepLoad);
    const files = await page.evaluate((until) => {
      const entries = [...performance.getEntriesByType('navigation'), ...performance.getEntriesByType('resource')];
      return entries
        .filter((entry) => entry.responseEnd <= until)
        .map((entry) => ({
          name: entry.name,
          bytes: entry.encodedBodySize,
          start: entry.startTime,
          end: entry.responseEnd,
        }));
    }, marks.interactive);

    // Interactive must mean working: one Step moves the position on.
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 1 });
    const before = await page.locator('[data-testid="position"]').innerText();
    await page.locator('[data-testid="step"]').click();
    await page.waitForFunction(
      (was) => document.querySelector('[data-testid="position"]')?.textContent !== was,
      before,
      { timeout: 10_000 },
    );
    if (problems.length > 0) throw new Error(`the page reported problems:\n  ${problems.join('\n  ')}`);
    return {
      bytes: files.reduce((sum, file) => sum + file.bytes, 0),
      paintMs: marks.paint.at,
      paintShows: marks.paint.frame && !marks.paint.app ? 'frame' : marks.paint.app ? 'app' : 'other',
      interactiveMs: marks.interactive,
      files,
    };
  } finally {
    await browser.close();
  }
}

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

const kb = (bytes) => `${(bytes / 1000).toFixed(1)} KB`;
const seconds = (ms) => `${(ms / 1000).toFixed(2)} s`;

/** How far `value` is from `target` (lower is better), in words that judge nothing. */
function distance(value, target, unit) {
  if (value <= target) return `${unit(target - value)} under the target`;
  return `${unit(value - target)} over the target (${(value / target).toFixed(2)}×)`;
}

/** Asks for every file of the site once, so the server has compressed it before any timing. */
async function warmUp(site) {
  const walk = async (dir) => {
    const names = [];
    for (const entry of await readdir(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) names.push(...(await walk(path)));
      else names.push(relative(DIST, path).split('\\').join('/'));
    }
    return names;
  };
  for (const name of await walk(DIST)) {
    const response = await fetch(site.url + name, { headers: { 'accept-encoding': 'gzip' } });
    await response.arrayBuffer();
  }
}

async function main() {
  if (!existsSync(join(DIST, 'index.html'))) {
    throw new Error(`no site in ${DIST}: build it first (cargo xtask dist)`);
  }
  const site = await serveDirectory(DIST, BASE_PATH, { gzip: true });
  try {
    await warmUp(site);
    const rows = [];
    for (const profile of PROFILES) {
      const runs = [];
      for (let run = 1; run <= RUNS; run += 1) {
        console.error(`bench-load: ${profile.name}, load ${run} of ${RUNS}`);
        runs.push(await load(site.url, profile));
      }
      rows.push({ profile, runs });
    }
    console.log(report(rows));
  } finally {
    await site.close();
  }
}

function report(rows) {
  const lines = [
    '',
    `### First load (median of ${RUNS} fresh loads each, empty cache, site served gzip -9)`,
    '',
    'Emulated with the DevTools protocol in headless Chromium: `Network.emulateNetworkConditions` ' +
      '(latency added to each request, download and upload throughput) and ' +
      '`Emulation.setCPUThrottlingRate`. Throughputs in Lighthouse\'s units (1 kbit = 1024 bit); ' +
      'bytes in KB of 1000 bytes, response bodies as transferred (gzip), headers not counted.',
    '',
    '| link | figure | measured | target | distance |',
    '|---|---|---|---|---|',
  ];
  for (const { profile, runs } of rows) {
    const link =
      `${profile.name}: ${profile.rttMs} ms RTT, ${profile.downKbps} kbit/s down, ` +
      `${profile.upKbps} kbit/s up, CPU ${profile.cpuSlowdown}× slower`;
    const bytes = median(runs.map((r) => r.bytes));
    const paint = median(runs.map((r) => r.paintMs));
    const interactive = median(runs.map((r) => r.interactiveMs));
    const shows = [...new Set(runs.map((r) => r.paintShows))].join(' / ');
    const paintWhat = shows === 'frame' ? 'frame + loading line' : `first paint shows: ${shows}`;
    lines.push(
      `| ${link} | bytes before the playground is interactive (gzip) | ${kb(bytes)} | ≤ ${kb(TARGETS.bytes)} | ${distance(bytes, TARGETS.bytes, kb)} |`,
      `| | first meaningful paint (${paintWhat}) | ${seconds(paint)} | ≤ ${seconds(TARGETS.paintMs)} | ${distance(paint, TARGETS.paintMs, seconds)} |`,
      `| | playground interactive (Step enabled and working) | ${seconds(interactive)} | ≤ ${seconds(TARGETS.interactiveMs)} | ${distance(interactive, TARGETS.interactiveMs, seconds)} |`,
    );
  }
  const slow = rows[0].runs[0];
  lines.push('', `Files fetched before the playground was interactive (${rows[0].profile.name}, first load):`, '');
  for (const file of slow.files) {
    const name = file.name.startsWith('http') ? new URL(file.name).pathname.slice(BASE_PATH.length) || 'index.html' : file.name;
    lines.push(`- ${name}: ${kb(file.bytes)}, asked for at ${seconds(file.start)}, received by ${seconds(file.end)}`);
  }
  return `${lines.join('\n')}\n`;
}

main().catch((error) => {
  console.error(`bench-load: ${error.message}`);
  process.exit(1);
});
