// The host script shares the app between the embeds of one page. Three embeds one under another
// (the second and third below the fold) start lazily and one after another: a frame gets its
// address only when its div comes near the viewport and the frame started before it has loaded,
// so the later frames can find the app's wasm in the browser's cache (or revalidate it) instead
// of downloading it alongside the first. Until its frame has loaded, each div shows the embed's
// caption and a line saying what is coming, in a box of the frame's height.

import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';

import { launchChromium, watchForProblems } from './browser.mjs';
import { ARTIFACTS, DIST, serveDirectory } from './harness.mjs';

const HERE = dirname(fileURLToPath(import.meta.url));
const AXE = join(HERE, 'node_modules', 'axe-core', 'axe.min.js');
const BOXES = ['#one', '#two', '#three'];
// A wasm answer larger than this carried the file's body; a cache hit transfers nothing, a 304
// only its headers.
const HEADERS_ONLY = 4096;
const COMING = {
  inView: 'An interactive timeline loads here when you scroll to it.',
  afterAbove: 'Waiting for the embed above to load; this one follows…',
  loading: 'Loading an interactive timeline…',
};

/** A long article: one embed at the top, two more one under the other far below the fold. */
function article(app, scenario) {
  const filler = Array.from({ length: 80 }, (_, i) => `<p>Paragraph ${i + 1} of the argument, before the next embeds.</p>`).join('\n');
  return `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8"><link rel="icon" href="data:,">
  <title>Three embeds, one app</title>
  <style>
    body { margin: 0; font: 17px/1.6 Georgia, serif; }
    main { padding: 0 16px 400px; max-width: 720px; }
  </style>
</head>
<body>
<main>
  <h1>Three embeds, one app</h1>
  <div id="one" data-lockstep="s2-gc-pause-fenced" data-at="12" data-controls="transport"></div>
  ${filler}
  <div id="two" data-lockstep="s1-gc-pause-unfenced" data-caption="The same pause, no fencing"></div>
  <p>And one of my own:</p>
  <div id="three" data-lockstep="" data-at="3"><script type="application/json">${scenario}</script></div>
</main>
<script src="${app}embed.js" defer></script>
</body>
</html>
`;
}

/**
 * Runs first in the top page: records, box by box, when the host script added its frame
 * (`window.started`) and when that frame first loaded (`window.loaded`), on the page's clock.
 */
function recordStarts() {
  if (window.top !== window) return;
  window.started = {};
  window.loaded = {};
  const boxOf = (frame) => `#${frame.parentElement?.id}`;
  new MutationObserver(() => {
    for (const frame of document.querySelectorAll('iframe')) {
      window.started[boxOf(frame)] ??= performance.now();
    }
  }).observe(document, { childList: true, subtree: true });
  document.addEventListener('load', (event) => {
    if (event.target instanceof HTMLIFrameElement) window.loaded[boxOf(event.target)] ??= performance.now();
  }, true);
}

describe('three embeds of the host script on one page', () => {
  let appSite;
  let hostSite;
  let hostDir;
  let browser;
  let page;
  const problems = [];

  before(async () => {
    assert.ok(existsSync(join(DIST, 'embed.js')), `no embed.js in ${DIST}: build the site first (cargo xtask dist)`);
    appSite = await serveDirectory(DIST, '/lockstep/');
    hostDir = await mkdtemp(join(tmpdir(), 'lockstep-host-share-'));
    const mine = JSON.parse(await readFile(join(DIST, 'scenarios', 's1-gc-pause-unfenced.json'), 'utf8'));
    mine.id = 'my-own-pause';
    mine.title = 'My own pause, inline';
    await writeFile(join(hostDir, 'article.html'), article(appSite.url, JSON.stringify(mine)));
    hostSite = await serveDirectory(hostDir, '/blog/');
    browser = await launchChromium();
    page = browser.context.pages()[0] ?? (await browser.context.newPage());
    page.setDefaultTimeout(30_000);
    await page.addInitScript(recordStarts);
    watchForProblems(page, (problem) => problems.push(problem));
  });

  after(async () => {
    await browser?.close();
    await appSite?.close();
    await hostSite?.close();
    if (hostDir) await rm(hostDir, { recursive: true, force: true });
  });

  /** Opens the article with an empty HTTP cache, so that the first frame downloads everything. */
  async function openAfresh() {
    await page.goto('about:blank');
    const cdp = await browser.context.newCDPSession(page);
    await cdp.send('Network.clearBrowserCache');
    await cdp.detach();
    await page.goto(`${hostSite.url}article.html`);
  }

  async function frameIn(box) {
    const frame = await (await page.locator(`${box} iframe`).elementHandle()).contentFrame();
    assert.ok(frame, `${box} has no frame`);
    return frame;
  }

  async function waitInteractive(box) {
    await (await frameIn(box)).locator('[data-testid="step"]').waitFor({ state: 'visible' });
  }

  /**
   * Opens the article, waits for the first frame, then scrolls to the other two and waits for
   * them. Returns the boxes whose frames had started before the scroll.
   */
  async function openAndScroll() {
    await openAfresh();
    await waitInteractive('#one');
    await page.waitForFunction(() => window.loaded['#one'] !== undefined);
    await page.evaluate(() => new Promise((done) => setTimeout(done, 300)));
    const beforeScroll = await page.evaluate(() => Object.keys(window.started));
    await page.locator('#three').scrollIntoViewIfNeeded();
    for (const box of ['#two', '#three']) await waitInteractive(box);
    return beforeScroll;
  }

  it('starts a frame only near the viewport, and only once the one before it has loaded', async () => {
    assert.deepEqual(await openAndScroll(), ['#one'], 'a frame below the fold started before the reader got there');
    const { started, loaded } = await page.evaluate(() => ({ started: window.started, loaded: window.loaded }));
    const times = JSON.stringify({ started, loaded });
    // In the order they started (the reader may bring several near at once), each after the last.
    const order = [...BOXES].sort((a, b) => started[a] - started[b]);
    assert.equal(order[0], '#one', times);
    for (let i = 1; i < order.length; i++) {
      assert.ok(started[order[i]] >= loaded[order[i - 1]], `${order[i]} started before ${order[i - 1]} had loaded: ${times}`);
    }
    assert.deepEqual(problems, []);
  });

  // Red while the app's server answers `no-cache` with no validator: each frame then gets the
  // whole wasm again. (In Chromium this test alone cannot tell the queue from frames started at
  // once: its HTTP cache makes a second request for a URL being fetched wait for the first.)
  it("downloads the app's wasm once for the three frames", async () => {
    await openAndScroll();
    const wasm = {};
    for (const box of BOXES) {
      wasm[box] = await (await frameIn(box)).evaluate(() => performance.getEntriesByType('resource')
        .filter((entry) => new URL(entry.name).pathname.endsWith('.wasm'))
        .map((entry) => ({ name: entry.name.replace(/^.*\//, ''), transferSize: entry.transferSize })));
      assert.ok(wasm[box].length > 0, `${box} fetched no wasm: ${JSON.stringify(wasm)}`);
    }
    const downloaded = BOXES.filter((box) => wasm[box].some((entry) => entry.transferSize > HEADERS_ONLY));
    assert.ok(downloaded.length <= 1, `the wasm's body came down in ${downloaded.join(', ')}: ${JSON.stringify(wasm)}`);
    assert.deepEqual(problems, []);
  });

  it('shows each embed\'s caption and what is coming until its frame has loaded', async () => {
    let release;
    const held = new Promise((done) => { release = done; });
    await page.route(appSite.url, async (route) => {
      await held;
      // Once the test has given up (or the page has moved on) the request may be gone.
      await route.continue().catch(() => {});
    });
    try {
      await openAfresh();
      const placeholder = (box) => page.locator(`${box} .lockstep-placeholder`);
      const expectPlaceholder = async (box, caption, line) => {
        await page.waitForFunction(([b, l]) => document.querySelector(`${b} .lockstep-placeholder`)?.innerText.includes(l), [box, line]);
        const text = await placeholder(box).innerText();
        assert.ok(text.startsWith(caption), `${box} shows: ${text}`);
        assert.equal(Math.round((await placeholder(box).boundingBox()).height), 420, `${box}'s placeholder height`);
        assert.equal(await page.locator(`${box} iframe`).evaluateAll((all) => all.every((f) => getComputedStyle(f).visibility === 'hidden')), true);
      };
      await expectPlaceholder('#one', 'Lockstep: scenario s2-gc-pause-fenced', COMING.loading);
      await expectPlaceholder('#two', 'The same pause, no fencing', COMING.inView);
      await page.locator('#three').scrollIntoViewIfNeeded();
      await expectPlaceholder('#two', 'The same pause, no fencing', COMING.afterAbove);
      await expectPlaceholder('#three', 'My own pause, inline', COMING.afterAbove);
      await mkdir(ARTIFACTS, { recursive: true });
      await page.screenshot({ path: join(ARTIFACTS, 'host-share-waiting.png') });
      await page.addScriptTag({ path: AXE });
      const result = await page.evaluate(() => window.axe.run(document, { iframes: false, resultTypes: ['violations'] }));
      const findings = result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id}: ${v.help}`);
      assert.deepEqual(findings, [], findings.join('\n'));
      release();
      for (const box of BOXES) {
        await waitInteractive(box);
        await placeholder(box).waitFor({ state: 'detached' });
        assert.equal(await page.locator(`${box} iframe`).evaluate((f) => getComputedStyle(f).visibility), 'visible');
      }
    } finally {
      release();
      await page.unroute(appSite.url);
    }
    assert.deepEqual(problems, []);
  });
});
