// The embed view (#embed&…) in headless Chromium, opened directly and inside an iframe of a page
// from another origin: only the story shows (caption, timeline, "now" line, the chosen controls,
// "Open in Lockstep ↗"); every parameter of the contract does what it says; wrong addresses say
// what is wrong inside the frame; the excerpt's bounds hold; autoplay plays, never under reduced
// motion, and pauses out of view or in a hidden tab; the theme is this view's only; a whole
// lesson embeds; the frame is told its height in the versioned message and ends up exactly as
// tall as its content at 320, 640 and 960 px; axe-core finds nothing inside.

import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { readFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

import { ARTIFACTS, startApp } from './harness.mjs';

const HERE = dirname(fileURLToPath(import.meta.url));
const S2 = 's2-gc-pause-fenced';
const S2_TITLE = JSON.parse(await readFile(resolve(HERE, '..', 'scenarios', `${S2}.json`), 'utf8')).title;
const lessons = JSON.parse(await readFile(resolve(HERE, '..', 'content', 'lessons.json'), 'utf8')).lessons;
const base64url = (text) => Buffer.from(text, 'utf8').toString('base64url');

/**
 * A page on another origin (its own port) with one iframe of the embed at `fragment`, `width`
 * px wide. It records every message it receives (origin and data) in `window.received`, and
 * sizes the frame from the embed's size messages, as a host script would.
 */
function hostPage(appUrl, fragment, width) {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>A post with an embed</title></head>
<body style="margin:0;padding:16px;font:16px serif">
<p>Some text of the post, before the embed.</p>
<iframe id="embed" title="A Lockstep scenario" src="${appUrl}#${fragment}"
  style="display:block;border:0;width:${width}px;height:420px"></iframe>
<div id="after" style="height:3000px">The rest of the post.</div>
<script>
  window.received = [];
  addEventListener('message', (event) => {
    window.received.push({ origin: event.origin, data: event.data });
    const frame = document.getElementById('embed');
    const d = event.data;
    if (event.source === frame.contentWindow && d && d.type === 'lockstep:embed-size' && d.version === 1) {
      frame.style.height = d.height + 'px';
    }
  });
</script></body></html>`;
}

describe('the embed view', () => {
  let app;
  let page;
  let host;
  let hostUrl;

  before(async () => {
    app = await startApp({ viewport: { width: 640, height: 800 } });
    page = app.page;
    host = createServer((request, response) => {
      const url = new URL(request.url, 'http://127.0.0.1');
      response.setHeader('content-type', 'text/html; charset=utf-8');
      response.end(hostPage(app.site.url, url.searchParams.get('fragment'), Number(url.searchParams.get('width'))));
    });
    await new Promise((done) => host.listen(0, '127.0.0.1', done));
    hostUrl = `http://127.0.0.1:${host.address().port}/`;
  });

  after(async () => {
    await app?.close();
    await new Promise((done) => (host ? host.close(done) : done()));
  });

  /** Opens the embed directly (the whole page is the embed) and waits until it shows. */
  async function openEmbed(fragment, ready = '[data-testid="timeline-main"] svg') {
    await app.leave();
    await page.goto(`${app.site.url}#${fragment}`);
    await page.locator('[data-testid="embed"]').waitFor({ timeout: 30_000 });
    await page.locator(ready).first().waitFor({ timeout: 30_000 });
  }

  /** Opens the host page with the embed at `fragment` in a `width`-px frame; the frame's page. */
  async function openInFrame(fragment, width) {
    await app.leave();
    await page.goto(`${hostUrl}?fragment=${encodeURIComponent(fragment)}&width=${width}`);
    const frame = page.frameLocator('#embed');
    await frame.locator('[data-testid="embed"]').waitFor({ timeout: 30_000 });
    return frame;
  }

  const position = async (scope = page) => {
    const text = await scope.locator('[data-testid="position"]').innerText();
    const match = /^event (\d+) of (\d+)/.exec(text);
    assert.ok(match, `unexpected position text: ${text}`);
    return Number(match[1]);
  };

  const problemText = async () => {
    const problem = page.locator('[data-testid="embed-problem"]');
    await problem.waitFor({ timeout: 30_000 });
    return problem.innerText();
  };

  it('shows only the story: caption, timeline, "now" line, transport and the link out', async () => {
    await openEmbed(`embed&s=${S2}&at=12`);
    assert.equal(await page.locator('[data-testid="embed-caption"]').innerText(), S2_TITLE);
    for (const absent of ['.site-nav', '.setup-bar', '.panels', '.inspector-panel', '.event-log', '.app-footer', '.transport-bar']) {
      assert.equal(await page.locator(absent).count(), 0, `${absent} has no place in an embed`);
    }
    assert.equal(await position(), 12);
    assert.match(await page.locator('[data-testid="narration"]').innerText(), /t = \d+ ms\./);
    await page.locator('[data-testid="step"]').click();
    assert.equal(await position(), 13);
    await page.locator('[data-testid="back"]').click();
    await page.locator('[data-testid="back"]').click();
    assert.equal(await position(), 11);
    await page.locator('[data-testid="scrubber"]').fill('20');
    assert.equal(await position(), 20);
    // The transport is in the flow of the page, not held to the viewport.
    const placement = await page.locator('[data-testid="embed-transport"]').evaluate((el) => getComputedStyle(el).position);
    assert.equal(placement, 'static');
    assert.deepEqual(app.problems, []);
  });

  it('links out to the full playground at the same moment, in a new tab', async () => {
    await openEmbed(`embed&s=${S2}&at=12&controls=full&theme=dark&caption=Mine`);
    await page.locator('[data-testid="step"]').click();
    const link = page.locator('[data-testid="embed-open"]');
    assert.equal(await link.getAttribute('target'), '_blank');
    const href = await link.getAttribute('href');
    assert.equal(href, `${app.site.url}s/${S2}/#at=13`, 'the embed parameters are dropped, the moment kept');
    const [opened] = await Promise.all([page.context().waitForEvent('page'), link.click()]);
    await opened.locator('[data-testid="timeline-main"] svg').waitFor({ timeout: 30_000 });
    assert.equal(await opened.locator('.site-nav').count(), 1, 'the full app, with its navigation');
    assert.match(await opened.locator('[data-testid="position"]').innerText(), /^event 13 of/);
    await opened.close();
  });

  it('shows the controls asked for: none, the transport, or all of them', async () => {
    await openEmbed(`embed&s=${S2}&at=12&controls=none`);
    const buttonsOutsideTimeline = () => page.evaluate(() => [...document.querySelectorAll('[data-testid="embed"] button, [data-testid="embed"] input, [data-testid="embed"] select')]
      .filter((control) => !control.closest('.timeline-frame')).length);
    assert.equal(await buttonsOutsideTimeline(), 0);
    await page.keyboard.press('ArrowRight');
    assert.equal(await page.locator('[data-testid="timeline-main"]').count(), 1);
    assert.equal(await page.locator('[data-testid="embed-transport"]').count(), 0);
    assert.equal(await page.locator('[data-testid="narration"]').count(), 1);
    // Before the first event the "now" line invites Step and Play only where they are.
    await openEmbed(`embed&s=${S2}&at=0&controls=none`);
    assert.equal((await page.locator('[data-testid="narration"]').innerText()).replace(/^now\s*/i, ''), 'Nothing has happened yet.');
    await openEmbed(`embed&s=${S2}&at=0&controls=transport`);
    assert.match(await page.locator('[data-testid="narration"]').innerText(), /Nothing has happened yet\. Press Step or Play\./);

    await openEmbed(`embed&s=${S2}&at=12&controls=transport`);
    for (const testid of ['back', 'step', 'play', 'scrubber']) {
      assert.equal(await page.locator(`[data-testid="${testid}"]`).count(), 1, testid);
    }
    for (const testid of ['embed-fencing', 'embed-compare', 'embed-next-violation']) {
      assert.equal(await page.locator(`[data-testid="${testid}"]`).count(), 0, testid);
    }

    await openEmbed(`embed&s=s1-gc-pause-unfenced&controls=full`);
    await page.locator('[data-testid="embed-next-violation"]').click();
    const atViolation = await position();
    assert.ok(atViolation > 0);
    assert.match(await page.locator('[data-testid="narration"]').innerText(), /breaks an invariant/);
    // The same switch as the playground's setup bar: it says its state in words and aria-checked.
    const fencingSwitch = page.locator('[data-testid="embed-fencing"]');
    assert.equal(await fencingSwitch.getAttribute('role'), 'switch');
    assert.equal(await fencingSwitch.getAttribute('aria-checked'), 'false');
    await fencingSwitch.click();
    assert.equal(await fencingSwitch.getAttribute('aria-checked'), 'true');
    await page.waitForFunction(() => document.querySelector('[data-testid="timeline-main"]')?.getAttribute('aria-label') === 'Timeline · fencing on');
    await page.locator('[data-testid="embed-compare"]').click();
    await page.locator('[data-testid="timeline-twin"]').waitFor();
    assert.match(await page.locator('[data-testid="embed-open"]').getAttribute('href'), /compare=1/);
    assert.deepEqual(app.problems, []);
  });

  it('keeps to the excerpt: opens at from, Back stops there, Step and Play stop at to', async () => {
    await openEmbed(`embed&s=${S2}&from=5&to=8`);
    assert.equal(await position(), 5);
    const scrubber = page.locator('[data-testid="scrubber"]');
    assert.deepEqual([await scrubber.getAttribute('min'), await scrubber.getAttribute('max')], ['5', '8']);
    assert.equal(await page.locator('[data-testid="back"]').isDisabled(), true);
    for (let i = 0; i < 3; i += 1) await page.locator('[data-testid="step"]').click();
    assert.equal(await position(), 8);
    assert.equal(await page.locator('[data-testid="step"]').isDisabled(), true);
    await page.keyboard.press('ArrowRight');
    assert.equal(await position(), 8, 'no key steps past the excerpt');
    await page.keyboard.press('ArrowLeft');
    assert.equal(await position(), 7, 'the keys work inside it');
    await page.keyboard.press('Home');
    assert.equal(await position(), 5, 'Home goes to `from`');
    await scrubber.fill('6');
    assert.equal(await position(), 6);
    await page.locator('[data-testid="play"]').click();
    await page.waitForFunction(() => document.querySelector('[data-testid="play"]')?.dataset.playing === 'false', null, { timeout: 10_000 });
    assert.equal(await position(), 8, 'Play stops at `to`');

    await openEmbed(`embed&s=${S2}&from=5&to=8&at=7`);
    assert.equal(await position(), 7, '`at` inside the excerpt opens there');
  });

  it('says what is wrong with a wrong address inside the frame, naming the parameter', async () => {
    const badScenario = base64url('{\n  "format": 1,\n  "title": oops\n}');
    const cases = [
      [`embed&s=${S2}&zoom=3`, /`zoom`/],
      [`embed&s=${S2}&controls=some`, /`controls=`: `some` is not one of none, transport, full/],
      [`embed&s=${S2}&theme=sepia`, /`theme=`/],
      [`embed&s=${S2}&from=9&to=3`, /`from=9` is after `to=3`/],
      [`embed&s=${S2}&from=2&to=6&at=9`, /`at=9` is outside the excerpt/],
      [`embed&s=${S2}&to=9999`, /`to=9999`: this run has only \d+ events/],
      [`embed&s=${S2}&seed=x`, /`seed=`/],
      [`embed&s=${S2}&fencing=maybe`, /`fencing=`/],
      ['embed&s=no-such-scenario', /`s=`/],
      [`embed&scenario=${badScenario}`, /`scenario=`.*line 3, column \d+/],
      ['embed&at=3', /names no scenario/],
      ['embed&learn=no-such-lesson', /`learn=no-such-lesson`/],
      [`embed&learn=${lessons[0].id}&step=99`, /`step=99`/],
    ];
    for (const [fragment, expected] of cases) {
      await app.leave();
      await page.goto(`${app.site.url}#${fragment}`);
      const text = await problemText();
      assert.match(text, expected, `${fragment}: ${text}`);
      assert.match(text, /^This embed cannot be shown/);
      assert.equal(await page.locator('.site-nav').count(), 0);
    }
    assert.deepEqual(app.problems, [], 'a wrong address is said, not thrown');
  });

  it('plays on load with autoplay=1, and never under prefers-reduced-motion', async () => {
    await openEmbed(`embed&s=${S2}&autoplay=1&controls=transport`);
    const start = await position();
    await page.waitForFunction((n) => {
      const text = document.querySelector('[data-testid="position"]')?.textContent ?? '';
      return Number(/^event (\d+)/.exec(text)?.[1]) > n + 1;
    }, start, { timeout: 10_000 });
    assert.equal(await page.locator('[data-testid="play"]').getAttribute('data-playing'), 'true');

    assert.equal(await page.evaluate(() => document.documentElement.dataset.embedAutoplay), 'started');

    await page.emulateMedia({ reducedMotion: 'reduce' });
    await openEmbed(`embed&s=${S2}&autoplay=1&controls=transport`);
    const still = await position();
    // The embed has decided what to do about autoplay (and done it) once it says so.
    await page.waitForFunction(() => document.documentElement.dataset.embedAutoplay !== undefined);
    assert.equal(await page.evaluate(() => document.documentElement.dataset.embedAutoplay), 'declined');
    assert.equal(await page.locator('[data-testid="play"]').getAttribute('data-playing'), 'false');
    assert.equal(await position(), still, 'reduced motion: nothing moves by itself');
    await page.emulateMedia({ reducedMotion: 'no-preference' });
  });

  it('pauses autoplay out of view and in a hidden tab, and resumes when watched again', async () => {
    const frame = await openInFrame(`embed&s=s15-consensus-leader-crash&autoplay=1&theme=light`, 640);
    const playing = () => frame.locator('[data-testid="play"]').getAttribute('data-playing');
    await frame.locator('[data-testid="play"][data-playing="true"]').waitFor({ timeout: 10_000 });
    const inner = page.frames().find((f) => f.url().includes('#embed'));
    /**
     * Waits until the embed says whether anyone can watch it (`true` or `false`). Polled on a
     * timer: Chromium runs no animation frames in a cross-origin frame out of view.
     */
    const watched = (yes) =>
      inner.waitForFunction((word) => document.documentElement.dataset.embedWatched === word, String(yes), { polling: 50 });
    await watched(true);
    await page.evaluate(() => window.scrollTo(0, 2500));
    // The embed knows it is out of view: it has paused, and nothing else will start it.
    await watched(false);
    assert.equal(await playing(), 'false');
    const parked = await position(frame);
    assert.equal(await position(frame), parked, 'out of view, it stays where it paused');
    await page.evaluate(() => window.scrollTo(0, 0));
    await frame.locator('[data-testid="play"][data-playing="true"]').waitFor({ timeout: 5_000 });

    // The tab hidden (headless Chromium's tab cannot be hidden, so the document says it is).
    await inner.evaluate(() => {
      Object.defineProperty(document, 'hidden', { configurable: true, get: () => true });
      document.dispatchEvent(new Event('visibilitychange'));
    });
    assert.equal(await playing(), 'false');
    await inner.evaluate(() => {
      Object.defineProperty(document, 'hidden', { configurable: true, get: () => false });
      document.dispatchEvent(new Event('visibilitychange'));
    });
    await frame.locator('[data-testid="play"][data-playing="true"]').waitFor({ timeout: 5_000 });
    // Paused by the reader, it stays paused through the same.
    await frame.locator('[data-testid="play"]').click();
    assert.equal(await playing(), 'false');
    await page.evaluate(() => window.scrollTo(0, 2500));
    await watched(false);
    await page.evaluate(() => window.scrollTo(0, 0));
    // Back in view, and the embed has done what it does about that: it stays paused.
    await watched(true);
    assert.equal(await playing(), 'false');
  });

  it('takes its theme for this view only, and never stores it', async () => {
    const background = () => page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    await page.emulateMedia({ colorScheme: 'light' });
    await openEmbed(`embed&s=${S2}&theme=dark`);
    assert.equal(await page.evaluate(() => document.documentElement.dataset.theme), 'dark');
    const dark = await background();
    await app.screenshot('embed-dark-640');
    await openEmbed(`embed&s=${S2}&theme=light`);
    const light = await background();
    assert.notEqual(dark, light);
    await app.screenshot('embed-light-640');
    await page.emulateMedia({ colorScheme: 'dark' });
    await openEmbed(`embed&s=${S2}`);
    assert.equal(await background(), dark, 'auto follows the system');
    assert.equal(await page.evaluate(() => localStorage.getItem('lockstep-theme')), null);
    // The full app keeps the visitor's own choice: an embed's theme does not leak into it.
    await page.evaluate(() => localStorage.setItem('lockstep-theme', 'light'));
    await openEmbed(`embed&s=${S2}&theme=dark`);
    assert.equal(await page.evaluate(() => localStorage.getItem('lockstep-theme')), 'light');
    // A wrong address is said in the theme it asked for.
    await app.leave();
    await page.goto(`${app.site.url}#embed&s=${S2}&theme=dark&zoom=3`);
    await problemText();
    assert.equal(await page.evaluate(() => document.documentElement.dataset.theme), 'dark');
    await page.emulateMedia({ colorScheme: 'light' });
    await page.evaluate(() => localStorage.removeItem('lockstep-theme'));
  });

  it('embeds a whole lesson: its steps, Next, the timeline, and the link to the same step', async () => {
    const lesson = lessons[0];
    await openEmbed(`embed&learn=${lesson.id}&step=2`, '[data-testid="lesson"]');
    await page.waitForFunction(() => document.querySelector('[data-testid="lesson"]')?.dataset.step === '2');
    assert.equal(await page.locator('[data-testid="embed-caption"]').innerText(), lesson.title);
    assert.equal(await page.locator('.site-nav').count(), 0);
    await page.locator('[data-testid="timeline-main"] svg').waitFor();
    await page.locator('[data-testid="lesson-next"]').click();
    await page.waitForFunction(() => document.querySelector('[data-testid="lesson"]')?.dataset.step === '3');
    assert.equal(await page.locator('[data-testid="embed-open"]').getAttribute('href'), `${app.site.url}learn/${lesson.id}/3/`);
    await page.locator('body').press('ArrowRight');
    await page.waitForFunction(() => document.querySelector('[data-testid="lesson"]')?.dataset.step === '4');
    await page.locator('body').press('ArrowLeft');
    await page.waitForFunction(() => document.querySelector('[data-testid="lesson"]')?.dataset.step === '3');
    assert.ok(page.url().includes('#embed&'), 'the embed stays an embed');
    assert.deepEqual(await app.axe(), []);
  });

  it('sizes its frame to its content at 320, 640 and 960 px (a scenario, nine lanes with every control, a lesson), with the story in view at 640', async () => {
    const story = ['embed-caption', 'timeline-main', 'narration', 'step'];
    const cases = [
      [`embed&s=${S2}&at=12`, story],
      // Nine lanes, and every control.
      ['embed&s=s17-redlock-split-vote-no-jitter&at=40&controls=full&compare=1', story],
      [`embed&learn=${lessons[0].id}&step=2`, ['embed-caption', 'lesson-text', 'lesson-next', 'timeline-main', 'narration']],
    ];
    for (const [fragment, seen] of cases) for (const width of [320, 640, 960]) {
      const frame = await openInFrame(fragment, width);
      await frame.locator('[data-testid="timeline-main"] svg').first().waitFor();
      await frame.locator(`[data-testid="${seen[1]}"]`).first().waitFor();
      const inner = page.frames().find((f) => f.url().includes('#embed'));
      // The frame takes the height of the last message, and that is its content's height.
      const contentHeight = () => inner.evaluate(() => {
        const root = document.querySelector('[data-testid="embed"]');
        const page = document.documentElement;
        return {
          root: Math.ceil(root.getBoundingClientRect().height),
          scroll: page.scrollHeight,
          visible: page.clientHeight,
          scrollWidth: page.scrollWidth,
          visibleWidth: page.clientWidth,
        };
      });
      // Inside the frame: the embed has told the page its height as it is now, and the frame has
      // taken it (the host page sets it from the message).
      await inner.waitForFunction(() => {
        const height = Math.ceil(document.querySelector('[data-testid="embed"]').getBoundingClientRect().height);
        return document.documentElement.dataset.embedHeight === String(height) && window.innerHeight === height;
      }, null, { polling: 50 });
      const measured = {
        ...(await page.evaluate(() => ({
          frame: document.getElementById('embed').clientHeight,
          sizes: window.received.filter((m) => m.data?.type === 'lockstep:embed-size'),
        }))),
        ...(await contentHeight()),
      };
      const where = `${fragment} at ${width}px`;
      assert.ok(measured.sizes.length > 0, `${where}: no size message`);
      for (const { origin, data } of measured.sizes) {
        assert.equal(origin, new URL(app.site.url).origin);
        assert.deepEqual(Object.keys(data).sort(), ['height', 'type', 'version']);
        assert.equal(data.version, 1);
        assert.ok(Number.isInteger(data.height) && data.height > 0);
      }
      assert.equal(measured.frame, measured.sizes.at(-1).data.height, `${where}: the frame has the last height posted`);
      assert.equal(measured.frame, measured.root, `${where}: the frame is as tall as the embed`);
      assert.equal(measured.scroll, measured.visible, `${where}: no inner scrollbar`);
      assert.ok(measured.scrollWidth <= measured.visibleWidth, `${where}: nothing wider than the frame`);
      if (width === 640) {
        const frameBox = await page.locator('#embed').boundingBox();
        for (const testid of seen) {
          const box = await frame.locator(`[data-testid="${testid}"]`).first().boundingBox();
          assert.ok(box && box.height > 0, testid);
          assert.ok(box.y >= frameBox.y && box.y + box.height <= frameBox.y + frameBox.height + 0.5,
            `${where}: ${testid} within the frame`);
        }
      }
      if (fragment === cases[0][0]) {
        await page.screenshot({ path: join(ARTIFACTS, `embed-in-page-${width}.png`), fullPage: true });
      }
    }
  });

  it('posts a new height when its content grows, and asks the browser to resize', async () => {
    await page.addInitScript(() => {
      window.resizeRequests = 0;
      window.requestResize = () => { window.resizeRequests += 1; };
    });
    const frame = await openInFrame(`embed&s=${S2}&at=12&controls=full`, 640);
    await frame.locator('[data-testid="timeline-main"] svg').waitFor();
    const count = () => page.evaluate(() => window.received.filter((m) => m.data?.type === 'lockstep:embed-size').length);
    await page.waitForFunction(() => window.received.length > 0);
    const before = await page.evaluate(() => window.received.at(-1).data.height);
    const messages = await count();
    await frame.locator('[data-testid="embed-compare"]').click();
    await frame.locator('[data-testid="timeline-twin"]').waitFor();
    await page.waitForFunction((n) => window.received.length > n, messages);
    const grown = await page.evaluate(() => window.received.at(-1).data.height);
    assert.ok(grown > before + 100, `the twin timeline adds height: ${before} → ${grown}`);
    const inner = page.frames().find((f) => f.url().includes('#embed'));
    assert.ok(await inner.evaluate(() => window.resizeRequests) > 0, 'window.requestResize() was called');
    assert.equal(await inner.evaluate(() => document.querySelector('meta[name="responsive-embedded-sizing"]') !== null), true);
  });

  it('shows no site chrome while the simulator loads inside an embed', async () => {
    await page.route('**/*.wasm', () => {});
    try {
      await app.leave();
      await page.goto(`${app.site.url}#embed&s=${S2}&theme=dark`);
      await page.locator('[data-testid="loading-line"]').waitFor();
      // The root's own page, rendered at build time, is hidden under an embed's address.
      assert.equal(await page.locator('.site-nav:visible').count(), 0);
      assert.equal(await page.locator('.loading-toolbar').isVisible(), false);
      assert.equal(await page.evaluate(() => document.documentElement.dataset.theme), 'dark');
    } finally {
      await page.unroute('**/*.wasm');
    }
  });

  it('passes axe-core in light and dark, with every control, and when it shows an error', async () => {
    for (const fragment of [
      `embed&s=${S2}&at=12&controls=full&theme=light`,
      `embed&s=${S2}&at=12&controls=full&compare=1&theme=dark`,
    ]) {
      await openEmbed(fragment);
      assert.deepEqual(await app.axe(), [], fragment);
    }
    await app.leave();
    await page.goto(`${app.site.url}#embed&s=${S2}&zoom=3`);
    await problemText();
    assert.deepEqual(await app.axe(), []);
  });
});
