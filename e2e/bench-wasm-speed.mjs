// Benchmark (not a test: it measures and prints, and never fails on slowness) of the simulator's
// speed in the page against native, on the same chaos run: the article's chaos test against the
// SQL row with fencing on, seed 1 (180 000 virtual ms, 8 clients, pauses and partitions).
//
// In the page: the built site (dist/), the real app wasm, in headless Chromium. The app exports
// `lockstepChaosRuns(runs)` (src/speed.rs), which runs the chaos run `runs` times from the
// scenario to the finished trace and returns the events recorded; the timing is here, with
// performance.now() around each call. Natively: `cargo bench -p lockstep-sim --bench
// in_page_reference -- --json`, the same run measured the same way at the `bench` profile
// (opt-level 3), where the page's wasm is built at opt-level "z" (size) and then wasm-opt -Oz.
// Both keep the fastest of at least 3 batches of 10 runs and 2 s, after one untimed batch.
//
// The row fails (exit code 1, saying why) if the two sides did not run the same run: the same
// events per run and the same trace hash, or if the page reports an error. It prints a
// markdown table on stdout, progress on stderr.
//
// `cargo xtask bench` builds dist/ and runs this with LOCKSTEP_DIST and LOCKSTEP_CHROMIUM set;
// by hand (`node bench-wasm-speed.mjs` in e2e/) they default to ../dist and /usr/bin/chromium.

import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

import { launchChromium, watchForProblems } from './browser.mjs';
import { serveDirectory } from './server.mjs';

const HERE = dirname(fileURLToPath(import.meta.url));
const ROOT = resolve(HERE, '..');
const DIST = process.env.LOCKSTEP_DIST ?? join(ROOT, 'dist');
const BASE_PATH = '/bench/sub/path/';

const RUNS_PER_BATCH = 10;
const MIN_BATCHES = 3;
const BUDGET_MS = 2_000;

function progress(message) {
  console.error(`--> ${message}`);
}

/** Runs in the page: one untimed batch, then timed batches; returns every batch's events and time. */
async function measureInPage({ runsPerBatch, minBatches, budgetMs }) {
  const run = window.wasmBindings.lockstepChaosRuns;
  run(runsPerBatch);
  const batches = [];
  const started = performance.now();
  while (batches.length < minBatches || performance.now() - started < budgetMs) {
    const before = performance.now();
    const events = run(runsPerBatch);
    batches.push({ events, ms: performance.now() - before });
  }
  return { batches, hash: window.wasmBindings.lockstepChaosHash() };
}

async function native() {
  progress('the same run natively: cargo bench -p lockstep-sim --bench in_page_reference (opt-level 3)');
  const { stdout } = await promisify(execFile)(
    'cargo',
    ['bench', '--quiet', '-p', 'lockstep-sim', '--bench', 'in_page_reference', '--', '--json'],
    { cwd: ROOT, maxBuffer: 16 * 1024 * 1024 },
  );
  const line = stdout.trim().split('\n').at(-1);
  const reference = JSON.parse(line);
  if (reference.runs_per_batch !== RUNS_PER_BATCH) {
    throw new Error(`the native side ran batches of ${reference.runs_per_batch}, the page of ${RUNS_PER_BATCH}`);
  }
  return reference;
}

async function inPage() {
  if (!existsSync(join(DIST, 'index.html'))) throw new Error(`no site in ${DIST}: build it first (cargo xtask dist)`);
  const site = await serveDirectory(DIST, BASE_PATH);
  let browser;
  try {
    browser = await launchChromium();
    const page = browser.context.pages()[0] ?? (await browser.context.newPage());
    const problems = [];
    watchForProblems(page, (problem) => problems.push(problem));
    progress(`opening ${site.url} in headless Chromium`);
    await page.goto(site.url);
    await page.waitForFunction(() => typeof window.wasmBindings?.lockstepChaosRuns === 'function', null, {
      timeout: 60_000,
    });
    progress(`running the chaos run in the page, batches of ${RUNS_PER_BATCH}, for ${BUDGET_MS / 1000} s`);
    const measured = await page.evaluate(measureInPage, {
      runsPerBatch: RUNS_PER_BATCH,
      minBatches: MIN_BATCHES,
      budgetMs: BUDGET_MS,
    });
    if (problems.length > 0) throw new Error(`the page reported:\n  ${problems.join('\n  ')}`);
    const cdp = await browser.context.newCDPSession(page);
    const { product } = await cdp.send('Browser.getVersion');
    await cdp.detach();
    return { ...measured, chromium: product.replace(/^[^/]*\//, '') };
  } finally {
    await browser?.close();
    await site.close();
  }
}

/** Millions of events per second, from events per batch and the batch's milliseconds. */
function mega(eventsPerBatch, ms) {
  return eventsPerBatch / ms / 1e3;
}

async function main() {
  const reference = await native();
  const page = await inPage();
  const expected = reference.events * RUNS_PER_BATCH;
  const wrong = page.batches.find((batch) => batch.events !== expected);
  if (wrong || page.hash !== reference.hash) {
    throw new Error(
      `the page and the native side did not run the same run: natively ${reference.events} events a run, hash ${reference.hash}; ` +
        `in the page ${wrong ? wrong.events / RUNS_PER_BATCH : reference.events} events a run, hash ${page.hash}`,
    );
  }
  const fastest = Math.min(...page.batches.map((batch) => batch.ms));
  const inPageRate = mega(expected, fastest);
  const nativeRate = mega(expected, reference.fastest_batch_ms);
  const ratio = inPageRate / nativeRate;
  console.log(
    `The simulator in the page against native (chaos run: SQL row, fencing on, seed 1, 180 000 virtual ms, 8 clients; ` +
      `${reference.events} events, hash ${reference.hash} on both sides; scenario to finished trace, fastest batch of ${RUNS_PER_BATCH} runs: ` +
      `${page.batches.length} batches in headless Chromium ${page.chromium}, ${reference.batches} natively)`,
  );
  console.log();
  console.log('| run | events/s in the page (release wasm: opt-level "z", wasm-opt -Oz) | events/s native (bench profile: opt-level 3) | page ÷ native | target |');
  console.log('|---|---:|---:|---:|---:|');
  console.log(
    `| chaos run, SQL row, fencing on | ${inPageRate.toFixed(2)} M (${(fastest / RUNS_PER_BATCH).toFixed(2)} ms a run) | ` +
      `${nativeRate.toFixed(2)} M (${(reference.fastest_batch_ms / RUNS_PER_BATCH).toFixed(2)} ms a run) | ${ratio.toFixed(2)} | ≥ 0.5 |`,
  );
}

try {
  await main();
} catch (error) {
  console.error(`error: the simulator-in-the-page benchmark failed: ${error.message}`);
  process.exitCode = 1;
}
