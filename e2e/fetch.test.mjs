// The data the app fetches from the site when a page needs it, instead of carrying it in the
// wasm: the guided material (content/*.json) when a guided page first opens, once per visit;
// a built-in scenario's file (scenarios/<id>.json) when the menu, a link or a lesson opens it.
// Requests are observed, so each test proves the fetch happened (and where: under the site's
// sub-path). A failed load is forced with Playwright's routing: the page must say what failed,
// keep what was open, and never go blank.

import { after, before, beforeEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

import { startApp } from './harness.mjs';

const HERE = dirname(fileURLToPath(import.meta.url));
const readJson = async (path) => JSON.parse(await readFile(resolve(HERE, '..', path), 'utf8'));
const lessons = (await readJson('content/lessons.json')).lessons;
const questions = (await readJson('content/questions.json')).questions;
const cards = (await readJson('content/cards.json')).cards;
const guide = await readJson('content/guide.json');
const CONTENT_FILES = ['content/lessons.json', 'content/questions.json', 'content/cards.json', 'content/guide.json'];
const DEFAULT = 's2-gc-pause-fenced';
const CLI = process.env.LOCKSTEP_CLI ?? resolve(HERE, '..', 'target', 'debug', 'lockstep-cli');
const titleOf = async (id) => (await readJson(`scenarios/${id}.json`)).title;

describe('data fetched from the site when a page needs it', () => {
  let app;
  let page;
  /** Paths of the data files requested, relative to the site's root (its sub-path). */
  let requested = [];

  before(async () => {
    app = await startApp();
    page = app.page;
    const root = new URL(app.site.url).pathname;
    page.on('request', (request) => {
      const path = new URL(request.url()).pathname;
      if (path.endsWith('.json')) requested.push(path.startsWith(root) ? path.slice(root.length) : `OUTSIDE THE SITE: ${path}`);
    });
  });

  after(async () => {
    await app?.close();
  });

  beforeEach(async () => {
    await page.unrouteAll({ behavior: 'ignoreErrors' });
  });

  /** Loads the page afresh at `fragment` and waits for `testid`; forgets earlier requests. */
  async function visit(fragment, testid) {
    await app.leave();
    requested = [];
    await page.goto(`${app.site.url}${fragment ? `#${fragment}` : ''}`);
    // The root's page is rendered at build time (decision 43): its controls are the app's once
    // it runs.
    await page.locator('html[data-app="running"]').waitFor({ state: 'attached', timeout: 30_000 });
    await page.locator(`[data-testid="${testid}"]`).first().waitFor({ timeout: 30_000 });
  }

  /** Moves within the visit, as the navigation bar's tab to that page does. */
  async function go(tab, testid) {
    await page.locator(`[data-testid="nav-${tab}"]`).click();
    await page.locator(`[data-testid="${testid}"]`).first().waitFor();
  }

  /**
   * The problems the page reported, which this test caused on purpose (site-relative, sorted);
   * then forgets them.
   */
  function expectedProblems() {
    const seen = app.problems.map((p) => p.replace(/http:\/\/[^ ]*\/play\/ground\//, '')).sort();
    app.problems.length = 0;
    return seen;
  }
  /** What Chromium itself logs for a request that failed with `reason`. */
  const consoleLine = (reason) => `console error: Failed to load resource: ${reason}`;

  const scenarioName = () => page.locator('[data-testid="scenario-name"]').innerText();
  const notice = page => page.locator('[data-testid="notice"]');

  it('opens the playground without fetching any data file', async () => {
    await visit('', 'timeline-main');
    await app.settle();
    assert.equal(await scenarioName(), await titleOf(DEFAULT));
    assert.deepEqual(requested, [], 'the first screen needs only what the wasm carries');
    assert.deepEqual(app.problems, []);
  });

  it('fetches the guided material when the lessons first open, once for every guided page', async () => {
    await visit('learn', 'lessons');
    assert.deepEqual([...requested].sort(), [...CONTENT_FILES].sort(), 'each file once, under the site');
    const listed = await page.locator('[data-testid="lesson-link"]').evaluateAll((links) => links.map((a) => a.dataset.lesson));
    assert.deepEqual(listed, lessons.map((l) => l.id));

    await go('quiz', 'quiz');
    assert.match(await page.locator('[data-testid="score"]').innerText(), new RegExp(` ${questions.length} questions$`));
    await go('deck', 'deck');
    assert.equal(await page.locator('[data-testid="deck"]').getAttribute('data-total'), String(cards.length));
    await go('guide', 'guide');
    assert.equal(await page.locator('[data-testid="consequence"]').count(), guide.answers.length);
    assert.deepEqual([...requested].sort(), [...CONTENT_FILES].sort(), 'no page fetched them again');
    assert.deepEqual(app.problems, []);
  });

  for (const [fragment, testid] of [['quiz', 'quiz'], ['deck', 'deck'], ['guide', 'guide']]) {
    it(`fetches the guided material when #${fragment} is the first page opened`, async () => {
      await visit(fragment, testid);
      assert.deepEqual([...requested].sort(), [...CONTENT_FILES].sort());
      assert.deepEqual(app.problems, []);
    });
  }

  it('loads a lesson step\'s scenario file before standing the playground there', async () => {
    const lesson = lessons.find((l) => l.scenario !== DEFAULT && l.steps[0].scenario === undefined);
    assert.ok(lesson, 'a lesson on another scenario than the default');
    await visit(`learn=${lesson.id}&step=1`, 'lesson');
    await app.waitForPosition(lesson.steps[0].predict ? lesson.steps[0].event : lesson.steps[0].event + 1);
    assert.ok(requested.includes(`scenarios/${lesson.scenario}.json`), JSON.stringify(requested));
    assert.match(await page.locator('.lesson-position').innerText(), new RegExp(escape(await titleOf(lesson.scenario))));
    assert.deepEqual(app.problems, []);
  });

  it('opens a link to a non-default built-in scenario once its file has loaded, saying so meanwhile', async () => {
    const id = 's3-fencing-gap';
    let release;
    const held = new Promise((done) => { release = done; });
    await page.route(`**/scenarios/${id}.json`, async (route) => {
      await held;
      await route.continue();
    });
    await visit(`s=${id}&at=5`, 'timeline-main');
    // While the file is on its way: the page is there, says what it is loading, and shows
    // the default scenario.
    await notice(page).filter({ hasText: 'Loading the scenario' }).waitFor();
    assert.match(await notice(page).innerText(), new RegExp(escape(`“${await titleOf(id)}”`)));
    assert.equal(await scenarioName(), await titleOf(DEFAULT));
    // A reload or a copied address meanwhile must still be the link, not the default scenario:
    // once no change of the address waits to be written, the address is the link.
    await page.waitForFunction(() => document.documentElement.dataset.url === 'written');
    // In its own form (decision 43): the scenario's path, the moment in the fragment.
    assert.match(page.url(), new RegExp(`/s/${id}/#at=5$`), 'the address keeps the link while its file loads');
    release();
    await page.waitForFunction((title) => document.querySelector('[data-testid="scenario-name"]')?.textContent === title, await titleOf(id));
    await app.waitForPosition(5);
    assert.equal(await notice(page).count(), 0, 'the loading line is gone');
    assert.deepEqual(requested, [`scenarios/${id}.json`]);
    assert.match(page.url(), new RegExp(`/s/${id}/#at=5$`), 'the address is the link again');
    assert.deepEqual(app.problems, []);
  });

  it('opens a scenario chosen in the menu after fetching its file, and only once', async () => {
    await visit('', 'timeline-main');
    const picker = page.locator('select[data-testid="scenario-picker"]');
    const id = 's5-check-then-write';
    await picker.selectOption(id);
    await page.waitForFunction((title) => document.querySelector('[data-testid="scenario-name"]')?.textContent === title, await titleOf(id));
    assert.equal(await picker.inputValue(), id);
    await picker.selectOption(DEFAULT);
    await page.waitForFunction((title) => document.querySelector('[data-testid="scenario-name"]')?.textContent === title, await titleOf(DEFAULT));
    await picker.selectOption(id);
    await page.waitForFunction((title) => document.querySelector('[data-testid="scenario-name"]')?.textContent === title, await titleOf(id));
    assert.deepEqual(requested, [`scenarios/${id}.json`], 'fetched once in the visit');
    assert.deepEqual(app.problems, []);
  });

  it('does not let a slow file open over a scenario chosen after it', async () => {
    const slow = 's6-plain-del-release';
    const chosen = 's7-ttl-shorter-than-work';
    let release;
    const held = new Promise((done) => { release = done; });
    await page.route(`**/scenarios/${slow}.json`, async (route) => {
      await held;
      await route.continue();
    });
    await visit('', 'timeline-main');
    const picker = page.locator('select[data-testid="scenario-picker"]');
    await picker.selectOption(slow);
    await notice(page).filter({ hasText: 'Loading the scenario' }).waitFor();
    await picker.selectOption(chosen);
    await page.waitForFunction((title) => document.querySelector('[data-testid="scenario-name"]')?.textContent === title, await titleOf(chosen));
    const arrived = page.waitForEvent('requestfinished', (request) => request.url().endsWith(`/scenarios/${slow}.json`));
    release();
    await arrived;
    await app.settle();
    await app.settle();
    assert.equal(await scenarioName(), await titleOf(chosen), 'the later choice stays open');
    assert.equal(await picker.inputValue(), chosen);
    assert.equal(await notice(page).count(), 0);
    assert.deepEqual(app.problems, []);
  });

  it('does not let a slow file open over a scenario file imported after it', async () => {
    const slow = 's6-plain-del-release';
    let release;
    const held = new Promise((done) => { release = done; });
    await page.route(`**/scenarios/${slow}.json`, async (route) => {
      await held;
      await route.continue();
    });
    await visit(`s=${slow}`, 'timeline-main');
    await notice(page).filter({ hasText: 'Loading the scenario' }).waitFor();
    const imported = await readFile(resolve(HERE, '..', 'scenarios', 's7-ttl-shorter-than-work.json'), 'utf8');
    await page.locator('[data-testid="import"]').setInputFiles({ name: 'mine.json', mimeType: 'application/json', buffer: Buffer.from(imported) });
    const title = JSON.parse(imported).title;
    await page.waitForFunction((t) => document.querySelector('[data-testid="scenario-name"]')?.textContent === t, title);
    const arrived = page.waitForEvent('requestfinished', (request) => request.url().endsWith(`/scenarios/${slow}.json`));
    release();
    await arrived;
    await app.settle();
    await app.settle();
    assert.equal(await scenarioName(), title, 'the imported file stays open');
    assert.deepEqual(app.problems, []);
  });

  it('replays an imported trace that names a built-in scenario once that scenario\'s file has loaded', async () => {
    const id = 's5-check-then-write';
    const { stdout } = await promisify(execFile)(CLI, ['run', id, '--format', 'json'], { maxBuffer: 64 * 1024 * 1024 });
    const trace = JSON.parse(stdout);
    assert.equal(trace.source, undefined, 'the CLI\'s trace names its scenario and carries no file');
    await visit('', 'timeline-main');
    await page.locator('[data-testid="import"]').setInputFiles({ name: 'trace.json', mimeType: 'application/json', buffer: Buffer.from(stdout) });
    await page.waitForFunction((hash) => document.querySelector('[data-testid="trace-hash"]')?.textContent === hash, trace.hash);
    assert.equal(await scenarioName(), await titleOf(id));
    assert.deepEqual(await app.position(), { at: trace.events.length, of: trace.events.length });
    assert.deepEqual(requested, [`scenarios/${id}.json`]);
    assert.deepEqual(app.problems, []);
  });

  it('keeps what was open when a scenario file fails to load, and says why', async () => {
    await visit('', 'timeline-main');
    await page.locator('[data-testid="step"]').click();
    await page.locator('[data-testid="step"]').click();
    const before = await app.position();
    const id = 's1-gc-pause-unfenced';
    await page.route(`**/scenarios/${id}.json`, (route) => route.fulfill({ status: 404, body: 'not here' }));
    const picker = page.locator('select[data-testid="scenario-picker"]');
    await picker.selectOption(id);
    const problem = page.locator('[data-testid="notice"][role="alert"]');
    await problem.waitFor();
    const text = await problem.innerText();
    assert.match(text, new RegExp(escape(`The scenario “${await titleOf(id)}” could not be loaded. scenarios/${id}.json: the site has no such file (HTTP 404).`)));
    assert.match(text, /What was open is unchanged/);
    assert.equal(await scenarioName(), await titleOf(DEFAULT), 'the open scenario stays');
    assert.deepEqual(await app.position(), before, 'at the same event');
    assert.equal(await picker.inputValue(), DEFAULT, 'the menu names what is open');
    assert.deepEqual(expectedProblems(), [
      `HTTP 404: scenarios/${id}.json`,
      consoleLine('the server responded with a status of 404 (Not Found)'),
    ].sort());
    await app.screenshot('fetch-scenario-failed');

    // Once the site answers again, the same choice opens it.
    await page.unroute(`**/scenarios/${id}.json`);
    await picker.selectOption(id);
    await page.waitForFunction((title) => document.querySelector('[data-testid="scenario-name"]')?.textContent === title, await titleOf(id));
    assert.deepEqual(app.problems, []);
  });

  it('shows the default scenario and what failed when a link\'s scenario cannot load', async () => {
    const id = 's4-delayed-packet';
    await page.route(`**/scenarios/${id}.json`, (route) => route.abort('internetdisconnected'));
    await visit(`s=${id}&at=3`, 'timeline-main');
    const problem = page.locator('[data-testid="notice"][role="alert"]');
    await problem.waitFor();
    assert.match(await problem.innerText(), /could not be loaded\. scenarios\/s4-delayed-packet\.json: the request did not complete/);
    assert.equal(await scenarioName(), await titleOf(DEFAULT));
    assert.ok(await page.locator('[data-testid="timeline-main"] svg').isVisible(), 'not a blank page');
    assert.deepEqual(expectedProblems(), [
      consoleLine('net::ERR_INTERNET_DISCONNECTED'),
      `request failed: scenarios/${id}.json (net::ERR_INTERNET_DISCONNECTED)`,
    ].sort());
  });

  it('says the guided material could not be loaded, keeps the site usable, and tries again', async () => {
    await page.route('**/content/questions.json', (route) => route.fulfill({ status: 404, body: 'not here' }));
    await visit('quiz', 'content-error');
    const text = await page.locator('[data-testid="content-error"]').innerText();
    assert.match(text, /The lessons, questions, cards and guide could not be loaded\. content\/questions\.json: the site has no such file \(HTTP 404\)/);
    assert.ok(await page.locator('[data-testid="nav-playground"]').isVisible(), 'the navigation is there');
    assert.deepEqual(expectedProblems(), [
      'HTTP 404: content/questions.json',
      consoleLine('the server responded with a status of 404 (Not Found)'),
    ].sort());
    await app.screenshot('fetch-content-failed');

    await page.unroute('**/content/questions.json');
    requested = [];
    await page.locator('[data-testid="content-retry"]').click();
    await page.locator('[data-testid="quiz"]').waitFor();
    assert.match(await page.locator('[data-testid="score"]').innerText(), new RegExp(` ${questions.length} questions$`));
    assert.deepEqual([...requested].sort(), [...CONTENT_FILES].sort(), 'tried again');
    await go('playground', 'timeline-main');
    assert.deepEqual(app.problems, []);
  });

  it('shows a loading line while the guided material is on its way', async () => {
    let release;
    const held = new Promise((done) => { release = done; });
    await page.route('**/content/guide.json', async (route) => {
      await held;
      await route.continue();
    });
    await visit('guide', 'content-loading');
    assert.match(await page.locator('[data-testid="content-loading"]').innerText(), /Loading the lessons, questions, interview cards and guide/);
    assert.ok(await page.locator('[data-testid="nav-guide"]').isVisible(), 'the page around it is there');
    release();
    await page.locator('[data-testid="guide"]').waitFor();
    assert.equal(await page.locator('[data-testid="content-loading"]').count(), 0);
    assert.deepEqual(app.problems, []);
  });
});

/** `text` as a literal inside a regular expression. */
function escape(text) {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
