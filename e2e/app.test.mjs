// Browser tests of the built site (dist/) in headless Chromium, served from a sub-path.
//
// The page must show the same trace as the native CLI (`lockstep-cli run s2-gc-pause-fenced
// --format json`): the same first events, the same next event on Step, and the same trace hash,
// computed in wasm. Any console error (a wasm panic prints one), page error or failed request
// fails the run. A full-page screenshot is saved to e2e/artifacts/ in any case.
//
// `cargo xtask test` builds everything and sets LOCKSTEP_DIST, LOCKSTEP_CLI and LOCKSTEP_CHROMIUM;
// run by hand (`npm test` in e2e/), they default to ../dist, ../target/debug/lockstep-cli and
// /usr/bin/chromium.

import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

import { launchChromium, watchForProblems } from './browser.mjs';
import { serveDirectory } from './harness.mjs';

const HERE = dirname(fileURLToPath(import.meta.url));
const DIST = process.env.LOCKSTEP_DIST ?? resolve(HERE, '..', 'dist');
const CLI = process.env.LOCKSTEP_CLI ?? resolve(HERE, '..', 'target', 'debug', 'lockstep-cli');
const SCREENSHOT = join(HERE, 'artifacts', 'app.png');
/**
 * The built-in scenario that the app opens with (`catalogue::DEFAULT_ID` in lockstep-sim), whose
 * trace the CLI prints for comparison. LOCKSTEP_SCENARIO overrides it.
 */
const SCENARIO = process.env.LOCKSTEP_SCENARIO ?? 's2-gc-pause-fenced';
/** Not the server's root: only relative URLs find the app's files from here. */
const BASE_PATH = '/some/sub/path/';
const HASH = /^[0-9a-f]{16}$/;

const EVENT = 'ol[data-testid="trace"] > li[data-testid="event"]';

/** The native CLI's trace of SCENARIO, checked for the shape the tests rely on. */
async function nativeTrace() {
  assert.ok(existsSync(CLI), `no CLI at ${CLI}: build it first (cargo build -p lockstep-cli)`);
  let stdout;
  try {
    ({ stdout } = await promisify(execFile)(CLI, ['run', SCENARIO, '--format', 'json'], {
      maxBuffer: 64 * 1024 * 1024,
    }));
  } catch (error) {
    throw new Error(
      `the CLI could not run scenario ${SCENARIO}: ${error.stderr || error.message}\n` +
        'If the app now opens with another scenario, set SCENARIO in e2e/app.test.mjs to its id.',
    );
  }
  const trace = JSON.parse(stdout);
  assert.match(trace.hash, HASH, 'the CLI printed a malformed hash');
  assert.ok(Array.isArray(trace.events) && trace.events.length >= 2, 'the CLI printed under 2 events');
  trace.events.forEach((event, index) => {
    assert.equal(event.id, index, 'the CLI numbers events 0, 1, 2, ... in trace order');
    assert.equal(typeof event.description, 'string');
  });
  return trace;
}

/** The events the page shows, in order: `{ id, description }` each. */
function shownEvents(page) {
  return page.locator(EVENT).evaluateAll((items) =>
    items.map((item) => ({
      id: item.getAttribute('data-event-id'),
      description: item.querySelector('[data-testid="event-description"]')?.textContent?.trim(),
    })),
  );
}

/** What the page should show for the first `count` events of `trace`. */
function expectedEvents(trace, count) {
  return trace.events
    .slice(0, count)
    .map((event) => ({ id: String(event.id), description: event.description.trim() }));
}

describe(`the app in headless Chromium, served from ${BASE_PATH}, against the native CLI`, () => {
  let trace;
  let site;
  let browser;
  let page;
  /** Console errors, page errors and failed requests, as they happen. */
  const problems = [];
  /** Rejects at the first problem, so that a test stops waiting for a page that has crashed. */
  let rejectOnProblem;
  const firstProblem = new Promise((_, reject) => {
    rejectOnProblem = reject;
  });
  firstProblem.catch(() => {}); // Only tests that are waiting need to hear of it.

  function report(problem) {
    problems.push(problem);
    rejectOnProblem(new Error('the page reported a problem'));
  }

  /**
   * Runs `action` (some waiting on the page) unless or until the page reports a problem; if it
   * fails, says what it was doing and everything the page reported.
   */
  async function checked(what, action) {
    try {
      return await Promise.race([action(), firstProblem]);
    } catch (error) {
      const reported = problems.length > 0 ? problems.join('\n  ') : 'nothing';
      throw new Error(`${what}: ${error.message}\nthe page reported:\n  ${reported}`);
    }
  }

  before(async () => {
    assert.ok(
      existsSync(join(DIST, 'index.html')),
      `no site in ${DIST}: build it first (cargo xtask dist)`,
    );
    trace = await nativeTrace();
    site = await serveDirectory(DIST, BASE_PATH);
    browser = await launchChromium();
    page = browser.context.pages()[0] ?? (await browser.context.newPage());
    page.setDefaultTimeout(15_000);
    watchForProblems(page, report);
    await page.goto(site.url);
  });

  after(async () => {
    if (page) {
      try {
        await mkdir(dirname(SCREENSHOT), { recursive: true });
        await page.screenshot({ path: SCREENSHOT, fullPage: true });
        console.log(`screenshot: ${SCREENSHOT}`);
      } catch (error) {
        console.log(`no screenshot: ${error.message}`);
      }
    }
    await browser?.close();
    await site?.close();
  });

  /** The trimmed text of the element `selector` matches. */
  function textOf(selector) {
    return checked(`reading ${selector}`, () => page.locator(selector).innerText()).then((text) =>
      text.trim(),
    );
  }

  /** Asserts the page's events equal the CLI's; on failure, also says which scenarios. */
  async function assertSameEvents(shown, expected) {
    try {
      assert.deepEqual(shown, expected);
    } catch (error) {
      const name = await textOf('[data-testid="scenario-name"]');
      throw new Error(
        `the page (showing "${name}") differs from the CLI's run of ${SCENARIO}:\n${error.message}`,
      );
    }
  }

  it('renders the app (not a blank page) with the scenario name', async () => {
    const app = page.locator('[data-testid="app"]');
    await checked('the app never rendered', () => app.waitFor({ state: 'visible', timeout: 30_000 }));
    assert.notEqual(await textOf('[data-testid="app"]'), '', 'the app rendered no text');
    const box = await checked('measuring the app', () => app.boundingBox());
    assert.ok(box && box.width > 0 && box.height > 0, 'the app has no size');
    assert.notEqual(await textOf('[data-testid="scenario-name"]'), '', 'no scenario name shown');
  });

  it('shows the first events of the native trace', async () => {
    await checked('no event was shown', () =>
      page.locator(EVENT).first().waitFor({ state: 'visible', timeout: 30_000 }),
    );
    const shown = await checked('reading the events', () => shownEvents(page));
    assert.ok(shown.length >= 1, 'no event shown');
    assert.ok(
      shown.length < trace.events.length,
      `the page shows all ${trace.events.length} events at once, so Step has nothing to reveal`,
    );
    await assertSameEvents(shown, expectedEvents(trace, shown.length));
  });

  it('reveals exactly the next native event on Step', async () => {
    const before = (await checked('reading the events', () => shownEvents(page))).length;
    assert.match(await textOf('button[data-testid="step"]'), /^Step/);
    await checked('clicking Step', () => page.locator('button[data-testid="step"]').click());
    await checked('Step revealed no event', () =>
      page.waitForFunction(
        ([selector, count]) => document.querySelectorAll(selector).length > count,
        [EVENT, before],
        { timeout: 10_000 },
      ),
    );
    // Let any further renders land: one click must add one event, not more.
    await checked('waiting for the page to settle', () =>
      page.evaluate(
        () => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))),
      ),
    );
    const shown = await checked('reading the events', () => shownEvents(page));
    assert.equal(shown.length, before + 1, 'one Step must reveal exactly one event');
    await assertSameEvents(shown, expectedEvents(trace, before + 1));
  });

  it('computes the same trace hash in wasm as the native CLI', async () => {
    const hash = await textOf('[data-testid="trace-hash"]');
    assert.match(hash, HASH);
    assert.equal(hash, trace.hash, 'wasm and native runs of the scenario differ');
  });

  it('opens every built-in scenario from the menu with the same trace hash as the CLI', async () => {
    const picker = page.locator('select[data-testid="scenario-picker"]');
    const ids = await checked('reading the scenario menu', () =>
      picker.locator('option').evaluateAll((options) => options.map((option) => option.value)),
    );
    const { stdout } = await promisify(execFile)(CLI, ['list']);
    const listed = stdout
      .trim()
      .split('\n')
      .map((line) => line.split(/\s+/)[0]);
    assert.deepEqual([...ids].sort(), [...listed].sort(), 'the menu lists the CLI catalogue');
    assert.ok(ids.length >= 12, `only ${ids.length} scenarios in the menu`);
    for (const id of ids) {
      const { stdout: json } = await promisify(execFile)(CLI, ['run', id, '--format', 'json'], {
        maxBuffer: 64 * 1024 * 1024,
      });
      const expected = JSON.parse(json);
      await checked(`choosing ${id}`, () => picker.selectOption(id));
      await checked(`${id}: the hash never matched`, () =>
        page.waitForFunction(
          (hash) => document.querySelector('[data-testid="trace-hash"]')?.textContent === hash,
          expected.hash,
          { timeout: 10_000 },
        ),
      );
      const shown = await checked('reading the events', () => shownEvents(page));
      assert.ok(shown.length >= 1, `${id}: no event shown`);
      assert.deepEqual(shown, expectedEvents(expected, shown.length), `${id}: first events differ`);
    }
    await checked('reopening the default scenario', () => picker.selectOption(SCENARIO));
  });

  it('reported no console error, page error or failed request', async () => {
    assert.deepEqual(problems, []);
    assert.deepEqual(await site.notFound(), [], 'the page asked for files that are not in dist/');
  });
});
