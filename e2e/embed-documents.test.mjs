// The embeds' documents (decision 44): a built-in scenario's embed that the build rendered —
// every bare one, and every one in the book — is a page of its own (`embed/<id>/<parameters>/`),
// and the host script points its frame there. On a host page of another origin:
// - the frame shows the embed's moment (caption, timeline, narration, its position) and is as
//   tall as it, with no wasm fetched at all while the reader only reads and scrolls;
// - the wasm comes when the reader acts: a Step pressed before it runs is kept and applied;
// - on a phone the frame keeps one height while the reader steps through the whole run;
// - the app then draws over every document exactly what the build drew;
// - an embed the build has no document for keeps opening the app's `#embed&…`;
// - every built-in scenario's embed in the book opens its document;
// - an embed without its own theme takes the host page's, from its first paint, and follows it.

import assert from 'node:assert/strict';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { after, before, describe, it } from 'node:test';

import { launchChromium, watchForProblems } from './browser.mjs';
import { DIST, serveDirectory } from './harness.mjs';
import { countLayoutShift, firstDifference, layoutShift, snapshot } from './snapshot.mjs';

/** The documents' paths the build wrote into the host script. */
function rendered() {
  const script = readFileSync(join(DIST, 'embed.js'), 'utf8');
  const list = /var RENDERED = (\[[^\n]*\]);/.exec(script);
  assert.ok(list, 'the build filled the host script with its documents');
  return JSON.parse(list[1]);
}

/** A blog post of another origin: one embed the book has (so rendered), one it has not. */
function post(app) {
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><link rel="icon" href="data:,"><title>A post</title>
<style>body { margin: 0; font: 17px/1.6 Georgia, serif; } .box { width: 640px; margin: 24px 0; } main { padding-bottom: 800px; }</style>
</head>
<body>
<main>
  <h1>Fencing tokens</h1>
  <div class="box" id="known" data-lockstep="s2-gc-pause-fenced" data-at="10"></div>
  <p style="height: 3000px">A long paragraph.</p>
  <div class="box" id="unknown" data-lockstep="s2-gc-pause-fenced" data-at="11" data-theme="dark"></div>
</main>
<script src="${app}embed.js" defer></script>
</body>
</html>
`;
}

/** A post on a site in dark mode: one embed that follows it, one that keeps its own light theme. */
function darkPost(app) {
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><link rel="icon" href="data:,"><title>A dark post</title>
<style>body { margin: 0; background: #16181c; color: #e8e8e8; } body.light { background: #fdfdfd; color: #222; } .box { width: 640px; margin: 24px 0; }</style>
</head>
<body>
  <div class="box" id="follows" data-lockstep="s2-gc-pause-fenced" data-at="10"></div>
  <div class="box" id="own" data-lockstep="s1-gc-pause-unfenced" data-theme="light"></div>
<script src="${app}embed.js" defer></script>
</body>
</html>
`;
}

describe("the embeds' documents", () => {
  let appSite;
  let hostSite;
  let hostDir;
  let browser;
  let page;
  const problems = [];
  const wasm = [];

  before(async () => {
    appSite = await serveDirectory(DIST, '/lockstep/');
    hostDir = await mkdtemp(join(tmpdir(), 'lockstep-documents-'));
    await writeFile(join(hostDir, 'post.html'), post(appSite.url));
    await writeFile(join(hostDir, 'dark.html'), darkPost(appSite.url));
    hostSite = await serveDirectory(hostDir, '/blog/');
    browser = await launchChromium();
    page = browser.context.pages()[0] ?? (await browser.context.newPage());
    await page.setViewportSize({ width: 1000, height: 800 });
    watchForProblems(page, (problem) => problems.push(problem));
    await countLayoutShift(browser.context);
    page.on('request', (request) => {
      if (request.url().endsWith('.wasm')) wasm.push(request.url());
    });
  });

  after(async () => {
    await browser?.close();
    await appSite?.close();
    await hostSite?.close();
    if (hostDir) await rm(hostDir, { recursive: true, force: true });
  });

  it("shows a rendered embed's moment without any wasm, as tall as it is, while it is only read", async () => {
    assert.ok(rendered().includes('embed/s2-gc-pause-fenced/at=10/'), 'the book embeds S2 at event 10');
    await page.goto(`${hostSite.url}post.html`);
    const known = page.locator('#known iframe');
    await known.waitFor();
    assert.equal(await known.getAttribute('src'), `${appSite.url}embed/s2-gc-pause-fenced/at=10/`);
    const frame = page.frameLocator('#known iframe');
    await frame.locator('[data-testid="embed-caption"]').waitFor();
    assert.match(await frame.locator('[data-testid="embed-caption"]').innerText(), /^S2 · A GC pause/);
    assert.match(await frame.locator('[data-testid="scrubber"]').getAttribute('aria-valuetext'), /^event 10 of \d+/);
    assert.ok((await frame.locator('[data-testid="narration"]').innerText()).length > 20, 'the narration at event 10');
    await frame.locator('[data-testid="timeline-main"] svg').waitFor();
    // The frame takes the height the document tells, the document's own.
    const height = await frame.locator('.embed').evaluate((embed) => Math.ceil(embed.getBoundingClientRect().height));
    assert.notEqual(height, 420, 'the document is not the placeholder\'s height');
    await page.waitForFunction((wanted) => document.querySelector('#known iframe').getAttribute('height') === String(wanted), height);
    assert.equal(await frame.locator('[data-testid="loading-line"]').isVisible(), false, 'nothing says it loads');
    // Read it, scroll past it and back; the reader never points at it.
    await page.mouse.move(900, 20);
    await page.mouse.wheel(0, 600);
    await page.waitForFunction(() => window.scrollY >= 600);
    await page.mouse.wheel(0, -600);
    await page.waitForFunction(() => window.scrollY === 0);
    // Still waiting for its reader: nothing has started its wasm (boot.js drops the mark as it does).
    await frame.locator('html[data-wasm-wait]').waitFor({ state: 'attached' });
    assert.deepEqual(wasm, [], 'no wasm for a read embed');
    assert.equal(await frame.locator('html').getAttribute('data-app'), null, 'the app is not running');
  });

  it('loads the wasm when the reader acts and keeps a Step pressed before it runs', async () => {
    await page.goto(`${hostSite.url}post.html`);
    const frame = await (await page.locator('#known iframe').elementHandle()).contentFrame();
    await frame.locator('[data-testid="embed-caption"]').waitFor();
    let release;
    const held = new Promise((resolve) => {
      release = resolve;
    });
    await page.route('**/lockstep-embed_bg.wasm', async (route) => {
      await held;
      await route.continue();
    });
    const asked = page.waitForRequest(/lockstep-embed_bg\.wasm$/);
    await frame.locator('[data-testid="step"]').click();
    await asked;
    assert.equal(await frame.locator('[data-testid="step"]').getAttribute('aria-busy'), 'true', 'the Step says it waits');
    assert.equal(await frame.locator('html').getAttribute('data-app'), null, 'the app is not running yet');
    release();
    await frame.locator('html[data-app="running"]').waitFor({ state: 'attached', timeout: 30_000 });
    await frame.waitForFunction(
      () => /^event 11 of/.test(document.querySelector('[data-testid="scrubber"]')?.getAttribute('aria-valuetext') ?? ''),
    );
    await page.unroute('**/lockstep-embed_bg.wasm');
    assert.deepEqual(problems, [], 'the pages reported problems');
  });

  it('keeps its height on a phone as the reader steps through the whole run', async () => {
    await page.setViewportSize({ width: 375, height: 700 });
    await page.goto(`${hostSite.url}post.html`);
    await page.evaluate(() => {
      document.querySelector('#known').style.width = '100%';
    });
    const frame = await (await page.locator('#known iframe').elementHandle()).contentFrame();
    const position = async () => Number(/^event (\d+) of/.exec(await frame.locator('[data-testid="scrubber"]').getAttribute('aria-valuetext'))[1]);
    const heights = new Map();
    const told = async () => {
      await frame.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
      return page.locator('#known iframe').getAttribute('height');
    };
    await frame.locator('[data-testid="step"]').click();
    await frame.locator('html[data-app="running"]').waitFor({ state: 'attached', timeout: 30_000 });
    await frame.waitForFunction(() => /^event 11 of/.test(document.querySelector('[data-testid="scrubber"]').getAttribute('aria-valuetext')));
    const total = Number(/of (\d+)/.exec(await frame.locator('[data-testid="scrubber"]').getAttribute('aria-valuetext'))[1]);
    const at = (n) => frame.waitForFunction((wanted) => document.querySelector('[data-testid="scrubber"]').getAttribute('aria-valuetext').startsWith(`event ${wanted} of`), n);
    const record = async () => {
      const height = await told();
      heights.set(height, [...(heights.get(height) ?? []), await position()]);
    };
    // Back to the start, then Step to the end: every position of the run.
    for (let n = 11; n > 0; n -= 1) {
      await record();
      await frame.locator('[data-testid="back"]').click();
      await at(n - 1);
    }
    for (let n = 0; n < total; n += 1) {
      await record();
      await frame.locator('[data-testid="step"]').click();
      await at(n + 1);
    }
    await record();
    assert.equal(heights.size, 1, `the frame's heights by position: ${JSON.stringify([...heights])}`);
    await page.setViewportSize({ width: 1000, height: 800 });
  });

  it('draws over every document exactly what the build drew, and nothing moves', async () => {
    const differences = [];
    const shifts = [];
    const documents = rendered();
    assert.ok(documents.length >= 42, `${documents.length} documents`);
    // The width the build draws a document's plot for (a blog's column, src/embed/moment.rs).
    await page.setViewportSize({ width: 640, height: 800 });
    for (const path of documents) {
      await page.goto(appSite.url + path);
      await page.locator('[data-testid="embed"]').waitFor();
      const built = await snapshot(page);
      // A pointer over the document is the reader acting on it: the wasm loads.
      await page.mouse.move(10, 10);
      await page.mouse.move(200, 100);
      try {
        await page.locator('html[data-app="running"]').waitFor({ state: 'attached', timeout: 30_000 });
      } catch {
        differences.push(`/${path}: the app did not start`);
        continue;
      }
      const drawn = await snapshot(page);
      const shift = await layoutShift(page);
      if (shift > 0.01) shifts.push(`/${path}: ${shift.toFixed(4)}`);
      if (JSON.stringify(built) !== JSON.stringify(drawn)) differences.push(`/${path}: ${firstDifference(built, drawn)}`);
    }
    assert.equal(differences.length, 0, `${differences.length} of ${documents.length} differ:\n${differences.slice(0, 6).join('\n\n')}`);
    assert.deepEqual(shifts, [], 'cumulative layout shift over 0.01');
    assert.deepEqual(problems, [], 'the documents reported problems');
  });

  it("follows the host page's dark theme from its first paint, and its switch to light; an embed with its own theme keeps it", async () => {
    await page.goto(`${hostSite.url}dark.html`);
    const theme = (id) => page.frameLocator(`#${id} iframe`).locator('html').getAttribute('data-theme');
    const ground = (id) =>
      page.frameLocator(`#${id} iframe`).locator('.embed').evaluate((embed) => {
        // The colour the reader sees behind the timeline: the first opaque background up the tree.
        for (let node = embed; node; node = node.parentElement) {
          const [r, g, b, a = 1] = getComputedStyle(node).backgroundColor.match(/[\d.]+/g).map(Number);
          if (a >= 0.5) return (0.2126 * r + 0.7152 * g + 0.0722 * b) / 255;
        }
        return 1;
      });
    const follows = page.frameLocator('#follows iframe');
    await follows.locator('[data-testid="embed-caption"]').waitFor();
    // The document, before any wasm: dark already.
    assert.equal(await follows.locator('html').getAttribute('data-app'), null, 'the app is not running yet');
    assert.equal(await theme('follows'), 'dark');
    assert.ok((await ground('follows')) < 0.3, 'drawn on a dark ground');
    await page.locator('#own iframe').waitFor();
    await page.frameLocator('#own iframe').locator('[data-testid="embed-caption"]').waitFor();
    assert.equal(await theme('own'), 'light');
    // The reader acts: the app runs, and the theme stays the host's.
    await follows.locator('[data-testid="step"]').click();
    await follows.locator('html[data-app="running"]').waitFor({ state: 'attached', timeout: 30_000 });
    assert.equal(await theme('follows'), 'dark');
    // The site switches to light: the embed follows; the one with its own theme stays.
    await page.evaluate(() => document.body.classList.add('light'));
    await follows.locator('html[data-theme="light"]').waitFor({ state: 'attached' });
    assert.ok((await ground('follows')) > 0.7, 'drawn on a light ground');
    await page.evaluate(() => document.body.classList.remove('light'));
    await follows.locator('html[data-theme="dark"]').waitFor({ state: 'attached' });
    assert.equal(await theme('own'), 'light');
    assert.deepEqual(problems, [], 'the pages reported problems');
  });

  it('opens the app at the embed\'s address where the build has no document', async () => {
    await page.goto(`${hostSite.url}post.html`);
    await page.locator('#unknown').scrollIntoViewIfNeeded();
    const unknown = page.locator('#unknown iframe');
    await unknown.waitFor();
    assert.equal(await unknown.getAttribute('src'), `${appSite.url}#embed&s=s2-gc-pause-fenced&at=11&theme=dark`);
    const frame = page.frameLocator('#unknown iframe');
    await frame.locator('html[data-app="running"]').waitFor({ state: 'attached', timeout: 30_000 });
    assert.match(await frame.locator('[data-testid="scrubber"]').getAttribute('aria-valuetext'), /^event 11 of/);
    assert.equal(await frame.locator('html').getAttribute('data-theme'), 'dark');
  });

  it("opens every built-in scenario's embed in the book at its document", async () => {
    const documents = new Set(rendered());
    const pages = [];
    const walk = (dir) => {
      for (const name of readdirSync(dir)) {
        const path = join(dir, name);
        if (statSync(path).isDirectory()) walk(path);
        else if (name.endsWith('.html') && /data-lockstep="[a-z]/.test(readFileSync(path, 'utf8'))) pages.push(path);
      }
    };
    walk(join(DIST, 'book'));
    assert.ok(pages.length >= 40, `${pages.length} book pages embed a built-in scenario`);
    const fallbacks = [];
    let frames = 0;
    for (const file of pages) {
      await page.goto(`${appSite.url}book/${relative(join(DIST, 'book'), file)}`);
      const divs = page.locator('div[data-lockstep]:not([data-lockstep=""])');
      const count = await divs.count();
      for (let i = 0; i < count; i += 1) {
        await divs.nth(i).scrollIntoViewIfNeeded();
        const src = await divs.nth(i).locator('iframe').getAttribute('src', { timeout: 20_000 });
        frames += 1;
        const path = src.startsWith(appSite.url) ? src.slice(appSite.url.length) : src;
        if (!documents.has(path)) fallbacks.push(`${relative(DIST, file)}: ${src}`);
      }
    }
    assert.ok(frames >= 40, `${frames} frames`);
    assert.deepEqual(fallbacks, [], "every built-in scenario's embed in the book has its document");
  });
});
