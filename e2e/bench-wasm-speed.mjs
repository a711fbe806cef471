// Benchmark (not a test: it measures and prints, and never fails on slowness) of the simulator's
// speed in the page against native, on the same chaos run: the article's chaos test against the
// SQL row with fencing on, seed 1 (180 000 virtual ms, 8 clients, pauses and partitions).
//
// In the page: the built site, the real app wasm, in headless Chromium. The app exports
// `lockstepChaosRuns(runs)` (src/speed.rs), which runs the chaos run `runs` times from the
// scenario to the finished trace and returns the events recorded; the timing is here, with
// performance.now() around each call. Natively: `cargo bench -p lockstep-sim --bench
// in_page_reference -- --json`, the same run measured the same way at the `bench` profile
// (opt-level 3), where the page's wasm is built at opt-level "z" (size) and then wasm-opt -Oz.
// Both keep the fastest batch of 10 runs: 2 s of batches natively, 3 s in the page after 1.5 s
// of untimed runs (V8 optimises hot wasm functions in the background), in 3 alternating rounds
// (on a shared machine either side may be slowed for a while by other work).
//
// The row fails (exit code 1, saying why) if the two sides did not run the same run: the same
// events per run and the same trace hash, or if the page reports an error. It prints a
// markdown table on stdout, progress on stderr.
//
// That export is behind the app's `bench-exports` feature, so the shipped site (dist/) has none:
// `cargo xtask bench` builds a copy of the site with it into target/dist-bench-exports/ and runs
// this with LOCKSTEP_DIST (that copy) and LOCKSTEP_CHROMIUM set. By hand (`node
// bench-wasm-speed.mjs` in e2e/) they default to ../target/dist-bench-exports and
// /usr/bin/chromium; build that copy first, in crates/lockstep-app:
// `trunk build --release --public-url ./ --features bench-exports --dist ../../target/dist-bench-exports`.

import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

import { launchChromium, watchForProblems } from './browser.mjs';
import { serveDirectory } from './harness.mjs';

const HERE = dirname(fileURLToPath(import.meta.url));
const ROOT = resolve(HERE, '..');
const DIST = process.env.LOCKSTEP_DIST ?? join(ROOT, 'target', 'dist-bench-exports');
const BASE_PATH = '/bench/sub/path/';

const RUNS_PER_BATCH = 10;
const MIN_BATCHES = 3;
const BUDGET_MS = 3_000;
/**
 * Untimed runs first, for this long: V8 compiles wasm with its baseline compiler and optimises
 * hot functions in the background, which on a loaded machine takes seconds; timing before that
 * measures the baseline code.
 */
const WARM_UP_MS = 1_500;
const ROUNDS = 3;

function progress(message) {
  console.error(`--> ${message}`);
}

/** Runs in the page: one untimed batch, then timed batches; returns every batch's events and time. */
async function measureInPage({ runsPerBatch, minBatches, budgetMs, warmUpMs }) {
  const run = window.wasmBindings.lockstepChaosRuns;
  const warming = performance.now();
  while (performance.now() - warming < warmUpMs) {
    run(runsPerBatch);
    // Lets the background compiler's results be installed between batches.
    await new Promise((resolve) => setTimeout(resolve, 0));
  }
  const batches = [];
  const started = performance.now();
  while (batches.length < minBatches || performance.now() - started < budgetMs) {
    const before = performance.now();
    const events = run(runsPerBatch);
    batches.push({ events, ms: performance.now() - before });
    await new Promise((resolve) => setTimeout(resolve, 0));
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

/** Opens the site in headless Chromium; `measure()` runs the in-page measurement once. */
async function openPage() {
  if (!existsSync(join(DIST, 'index.html'))) {
    throw new Error(`no site in ${DIST}: build one with the bench-exports feature first (see the top of this file)`);
  }
  const site = await serveDirectory(DIST, BASE_PATH);
  let browser;
  try {
    browser = await launchChromium();
    const page = browser.context.pages()[0] ?? (await browser.context.newPage());
    const problems = [];
    watchForProblems(page, (problem) => problems.push(problem));
    progress(`opening ${site.url} in headless Chromium`);
    await page.goto(site.url);
    await page.waitForFunction(() => window.wasmBindings !== undefined, null, { timeout: 60_000 });
    if (!(await page.evaluate(() => typeof window.wasmBindings.lockstepChaosRuns === 'function'))) {
      throw new Error(`the site in ${DIST} has no lockstepChaosRuns: build it with the bench-exports feature`);
    }
    const cdp = await browser.context.newCDPSession(page);
    const { product } = await cdp.send('Browser.getVersion');
    await cdp.detach();
    return {
      chromium: product.replace(/^[^/]*\//, ''),
      async measure() {
        progress(
          `running the chaos run in the page, ${WARM_UP_MS / 1000} s untimed, then batches of ${RUNS_PER_BATCH} for ${BUDGET_MS / 1000} s`,
        );
        const measured = await page.evaluate(measureInPage, {
          runsPerBatch: RUNS_PER_BATCH,
          minBatches: MIN_BATCHES,
          budgetMs: BUDGET_MS,
          warmUpMs: WARM_UP_MS,
        });
        if (problems.length > 0) throw new Error(`the page reported:\n  ${problems.join('\n  ')}`);
        return measured;
      },
      async close() {
        await browser.close();
        await site.close();
      },
    };
  } catch (error) {
    await browser?.close();
    await site.close();
    throw error;
  }
}

/** Millions of events per second, from events per batch and the batch's milliseconds. */
function mega(eventsPerBatch, ms) {
  return eventsPerBatch / ms / 1e3;
}

async function main() {
  // Alternating rounds: on a shared machine either side may be slowed by others' work for a
  // while; the fastest batch over all rounds is the closest to each side's own speed.
  const natives = [];
  const batches = [];
  const page = await openPage();
  let hash;
  try {
    for (let round = 1; round <= ROUNDS; round += 1) {
      progress(`round ${round} of ${ROUNDS}`);
      natives.push(await native());
      const measured = await page.measure();
      batches.push(...measured.batches);
      hash = measured.hash;
    }
  } finally {
    await page.close();
  }
  const reference = natives.reduce((best, one) => (one.fastest_batch_ms < best.fastest_batch_ms ? one : best));
  const expected = reference.events * RUNS_PER_BATCH;
  const wrong = batches.find((batch) => batch.events !== expected);
  const nativeDisagrees = natives.find((one) => one.events !== reference.events || one.hash !== reference.hash);
  if (wrong || nativeDisagrees || hash !== reference.hash) {
    throw new Error(
      `the page and the native side did not run the same run: natively ${reference.events} events a run, hash ${reference.hash}; ` +
        `in the page ${wrong ? wrong.events / RUNS_PER_BATCH : reference.events} events a run, hash ${hash}`,
    );
  }
  const fastest = Math.min(...batches.map((batch) => batch.ms));
  const inPageRate = mega(expected, fastest);
  const nativeRate = mega(expected, reference.fastest_batch_ms);
  const ratio = inPageRate / nativeRate;
  console.log(
    `The simulator in the page against native (chaos run: SQL row, fencing on, seed 1, 180 000 virtual ms, 8 clients; ` +
      `${reference.events} events, hash ${reference.hash} on both sides; scenario to finished trace, fastest batch of ${RUNS_PER_BATCH} runs: ` +
      `${batches.length} batches in headless Chromium ${page.chromium}, ${natives.reduce((n, one) => n + one.batches, 0)} natively, ` +
      `in ${ROUNDS} alternating rounds)`,
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
