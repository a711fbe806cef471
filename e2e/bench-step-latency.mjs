// Benchmark (not a test: it measures and prints, and never fails on slowness) of how long the
// built site (dist/) takes to answer the playback controls in headless Chromium, served from a
// sub-path like the browser tests.
//
// It opens, through the scenario menu, the built-in scenario with the longest trace (found by
// running the native CLI: `lockstep-cli list`, then `lockstep-cli run <id> --format json` for
// each), then measures inside the page, with performance.now() and no round trip to node during a
// measurement:
//
// - Step, clicked to the end of the trace, again from Reset until there are at least
//   MIN_STEP_SAMPLES clicks (the catalogue's traces are shorter than that);
// - Back, clicked up to BACK_SAMPLES times from the end of the trace (Back replays the run from
//   the start where Step advances it by one event, so its cost grows with the position);
// - the one switch to that scenario through the menu, until the trace hash changes.
//
// For each click it reports three times, from just before the click is dispatched:
// - "click handler": until `click()` returns. Yew 0.23 runs the reducer synchronously inside the
//   handler but does not render there: it renders in a microtask queued by the dispatch (and
//   yields to the browser with setTimeout after 16 ms of work), so this is the reducer alone.
// - "DOM updated": until the page shows one event more (Step), one fewer (Back) or the new hash
//   (switch): the reducer, Yew's render and its effects (the trace panel's scroll to the newest
//   event, which forces a layout).
// - "next frame": until the browser has rendered (style, layout, paint) the first animation frame
//   after that DOM change: what a user perceives. Each click is dispatched right after a frame
//   has been rendered, so this includes the wait for the next one: about a frame (16.7 ms at
//   60 Hz) less the time the previous frame took to render. Above that is the click's own cost.
//
// performance.now() counts in steps of 0.1 ms here: Chromium coarsens it so in a page that is not
// cross-origin isolated.
//
// It prints a markdown table (action, samples, median, p95, max in ms) on stdout, progress on
// stderr. It exits non-zero, saying why, if the page reports a console error, a page error or a
// failed request, or never renders, or a click never shows its effect; never because of a time.
//
// `cargo xtask bench` builds everything and sets LOCKSTEP_DIST, LOCKSTEP_CLI and
// LOCKSTEP_CHROMIUM; run by hand (`node bench-step-latency.mjs` in e2e/), they default to
// ../dist, ../target/debug/lockstep-cli and /usr/bin/chromium.

import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

import { launchChromium, watchForProblems } from './browser.mjs';
import { serveDirectory } from './server.mjs';

const HERE = dirname(fileURLToPath(import.meta.url));
const DIST = process.env.LOCKSTEP_DIST ?? resolve(HERE, '..', 'dist');
const CLI = process.env.LOCKSTEP_CLI ?? resolve(HERE, '..', 'target', 'debug', 'lockstep-cli');
/** Not the server's root, as in the browser tests. */
const BASE_PATH = '/bench/sub/path/';

/** Step clicks to measure at least, over as many passes through the trace as that takes. */
const MIN_STEP_SAMPLES = 100;
/** Back clicks to measure from the end of the trace, fewer if the trace is shorter. */
const BACK_SAMPLES = 50;
/** How long one click may take to show its effect before the page counts as broken. */
const CLICK_TIMEOUT_MS = 10_000;
/** How long the app may take to render at all after the page loads. */
const RENDER_TIMEOUT_MS = 30_000;

const SELECTORS = {
  trace: 'ol[data-testid="trace"]',
  event: 'ol[data-testid="trace"] > li[data-testid="event"]',
  step: 'button[data-testid="step"]',
  back: 'button[data-testid="back"]',
  reset: 'button[data-testid="reset"]',
  picker: 'select[data-testid="scenario-picker"]',
  hash: '[data-testid="trace-hash"]',
};

/** The three times reported for each click, in the order they happen. */
const PHASES = [
  ['handler', 'click handler returns'],
  ['dom', 'DOM updated'],
  ['frame', 'next frame rendered'],
];

const run = promisify(execFile);

/** Runs the CLI with `args`; throws, with its error output, if it fails. */
async function cli(args) {
  try {
    const { stdout } = await run(CLI, args, { maxBuffer: 64 * 1024 * 1024 });
    return stdout;
  } catch (error) {
    throw new Error(`\`lockstep-cli ${args.join(' ')}\` failed: ${error.stderr || error.message}`);
  }
}

/** The built-in scenario whose trace has the most events (the first in list order on a tie). */
async function longestScenario() {
  if (!existsSync(CLI)) {
    throw new Error(`no CLI at ${CLI}: build it first (cargo build -p lockstep-cli)`);
  }
  const ids = (await cli(['list']))
    .trim()
    .split('\n')
    .map((line) => line.split(/\s+/)[0])
    .filter(Boolean);
  if (ids.length === 0) throw new Error('`lockstep-cli list` listed no scenario');
  let longest = null;
  for (const id of ids) {
    const trace = JSON.parse(await cli(['run', id, '--format', 'json']));
    if (!Array.isArray(trace.events) || typeof trace.hash !== 'string') {
      throw new Error(`\`lockstep-cli run ${id} --format json\` printed no events or no hash`);
    }
    if (longest === null || trace.events.length > longest.events) {
      longest = { id, events: trace.events.length, hash: trace.hash };
    }
  }
  return longest;
}

/**
 * Installed in the page as `window.lockstepBench`. Everything that is timed runs here, in the
 * page: node only starts a batch of clicks and collects the numbers afterwards.
 *
 * Seeing the change: a MutationObserver, not polling in requestAnimationFrame. Its callback runs
 * in a microtask queued by the first mutation, so right after the rest of the microtask that Yew
 * renders in (with its effects), and again after any later mutation should Yew split a long
 * render over several tasks: the DOM time is exact to the microtask. Polling in rAF would only
 * look once a frame, rounding every DOM time up to the next frame (16.7 ms at 60 Hz): the DOM
 * time would become the frame time, and the two could not be told apart.
 */
function installInPage({ selectors, timeoutMs }) {
  const now = () => performance.now();

  /** Resolves after the next animation frame has been rendered (style, layout, paint). */
  function frameRendered() {
    return new Promise((done) =>
      requestAnimationFrame(() => {
        // A message posted during the frame's callbacks is delivered as a task after the
        // frame's rendering steps, which run right after the callbacks.
        const channel = new MessageChannel();
        channel.port1.onmessage = () => done(now());
        channel.port2.postMessage(null);
      }),
    );
  }

  /**
   * Calls `act` right after a frame and times it: `act` returns when the handler returns;
   * `observed` is the node whose subtree the change shows in; `done()` says the change is there.
   */
  async function timed(what, act, observed, done) {
    await frameRendered();
    return new Promise((resolveSample, rejectSample) => {
      let start = 0;
      let handler = 0;
      let timer = 0;
      const observer = new MutationObserver(() => {
        if (!done()) return;
        const dom = now() - start;
        observer.disconnect();
        clearTimeout(timer);
        frameRendered().then((rendered) =>
          resolveSample({ handler, dom, frame: rendered - start }),
        );
      });
      observer.observe(observed, { childList: true, characterData: true, subtree: true });
      timer = setTimeout(() => {
        observer.disconnect();
        rejectSample(new Error(`${what}: no change on the page after ${timeoutMs} ms`));
      }, timeoutMs);
      start = now();
      act();
      handler = now() - start;
    });
  }

  const events = () => document.querySelectorAll(selectors.event).length;
  const element = (selector) => {
    const found = document.querySelector(selector);
    if (!found) throw new Error(`the page has no ${selector}`);
    return found;
  };

  /** Clicks `button` and times it until the page shows `expected` events. */
  function click(label, selector, expected) {
    const button = element(selector);
    if (button.disabled) throw new Error(`${label} is disabled with ${events()} events shown`);
    return timed(
      `${label} with ${events()} events shown, expecting ${expected}`,
      () => button.click(),
      element(selectors.trace),
      () => events() === expected,
    );
  }

  window.lockstepBench = {
    events,

    /** Chooses scenario `id` in the menu, as a user does, timed until the hash changes. */
    async switchTo(id) {
      const picker = element(selectors.picker);
      if (![...picker.options].some((option) => option.value === id)) {
        throw new Error(
          `the menu has no scenario ${id}, which the CLI lists: dist/ and the CLI were built ` +
            'from different sources',
        );
      }
      const code = element(selectors.hash);
      const before = code.textContent;
      const sample = await timed(
        `choosing ${id} in the menu, with hash ${before} shown`,
        () => {
          picker.value = id;
          picker.dispatchEvent(new Event('change', { bubbles: true }));
        },
        code,
        () => code.textContent !== before,
      );
      return { ...sample, hash: code.textContent };
    },

    /** Steps to the end of the trace, timing every click. */
    async stepToEnd() {
      const samples = [];
      while (!element(selectors.step).disabled) {
        samples.push(await click('Step', selectors.step, events() + 1));
      }
      return samples;
    },

    /** Up to `count` Back clicks, each timed. */
    async back(count) {
      const samples = [];
      while (samples.length < count && !element(selectors.back).disabled) {
        samples.push(await click('Back', selectors.back, events() - 1));
      }
      return samples;
    },

    /** Reset (not timed): back to the events at t = 0, `startEvents` of them. */
    async reset(startEvents) {
      if (events() === startEvents) return;
      await click('Reset', selectors.reset, startEvents);
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
  progress('finding the built-in scenario with the longest trace (lockstep-cli)');
  const scenario = await longestScenario();
  progress(`${scenario.id}: ${scenario.events} events`);

  const site = await serveDirectory(DIST, BASE_PATH);
  let browser;
  try {
    browser = await launchChromium();
    const page = browser.context.pages()[0] ?? (await browser.context.newPage());

    // Console errors (a wasm panic prints one), page errors and failed requests: any one of them
    // ends the benchmark, as soon as it happens.
    const problems = [];
    let rejectOnProblem;
    const firstProblem = new Promise((_, reject) => {
      rejectOnProblem = reject;
    });
    firstProblem.catch(() => {}); // Only a pending `checked` needs to hear of it.
    const report = (problem) => {
      problems.push(problem);
      rejectOnProblem(new Error('the page reported a problem'));
    };
    watchForProblems(page, report);

    /** Runs `action` unless the page reports a problem first; on failure, says what it was. */
    async function checked(what, action) {
      try {
        const result = await Promise.race([action(), firstProblem]);
        if (problems.length > 0) throw new Error('the page reported a problem');
        return result;
      } catch (error) {
        const reported = problems.length > 0 ? problems.join('\n  ') : 'nothing';
        throw new Error(`${what}: ${error.message}\nthe page reported:\n  ${reported}`);
      }
    }

    progress(`opening ${site.url} in headless Chromium`);
    await checked('loading the page', () => page.goto(site.url));
    await checked('the app never rendered an event', () =>
      page
        .locator(SELECTORS.event)
        .first()
        .waitFor({ state: 'visible', timeout: RENDER_TIMEOUT_MS }),
    );
    await checked('preparing the page', () =>
      page.evaluate(installInPage, { selectors: SELECTORS, timeoutMs: CLICK_TIMEOUT_MS }),
    );
    // The user agent says 156.0.0.0 (reduced); the browser itself knows its full version.
    const cdp = await browser.context.newCDPSession(page);
    const { product } = await cdp.send('Browser.getVersion');
    const chromium = product.replace(/^[^/]*\//, ''); // product is "Chrome/156.0.8078.108"
    await cdp.detach();

    const opened = await page.locator(SELECTORS.picker).inputValue();
    if (opened === scenario.id) {
      // Already open: leave it, so that choosing it changes the hash.
      const other = await page
        .locator(`${SELECTORS.picker} option:not([value="${scenario.id}"])`)
        .first()
        .getAttribute('value');
      await checked(`choosing ${other}`, () => page.selectOption(SELECTORS.picker, other));
    }
    progress(`switching to ${scenario.id} through the menu`);
    const switched = await checked(`switching to ${scenario.id}`, () =>
      page.evaluate((id) => window.lockstepBench.switchTo(id), scenario.id),
    );
    if (switched.hash !== scenario.hash) {
      throw new Error(
        `after choosing ${scenario.id} the page shows trace hash ${switched.hash}, the CLI ` +
          `${scenario.hash}: dist/ and the CLI were built from different sources`,
      );
    }
    const startEvents = await page.evaluate(() => window.lockstepBench.events());

    const steps = [];
    let passes = 0;
    while (steps.length < MIN_STEP_SAMPLES) {
      await checked('resetting to the start', () =>
        page.evaluate((start) => window.lockstepBench.reset(start), startEvents),
      );
      progress(`pass ${passes + 1}: Step from event ${startEvents} to ${scenario.events}`);
      const pass = await checked('stepping', () =>
        page.evaluate(() => window.lockstepBench.stepToEnd()),
      );
      passes += 1;
      steps.push(...pass);
      if (pass.length === 0) break; // Nothing to step through: more passes would not help.
    }
    if (steps.length === 0) {
      throw new Error(`${scenario.id} shows all its events at once: Step has nothing to reveal`);
    }

    progress(`Back from the end, up to ${BACK_SAMPLES} times`);
    const backs = await checked('going back', () =>
      page.evaluate((count) => window.lockstepBench.back(count), BACK_SAMPLES),
    );
    await checked('letting the page settle', () =>
      page.evaluate(() => new Promise((done) => requestAnimationFrame(() => done()))),
    );
    if (problems.length > 0) throw new Error(`the page reported:\n  ${problems.join('\n  ')}`);
    if (site.notFound.length > 0) {
      const missing = site.notFound.join(', ');
      throw new Error(`the page asked for files that are not in dist/: ${missing}`);
    }

    const passesOfStep = `${passes} ${passes === 1 ? 'pass' : 'passes'} of Step`;
    console.log(
      `UI step latency: ${scenario.id} (${scenario.events} events, the longest built-in trace; ` +
        `${startEvents} shown on opening; ${passesOfStep}), headless Chromium ${chromium}`,
    );
    console.log();
    console.log('| action | samples | median (ms) | p95 (ms) | max (ms) |');
    console.log('|---|---:|---:|---:|---:|');
    for (const line of [
      ...rows('Step', steps),
      ...rows('Back', backs),
      ...rows('switch scenario', [switched]),
    ]) {
      console.log(line);
    }
  } finally {
    await browser?.close();
    await site.close();
  }
}

try {
  await main();
} catch (error) {
  console.error(`error: UI step latency benchmark failed: ${error.message}`);
  process.exitCode = 1;
}
