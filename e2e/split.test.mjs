// The page's binaries (decision 33): the story (`lockstep_bg.wasm`: the playground) loads first,
// an embed's moment has its own (`lockstep-embed_bg.wasm`); the full app (`lockstep-full_bg.wasm`) is fetched the first time
// a page or dialog the story lacks opens, with a loading line, and takes the page over with the
// playground's run. A failed fetch says what failed and leaves the playground working. An
// address only the full app has loads the full app alone (assets/boot.js must agree with
// `lockstep_view::split::Feature::of_route`).

import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';

import { startApp } from './harness.mjs';

const STORY = 'lockstep_bg.wasm';
const FULL = 'lockstep-full_bg.wasm';
const EMBED = 'lockstep-embed_bg.wasm';
const FULL_GLOB = `**/${FULL}`;
const LINK = 's=s2-gc-pause-fenced&at=3';

describe('the story first, the rest of the app when first opened', () => {
  let app;
  let page;
  /** The wasm files the page asked for since the last `open`. */
  let wasm = [];

  before(async () => {
    app = await startApp();
    page = app.page;
    page.on('request', (request) => {
      const name = new URL(request.url()).pathname.split('/').pop();
      if (name.endsWith('.wasm')) wasm.push(name);
    });
  });

  after(async () => {
    await app?.close();
  });

  async function open(fragment) {
    wasm = [];
    await app.open(fragment);
  }

  /** Holds the full binary's wasm back until the returned function is called. */
  async function holdFull() {
    let release;
    const held = new Promise((resolve) => {
      release = resolve;
    });
    await page.route(FULL_GLOB, async (route) => {
      await held;
      await route.continue();
    });
    return release;
  }

  it('loads only the story for the playground', async () => {
    wasm = [];
    await app.open(LINK);
    assert.deepEqual(wasm, [STORY]);
  });

  it('shows a loading line for a page the story lacks, then the page, and keeps the run', async () => {
    await open(LINK);
    const release = await holdFull();
    await page.locator('[data-testid="nav-lessons"]').click();
    const line = page.locator('[data-testid="handoff-loading"]');
    await line.waitFor();
    assert.match(await line.innerText(), /^Loading the lessons…/);
    release();
    await page.locator('[data-testid="lessons"]').waitFor();
    assert.equal(await page.locator('[data-testid="handoff-loading"]').count(), 0);
    await page.unroute(FULL_GLOB);
    await page.locator('.site-nav a', { hasText: 'Playground' }).click();
    await page.waitForFunction(() =>
      document.querySelector('[data-testid="position"]')?.textContent?.startsWith('event 3 of'),
    );
    assert.equal(await page.locator('select[data-testid="scenario-picker"]').inputValue(), 's2-gc-pause-fenced');
    assert.ok(wasm.includes(FULL), 'the full app was fetched');
    assert.deepEqual(app.problems, []);
  });

  it('says what failed when the rest cannot be fetched, and the playground keeps working', async () => {
    await open(LINK);
    await page.route(FULL_GLOB, (route) => route.abort('failed'));
    await page.locator('[data-testid="nav-lessons"]').click();
    const problem = page.locator('[data-testid="handoff-problem"]');
    await problem.waitFor();
    const text = await problem.innerText();
    assert.match(text, /^The lessons could not be loaded: \S.+\./);
    assert.match(text, /The playground is as you left it\./);
    await page.locator('[data-testid="handoff-back"]').click();
    await page.waitForFunction(() =>
      document.querySelector('[data-testid="position"]')?.textContent?.startsWith('event 3 of'),
    );
    await page.locator('[data-testid="step"]').click();
    await app.waitForPosition(4);
    // The address follows the playground once it rests; until then it still says #learn.
    await page.waitForFunction(() => document.documentElement.dataset.url === 'written');
    await page.locator('[data-testid="nav-lessons"]').click();
    await problem.waitFor();
    await page.unroute(FULL_GLOB);
    await page.locator('[data-testid="handoff-retry"]').click();
    await page.locator('[data-testid="lessons"]').waitFor();
    const failures = app.problems.splice(0);
    const held = (p) => p.includes(FULL) || p === 'console error: Failed to load resource: net::ERR_FAILED';
    assert.ok(failures.length > 0 && failures.every(held), `only the held file failed: ${failures}`);
  });

  it('starts fetching the rest when the pointer rests on a link to it, before the click', async () => {
    await open(LINK);
    const requested = page.waitForRequest((request) => request.url().endsWith(FULL));
    await page.locator('[data-testid="nav-lessons"]').hover();
    await requested;
    assert.equal(await page.locator('[data-testid="lessons"]').count(), 0, 'a hover is not a click');
    assert.equal(await page.locator('[data-testid="trace-hash"]').count(), 1, 'the playground is still shown');
    assert.deepEqual(app.problems, []);
  });

  it('opens the builder from the story through the full app', async () => {
    await open(LINK);
    const release = await holdFull();
    await page.locator('[data-testid="more-menu"]').click();
    await page.locator('[data-testid="build-scenario"]').click();
    const line = page.locator('[data-testid="handoff-dialog"] [data-testid="handoff-loading"]');
    await line.waitFor();
    assert.match(await line.innerText(), /^Loading the scenario builder…/);
    release();
    await page.locator('[data-testid="builder"]').waitFor();
    await page.unroute(FULL_GLOB);
    assert.deepEqual(app.problems, []);
  });

  for (const [fragment, expected] of [
    ['learn', [FULL]],
    ['quiz=2', [FULL]],
    ['lab', [FULL]],
    ['embed&learn=not-a-mutex', [FULL]],
    ['real=s2-gc-pause-fenced.postgres', [FULL]],
    ['embed&real=s2-gc-pause-fenced.postgres', [FULL]],
    ['embed&s=s1-no-fencing', [EMBED]],
  ]) {
    it(`loads ${expected.join(', ')} alone for #${fragment}`, async () => {
      await app.leave();
      wasm = [];
      await page.goto(`${app.site.url}#${fragment}`);
      await page.locator('[data-testid="app"], [data-testid="embed"]').first().waitFor({ timeout: 30_000 });
      assert.deepEqual(wasm, expected);
      assert.deepEqual(app.problems, []);
    });
  }
});
