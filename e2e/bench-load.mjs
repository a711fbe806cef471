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
// - first meaningful paint: the page's first-contentful-paint, and what it showed: the loading
//   frame (the frame and its loading line are in the page, the app is not), the page the build
//   rendered (`<html data-rendered>`, issue 41: the app's markup, before the app runs), or the app;
// - playground interactive: once the first frame that shows the Step button in the page and
//   enabled, drawn by the running app (`<html data-app="running">`: a rendered page has the
//   button from its first byte, and it does nothing until then), has been rendered (a
//   MutationObserver watches from before the page's first byte, then two animation-frame
//   callbacks: the second runs after that frame); after the load, one click on Step must move the
//   position on, or the benchmark fails: an interactive that does not work is not counted. A
//   running app whose enabled Step button stays hidden (`checkVisibility()`) fails it too.
//
// Then what a reader gets beyond that first load (bench-load-reader.mjs measures it), in a second
// table with issue 27's targets: a docs page of another origin with three embeds (the first's
// bytes and time until its story is interactive, on the slow link; what the second and third
// download again when scrolled to), and, on the fast link, the wait from a click to each feature
// shown when first opened (lessons, chaos lab, "Build your own", compare, quiz, deck, guide).
//
// Then issue 41's "first readable story" (bench-first-story.mjs measures it; its header says
// exactly how), in a third table with issue 41's targets, on the slow link: for the playground's
// first visit, a scenario link, a lesson step and an embed on a docs page, the bytes before the
// first frame that shows the story's words, the time to it from this server (gzip) and from one
// that sends the same files uncompressed, and the time to interactive.
//
// Profiles: Lighthouse's mobile "slow 4G" (150 ms round trip, 1.6 Mbit/s down, 750 kbit/s up,
// CPU 4× slower) and its desktop one (40 ms, 10 Mbit/s both ways, CPU 1×), with Lighthouse's
// numbers (kbit = 1024 bit). Emulated as the DevTools protocol does it: `latency` is added to
// each request's round trip, throughput caps what the browser receives and sends; the machine's
// own network (loopback) is not throttled beyond that. It prints markdown tables with the
// targets of issues 11, 27 and 41 beside the figures and how far each is from its target, on stdout;
// progress on stderr. It exits non-zero, saying why, if the page reports a problem (console
// error, page error, failed request, in the host page or a frame) or never becomes
// interactive; never because of a time. A page whose story is still not shown 10 s after its
// app has drawn is "not shown" in the third table, not a failure: that table shows the embed's
// story as it is, drawn or not.
//
// `cargo xtask bench` sets LOCKSTEP_DIST and LOCKSTEP_CHROMIUM; by hand (`node bench-load.mjs`
// in e2e/) they default to ../dist and /usr/bin/chromium. LOCKSTEP_LOAD_RUNS sets RUNS;
// LOCKSTEP_LOAD_SERIES which tables to measure, comma-separated: `load` (the first load and what a
// reader gets) and `story` (the first readable story); both unless it says otherwise.

import { existsSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

import {
  FEATURES,
  failOnProblems,
  loadDocsPage,
  openFeature,
  openThrottled,
  serveDocsPage,
  stepWorks,
  waitInteractive,
} from './bench-load-reader.mjs';
import { measureStories, storyReport } from './bench-first-story.mjs';
import { serveDirectory } from './harness.mjs';

const HERE = dirname(fileURLToPath(import.meta.url));
const DIST = process.env.LOCKSTEP_DIST ?? resolve(HERE, '..', 'dist');
const BASE_PATH = '/bench/sub/path/';
const RUNS = Number(process.env.LOCKSTEP_LOAD_RUNS ?? 5);
/** Which tables to measure: `load` (first load, then what a reader gets) and `story`. */
const SERIES = (process.env.LOCKSTEP_LOAD_SERIES ?? 'load,story').split(',').map((name) => name.trim());
for (const name of SERIES) {
  if (!['load', 'story'].includes(name)) throw new Error(`LOCKSTEP_LOAD_SERIES: unknown series ${name} (load, story)`);
}
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

/** One fresh load under `profile`: its three figures and the files it fetched by then. */
async function load(url, profile) {
  const { browser, page, cdp, problems } = await openThrottled(profile);
  try {
    await page.goto(url, { waitUntil: 'commit' });
    await waitInteractive(page);
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
    await stepWorks(page);
    failOnProblems(problems);
    return {
      bytes: files.reduce((sum, file) => sum + file.bytes, 0),
      paintMs: marks.paint.at,
      paintShows: marks.paint.rendered
        ? 'rendered page'
        : marks.paint.frame && !marks.paint.app
          ? 'frame'
          : marks.paint.app
            ? 'app'
            : 'other',
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

/** Asks for every file of the site once, so that no timing pays for reading it from a cold disk. */
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
  const site = await serveDirectory(DIST, BASE_PATH, { precompressed: true });
  // The same files sent as they are, for the first readable story from a server that does not
  // compress.
  const plain = await serveDirectory(DIST, BASE_PATH);
  try {
    await warmUp(site);
    if (SERIES.includes('load')) {
      const rows = [];
      for (const profile of PROFILES) {
        const runs = [];
        for (let run = 1; run <= RUNS; run += 1) {
          console.error(`bench-load: ${profile.name}, load ${run} of ${RUNS}`);
          runs.push(await load(site.url, profile));
        }
        rows.push({ profile, runs });
      }
      const reader = await measureReader(site.url);
      console.log(report(rows));
      console.log(readerReport(rows, reader));
    }
    if (SERIES.includes('story')) {
      const [slow] = PROFILES;
      console.log(storyReport(await measureStories(site.url, plain.url, slow, RUNS), slow, RUNS));
    }
  } finally {
    await site.close();
    await plain.close();
  }
}

/** RUNS visits to a docs page with three embeds (slow link), and RUNS first openings of each feature (fast link). */
async function measureReader(appUrl) {
  const [slow, fast] = PROFILES;
  const docs = await serveDocsPage(appUrl);
  try {
    const embeds = [];
    for (let run = 1; run <= RUNS; run += 1) {
      console.error(`bench-load: a docs page with three embeds, ${slow.name}, visit ${run} of ${RUNS}`);
      embeds.push(await loadDocsPage(docs.url, slow));
    }
    const features = [];
    for (const feature of FEATURES) {
      const runs = [];
      for (let run = 1; run <= RUNS; run += 1) {
        console.error(`bench-load: ${feature.name}, ${fast.name}, opening ${run} of ${RUNS}`);
        runs.push(await openFeature(appUrl, fast, feature));
      }
      features.push({ feature, runs });
    }
    return { embeds, features };
  } finally {
    await docs.close();
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
    const paintWhat =
      shows === 'frame' ? 'frame + loading line' : shows === 'rendered page' ? "the build's rendered page" : `first paint shows: ${shows}`;
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

/** Issue 27's targets for what a reader gets. */
const READER_TARGETS = {
  embedBytes: 250_000,
  embedMs: 2000,
  playgroundBytes: 300_000,
  playgroundMs: 2500,
  featureMs: 1000,
};

/** The table of what a reader gets, from the playground's loads (`rows`) and `reader`'s measures. */
function readerReport(rows, { embeds, features }) {
  const [slow, fast] = rows;
  const row = (what, value, target, unit, shown = unit(value)) =>
    `| ${what} | ${shown} | ≤ ${unit(target)} | ${distance(value, target, unit)} |`;
  const embedBytes = median(embeds.map((e) => e.bytes));
  const hostBytes = median(embeds.map((e) => e.hostBytes));
  const againWasm = median(embeds.map((e) => e.later.reduce((total, l) => total + l.wasmWire, 0)));
  const againAll = median(embeds.map((e) => e.later.reduce((total, l) => total + l.wire, 0)));
  const each = features.map(({ feature, runs }) => ({
    name: feature.name,
    waitMs: median(runs.map((r) => r.waitMs)),
    bytes: median(runs.map((r) => r.bytes)),
    wasm: runs.some((r) => r.wasm),
  }));
  const worst = each.reduce((a, b) => (b.waitMs > a.waitMs ? b : a));
  const lines = [
    '',
    `### What a reader gets (issue 27; median of ${RUNS} fresh visits each, empty cache)`,
    '',
    '| what a reader gets | measured | target | distance |',
    '|---|---|---|---|',
    row(`first embed on a docs page: bytes before its story is interactive (gzip; the host page's own ${kb(hostBytes)} included)`, embedBytes, READER_TARGETS.embedBytes, kb),
    row(`first embed: story interactive, ${slow.profile.name}`, median(embeds.map((e) => e.interactiveMs)), READER_TARGETS.embedMs, seconds),
    `| a second and third embed on the same page: bytes of the app's wasm downloaded again (all files: ${kb(againAll)}) | ${kb(againWasm)} | 0 | ${againWasm === 0 ? 'on the target' : `${kb(againWasm)} over the target`} |`,
    row('playground: bytes before interactive (gzip)', median(slow.runs.map((r) => r.bytes)), READER_TARGETS.playgroundBytes, kb),
    row(`playground: interactive, ${slow.profile.name}`, median(slow.runs.map((r) => r.interactiveMs)), READER_TARGETS.playgroundMs, seconds),
    row(`features fetched when first opened, the worst (${worst.name}), ${fast.profile.name}`, worst.waitMs, READER_TARGETS.featureMs, seconds),
    ...each.map((f) =>
      row(`- ${f.name}: click to shown (${f.wasm ? `fetched ${kb(f.bytes)}, a wasm among them` : `fetched ${kb(f.bytes)}, no wasm`})`, f.waitMs, READER_TARGETS.featureMs, seconds),
    ),
    '',
    'The docs page is served from another origin (another port) with the host script (`embed.js`) ' +
      'and three `div[data-lockstep]`, 4,000 px apart: the first in view, the others scrolled to ' +
      'after the first is interactive. Bytes before the first embed is interactive are the host ' +
      "page's (its document, embed.js) and the frame's, from each document's Resource Timing " +
      '(embed.js, of another origin, sized by the DevTools protocol). The second and third embeds ' +
      "count each frame's `transferSize` (0 for a file the HTTP cache answered; a revalidation " +
      'counts its headers). The server says `Cache-Control: no-cache` with no validator, so a ' +
      'file asked for again is downloaded again. Features: a fresh load of the playground on ' +
      `${fast.profile.name}, then the feature opened once (timed from the click's input event, ` +
      'the compare menu from its change event, to the first frame that shows it); bytes fetched ' +
      'after the playground was interactive.',
  ];
  return `${lines.join('\n')}\n`;
}

main().catch((error) => {
  console.error(`bench-load: ${error.message}`);
  process.exit(1);
});
