// The page before the app runs (index.html, assets/boot.js): never blank. While the wasm is
// held back, the frame and the loading line are on screen; when the wasm cannot be fetched, or
// the browser has no WebAssembly, or JavaScript is off, the page says so and what to do.
// Screenshots of each state, at 1280×800 and 375×700, go to e2e/artifacts/loading-*.png.
// A page the build rendered (decision 43) shows its story instead of the frame, with the loading
// line small over it; the frame is what an address the build did not render shows (here the
// root with a link of its own, STALE).

import { after, afterEach, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';

import { startApp } from './harness.mjs';

const WASM = /\.wasm(\?|$)/;
const FRAME = '[data-testid="loading-frame"]';
const LINE = '[data-testid="loading-line"]';
const PROBLEM = '[data-testid="load-problem"]';
/** An address the build has no page for: the root's rendered page is not what it opens. */
const STALE = '#s=s2-gc-pause-fenced&at=3';
/** The app's markup, shown: the build's page, or the app's. */
const SHOWN_APP = '[data-testid="app"]:visible';

/** Screenshots of the page as it is now, wide and on a phone, then back to the wide viewport. */
async function screenshots(app, name) {
  await app.screenshot(`loading-${name}-1280`);
  // No `app.settle()`: it runs a script in the page, which a page without JavaScript never does.
  await app.page.setViewportSize({ width: 375, height: 700 });
  await app.screenshot(`loading-${name}-375`);
  await app.page.setViewportSize({ width: 1280, height: 800 });
}

describe('before the app runs', () => {
  let app;
  before(async () => {
    app = await startApp();
  });
  afterEach(async () => {
    await app.page.unrouteAll({ behavior: 'ignoreErrors' });
  });
  after(async () => {
    await app?.close();
  });

  it('shows the frame and the loading line while the wasm is held back, then the app replaces them', async () => {
    const { page } = app;
    let release;
    const held = new Promise((done) => {
      release = done;
    });
    let requested;
    const wasmRequested = new Promise((done) => {
      requested = done;
    });
    await page.route(WASM, async (route) => {
      requested();
      await held;
      await route.continue();
    });
    await page.goto('about:blank');
    await page.goto(app.site.url + STALE);
    await page.locator(FRAME).waitFor({ state: 'visible' });
    await wasmRequested;
    assert.equal(await page.locator(SHOWN_APP).count(), 0, 'the app ran although its wasm was held back');
    assert.equal(await page.locator(`${FRAME} .brand`).innerText(), 'Lockstep');
    assert.deepEqual(
      await page.locator(`${FRAME} .site-nav a`).allInnerTexts(),
      ['Playground', 'Lessons', 'Knowledge check', 'Interview deck', 'Efficiency or correctness?', 'Chaos lab', 'Real runs', 'Sources'],
    );
    assert.match(await page.locator(LINE).innerText(), /^Loading the simulator\b.*…/);
    assert.equal(await page.locator(LINE).isVisible(), true);
    const box = await page.locator(`${FRAME} .loading-timeline`).boundingBox();
    assert.ok(box && box.width > 300 && box.height > 100, `the playground's outline is drawn: ${JSON.stringify(box)}`);
    await screenshots(app, 'frame');
    assert.deepEqual(await app.axe(), [], 'the loading frame has accessibility findings');

    release();
    await page.locator('html[data-app="running"]').waitFor({ state: 'attached', timeout: 30_000 });
    await page.locator('[data-testid="app"]').waitFor({ state: 'visible' });
    assert.equal(await page.locator(FRAME).count(), 0, 'the loading frame is still there beside the app');
    assert.equal(await page.locator('.site-nav').count(), 1, 'one navigation bar, the app\'s');
    assert.deepEqual(app.problems, [], 'the page reported problems');
  });

  it("shows a rendered page's story while the wasm is held back, with the loading line over it", async () => {
    const { page } = app;
    let release;
    const held = new Promise((done) => {
      release = done;
    });
    await page.route(WASM, async (route) => {
      await held;
      await route.continue();
    });
    await page.goto('about:blank');
    await page.goto(`${app.site.url}s/s1-gc-pause-unfenced/`);
    await page.locator(LINE).waitFor({ state: 'visible' });
    assert.match(await page.locator(LINE).innerText(), /^Loading the simulator\b.*…/);
    assert.match(await page.locator('[data-testid="narration"]').innerText(), /client-a asks lock-service for the lock/);
    assert.equal(await page.locator('[data-testid="timeline-main"] svg').isVisible(), true);
    assert.equal(await page.locator(`${FRAME} .site-nav`).isVisible(), false, 'the frame stands aside for the page');
    assert.equal(await page.evaluate(() => document.documentElement.dataset.app), undefined);
    await screenshots(app, 'rendered');
    release();
    await page.locator('html[data-app="running"]').waitFor({ state: 'attached', timeout: 30_000 });
    assert.equal(await page.locator(FRAME).count(), 0, 'the loading line is still there beside the app');
    assert.equal(await page.locator('.site-nav').count(), 1);
    assert.deepEqual(app.problems, [], 'the page reported problems');
  });

  for (const [how, answer] of [
    ['is missing (HTTP 404)', (route) => route.fulfill({ status: 404, contentType: 'text/plain', body: 'not found' })],
    ['cannot be fetched (connection failed)', (route) => route.abort('failed')],
  ]) {
    it(`says what failed and what to do when the wasm ${how}`, async () => {
      const { page } = app;
      await page.route(WASM, answer);
      await page.goto('about:blank');
      await page.goto(app.site.url + STALE);
      const problem = page.locator(`${PROBLEM}[data-problem="wasm"]`);
      await problem.waitFor({ state: 'visible' });
      const text = await problem.innerText();
      assert.match(text, /The simulator could not be loaded, so Lockstep cannot start\./);
      assert.match(text, /What failed: \S.+\./);
      assert.match(text, /Reload the page\. If it fails again, check your connection/);
      assert.equal(await page.locator(LINE).count(), 0, 'the page still says it is loading');
      assert.equal(await page.locator(`${FRAME} .brand`).isVisible(), true);
      assert.equal(await page.locator(SHOWN_APP).count(), 0);
      if (how.includes('404')) await screenshots(app, 'failed');
    });
  }
});

describe('when a script of the page does not load', () => {
  let app;
  before(async () => {
    app = await startApp();
  });
  after(async () => {
    await app?.close();
  });

  it('says that Lockstep could not start and to reload', async () => {
    const { page } = app;
    await page.route(/\/lockstep\.js$/, (route) =>
      route.fulfill({ status: 404, contentType: 'text/plain', body: 'not found' }),
    );
    await page.goto(app.site.url);
    const problem = page.locator(`${PROBLEM}[data-problem="script"]`);
    await problem.waitFor({ state: 'visible' });
    assert.match(await problem.innerText(), /Lockstep could not start: one of its scripts did not load\.\s+Reload the page\./);
    assert.equal(await page.locator(LINE).count(), 0);
  });
});

describe('in a browser without WebAssembly', () => {
  let app;
  before(async () => {
    app = await startApp();
    await app.page.addInitScript(() => {
      delete globalThis.WebAssembly;
    });
  });
  after(async () => {
    await app?.close();
  });

  it('says that this browser cannot run it, and what to use instead', async () => {
    const { page } = app;
    await page.goto(app.site.url);
    const problem = page.locator(`${PROBLEM}[data-problem="no-webassembly"]`);
    await problem.waitFor({ state: 'visible' });
    assert.equal(await page.evaluate(() => typeof WebAssembly), 'undefined', 'the test removed WebAssembly');
    const text = await problem.innerText();
    assert.match(text, /This browser cannot run Lockstep: the simulation runs in WebAssembly/);
    assert.match(text, /current Firefox, Chrome, Edge or Safari/);
    // The page's loader has run (it defines `lockstepBoot`) and left this message alone.
    await page.waitForFunction(() => globalThis.lockstepBoot !== undefined);
    assert.equal(await page.locator(`${PROBLEM}[data-problem="no-webassembly"]`).isVisible(), true);
    assert.equal(await page.locator(LINE).count(), 0);
    assert.deepEqual(app.problems, [], 'the page reported problems while it failed');
    await screenshots(app, 'no-webassembly');
  });
});

describe('with JavaScript turned off', () => {
  let app;
  before(async () => {
    app = await startApp({ javaScriptEnabled: false });
  });
  after(async () => {
    await app?.close();
  });

  it('shows the rendered story and says what needs JavaScript, not that it is loading', async () => {
    const { page } = app;
    await page.goto(app.site.url);
    const message = page.locator('[data-testid="noscript-rendered"]');
    await message.waitFor({ state: 'visible' });
    assert.match(await message.innerText(), /This page is readable as it is\. To step through the run, play it or change it, turn JavaScript on/);
    assert.equal(await page.locator('[data-testid="noscript"]').isVisible(), false);
    assert.equal(await page.locator('[data-testid="timeline-main"] svg').isVisible(), true, 'the story is there');
    assert.equal(await page.locator(LINE).isVisible(), false, 'the loading line shows although nothing will load');
    await screenshots(app, 'noscript');
  });
});
