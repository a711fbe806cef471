// Benchmark (not a test: it measures and prints, and never fails on slowness) of the chaos lab
// in the page: 1,000 runs of the article's chaos test (the SQL row, fencing on, 8 clients,
// 180 000 virtual ms, pauses and partitions; seeds 1 to 1,000) run as a user runs them: the
// lab page opened at its link, Run pressed, the time until the progress says done. The lab's
// Web Workers load on that press, so the first round includes fetching and compiling the
// worker's wasm (printed apart: the time to the first batch); later rounds reload the page and
// find it in the browser's cache.
//
// It fails (exit code 1, saying why) if a round does not finish, if the page reports a problem,
// or if the rounds disagree on the result (the report must not depend on which worker was
// faster). Prints a markdown table on stdout, progress on stderr.
//
// `cargo xtask bench` builds dist/ and runs this with LOCKSTEP_DIST and LOCKSTEP_CHROMIUM set;
// by hand (`node bench-lab.mjs` in e2e/) they default to ../dist and /usr/bin/chromium.

import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

import { launchChromium, watchForProblems } from './browser.mjs';
import { serveDirectory } from './server.mjs';

const HERE = dirname(fileURLToPath(import.meta.url));
const DIST = process.env.LOCKSTEP_DIST ?? join(resolve(HERE, '..'), 'dist');
const RUNS = 1_000;
const ROUNDS = 3;
const TARGET_S = 10;
const FRAGMENT = `lab&backend=sql-row&fencing=on&clients=8&runs=${RUNS}&seed=1`;

function progress(message) {
  console.error(`--> ${message}`);
}

/** In the page: presses Run and times the run to done, and to the first batch back. */
async function timeRun() {
  const progressOf = () => document.querySelector('[data-testid="lab-progress"]');
  const started = performance.now();
  document.querySelector('[data-testid="lab-run"]').click();
  let firstBatchMs = null;
  await new Promise((resolve, reject) => {
    const check = () => {
      const p = progressOf();
      if (p && firstBatchMs === null && Number(p.dataset.done) > 0) firstBatchMs = performance.now() - started;
      if (p?.dataset.status === 'finished') return resolve();
      if (p?.dataset.status === 'failed') return reject(new Error(p.textContent));
      requestAnimationFrame(check);
    };
    check();
  });
  const totalMs = performance.now() - started;
  const bars = Object.fromEntries(
    [...document.querySelectorAll('[data-testid="lab-bar"]')].map((b) => [b.dataset.invariant, Number(b.dataset.count)]),
  );
  const seeds = document.querySelector('[data-testid="lab-seeds"] h3')?.textContent ?? '';
  return { totalMs, firstBatchMs, result: JSON.stringify({ bars, seeds }), workers: navigator.hardwareConcurrency };
}

async function main() {
  if (!existsSync(join(DIST, 'index.html'))) throw new Error(`no site in ${DIST}: build it first (cargo xtask dist)`);
  const site = await serveDirectory(DIST, '/bench/lab/');
  const browser = await launchChromium();
  const rounds = [];
  try {
    const page = browser.context.pages()[0] ?? (await browser.context.newPage());
    const problems = [];
    watchForProblems(page, (problem) => problems.push(problem));
    const cdp = await browser.context.newCDPSession(page);
    const { product } = await cdp.send('Browser.getVersion');
    await cdp.detach();
    for (let round = 1; round <= ROUNDS; round += 1) {
      progress(`round ${round} of ${ROUNDS}: ${RUNS} runs in the chaos lab`);
      await page.goto('about:blank');
      await page.goto(`${site.url}#${FRAGMENT}`);
      await page.locator('[data-testid="chaos-lab"]').waitFor({ timeout: 60_000 });
      page.setDefaultTimeout(120_000);
      rounds.push(await page.evaluate(timeRun));
      if (problems.length > 0) throw new Error(`the page reported:\n  ${problems.join('\n  ')}`);
    }
    if (new Set(rounds.map((r) => r.result)).size !== 1) {
      throw new Error(`the rounds disagree:\n  ${rounds.map((r) => r.result).join('\n  ')}`);
    }
    const workers = Math.min(Math.max(rounds[0].workers, 1), 2);
    console.log(
      `The chaos lab in the page (headless Chromium ${product.replace(/^[^/]*\//, '')}, ${workers} workers): ${RUNS} runs of the ` +
        `article's chaos test (SQL row, fencing on, 8 clients, 180 000 virtual ms; seeds 1–${RUNS}), from pressing Run to done; ` +
        `${ROUNDS} rounds, the page reloaded before each (the first fetches and compiles the worker's wasm)`,
    );
    console.log();
    console.log('| round | Run to done | Run to the first batch | target |');
    console.log('|---|---:|---:|---:|');
    rounds.forEach((r, i) => {
      console.log(`| ${i + 1} | ${(r.totalMs / 1000).toFixed(2)} s | ${r.firstBatchMs.toFixed(0)} ms | ≤ ${TARGET_S} s |`);
    });
    console.log();
    console.log(`Result (the same in every round): ${rounds[0].result}`);
  } finally {
    await browser.close();
    await site.close();
  }
}

try {
  await main();
} catch (error) {
  console.error(`error: the chaos lab benchmark failed: ${error.message}`);
  process.exitCode = 1;
}
