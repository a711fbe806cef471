// The chaos lab explains itself (issue 28, point 4), in headless Chromium: the headline is the
// data ("Data intact in N of M runs"), the lock's bars are drawn apart from the data's, each bar
// and the histogram say why they are there and link a lesson step that exists; the results stay
// when the user leaves the lab for a lesson or the playground and comes back; a violating seed's
// short link (settings and seed) opens the playground at its violation with the timeline in
// view, followed from the lab or opened afresh, at 1280×800 and 375×700; the charts' labels neither collide nor leave the window at
// 320, 375 and 640 px; and on a phone (375×700, 320×640) Run brings the headline into the window, with the settings folded to
// one line that "Change" opens again. What kept the data of the runs that broke only the lock's
// promises is said for the run's fencing (with fencing off, no check), and the violating seeds
// list the runs that harmed the data first, at 1280×800 and 375×700.

import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';

import { startApp } from './harness.mjs';

/** Runs the lab at `fragment` (a fresh page load) until it has finished. */
async function runLab(app, fragment) {
  const { page } = app;
  await app.leave();
  await page.goto(`${app.site.url}#${fragment}`);
  await page.locator('[data-testid="lab-run"]').click({ timeout: 30_000 });
  await page.waitForFunction(() => document.querySelector('[data-testid="lab-progress"]')?.dataset.status === 'finished', null, {
    timeout: 90_000,
  });
}

/** What the results show: the headline's numbers and every bar's count. */
function results(page) {
  return page.evaluate(() => {
    const h = document.querySelector('[data-testid="lab-headline"]');
    return {
      headline: h && { text: h.querySelector('.lab-headline-main').textContent, intact: h.dataset.intact, lockOnly: h.dataset.lockOnly },
      bars: [...document.querySelectorAll('[data-testid="lab-bar"]')].map((b) => `${b.dataset.invariant}=${b.dataset.count}`),
    };
  });
}

describe('the chaos lab explains itself', () => {
  let app;
  let page;

  before(async () => {
    app = await startApp();
    page = app.page;
    await page.setViewportSize({ width: 1280, height: 800 });
  });

  after(async () => {
    await app?.close();
  });

  let shown;

  it('heads the results with the data, and explains every bar with a lesson step', async () => {
    await runLab(app, 'lab&fencing=on&runs=200&seed=1');
    shown = await results(page);
    const { headline } = shown;
    assert.ok(headline, 'a headline');
    assert.equal(headline.text, `Data intact in ${headline.intact} of 200 runs`);
    // Fencing on: the lock's promises break in runs whose data is intact, and the lab says so.
    assert.ok(Number(headline.lockOnly) > 0, JSON.stringify(headline));
    assert.match(await page.locator('[data-testid="lab-headline-detail"]').innerText(), /only the lock's promises/);
    // The lock's bars are drawn calm, the data's in the violation colour.
    const fills = await page.evaluate(() =>
      Object.fromEntries(
        ['lock', 'data'].map((c) => [
          c,
          [...new Set([...document.querySelectorAll(`[data-testid="lab-bar"][data-concern="${c}"] .lab-bar-fill`)].map((f) => getComputedStyle(f).backgroundColor))],
        ]),
      ),
    );
    assert.equal(fills.lock.length, 1, JSON.stringify(fills));
    assert.deepEqual(fills.data, ['rgb(184, 71, 0)'], 'the data in orange');
    assert.notDeepEqual(fills.lock, fills.data);
    // Every bar, and the histogram, says why in one sentence and links its lesson step.
    const whys = await page.evaluate(() => ({
      bars: [...document.querySelectorAll('[data-testid="lab-bar"]')].map((b) => ({
        id: b.dataset.invariant,
        text: b.querySelector('[data-testid="lab-why"]')?.textContent ?? '',
        href: b.querySelector('[data-testid="lab-why-lesson"]')?.href ?? '',
      })),
      histogram: document.querySelector('[data-testid="lab-histogram"] [data-testid="lab-why-lesson"]')?.href,
    }));
    // A lesson step's page (decision 43), where the link leads.
    const step = new RegExp(`^${app.site.url}learn/[a-z-]+/\\d+/$`);
    assert.ok(whys.bars.length >= 3, JSON.stringify(whys));
    for (const bar of whys.bars) {
      assert.match(bar.href, step, JSON.stringify(bar));
      assert.ok(bar.text.length > 40, JSON.stringify(bar));
    }
    assert.match(whys.histogram, step);
    const lost = whys.bars.find((b) => b.id === 'no_lost_update');
    assert.ok(lost, 'fencing on still loses read-modify-write updates');
    assert.match(lost.text, /not against a read-modify-write whose read was stale/);
    assert.equal(lost.href, `${app.site.url}learn/fencing-tokens/10/`);
    assert.deepEqual(await app.axe(), []);
    assert.deepEqual(app.problems, []);
  });

  it('keeps the results when the user goes to a lesson step or the playground and comes back', async () => {
    // To the lesson step a bar links …
    await page.locator('[data-testid="lab-bar"][data-invariant="no_lost_update"] [data-testid="lab-why-lesson"]').click();
    await page.waitForFunction(() => location.pathname.endsWith('/learn/fencing-tokens/10/'));
    await page.locator('[data-testid="chaos-lab"]').waitFor({ state: 'detached' });
    // … and back by the navigation bar's tab.
    await page.locator('[data-testid="nav-lab"]').click();
    await page.locator('[data-testid="lab-headline"]').waitFor();
    assert.deepEqual(await results(page), shown);
    assert.equal(await page.locator('[data-testid="lab-fencing"]').inputValue(), 'on', 'the settings of the results');
    // To the playground and back with the browser's Back.
    await page.locator('[data-testid="nav-playground"]').click();
    await page.locator('[data-testid="timeline-main"] svg').waitFor();
    await page.goBack();
    await page.locator('[data-testid="lab-headline"]').waitFor();
    assert.deepEqual(await results(page), shown);
    assert.deepEqual(app.problems, []);
  });

  it('keeps its chart labels apart and inside the window at 320, 375 and 640 px', async () => {
    await runLab(app, 'lab&fencing=on&runs=200&seed=1');
    for (const width of [320, 375, 640]) {
      await page.setViewportSize({ width, height: 800 });
      await app.settle();
      const found = await page.evaluate(() => {
        // The box of the text itself (not its element's, which the text may overflow), for
        // every label a reader sees: hidden ones are 1 px boxes.
        const textBox = (el) => {
          const range = document.createRange();
          const rects = [...el.childNodes]
            .filter((n) => n.nodeType === Node.TEXT_NODE && n.textContent.trim())
            .map((n) => {
              range.selectNode(n);
              return range.getBoundingClientRect();
            });
          if (!rects.length) return null;
          return {
            left: Math.min(...rects.map((r) => r.left)),
            right: Math.max(...rects.map((r) => r.right)),
            top: Math.min(...rects.map((r) => r.top)),
            bottom: Math.max(...rects.map((r) => r.bottom)),
          };
        };
        const selector = [
          '.lab-chart-title strong', '.lab-concern', '.lab-bar-label', '.lab-bar-value', '[data-testid="lab-why"]',
          '.lab-histogram-count', '.lab-histogram-label', '.lab-histogram figcaption',
        ].join(', ');
        const labels = [...document.querySelectorAll(selector)]
          .filter((el) => el.getBoundingClientRect().width > 1)
          .map((el) => ({ name: `${el.className || el.dataset.testid} “${el.textContent.trim().slice(0, 24)}”`, box: textBox(el) }))
          .filter((l) => l.box);
        const bars = [...document.querySelectorAll('.lab-histogram-bar, .lab-bar-track')]
          .map((el) => el.getBoundingClientRect())
          .filter((r) => r.width > 0 && r.height > 0);
        const overlap = (a, b) => a.left < b.right - 0.5 && b.left < a.right - 0.5 && a.top < b.bottom - 0.5 && b.top < a.bottom - 0.5;
        const problems = [];
        labels.forEach((a, i) => {
          if (a.box.left < 0 || a.box.right > window.innerWidth) problems.push(`${a.name} leaves the window: ${a.box.left}…${a.box.right}`);
          labels.slice(i + 1).forEach((b) => overlap(a.box, b.box) && problems.push(`${a.name} overlaps ${b.name}`));
          bars.forEach((bar) => overlap(a.box, bar) && problems.push(`${a.name} is under a bar`));
        });
        // Every bucket keeps room for its bar, whichever of its labels show.
        const thin = [...document.querySelectorAll('.lab-histogram-bucket')]
          .map((b, i) => [i, (b.querySelector('.lab-histogram-area, .lab-histogram-bar')?.getBoundingClientRect().width ?? 0) / b.getBoundingClientRect().width])
          .filter(([, share]) => share < 0.9);
        if (thin.length) problems.push(`buckets whose bar is narrower than the bucket: ${JSON.stringify(thin)}`);
        return { problems, labels: labels.length, histogramLabels: document.querySelectorAll('.lab-histogram-label').length };
      });
      assert.ok(found.labels > 10 && found.histogramLabels === 20, JSON.stringify(found));
      assert.deepEqual(found.problems.slice(0, 6), [], `at ${width} px (${found.problems.length} problems)`);
    }
    await page.setViewportSize({ width: 1280, height: 800 });
  });

  for (const [width, height] of [[375, 700], [320, 640]]) {
    it(`brings the headline into the window after Run, at ${width}×${height}`, async () => {
      await page.setViewportSize({ width, height });
      await runLab(app, 'lab&fencing=on&runs=200&seed=1');
      // Smooth scrolling may still be under way: wait for the headline to stand whole in the window.
      const box = () =>
        page.evaluate(() => {
          const r = document.querySelector('[data-testid="lab-headline"]').getBoundingClientRect();
          return { top: r.top, bottom: r.bottom, height: window.innerHeight, scrollY: window.scrollY };
        });
      const inView = await page
        .waitForFunction(() => {
          const r = document.querySelector('[data-testid="lab-headline"]').getBoundingClientRect();
          return r.top >= 0 && r.bottom <= window.innerHeight;
        }, null, { timeout: 5_000 })
        .then(() => true, () => false);
      assert.ok(inView, `the headline is out of the window: ${JSON.stringify(await box())}`);
      // The settings are one line now; "Change" shows the form again.
      assert.ok(await page.locator('[data-testid="lab-settings-summary"]').isVisible());
      assert.ok(!(await page.locator('[data-testid="lab-form"]').isVisible()), 'the form is folded');
      await page.locator('[data-testid="lab-settings-change"]').click();
      await page.locator('[data-testid="lab-form"]').waitFor({ state: 'visible' });
      assert.deepEqual(app.problems, []);
    });
  }

  // Issue 42, point 3: what kept the data is said for the run's fencing (with fencing off there
  // is no check to speak of), and the seed list starts with the runs that harmed the data; those
  // that broke only the lock's promises, which the chart calls expected, come second. At a
  // laptop's width and a phone's.
  for (const [width, height] of [[1280, 800], [375, 700]]) {
    it(`says what kept the data for each fencing, and no check with fencing off, at ${width}×${height}`, async () => {
      await page.setViewportSize({ width, height });
      const detail = () => page.locator('[data-testid="lab-headline-detail"]').innerText();
      // Short runs with fencing off: most lose data, some break only the lock's promises.
      await runLab(app, 'lab&fencing=off&duration=20000&runs=200&seed=1');
      const off = await results(page);
      assert.ok(Number(off.headline.lockOnly) > 0, `runs that broke only the lock's promises: ${JSON.stringify(off.headline)}`);
      const offDetail = await detail();
      assert.doesNotMatch(offDetail, /resource[’']s check/, offDetail);
      assert.match(offDetail, /With fencing off the resource checks nothing/);
      assert.match(offDetail, /by timing alone/);
      // Fencing on: the resource's token check is what keeps the data.
      await runLab(app, 'lab&fencing=on&duration=20000&runs=200&seed=1');
      assert.match(await detail(), /the resource[’']s token check is what keeps the data/);
      assert.deepEqual(app.problems, []);
    });

    it(`lists the seeds that harmed the data first, those that broke only beliefs second, at ${width}×${height}`, async () => {
      await page.setViewportSize({ width, height });
      // Short runs with fencing on: few harm the data, many break only the lock's promises, the
      // first seed among them.
      await runLab(app, 'lab&fencing=on&duration=20000&runs=200&seed=1');
      await seedsHarmFirst();
      assert.deepEqual(await app.axe(), []);
      assert.deepEqual(app.problems, []);
    });
  }

  /**
   * The seed list as a reader meets it: the runs that harmed the data first, under their own
   * heading, each opening at a harm to the data; then, folded, those that broke only the lock's
   * promises, called expected.
   */
  async function seedsHarmFirst() {
    const dataMeasures = ['no_stale_write', 'one_writer_per_token', 'no_lost_update', 'no_double_charge', 'two_accepted_writers', 'data_lost'];
    const seeds = await page.locator('[data-testid="lab-violating-seed"]').evaluateAll((all) =>
      all.map((a) => ({ seed: Number(a.dataset.seed), invariant: a.dataset.invariant, shown: a.checkVisibility() })),
    );
    const firstBelief = seeds.findIndex((s) => !dataMeasures.includes(s.invariant));
    assert.ok(firstBelief > 0, `the list starts with a run that harmed the data: ${JSON.stringify(seeds.slice(0, 3))}`);
    assert.ok(seeds.slice(firstBelief).every((s) => !dataMeasures.includes(s.invariant)), 'no harm to the data after the first belief-only run');
    const groups = await page.locator('[data-testid="lab-seeds-group"]').evaluateAll((all) =>
      all.map((g) => ({ group: g.dataset.group, count: Number(g.dataset.count), open: g.tagName !== 'DETAILS' || g.open, heading: g.querySelector('h4, summary').textContent })),
    );
    assert.deepEqual(groups.map((g) => [g.group, g.open]), [['data', true], ['lock', false]]);
    assert.match(groups[0].heading, /^Runs that harmed the data \(\d+\)$/);
    assert.match(groups[1].heading, /^Runs that broke only the lock's promises \(\d+\): expected, their data stayed intact$/);
    // Both counts add up to the list's, and the headline's harmed runs are the first group.
    const heading = await page.locator('[data-testid="lab-seeds"] h3').innerText();
    assert.equal(groups[0].count + groups[1].count, Number(/\((\d[\d,]*)\)/.exec(heading)[1].replace(/,/g, '')));
    const { runs, intact } = await page.locator('[data-testid="lab-headline"]').evaluate((h) => h.dataset);
    assert.equal(groups[0].count, Number(runs) - Number(intact));
    // The belief-only runs are folded until asked for, then listed in seed order.
    assert.ok(seeds.slice(0, firstBelief).every((s) => s.shown) && seeds.slice(firstBelief).every((s) => !s.shown));
    await page.locator('[data-testid="lab-seeds-group"][data-group="lock"] > summary').click();
    const beliefs = await page.locator('[data-testid="lab-seeds-group"][data-group="lock"] [data-testid="lab-violating-seed"]')
      .evaluateAll((all) => all.map((a) => Number(a.dataset.seed)));
    assert.ok(beliefs.length > 0 && beliefs.every((seed, i) => i === 0 || beliefs[i - 1] < seed), JSON.stringify(beliefs));
  }

  for (const [width, height] of [[1280, 800], [375, 700]]) {
    it(`opens a violating seed at its violation with the timeline in view, at ${width}×${height}`, async () => {
      await page.setViewportSize({ width, height });
      await runLab(app, 'lab&fencing=off&runs=40&seed=1');
      const seed = page.locator('[data-testid="lab-violating-seed"][data-event]').first();
      // The seed's link: the root's address with the run's settings in its fragment.
      const first = await seed.evaluate((a) => ({ event: Number(a.dataset.event), href: new URL(a.href).hash }));
      await seed.scrollIntoViewIfNeeded();
      assert.ok(await page.evaluate(() => window.scrollY > 100), 'the seeds are far down the lab page');
      await seed.click();
      await page.locator('[data-testid="timeline-main"] svg').waitFor({ timeout: 30_000 });
      await app.waitForPosition(first.event + 1);
      // The timeline, not the panels, stands in the window above the fixed transport bar.
      const timelineInView = () =>
        page.waitForFunction(() => {
          const timeline = document.querySelector('[data-testid="timeline-main"]').getBoundingClientRect();
          const bar = document.querySelector('.transport-bar')?.getBoundingClientRect().top ?? window.innerHeight;
          return timeline.top >= 0 && timeline.bottom <= bar + 0.5;
        }, null, { timeout: 10_000 });
      await timelineInView();
      // The same short link opened afresh (shared, or in a new tab) does the same.
      await app.open(first.href.slice(1));
      await app.waitForPosition(first.event + 1);
      await timelineInView();
      // Settings and a seed, not a whole scenario.
      assert.ok(first.href.length < 200, `${first.href.length} characters`);
      assert.match(first.href, /^#chaos=1;seed=\d+;backend=sql-row;fencing=off;/);
      assert.match(page.url(), /#chaos=1;seed=/);
      assert.deepEqual(app.problems, []);
    });
  }
});
