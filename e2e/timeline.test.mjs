// The timeline's readability in headless Chromium, at 1280×800 and on a 375-px phone: labels
// where the native layout put them (never cut off by the plot's edges), the legend, the opening
// view on the stretch where things happen, "Follow now" as an outlined toggle, and the height of
// the 8-lane Redlock timeline. The native tests (src/layout/catalogue_tests.rs) prove the labels
// clear of each other over the whole catalogue; these check that the page draws what they prove.

import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';

import { startApp } from './harness.mjs';

const S2_END = 's=s2-gc-pause-fenced&at=24';
const S10 = 's=s10-redlock-clock-jump';
const main = (testid) => `[data-testid="timeline-main"] [data-testid="${testid}"]`;

/** Opens `fragment` and waits until the fetched Redlock scenario has replaced the default one. */
async function openRedlock(app, fragment) {
  await app.open(fragment);
  await app.page.locator('[data-testid="lane-label"][data-node="redis-a"]').waitFor();
  await app.settle();
}

/** Every label's box and the plot's, in page px. */
async function labelBoxes(page) {
  return page.evaluate(() => {
    const plot = document.querySelector('[data-testid="timeline-main"] .timeline-plot').getBoundingClientRect();
    const labels = [...document.querySelectorAll('[data-testid="timeline-main"] [data-testid="timeline-label"]')].map((g) => {
      const r = g.getBoundingClientRect();
      return { text: g.textContent, of: g.dataset.of, left: r.left, right: r.right, top: r.top, bottom: r.bottom };
    });
    const ticks = [...document.querySelectorAll('[data-testid="timeline-main"] .tick text')].map((t) => {
      const r = t.getBoundingClientRect();
      return { text: t.textContent, left: r.left, right: r.right };
    });
    return { plot: { left: plot.left, right: plot.right }, labels, ticks };
  });
}

function assertInsidePlot({ plot, labels, ticks }) {
  for (const box of [...labels, ...ticks]) {
    assert.ok(box.left >= plot.left - 0.5 && box.right <= plot.right + 0.5,
      `"${box.text}" (${box.left.toFixed(1)}–${box.right.toFixed(1)}) is cut off by the plot (${plot.left.toFixed(1)}–${plot.right.toFixed(1)})`);
  }
}

function assertApart(labels) {
  for (let i = 0; i < labels.length; i += 1) {
    for (const b of labels.slice(i + 1)) {
      const a = labels[i];
      const apart = a.right <= b.left + 0.5 || b.right <= a.left + 0.5 || a.bottom <= b.top + 0.5 || b.bottom <= a.top + 0.5;
      assert.ok(apart, `"${a.text}" overlaps "${b.text}" on screen`);
    }
  }
}

describe('the timeline at 1280×800', () => {
  let app;
  let page;

  before(async () => {
    app = await startApp();
    page = app.page;
  });

  after(async () => {
    await app?.close();
  });

  it('labels client-b’s bars with token 34 and keeps every label inside the plot and apart', async () => {
    await app.open(S2_END);
    const boxes = await labelBoxes(page);
    const onBars = boxes.labels.filter((l) => l.of === 'bar').map((l) => l.text);
    assert.ok(onBars.some((t) => /34/.test(t) && /believes/.test(t)), `bar labels: ${onBars.join(' | ')}`);
    assert.ok(boxes.labels.some((l) => l.of === 'mark' && l.text === '33 < 34'), 'the refusal is labelled');
    assert.ok(boxes.labels.some((l) => l.of === 'band'), 'the broken invariant is labelled');
    assertInsidePlot(boxes);
    assertApart(boxes.labels);
  });

  it('draws S15’s lease kept in the log between leaders, and no belief outliving it', async () => {
    await app.open('s=s15-consensus-leader-crash&at=14');
    await page.locator('[data-testid="lane-label"][data-node="etcd-2"]').waitFor();
    await app.waitForPosition(14);
    await app.settle();
    const stored = await page.locator(main('stored-lease-bar')).evaluateAll((bars) =>
      bars.map((b) => ({ lane: b.dataset.lane, token: b.dataset.token, title: b.querySelector('title')?.textContent })));
    assert.deepEqual(stored.map((b) => b.lane).sort(), ['etcd-2', 'etcd-3'], 'the followers keep the lease');
    for (const bar of stored) {
      assert.equal(bar.token, '1');
      assert.match(bar.title, /client-a, token 1, kept in the replicated log: no leader is serving it yet/);
    }
    assert.equal(await page.locator(`${main('overhang')}[data-lane="client-a"]`).count(), 0,
      'client-a’s belief does not outlive a lease the service still keeps');
    const keys = await page.locator('[data-testid="timeline-legend"] [data-key]').evaluateAll((items) => items.map((i) => i.dataset.key));
    assert.ok(keys.includes('stored_lease'), `the legend explains the kept lease: ${keys.join(', ')}`);
    await app.screenshot('timeline-s15-lease-kept-between-leaders');
  });

  it('shows a legend drawn with the timeline’s shapes, for what the run draws', async () => {
    await app.open(S2_END);
    const legend = page.locator('[data-testid="timeline-legend"]');
    assert.ok(await legend.isVisible(), 'the legend is on screen');
    const keys = await legend.locator('[data-key]').evaluateAll((items) => items.map((i) => i.dataset.key));
    for (const key of ['lease', 'belief', 'overhang', 'pause', 'write_accepted', 'write_rejected', 'violation_lock']) {
      assert.ok(keys.includes(key), `the legend explains ${key}: ${keys.join(', ')}`);
    }
    assert.ok(!keys.includes('clock_jumped'), 'nothing S2 does not draw');
    // The overhang's sample is filled with the same hatching as the timeline's overhang.
    const fill = await legend.locator('[data-key="overhang"] rect').getAttribute('style');
    assert.match(fill, /url\(#overhang-legend-main\)/);
    const rows = await legend.evaluate((el) => Math.round(el.getBoundingClientRect().height / 16));
    assert.ok(rows <= 2, `the legend takes ${rows} rows`);
  });

  it('opens a Redlock run on its activity, and "Whole run" shows all of it', async () => {
    await openRedlock(app, S10);
    const range = page.locator(main('view-range'));
    const opening = await range.innerText();
    assert.notEqual(opening, '0 ms – 6 s', 'not the nominal end of the run');
    await page.locator(main('zoom-fit')).click();
    assert.equal(await range.innerText(), '0 ms – 6 s');
  });

  it('keeps the Redlock timelines (8 and 9 lanes), their toolbar and legend within 430 px', async () => {
    await openRedlock(app, 's=s17-redlock-split-vote-no-jitter');
    const tallest = await page.locator('.timeline-frame').first().evaluate((el) => el.getBoundingClientRect().height);
    assert.ok(tallest <= 430, `S17's timeline is ${tallest} px tall`);
    await openRedlock(app, `${S10}&at=50`);
    const height = await page.locator('.timeline-frame').first().evaluate((el) => el.getBoundingClientRect().height);
    assert.ok(height <= 430, `S10's timeline is ${height} px tall`);
    const boxes = await labelBoxes(page);
    assert.ok(boxes.labels.some((l) => l.of === 'mark' && l.text === '+15000 ms'), 'the clock jump is labelled');
    assertInsidePlot(boxes);
    assertApart(boxes.labels);
  });

  it('makes "Follow now" a toggle that is outlined, not filled, when on', async () => {
    await app.open(S2_END);
    const follow = page.locator(main('follow'));
    assert.equal(await follow.getAttribute('aria-pressed'), 'true');
    const style = await follow.evaluate((el) => {
      const s = getComputedStyle(el);
      const page = getComputedStyle(document.body);
      return { background: s.backgroundColor, page: page.backgroundColor };
    });
    assert.equal(style.background, style.page, 'the pressed toggle has the page’s background, not the accent');
    await follow.click();
    assert.equal(await follow.getAttribute('aria-pressed'), 'false');
    assert.deepEqual(app.problems, []);
  });
});

describe('the timeline on a 375-px phone', () => {
  let app;
  let page;

  before(async () => {
    app = await startApp({ viewport: { width: 375, height: 700 }, hasTouch: true, isMobile: true });
    page = app.page;
  });

  after(async () => {
    await app?.close();
  });

  it('puts the lanes’ names above the lanes, the plot full width, and cuts off no label', async () => {
    for (const at of [S2_END, `${S10}&at=50`]) {
      if (at === S2_END) await app.open(at);
      else await openRedlock(app, at);
      const widths = await page.evaluate(() => ({
        plot: document.querySelector('[data-testid="timeline-main"] .timeline-plot').getBoundingClientRect().width,
        section: document.querySelector('[data-testid="timeline-main"]').getBoundingClientRect().width,
      }));
      assert.ok(widths.plot >= widths.section - 1, `the plot is ${widths.plot} px of ${widths.section}`);
      const boxes = await labelBoxes(page);
      assert.ok(boxes.labels.length > 0, 'labels are drawn');
      assertInsidePlot(boxes);
      assertApart(boxes.labels);
      // Each lane's name sits on its lane, inside the plot.
      const names = await page.locator('[data-testid="lane-label"]').evaluateAll((buttons) => buttons.map((b) => {
        const r = b.getBoundingClientRect();
        return { left: r.left, right: r.right };
      }));
      const plot = boxes.plot;
      for (const name of names) assert.ok(name.left >= plot.left - 0.5 && name.right <= plot.right + 0.5);
    }
    const legend = page.locator('[data-testid="timeline-legend"]');
    assert.equal(await legend.evaluate((el) => el.tagName), 'DETAILS', 'a disclosure on the phone');
    assert.deepEqual(app.problems, []);
  });
});

/**
 * Each shown label of a broken invariant in `timeline`: its box, the lanes it sits across, the
 * lanes that broke it, and whether it touches a lane's name or badge.
 */
async function bandLabels(page, timeline = 'main') {
  return page.evaluate((name) => {
    const root = document.querySelector(`[data-testid="timeline-${name}"]`);
    const box = (el) => el.getBoundingClientRect();
    const overlaps = (a, b) => a.left < b.right - 0.5 && b.left < a.right - 0.5 && a.top < b.bottom - 2 && b.top < a.bottom - 2;
    const lanes = [...root.querySelectorAll('[data-testid="lane"]')].map((l) => ({ node: l.dataset.node, r: box(l) }));
    const words = [...root.querySelectorAll('[data-testid="lane-label"] .lane-name, [data-testid="lane-label"] .badge')]
      .filter((w) => w.textContent.trim() !== '').map((w) => ({ text: w.textContent, r: box(w) }));
    return [...root.querySelectorAll('[data-testid="violation-band"]:not([data-repeats="0"])')].map((band) => {
      const key = `band-${band.dataset.eventId}-${band.dataset.invariant}`;
      // Its label by key; a build before keys had only its words, the band's whole statement.
      const label = root.querySelector(`[data-testid="timeline-label"][data-key="${key}"]`) ??
        [...root.querySelectorAll('[data-testid="timeline-label"][data-of="band"]')]
          .find((l) => l.textContent === band.querySelector('title').textContent);
      const r = label && box(label);
      return {
        invariant: band.dataset.invariant,
        shown: band.dataset.label,
        culprits: band.dataset.lanes.split(' '),
        text: label?.textContent,
        // Every lane it reaches into by more than its type's ascent and descent overflow their
        // 12-px row (2 px).
        on: r ? lanes.filter((l) => r.top < l.r.bottom - 2 && l.r.top < r.bottom - 2).map((l) => l.node) : [],
        over: r ? words.filter((w) => overlaps(r, w.r)).map((w) => w.text) : [],
      };
    });
  }, timeline);
}

/** The right and left edges of `timeline`'s plot, its label grounds and its marks' glyphs. */
async function edges(page, timeline) {
  return page.evaluate((name) => {
    const root = document.querySelector(`[data-testid="timeline-${name}"]`);
    const plot = root.querySelector('.timeline-plot').getBoundingClientRect();
    const grounds = [...root.querySelectorAll('.label-ground')].map((g) => g.getBoundingClientRect()).filter((r) => r.width > 0);
    const glyphs = [...root.querySelectorAll('[data-testid="event-mark"]')].map((mark) => {
      const parts = [...mark.children].filter((c) => !c.classList.contains('hit') && c.tagName !== 'title').map((c) => c.getBoundingClientRect());
      return { event: mark.dataset.eventId, left: Math.min(...parts.map((p) => p.left)), right: Math.max(...parts.map((p) => p.right)) };
    });
    return { plot: { left: plot.left, right: plot.right }, grounds, glyphs };
  }, timeline);
}

describe('the timeline on a 320-px phone says where', () => {
  let app;
  let page;

  before(async () => {
    app = await startApp({ viewport: { width: 320, height: 640 }, hasTouch: true, isMobile: true });
    page = app.page;
  });

  after(async () => {
    await app?.close();
  });

  it('puts each broken invariant’s label on a lane that broke it, clear of the lanes’ names', async () => {
    for (const link of ['s=s1-gc-pause-unfenced&at=24', 's=s3-fencing-gap&at=24']) {
      await app.open(link);
      await app.waitForPosition(24);
      await app.settle();
      const bands = await bandLabels(page);
      assert.ok(bands.some((b) => b.shown === 'shown'), `${link}: a broken invariant is labelled: ${JSON.stringify(bands)}`);
      // Where its lanes have no room (a pause's hatching), a band keeps its words for hover.
      for (const band of bands.filter((b) => b.shown === 'hover')) {
        assert.equal(band.text, undefined, `${link}: ${band.invariant} is hover only, and its words are nowhere else`);
      }
      for (const band of bands.filter((b) => b.shown === 'shown')) {
        assert.ok(band.text, `${link}: ${band.invariant} says it is labelled, and is`);
        assert.equal(band.on.length, 1, `${link}: "${band.text}" sits across ${band.on.join(', ')}`);
        assert.ok(band.culprits.includes(band.on[0]),
          `${link}: "${band.text}" sits on ${band.on[0]}, not on a lane that broke it (${band.culprits.join(', ')})`);
        assert.deepEqual(band.over, [], `${link}: "${band.text}" covers a lane's name`);
      }
    }
    await app.screenshot('timeline-320-band-labels-on-their-lanes');
    assert.deepEqual(app.problems, []);
  });

  it('zooms in on the first milliseconds while following now', async () => {
    await app.open('s=s1-gc-pause-unfenced&at=6');
    await app.waitForPosition(6);
    await app.settle();
    const spread = await page.evaluate(() => {
      const root = document.querySelector('[data-testid="timeline-main"]');
      const plot = root.querySelector('.timeline-plot').getBoundingClientRect();
      const now = root.querySelector('[data-testid="now-line"] line').getBoundingClientRect();
      return (now.left - plot.left) / plot.width;
    });
    assert.ok(spread >= 0.4, `what happened so far takes ${(spread * 100).toFixed(0)} % of the plot`);
    assert.match(await page.locator(main('view-range')).innerText(), /^0 ms – \d+ ms$/, 'a view of milliseconds');
    // The user's own view stays: "Whole run" shows all of it, following or not.
    await page.locator(main('zoom-fit')).click();
    assert.equal(await page.locator(main('view-range')).innerText(), '0 ms – 4 s');
    await page.locator('[data-testid="step"]').click();
    await app.waitForPosition(7);
    assert.equal(await page.locator(main('view-range')).innerText(), '0 ms – 4 s');
    await app.screenshot('timeline-320-first-milliseconds');
    assert.deepEqual(app.problems, []);
  });

  it('draws a recording’s last mark and its labels inside the plot, whole run or following now', async () => {
    await app.leave();
    await page.goto(`${app.site.url}#real=s4-delayed-packet.postgres`);
    await page.locator('[data-testid="timeline-recorded"] svg').waitFor({ timeout: 30_000 });
    await app.settle();
    const inside = async (when) => {
      for (const name of ['simulated', 'recorded']) {
        const { plot, grounds, glyphs } = await edges(page, name);
        for (const g of grounds) {
          assert.ok(g.left >= plot.left + 1 && g.right <= plot.right - 1,
            `${when}, ${name}: a label (${g.left.toFixed(1)}–${g.right.toFixed(1)}) touches the plot's edge (${plot.left.toFixed(1)}–${plot.right.toFixed(1)})`);
        }
        for (const g of glyphs) {
          assert.ok(g.left >= plot.left - 0.5 && g.right <= plot.right + 0.5,
            `${when}, ${name}: the mark of event ${g.event} (${g.left.toFixed(1)}–${g.right.toFixed(1)}) is cut by the plot (${plot.right.toFixed(1)})`);
        }
      }
    };
    await inside('following now');
    // The two share one time axis: the leading timeline's "Whole run" (the other's is hidden).
    const fit = page.locator('[data-testid="zoom-fit"]:visible');
    assert.equal(await fit.count(), 1, 'one "Whole run" for both timelines');
    // In the middle of the screen, clear of the page's bar along the bottom.
    await fit.evaluate((button) => button.scrollIntoView({ block: 'center' }));
    await fit.click();
    await app.settle();
    const marks = await page.locator('[data-testid="timeline-recorded"] [data-testid="event-mark"]').count();
    assert.ok(marks > 0, 'the recording draws its writes');
    await inside('whole run');
    await app.screenshot('timeline-320-recording-whole-run');
    assert.deepEqual(app.problems, []);
  });
});
