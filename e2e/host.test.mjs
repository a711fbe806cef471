// The host script (dist/embed.js) on somebody else's page: a blog post served from another
// origin (another port) embeds three scenarios with the script and one with a plain iframe
// (which the script on the same page sizes too: this Chromium parses `frame-sizing` but sizes
// no frame with it, see NOTES.md).
// Each frame is as tall as its content at 320, 640 and 960 px wide, with no scrollbar inside;
// Step works in each; at 640 px the timeline, the "now" line and the transport are on screen
// at once. Size messages of the wrong shape, from another origin or from the host page change
// nothing — and the same probes catch a host script with any of its checks taken out. An invalid
// inline scenario is named inside its frame; a scenario file that is missing, on the page.
// "Copy embed code" gives snippets that, pasted into a page, show the same moment, and name the
// site's root from a page the build rendered in a folder of its own. (The host
// pages name an empty icon, so that Chromium asks their server for no favicon.ico.)

import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';

import { buildScenario, launchChromium, watchForProblems } from './browser.mjs';
import { ARTIFACTS, DIST, serveDirectory } from './harness.mjs';

const HERE = dirname(fileURLToPath(import.meta.url));
const AXE = join(HERE, 'node_modules', 'axe-core', 'axe.min.js');
const SIZE = 'lockstep:embed-size';
const WIDTHS = [320, 640, 960];
const FRAMES = ['#one', '#two', '#three', '#plain'];
const S2_TITLE = "S2 · A GC pause past the lease's end, with fencing tokens 33 and 34";

/** The blog post: three host-script embeds and one plain iframe, each in a box of --frame-width. */
function blogPost(app) {
  return `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8"><link rel="icon" href="data:,">
  <title>Fencing tokens, live — a blog post</title>
  <style>
    body { margin: 0; font: 17px/1.6 Georgia, serif; }
    main { padding: 0 0 400px; }
    h1, p { margin: 16px; max-width: 36em; }
    .box { width: var(--frame-width, 640px); margin: 24px 0; }
  </style>
</head>
<body>
<main>
  <h1>Fencing tokens, live</h1>
  <p>A client that stops for a garbage-collection pause can outlive its lease. Step through it:</p>
  <div class="box" id="one" data-lockstep="s2-gc-pause-fenced" data-at="12" data-controls="transport"></div>
  <p>Without fencing the resource cannot tell the stale write from a fresh one:</p>
  <div class="box" id="two" data-lockstep="s1-gc-pause-unfenced" data-controls="full"
       data-caption="The same pause, no fencing" data-title="Lockstep: a GC pause without fencing"></div>
  <p>And one of my own, from a file on this site:</p>
  <div class="box" id="three" data-lockstep="" data-src="my-scenario.json" data-at="3"></div>
  <p>The same embed as a plain iframe:</p>
  <div class="box" id="plain">
    <iframe src="${app}#embed&amp;s=s3-fencing-gap&amp;at=5&amp;controls=transport" title="Lockstep: the fencing gap"
      loading="lazy" height="420" style="frame-sizing: content-height; display: block; width: 100%; border: 0"></iframe>
  </div>
</main>
<script src="${app}embed.js" defer></script>
</body>
</html>
`;
}

/** A page with an invalid inline scenario and a scenario file that is not there. */
function brokenPost(app) {
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><link rel="icon" href="data:,"><title>Broken embeds</title></head>
<body>
<div id="inline" data-lockstep="" data-at="2"><script type="application/json">
{
  "format": 1,
  "id": "mine"
  "title": "a comma is missing above"
}
</script></div>
<div id="missing" data-lockstep="" data-src="no-such-scenario.json"></div>
<script src="${app}embed.js" defer></script>
</body>
</html>
`;
}

/** A div with every attribute, and an inline scenario whose title is not ASCII. */
function everyAttribute(app, scenario) {
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><link rel="icon" href="data:,"><title>Every attribute</title></head>
<body>
<div id="all" data-lockstep="s2-gc-pause-fenced" data-learn="fencing-tokens" data-step="2" data-seed="7"
  data-fencing="off" data-log="W10" data-at="4" data-compare="1" data-from="2" data-to="9" data-controls="full"
  data-autoplay="1" data-theme="dark" data-caption="Tokens & pauses: 33 < 34?" data-height="300" data-title="Every attribute"></div>
<div id="inline" data-lockstep="" data-at="1"><script type="application/json">${scenario}</script></div>
<script src="${app}embed.js" defer></script>
<script>
  // The height the frame has before its embed can say anything: taken as the host script adds
  // the frame (observers run before any message from the frame can arrive).
  new MutationObserver((changes, observer) => {
    const frame = document.querySelector('#all iframe');
    if (!frame) return;
    window.placeholder = frame.getAttribute('height');
    observer.disconnect();
  }).observe(document.body, { childList: true, subtree: true });
</script>
</body>
</html>
`;
}

/**
 * A page that adds its embeds after the host script has run, as a docs site that changes page
 * without reloading does: a bare div, then a section holding a div with an inline scenario.
 */
function laterPage(app, scenario) {
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><link rel="icon" href="data:,"><title>Added later</title></head>
<body>
<main id="route"><p>Loading the next page of the docs…</p></main>
<script src="${app}embed.js"></script>
<script>
  window.addEventListener('load', () => setTimeout(() => {
    const route = document.getElementById('route');
    route.textContent = '';
    const bare = document.createElement('div');
    bare.id = 'bare';
    bare.setAttribute('data-lockstep', 's2-gc-pause-fenced');
    bare.setAttribute('data-at', '6');
    route.appendChild(bare);
    const section = document.createElement('section');
    section.innerHTML = '<div id="nested" data-lockstep="" data-at="2"><script type="application/json">'
      + ${JSON.stringify(scenario)} + '<\\/script></div>';
    route.appendChild(section);
  }, 300));
</script>
</body>
</html>
`;
}

/** A page on a third origin that posts a well-formed size message to its parent. */
const FORGER = `<!doctype html><html lang="en"><head><meta charset="utf-8"><link rel="icon" href="data:,"><title>Forger</title></head>
<body><script>parent.postMessage({ type: '${SIZE}', version: 1, height: 191 }, '*');</script></body></html>`;

/** The snippet of `html` pasted into a page of its own. */
const pasted = (html) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><link rel="icon" href="data:,"><title>Pasted</title></head><body style="margin:0">
<div style="width: 640px">${html}</div></body></html>`;

/**
 * Runs first in every page the test opens: on the top page, records for each frame's box (`#one`,
 * …) the last height its embed told (`window.told`) and whether its document has loaded
 * (`window.framesLoaded`). The message listener is added on DOMContentLoaded, after the deferred
 * host script added its own: listeners run in the order they were added, so when a height is
 * recorded here the host script has already done what it does with that message.
 */
function recordFrames() {
  if (window.top !== window) return;
  const boxOf = (frame) => (frame?.parentElement?.id ? `#${frame.parentElement.id}` : null);
  window.told = {};
  window.framesLoaded = new Set();
  document.addEventListener('load', (event) => {
    if (event.target instanceof HTMLIFrameElement) window.framesLoaded.add(boxOf(event.target));
  }, true);
  document.addEventListener('DOMContentLoaded', () => {
    window.addEventListener('message', (event) => {
      const frame = [...document.getElementsByTagName('iframe')].find((f) => f.contentWindow === event.source);
      const box = boxOf(frame);
      if (box && event.data?.type === 'lockstep:embed-size') window.told[box] = event.data.height;
    });
  });
}

describe('the host script on a page of another origin', () => {
  let appSite;
  let hostSite;
  let forgerSite;
  let hostDir;
  let forgerDir;
  let browser;
  let page;
  const problems = [];
  // Problems that are the test's own doing: the missing scenario file's 404, while that page is open.
  let missingFileExpected = false;
  // And the embed dialog's preview, from the first dialog opened: an iframe of the embed that
  // closing the dialog or leaving the page removes, its loads cut short.
  let previewClosed = false;
  const expected = (problem) =>
    /no-such-scenario\.json/.test(problem) || (missingFileExpected && /status of 404/.test(problem))
    || (previewClosed && /\/lockstep-embed(\.js|_bg\.wasm) \(net::ERR_ABORTED\)$/.test(problem));

  before(async () => {
    assert.ok(existsSync(join(DIST, 'embed.js')), `no embed.js in ${DIST}: build the site first (cargo xtask dist)`);
    appSite = await serveDirectory(DIST, '/lockstep/');
    hostDir = await mkdtemp(join(tmpdir(), 'lockstep-host-'));
    forgerDir = await mkdtemp(join(tmpdir(), 'lockstep-forger-'));
    await writeFile(join(hostDir, 'post.html'), blogPost(appSite.url));
    await writeFile(join(hostDir, 'broken.html'), brokenPost(appSite.url));
    const mine = JSON.parse(await readFile(join(DIST, 'scenarios', 's1-gc-pause-unfenced.json'), 'utf8'));
    mine.id = 'my-own-pause';
    mine.title = 'My own pause, from a file on my site';
    await writeFile(join(hostDir, 'my-scenario.json'), JSON.stringify(mine, null, 2));
    const accented = { ...mine, id: 'cafe', title: 'Café au lait: a pause of 2 s ✓' };
    await writeFile(join(hostDir, 'every.html'), everyAttribute(appSite.url, JSON.stringify(accented, null, 2)));
    await writeFile(join(hostDir, 'later.html'), laterPage(appSite.url, JSON.stringify(accented)));
    await writeFile(join(forgerDir, 'forger.html'), FORGER);
    hostSite = await serveDirectory(hostDir, '/blog/');
    forgerSite = await serveDirectory(forgerDir, '/elsewhere/');
    assert.notEqual(new URL(hostSite.url).origin, new URL(appSite.url).origin);
    browser = await launchChromium();
    page = browser.context.pages()[0] ?? (await browser.context.newPage());
    page.setDefaultTimeout(20_000);
    await page.addInitScript(recordFrames);
    watchForProblems(page, (problem) => {
      if (!expected(problem)) problems.push(problem);
    });
  });

  after(async () => {
    await browser?.close();
    await appSite?.close();
    await hostSite?.close();
    await forgerSite?.close();
    if (hostDir) await rm(hostDir, { recursive: true, force: true });
    if (forgerDir) await rm(forgerDir, { recursive: true, force: true });
  });

  /** The frame inside the box `box` (a CSS selector on the host page). */
  async function frameIn(box) {
    const handle = await page.locator(`${box} iframe`).elementHandle();
    const frame = await handle.contentFrame();
    assert.ok(frame, `${box} has no frame`);
    return frame;
  }

  /** Opens the blog post and waits until every frame shows its scenario with a Step button. */
  async function openPost(width = 640) {
    await page.goto(`${hostSite.url}post.html`);
    await page.evaluate((w) => document.documentElement.style.setProperty('--frame-width', `${w}px`), width);
    for (const box of FRAMES) {
      await page.locator(`${box} iframe`).scrollIntoViewIfNeeded();
      const frame = await frameIn(box);
      await frame.locator('[data-testid="step"]').waitFor({ state: 'visible', timeout: 30_000 });
    }
    await page.evaluate(() => window.scrollTo(0, 0));
  }

  /**
   * The frame's height on the host page and what its document needs: the content's height (its
   * body's, which has no margin in an embed) and whether anything overflows the frame.
   */
  async function measure(box) {
    const frameHeight = await page.locator(`${box} iframe`).evaluate((f) => f.getBoundingClientRect().height);
    const frame = await frameIn(box);
    const inside = await frame.evaluate(() => ({
      content: Math.ceil(document.body.getBoundingClientRect().height),
      viewport: window.innerHeight,
      scrollHeight: document.documentElement.scrollHeight,
      scrollWidth: document.documentElement.scrollWidth,
      width: window.innerWidth,
    }));
    return { box, frameHeight, ...inside };
  }

  /**
   * Waits until the embed in `box` has told the page its height as it is now and the page has
   * had that message, then expects the frame as tall as its content, with nothing overflowing
   * it. A change of size meanwhile (a scrollbar that goes once the frame is taller) is told
   * anew: then it waits for that message.
   */
  async function expectFitted(box, context) {
    const frame = await frameIn(box);
    let last;
    for (let round = 0; round < 10; round++) {
      const height = await (await frame.waitForFunction(() => {
        const embed = Math.ceil(document.querySelector('[data-testid="embed"]').getBoundingClientRect().height);
        // Polled on a timer: Chromium runs no animation frames in a cross-origin frame out of view.
        return document.documentElement.dataset.embedHeight === String(embed) && embed;
      }, null, { polling: 50 })).jsonValue();
      await page.waitForFunction(([b, h]) => window.told[b] === h, [box, height]);
      last = await measure(box);
      const fitted = last.frameHeight === last.content && last.scrollHeight <= last.viewport && last.scrollWidth <= last.width;
      if (fitted) return last;
    }
    assert.fail(`${box} ${context}: the frame is not as tall as its content, or scrolls: ${JSON.stringify(last)}`);
  }

  it('makes each div a lazy iframe with a title, and no iframe where there is no div', async () => {
    await openPost();
    const frames = await page.locator('iframe').evaluateAll((all) =>
      all.map((f) => ({ loading: f.getAttribute('loading'), title: f.title, style: f.getAttribute('style'), src: f.src })),
    );
    assert.equal(frames.length, 4);
    for (const frame of frames) {
      assert.equal(frame.loading, 'lazy');
      assert.match(frame.style, /frame-sizing: content-height/);
      assert.ok(frame.src.startsWith(`${appSite.url}#embed&`), frame.src);
    }
    assert.equal(frames[0].title, 'Lockstep simulation: s2-gc-pause-fenced');
    assert.equal(frames[1].title, 'Lockstep: a GC pause without fencing');
    assert.ok(frames[0].src.endsWith('#embed&s=s2-gc-pause-fenced&at=12&controls=transport'), frames[0].src);
    assert.ok(frames[1].src.endsWith('&controls=full&caption=The%20same%20pause%2C%20no%20fencing'), frames[1].src);
    assert.match(frames[2].src, /#embed&scenario=[A-Za-z0-9_-]+&at=3$/);
    // Each shows what its div asked for.
    const caption = async (box) => (await frameIn(box)).locator('[data-testid="embed-caption"]').innerText();
    assert.equal(await caption('#one'), S2_TITLE);
    assert.equal(await caption('#two'), 'The same pause, no fencing');
    assert.equal(await caption('#three'), 'My own pause, from a file on my site');
    const position = async (box) => (await frameIn(box)).locator('[data-testid="position"]').innerText();
    assert.match(await position('#one'), /^event 12 of \d+$/);
    assert.match(await position('#three'), /^event 3 of \d+$/);
    assert.match(await position('#plain'), /^event 5 of \d+$/);
    assert.deepEqual(problems, []);
  });

  it('passes every attribute to the embed, and an inline scenario as the UTF-8 of its text', async () => {
    await page.goto(`${hostSite.url}every.html`);
    const all = page.locator('#all iframe');
    assert.equal(await all.getAttribute('title'), 'Every attribute');
    assert.equal(await page.evaluate(() => window.placeholder), '300');
    assert.equal(
      new URL(await all.getAttribute('src')).hash,
      '#embed&s=s2-gc-pause-fenced&learn=fencing-tokens&step=2&seed=7&fencing=off&log=W10&at=4&compare=1'
        + '&from=2&to=9&controls=full&autoplay=1&theme=dark&caption=Tokens%20%26%20pauses%3A%2033%20%3C%2034%3F',
    );
    const frame = await frameIn('#inline');
    await frame.locator('[data-testid="embed-caption"]').waitFor({ timeout: 30_000 });
    assert.equal(await frame.locator('[data-testid="embed-caption"]').innerText(), 'Café au lait: a pause of 2 s ✓');
    await page.goto('about:blank');
  });

  it('mounts the divs a page adds after the script has run, inline scenario and all', async () => {
    await page.goto(`${hostSite.url}later.html`);
    await page.locator('#bare iframe').waitFor({ state: 'attached' });
    await page.locator('#nested iframe').waitFor({ state: 'attached' });
    const bare = await frameIn('#bare');
    await bare.locator('[data-testid="step"]').waitFor({ state: 'visible', timeout: 30_000 });
    assert.equal(await bare.locator('[data-testid="embed-caption"]').innerText(), S2_TITLE);
    assert.match(await bare.locator('[data-testid="position"]').innerText(), /^event 6 of \d+$/);
    const nested = await frameIn('#nested');
    await nested.locator('[data-testid="embed-caption"]').waitFor({ timeout: 30_000 });
    assert.equal(await nested.locator('[data-testid="embed-caption"]').innerText(), 'Café au lait: a pause of 2 s ✓');
    assert.match(await nested.locator('[data-testid="position"]').innerText(), /^event 2 of \d+$/);
    assert.equal(await page.locator('iframe').count(), 2, 'one frame each, however many mutations the mount itself makes');
    await page.goto('about:blank');
  });

  for (const width of WIDTHS) {
    it(`sizes every frame to its content at ${width} px wide, and Step works in each`, async () => {
      await openPost(width);
      for (const box of FRAMES) {
        const fitted = await expectFitted(box, `at ${width} px`);
        assert.equal(fitted.width, width, `${box} is ${fitted.width} px wide`);
        const frame = await frameIn(box);
        const before = await frame.locator('[data-testid="position"]').innerText();
        const at = Number(/^event (\d+)/.exec(before)[1]);
        await frame.locator('[data-testid="step"]').click();
        await frame.waitForFunction(
          (n) => document.querySelector('[data-testid="position"]').textContent.startsWith(`event ${n} `),
          at + 1,
        );
        await expectFitted(box, `at ${width} px, after a step`);
      }
      // One picture per frame: Chromium leaves frames of another origin blank in a full-page
      // screenshot once they are scrolled away.
      await mkdir(ARTIFACTS, { recursive: true });
      for (const box of FRAMES) {
        await page.locator(box).screenshot({ path: join(ARTIFACTS, `host-${box.slice(1)}-${width}.png`) });
      }
      assert.deepEqual(problems, []);
    });
  }

  it('follows a frame whose width changes: the heights follow the content', async () => {
    await openPost(960);
    const wide = await expectFitted('#one', 'at 960 px');
    await page.evaluate(() => document.documentElement.style.setProperty('--frame-width', '320px'));
    const narrow = await expectFitted('#one', 'narrowed to 320 px');
    assert.notEqual(narrow.content, wide.content, 'the content is as tall at 320 px as at 960 px: the test proves nothing');
  });

  it('shows the timeline, the "now" line and the transport at once in a 640-px-wide frame', async () => {
    await openPost(640);
    await expectFitted('#one', 'at 640 px');
    const iframe = page.locator('#one iframe');
    await iframe.evaluate((f) => f.scrollIntoView({ block: 'start' }));
    const top = await iframe.evaluate((f) => f.getBoundingClientRect().top);
    const viewport = page.viewportSize().height;
    const frame = await frameIn('#one');
    assert.equal(await frame.evaluate(() => window.scrollY), 0);
    for (const testid of ['timeline-main', 'narration', 'embed-transport', 'step', 'scrubber']) {
      const box = await frame.locator(`[data-testid="${testid}"]`).evaluate((e) => {
        const r = e.getBoundingClientRect();
        return { top: r.top, bottom: r.bottom, height: r.height };
      });
      assert.ok(box.height > 0, `${testid} has no height`);
      assert.ok(top + box.top >= 0 && top + box.bottom <= viewport,
        `${testid} is not on screen (${top + box.top}–${top + box.bottom} of ${viewport})`);
    }
  });

  /**
   * Records every change of the frames' heights while `send` runs, then sends a well-formed
   * message of height `sentinel` from `from`'s frame and waits until some frame takes it:
   * messages from one window arrive in order, so everything sent before it has been judged by
   * then. Returns the heights the host page set, box by box, and the origins of the messages
   * the page received (so a probe whose message never arrived cannot pass unnoticed).
   */
  async function heightsSetWhile(send, from, sentinel) {
    await page.evaluate((boxes) => {
      window.heightsSet = {};
      window.origins = [];
      window.addEventListener('message', (event) => window.origins.push(event.origin));
      window.watchers = boxes.map((box) => {
        const iframe = document.querySelector(`${box} iframe`);
        window.heightsSet[box] = [];
        let last = Math.round(iframe.getBoundingClientRect().height);
        const watcher = new MutationObserver(() => {
          const now = Math.round(iframe.getBoundingClientRect().height);
          if (now !== last) window.heightsSet[box].push(now);
          last = now;
        });
        watcher.observe(iframe, { attributes: true, attributeFilter: ['height', 'style'] });
        return watcher;
      });
    }, FRAMES);
    await send();
    const frame = await frameIn(from);
    await frame.evaluate(([type, height]) => parent.postMessage({ type, version: 1, height }, '*'), [SIZE, sentinel]);
    await page.waitForFunction((height) => Object.values(window.heightsSet).some((set) => set.includes(height)), sentinel);
    return page.evaluate(() => {
      window.watchers.forEach((w) => w.disconnect());
      return { ...window.heightsSet, origins: window.origins };
    });
  }

  const WRONG_HEIGHTS = [101, 102, 103, 104, 105, 106, 107, 108, 109, 110, 1e9];

  /** Messages of the wrong shape, each asking for a height of its own (101…), from `box`'s frame. */
  async function sendWrongShapes(box) {
    const frame = await frameIn(box);
    await frame.evaluate((type) => {
      const wrong = [
        { type, version: 1, height: 101, extra: true },
        { type, version: 2, height: 102 },
        { type: `${type}s`, version: 1, height: 103 },
        { type, version: '1', height: 104 },
        { type, version: 1, height: '105' },
        { type, version: 1, height: 106.5 },
        { type, version: 1, height: -107 },
        { version: 1, height: 108 },
        JSON.stringify({ type, version: 1, height: 109 }),
        [type, 1, 110],
        { type, version: 1, height: 1e9 },
      ];
      for (const message of wrong) parent.postMessage(message, '*');
    }, SIZE);
  }

  /** A well-formed message from another origin, sent from the frame of `box` (navigated away). */
  async function sendFromAnotherOrigin(box) {
    const frame = await frameIn(box);
    await frame.goto(`${forgerSite.url}forger.html`);
  }

  /** A well-formed message posted by the host page to itself. */
  async function sendFromTheHostPage() {
    await page.evaluate((type) => window.postMessage({ type, version: 1, height: 121 }, '*'), SIZE);
  }

  it('ignores size messages of the wrong shape, and takes the right one only for its own frame', async () => {
    await openPost(640);
    for (const box of FRAMES) await expectFitted(box, 'before the messages');
    const set = await heightsSetWhile(() => sendWrongShapes('#two'), '#two', 77);
    assert.equal(set['#two'][0], 77, `only the well-formed message sets #two's height: ${JSON.stringify(set)}`);
    assert.ok(!set['#two'].some((h) => WRONG_HEIGHTS.includes(h)), JSON.stringify(set));
    for (const box of ['#one', '#three', '#plain']) assert.deepEqual(set[box], [], `${box} changed`);
    const app = new URL(appSite.url).origin;
    assert.equal(set.origins.filter((o) => o === app).length >= 12, true, `the wrong messages did not arrive: ${set.origins}`);
  });

  it('ignores a well-formed size message from another origin or from the host page', async () => {
    await openPost(640);
    for (const box of FRAMES) await expectFitted(box, 'before the messages');
    // The forger's message comes from #one's own window (navigated to a third origin), so only
    // the origin check can refuse it; the sentinel comes from #two.
    const set = await heightsSetWhile(async () => {
      await sendFromAnotherOrigin('#one');
      await sendFromTheHostPage();
    }, '#two', 78);
    assert.deepEqual(set['#one'], [], '#one took a height from another origin');
    assert.equal(set['#two'][0], 78);
    assert.ok(set.origins.includes(new URL(forgerSite.url).origin), `the forger's message did not arrive: ${set.origins}`);
    assert.ok(set.origins.includes(new URL(hostSite.url).origin), `the host page's message did not arrive: ${set.origins}`);
  });

  /** Opens the blog post with `embed.js` served with `from` replaced by `to`. */
  async function withBrokenScript(from, to, probe) {
    const original = await readFile(join(DIST, 'embed.js'), 'utf8');
    assert.ok(original.includes(from), `embed.js no longer contains: ${from}`);
    const broken = original.replace(from, to);
    await page.route(`${appSite.url}embed.js`, (route) =>
      route.fulfill({ status: 200, contentType: 'text/javascript', body: broken }),
    );
    try {
      await openPost(640);
      return await probe();
    } finally {
      await page.unroute(`${appSite.url}embed.js`);
    }
  }

  it('the probes catch a host script without its shape, version, origin or source check, and one that sizes nothing', async () => {
    const shapeless = await withBrokenScript(
      "if (Object.keys(data).sort().join() !== 'height,type,version') return null;",
      '',
      () => heightsSetWhile(() => sendWrongShapes('#two'), '#two', 77),
    );
    assert.ok(shapeless['#two'].includes(101), `without the shape check: ${JSON.stringify(shapeless)}`);
    const versionless = await withBrokenScript(
      'data.version !== 1',
      'false',
      () => heightsSetWhile(() => sendWrongShapes('#two'), '#two', 77),
    );
    assert.ok(versionless['#two'].includes(102), `without the version check: ${JSON.stringify(versionless)}`);
    const originless = await withBrokenScript(
      'if (event.origin !== app.origin) return;',
      '',
      () => heightsSetWhile(() => sendFromAnotherOrigin('#one'), '#two', 78),
    );
    assert.ok(originless['#one'].includes(191), `without the origin check: ${JSON.stringify(originless)}`);
    const sourceless = await withBrokenScript(
      'frames[i].contentWindow === event.source && ',
      '',
      () => heightsSetWhile(() => Promise.resolve(), '#two', 79),
    );
    assert.ok(sourceless['#one'].includes(79), `without the source check: ${JSON.stringify(sourceless)}`);
    // And the sizing check itself fails when the host script sets no height.
    await withBrokenScript("frames[i].setAttribute('height', String(height));", '', () =>
      assert.rejects(expectFitted('#one', 'with a host script that sets no height'), /not as tall as its content/),
    );
  });

  it('keeps the placeholder height until the embed says how tall it is', async () => {
    await page.route(`${appSite.url}`, (route) =>
      route.fulfill({ status: 200, contentType: 'text/html', body: '<!doctype html><title>silent</title><p>No messages.</p>' }),
    );
    try {
      await page.goto(`${hostSite.url}post.html`);
      // Every frame has loaded its (silent) page, and the host page has seen it load: whatever
      // the host script does on its own, it has done.
      for (const box of FRAMES) {
        await page.locator(`${box} iframe`).scrollIntoViewIfNeeded();
        await page.frameLocator(`${box} iframe`).locator('p', { hasText: 'No messages.' }).waitFor();
      }
      await page.waitForFunction((boxes) => boxes.every((box) => window.framesLoaded.has(box)), FRAMES);
      const heights = await page.locator('iframe').evaluateAll((all) => all.map((f) => f.getBoundingClientRect().height));
      assert.deepEqual(heights, [420, 420, 420, 420]);
    } finally {
      await page.unroute(`${appSite.url}`);
    }
  });

  it('names the error of an invalid inline scenario inside its frame, and a missing file on the page', async () => {
    missingFileExpected = true;
    await page.goto(`${hostSite.url}broken.html`);
    const frame = await frameIn('#inline');
    const problem = frame.locator('[data-testid="embed-problem"]');
    await problem.waitFor({ timeout: 30_000 });
    const text = await problem.innerText();
    assert.match(text, /`scenario=`/);
    assert.match(text, /line 5, column 3/);
    await expectFitted('#inline', 'showing its error');
    const missing = page.locator('#missing .lockstep-problem');
    await missing.waitFor();
    assert.match(await missing.innerText(), /no-such-scenario\.json could not be loaded \(HTTP 404\)/);
    assert.equal(await page.locator('#missing iframe').count(), 0);
    await mkdir(ARTIFACTS, { recursive: true });
    await page.screenshot({ path: join(ARTIFACTS, 'host-broken.png'), fullPage: true });
    await page.goto('about:blank');
    missingFileExpected = false;
  });

  it('has no serious or critical accessibility findings inside an embed or on the host page', async () => {
    await openPost(640);
    const findings = [];
    for (const box of ['#one', '#two']) {
      const frame = await frameIn(box);
      await frame.addScriptTag({ path: AXE });
      const result = await frame.evaluate(() => window.axe.run(document, { resultTypes: ['violations'] }));
      findings.push(...result.violations
        .filter((v) => v.impact === 'serious' || v.impact === 'critical')
        .map((v) => `${box}: ${v.impact} ${v.id}: ${v.help} (${v.nodes.length}×, e.g. ${v.nodes[0]?.target})`));
    }
    await page.addScriptTag({ path: AXE });
    const host = await page.evaluate(() => window.axe.run(document, { iframes: false, resultTypes: ['violations'] }));
    findings.push(...host.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => `host page: ${v.impact} ${v.id}: ${v.help}`));
    assert.deepEqual(findings, [], findings.join('\n'));
  });

  describe('"Embed code…" in the share menu', () => {
    /** Opens the playground at `fragment` and returns the code the embed dialog gives in `form`. */
    async function copied(fragment, form, prepare = async () => {}) {
      await page.goto(`${appSite.url}#${fragment}`);
      await page.locator('[data-testid="timeline-main"] svg').waitFor({ timeout: 30_000 });
      await prepare();
      const position = await page.locator('[data-testid="position"]').innerText();
      await page.locator('[data-testid="share-menu"]').click();
      await page.locator('[data-testid="copy-embed-code"]').click();
      await page.locator('[data-testid="embed-dialog"]').waitFor();
      // The dialog's preview starts loading now; leaving the page, as the next step does, cuts
      // its loads short.
      previewClosed = true;
      if (form !== 'script') await page.locator('[data-testid="embed-form"]').selectOption(form);
      return { code: await page.locator('[data-testid="embed-code"]').inputValue(), at: Number(/^event (\d+)/.exec(position)[1]) };
    }

    async function openPasted(name, code) {
      await writeFile(join(hostDir, name), pasted(code));
      await page.goto(`${hostSite.url}${name}`);
      const frame = await (await page.locator('iframe').elementHandle()).contentFrame();
      await frame.locator('[data-testid="step"]').waitFor({ state: 'visible', timeout: 30_000 });
      return frame;
    }

    it('gives a script line and a div that show the same moment on another site', async () => {
      const { code } = await copied('s=s2-gc-pause-fenced&at=9&fencing=off', 'script');
      assert.equal(code,
        `<script src="${appSite.url}embed.js" defer></script>\n`
        + `<div data-lockstep="s2-gc-pause-fenced" data-fencing="off" data-at="9" data-controls="transport" data-title="Lockstep: ${S2_TITLE}"></div>`);
      const frame = await openPasted('pasted-script.html', code);
      assert.match(await frame.locator('[data-testid="position"]').innerText(), /^event 9 of \d+$/);
      assert.equal(await frame.locator('[data-testid="embed-caption"]').innerText(), S2_TITLE);
      assert.match(await frame.locator('[data-testid="timeline-main"]').getAttribute('aria-label'), /fencing off/);
    });

    it("gives the site's own address from a page the build rendered below the site's root", async () => {
      await page.goto(`${appSite.url}s/s2-gc-pause-fenced/`);
      await page.locator('html[data-app="running"]').waitFor({ state: 'attached', timeout: 30_000 });
      await page.locator('[data-testid="timeline-main"] svg').waitFor({ timeout: 30_000 });
      await page.locator('[data-testid="share-menu"]').click();
      await page.locator('[data-testid="copy-embed-code"]').click();
      await page.locator('[data-testid="embed-dialog"]').waitFor();
      const code = await page.locator('[data-testid="embed-code"]').inputValue();
      assert.ok(code.startsWith(`<script src="${appSite.url}embed.js" defer></script>\n<div data-lockstep="s2-gc-pause-fenced"`), code);
      const frame = await openPasted('pasted-from-a-rendered-page.html', code);
      assert.equal(await frame.locator('[data-testid="embed-caption"]').innerText(), S2_TITLE);
    });

    it('gives a plain iframe of the same moment', async () => {
      const { code } = await copied('s=s2-gc-pause-fenced&at=9', 'iframe');
      assert.match(code, /^<iframe src="[^"]+#embed&amp;s=s2-gc-pause-fenced&amp;at=9&amp;controls=transport" title="Lockstep: [^"]+" loading="lazy" height="420"/);
      const frame = await openPasted('pasted-iframe.html', code);
      assert.match(await frame.locator('[data-testid="position"]').innerText(), /^event 9 of \d+$/);
    });

    it('carries a scenario of one\'s own inline, and the embed runs it', async () => {
      const { code, at } = await copied('s=s2-gc-pause-fenced', 'script', async () => {
        await buildScenario(page, { numbers: { clients: 3 } });
        await page.locator('[data-testid="step"]').click();
        await page.locator('[data-testid="step"]').click();
      });
      assert.ok(at > 0, 'the playground did not step');
      assert.match(code, new RegExp(`<div data-lockstep="" data-at="${at}" data-controls="transport" data-title="Lockstep: Sandbox[^"]*">\n<script type="application/json">\n\\{`));
      const frame = await openPasted('pasted-own.html', code);
      assert.match(await frame.locator('[data-testid="embed-caption"]').innerText(), /^Sandbox/);
      assert.match(await frame.locator('[data-testid="position"]').innerText(), new RegExp(`^event ${at} of \\d+$`));
    });

    it('previews the embed as chosen, changes its start and controls, and has no serious accessibility findings', async () => {
      const { code } = await copied('s=s2-gc-pause-fenced&at=9', 'script');
      assert.equal(await page.locator('details.share').evaluate((d) => d.open), false, 'choosing closes the menu');
      const dialog = page.locator('[data-testid="embed-dialog"]');
      // The preview is the embed itself, at the same moment, with the controls the code asks for.
      const preview = page.frameLocator('[data-testid="embed-preview"]');
      await preview.locator('[data-testid="position"]').filter({ hasText: /^event 9 of \d+$/ }).waitFor({ timeout: 30_000 });
      // Shown before its app runs (the page's first frame): let it run before choosing again.
      await preview.locator('html[data-app="running"]').waitFor({ state: 'attached', timeout: 30_000 });
      assert.equal(await preview.locator('[data-testid="step"]').count(), 1);
      assert.match(code, /data-at="9" data-controls="transport"/);
      // From the beginning, with every control: the code and the preview both follow.
      await dialog.locator('[data-testid="embed-start"]').selectOption('beginning');
      // The preview loads again with each choice: let it run before the next.
      await preview.locator('[data-testid="position"]').filter({ hasText: /^event [0-8] of \d+$/ }).waitFor({ timeout: 30_000 });
      await preview.locator('html[data-app="running"]').waitFor({ state: 'attached', timeout: 30_000 });
      await dialog.locator('[data-testid="embed-controls"]').selectOption('full');
      const changed = await dialog.locator('[data-testid="embed-code"]').inputValue();
      assert.doesNotMatch(changed, /data-at=/, changed);
      assert.match(changed, /data-controls="full"/, changed);
      await preview.locator('[data-testid="embed-compare"]').waitFor({ timeout: 30_000 });
      await preview.locator('html[data-app="running"]').waitFor({ state: 'attached', timeout: 30_000 });
      assert.doesNotMatch(await preview.locator('[data-testid="position"]').innerText(), /^event 9 /);
      await page.addScriptTag({ path: AXE });
      const result = await page.evaluate(() => window.axe.run(document, { iframes: false, resultTypes: ['violations'] }));
      const findings = result.violations
        .filter((v) => v.impact === 'serious' || v.impact === 'critical')
        .map((v) => `${v.impact} ${v.id}: ${v.help} (${v.nodes.length}×, e.g. ${v.nodes[0]?.target})`);
      assert.deepEqual(findings, [], findings.join('\n'));
      await mkdir(ARTIFACTS, { recursive: true });
      await page.screenshot({ path: join(ARTIFACTS, 'host-embed-dialog.png') });
      // Escape closes the dialog and gives the focus back to the menu's button.
      await dialog.locator('[data-testid="embed-copy"]').focus();
      previewClosed = true;
      await page.keyboard.press('Escape');
      await dialog.waitFor({ state: 'detached' });
      assert.equal(await page.evaluate(() => document.activeElement?.dataset.testid), 'share-menu');
      // Escape closes the menu too, and leaves the focus on its button.
      await page.locator('[data-testid="share-menu"]').click();
      await page.locator('[data-testid="share"]').focus();
      await page.keyboard.press('Escape');
      assert.equal(await page.locator('details.share').evaluate((d) => d.open), false, 'Escape closes the menu');
      assert.equal(await page.evaluate(() => document.activeElement?.dataset.testid), 'share-menu');
    });
  });

  it('reported no console error, page error or failed request', () => {
    assert.deepEqual(problems, []);
  });
});
