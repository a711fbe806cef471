// Benchmark (not a test: it measures and prints, and never fails on slowness) of how fast the
// built site (dist/) answers the playground's controls on a long run, in headless Chromium,
// served from a sub-path like the browser tests.
//
// It builds, through the "Build your own" form as a user does, the sandbox scenario with 8
// clients and 180 s of virtual time (over 10,000 events; the native CLI's run of the same file
// must give the same trace hash), then measures inside the page, with performance.now() and no
// round trip to node during a measurement:
//
// - Step: STEP_SAMPLES clicks from the middle of the run (Step advances the shown simulation by
//   one event; the timeline redraws the visible window);
// - Back: BACK_SAMPLES clicks from the middle (Back replays the run from the start to one event
//   earlier);
// - scrub: SCRUB_SAMPLES moves of one drag of the scrubber to positions spread over the whole run
//   (a move forward steps on from where it is, a move back resumes from the run's nearest
//   snapshot). Each move is an input event with the button still down, as a dragging pointer
//   sends them, less than the app's rest time apart: the story (timeline, stage, "now" line,
//   transport) follows each move, and the panels below it wait for the drag to rest;
// - Step, panels in view: STEP_SAMPLES more clicks from the middle with the page scrolled to the
//   inspector. At 1280×800 the panels below the story (inspector, monitoring, event log) start
//   under the transport bar, and out of sight they wait for the Steps to rest (so the Steps
//   above do not draw them); in view they follow every Step, and this is what that costs.
//
// For each it reports three times, from just before the input is dispatched:
// - "handler": until the click (or input event) handler returns: the reducer alone (Yew renders
//   in a microtask after it);
// - "DOM updated": until the position shown says the new event number (a MutationObserver sees
//   it in the microtask after Yew's render and its effects);
// - "the frame's own rendering": from the next animation-frame callback to the end of that
//   frame's style, layout and paint (software rendering: the tests run Chromium without a GPU);
// - "work": the two together, the time the input costs: what must fit in a 16.7-ms frame;
// - "next frame": until the browser has rendered the first frame after that: what a user sees.
//   Each input is dispatched right after a frame, so this includes the wait for the next one.
//
// performance.now() counts in steps of 0.1 ms here (Chromium coarsens it outside cross-origin
// isolation). It prints a markdown table on stdout, progress on stderr, and exits non-zero,
// saying why, if the page reports a console error, a page error or a failed request, or an input
// never shows its effect; never because of a time.
//
// `cargo xtask bench` builds everything and sets LOCKSTEP_DIST, LOCKSTEP_CLI and
// LOCKSTEP_CHROMIUM; run by hand (`node bench-step-latency.mjs` in e2e/), they default to
// ../dist, ../target/debug/lockstep-cli and /usr/bin/chromium.

import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

import { buildScenario, launchChromium, watchForProblems } from './browser.mjs';
import { serveDirectory } from './harness.mjs';

const HERE = dirname(fileURLToPath(import.meta.url));
const DIST = process.env.LOCKSTEP_DIST ?? resolve(HERE, '..', 'dist');
const CLI = process.env.LOCKSTEP_CLI ?? resolve(HERE, '..', 'target', 'debug', 'lockstep-cli');
/** Not the server's root, as in the browser tests. */
const BASE_PATH = '/bench/sub/path/';

const STEP_SAMPLES = 100;
const BACK_SAMPLES = 20;
const SCRUB_SAMPLES = 40;
/** The run must be at least this long for the numbers to mean what the README says. */
const MIN_EVENTS = 10_000;
/** How long one input may take to show its effect before the page counts as broken. */
const INPUT_TIMEOUT_MS = 10_000;

/** The three times reported for each input, in the order they happen. */
const PHASES = [
  ['handler', 'handler returns'],
  ['dom', 'DOM updated'],
  ['render', "the frame's own rendering"],
  ['work', 'work: DOM updated + rendering'],
  ['frame', 'next frame rendered'],
];

/**
 * Installed in the page as `window.lockstepBench`. Everything that is timed runs here.
 * Seeing the change: a MutationObserver on the position text, whose callback runs in the
 * microtask after Yew's render, so the DOM time is exact to the microtask.
 */
function installInPage({ timeoutMs }) {
  const now = () => performance.now();
  const position = () => document.querySelector('[data-testid="position"]');
  const at = () => Number(/event (\d+) of/.exec(position().textContent)[1]);

    /**
   * Resolves after the next animation frame has been rendered (style, layout, paint), with when
   * its rendering began (the animation-frame callback) and when it was done.
   */
  function frameRendered() {
    return new Promise((done) =>
      requestAnimationFrame(() => {
        const began = now();
        const channel = new MessageChannel();
        channel.port1.onmessage = () => done({ began, rendered: now() });
        channel.port2.postMessage(null);
      }),
    );
  }

  /** Runs `act` right after a frame and times it until the page shows event `expected`. */
  async function timed(what, act, expected) {
    await frameRendered();
    return new Promise((resolveSample, rejectSample) => {
      let start = 0;
      let handler = 0;
      const observer = new MutationObserver(() => {
        if (at() !== expected) return;
        const dom = now() - start;
        observer.disconnect();
        clearTimeout(timer);
                frameRendered().then(({ began, rendered }) =>
          resolveSample({ handler, dom, render: rendered - began, work: dom + (rendered - began), frame: rendered - start }),
        );
      });
      observer.observe(position(), { childList: true, characterData: true, subtree: true });
      const timer = setTimeout(() => {
        observer.disconnect();
        rejectSample(new Error(`${what}: the position never became ${expected} in ${timeoutMs} ms`));
      }, timeoutMs);
      start = now();
      act();
      handler = now() - start;
    });
  }

  const button = (testid) => document.querySelector(`[data-testid="${testid}"]`);
  const scrubber = () => document.querySelector('[data-testid="scrubber"]');

  function scrubTo(target) {
    return timed(`scrubbing from ${at()} to ${target}`, () => {
      const input = scrubber();
      input.value = String(target);
      input.dispatchEvent(new Event('input', { bubbles: true }));
    }, target);
  }

  window.lockstepBench = {
    at,
    total: () => Number(/of (\d+)/.exec(position().textContent)[1]),
    scrubTo,
    async clicks(testid, count, direction) {
      const samples = [];
      for (let i = 0; i < count; i += 1) {
        const expected = at() + direction;
        samples.push(await timed(`${testid} at ${at()}`, () => button(testid).click(), expected));
      }
      return samples;
    },
    async scrubs(targets) {
      const samples = [];
      for (const target of targets) samples.push(await scrubTo(target));
      return samples;
    },
  };
}

/** The value at `fraction` (0..1) of the ascending `sorted`, nearest rank. */
function percentile(sorted, fraction) {
  return sorted[Math.max(0, Math.ceil(fraction * sorted.length) - 1)];
}

function median(sorted) {
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

/** Markdown rows, one per phase, for one action's samples. */
function rows(action, samples) {
  return PHASES.map(([key, label]) => {
    const sorted = samples.map((sample) => sample[key]).sort((a, b) => a - b);
    const ms = (value) => value.toFixed(1);
    return `| ${action}: ${label} | ${sorted.length} | ${ms(median(sorted))} | ${ms(
      percentile(sorted, 0.95),
    )} | ${ms(sorted[sorted.length - 1])} |`;
  });
}

function progress(message) {
  console.error(`--> ${message}`);
}

async function main() {
  if (!existsSync(join(DIST, 'index.html'))) {
    throw new Error(`no site in ${DIST}: build it first (cargo xtask dist)`);
  }
  if (!existsSync(CLI)) throw new Error(`no CLI at ${CLI}: build it first (cargo build -p lockstep-cli)`);
  const site = await serveDirectory(DIST, BASE_PATH);
  let browser;
  const scratch = await mkdtemp(join(tmpdir(), 'lockstep-bench-'));
  try {
    browser = await launchChromium({ acceptDownloads: true });
    const page = browser.context.pages()[0] ?? (await browser.context.newPage());
    const problems = [];
    watchForProblems(page, (problem) => problems.push(problem));
    const checked = async (what, action) => {
      try {
        const result = await action();
        if (problems.length > 0) throw new Error('the page reported a problem');
        return result;
      } catch (error) {
        throw new Error(`${what}: ${error.message}\nthe page reported:\n  ${problems.join('\n  ') || 'nothing'}`);
      }
    };

    progress(`opening ${site.url} in headless Chromium`);
    await checked('loading the page', () => page.goto(site.url));
    await checked('the app never rendered', () => page.locator('[data-testid="timeline-main"] svg').waitFor({ timeout: 30_000 }));
    progress('building the 8-client, 180-second sandbox scenario with the form');
    await checked('building', async () => {
            await buildScenario(page, { numbers: { clients: 8, run: 180000 } });
    });
    await checked('preparing the page', () => page.evaluate(installInPage, { timeoutMs: INPUT_TIMEOUT_MS }));
    const total = await page.evaluate(() => window.lockstepBench.total());
    if (total < MIN_EVENTS) throw new Error(`the sandbox run has ${total} events, under ${MIN_EVENTS}`);

    // The same scenario file, run natively, must give the same trace: export it, run the CLI.
    await page.locator('[data-testid="more-menu"]').click();
    const [download] = await Promise.all([page.waitForEvent('download'), page.locator('[data-testid="export-scenario"]').click()]);
    const file = join(scratch, 'sandbox.json');
    await download.saveAs(file);
    const { stdout } = await promisify(execFile)(CLI, ['run', file, '--format', 'json'], { maxBuffer: 256 * 1024 * 1024 });
    const native = JSON.parse(stdout);
    const hash = await page.locator('[data-testid="trace-hash"]').innerText();
    if (native.hash !== hash || native.events.length !== total) {
      throw new Error(`the page shows ${total} events with hash ${hash}; the CLI ${native.events.length} with ${native.hash}`);
    }
    progress(`${total} events, hash ${hash}, the same natively`);

    const middle = Math.floor(total / 2);
    await checked('scrubbing to the middle', () => page.evaluate((m) => window.lockstepBench.scrubTo(m), middle));
    progress(`Step ${STEP_SAMPLES} times from event ${middle}`);
    const steps = await checked('stepping', () => page.evaluate((n) => window.lockstepBench.clicks('step', n, 1), STEP_SAMPLES));
    progress(`Back ${BACK_SAMPLES} times`);
    const backs = await checked('going back', () => page.evaluate((n) => window.lockstepBench.clicks('back', n, -1), BACK_SAMPLES));
    // Spread over the whole run, alternating far back and far forward.
    const targets = Array.from({ length: SCRUB_SAMPLES }, (_, i) =>
      i % 2 === 0 ? Math.floor(((i + 1) / SCRUB_SAMPLES) * total * 0.5) : Math.floor(total - (i / SCRUB_SAMPLES) * total * 0.5),
    );
    progress(`scrubbing to ${SCRUB_SAMPLES} positions`);
    const scrubs = await checked('scrubbing', () => page.evaluate((t) => window.lockstepBench.scrubs(t), targets));
    // The same Steps with the panels below the story scrolled into view, where they follow
    // every Step (out of view, as above, they catch up when the Steps rest).
    await checked('scrolling to the panels', () => page.evaluate((m) => window.lockstepBench.scrubTo(m), middle));
    // The panels are folded until opened (`<details>`), and a closed one's content cannot be
    // scrolled to: open them as a reader would, by their summaries, first.
    for (const name of ['inspector', 'monitor']) {
      const fold = page.locator(`[data-testid="${name}-fold"]`);
      if (!(await fold.evaluate((details) => details.open))) await fold.locator(':scope > summary').click();
    }
    await page.locator('.inspector-panel').evaluate((panel) => panel.scrollIntoView({ block: 'center' }));
    await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
    progress(`Step ${STEP_SAMPLES} times with the panels below the story in view`);
    const inView = await checked('stepping in view', () => page.evaluate((n) => window.lockstepBench.clicks('step', n, 1), STEP_SAMPLES));
    const waiting = await page.locator('[data-testid="below-story"]').getAttribute('aria-busy');
    if (waiting !== null) throw new Error('the panels in view waited for the Steps to rest');
    const notFound = await site.notFound();
    if (notFound.length > 0) throw new Error(`the page asked for files that are not in dist/: ${notFound.join(', ')}`);

    const cdp = await browser.context.newCDPSession(page);
    const { product } = await cdp.send('Browser.getVersion');
    await cdp.detach();
    console.log(
      `UI latency on a ${total}-event run (the sandbox's 8 clients over 180 s of virtual time), headless Chromium ${product.replace(/^[^/]*\//, '')}`,
    );
    console.log();
    console.log('| action | samples | median (ms) | p95 (ms) | max (ms) |');
    console.log('|---|---:|---:|---:|---:|');
    const lines = [...rows('Step', steps), ...rows('Back', backs), ...rows('scrub', scrubs), ...rows('Step, panels in view', inView)];
    for (const line of lines) console.log(line);
  } finally {
    await browser?.close();
    await site.close();
    await rm(scratch, { recursive: true, force: true });
  }
}

try {
  await main();
} catch (error) {
  console.error(`error: UI latency benchmark failed: ${error.message}`);
  process.exitCode = 1;
}
