// Cause and effect on one screen (issue 28), on a desktop (1280×800) and a phone (375×700,
// touch): a lane's name opens a popover of likely actions (a bottom sheet on the phone), and
// after choosing one the effect and the timeline are both in view without scrolling; the run's
// verdict shows beside (under, on the phone) the timeline at the run's end; Rewind keeps the
// user's interventions and "Reset to the original run" drops them, as the "edited" chip says;
// every menu lies inside the window at 320, 375 and 640 px, with no two items overlapping; the
// narration is never under the transport bar (at 320×640 and 320×568 too, opened and after
// Steps); on a desktop the seed is folded into a "seed 42" button until asked for; a
// comparison's two timelines are adjacent.
//
// The scenario is S1 (`s1-gc-pause-unfenced`): client-a is paused past its lease, client-b takes
// the lock and writes, client-a wakes and writes with its old token, and nothing refuses it.

import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';

import { startApp } from './harness.mjs';

const S1 = 's=s1-gc-pause-unfenced';
const S2_COMPARED = 's=s2-gc-pause-fenced&compare=1';

const DEVICES = [
  { name: 'desktop', options: { viewport: { width: 1280, height: 800 } } },
  { name: 'phone', options: { viewport: { width: 375, height: 700 }, hasTouch: true, isMobile: true } },
];

/** The boxes of the elements `selector` matches, as plain numbers. */
function boxes(page, selector) {
  return page.evaluate(
    (s) =>
      [...document.querySelectorAll(s)]
        .filter((e) => e.getClientRects().length > 0)
        .map((e) => {
          const r = e.getBoundingClientRect();
          return { left: r.left, top: r.top, right: r.right, bottom: r.bottom, text: e.textContent.trim() };
        }),
    selector,
  );
}

async function box(page, selector) {
  const [first] = await boxes(page, selector);
  assert.ok(first, `${selector} is on the page and drawn`);
  return first;
}

/** The top of the transport bar, fixed at the window's bottom. */
async function barTop(page) {
  return (await box(page, '.transport-bar')).top;
}

/** Asserts `b` lies within the window, above the transport bar when `clearOfBar`. */
async function assertInView(page, b, what, { clearOfBar = true } = {}) {
  const { width, height } = page.viewportSize();
  const bottom = clearOfBar ? await barTop(page) : height;
  assert.ok(b.left >= 0 && b.right <= width, `${what} lies inside the window across (${b.left}…${b.right} of ${width})`);
  assert.ok(b.top >= 0 && b.bottom <= bottom + 0.5, `${what} is in view (${b.top}…${b.bottom}, visible to ${bottom})`);
}

/** Asserts every item is inside the window and no two overlap. */
async function assertMenuFits(page, selector, what) {
  const items = await boxes(page, selector);
  assert.ok(items.length > 0, `${what} has items`);
  const { width, height } = page.viewportSize();
  for (const item of items) {
    assert.ok(
      item.left >= 0 && item.right <= width + 0.5 && item.top >= 0 && item.bottom <= height + 0.5,
      `${what}: "${item.text}" lies inside the ${width}×${height} window (${item.left}…${item.right}, ${item.top}…${item.bottom})`,
    );
  }
  items.forEach((a, i) =>
    items.slice(i + 1).forEach((b) => {
      const apart = a.right <= b.left + 0.5 || b.right <= a.left + 0.5 || a.bottom <= b.top + 0.5 || b.bottom <= a.top + 0.5;
      assert.ok(apart, `${what}: "${a.text}" and "${b.text}" overlap`);
    }),
  );
}

const lane = (node) => `[data-testid="timeline-main"] [data-testid="lane-label"][data-node="${node}"]`;

for (const device of DEVICES) {
  describe(`acting in place on a ${device.name}`, () => {
    let app;
    let page;
    const press = (selector) =>
      device.name === 'phone' ? page.locator(selector).tap() : page.locator(selector).click();

    before(async () => {
      app = await startApp(device.options);
      page = app.page;
    });
    after(async () => {
      await app?.close();
    });

    it('a lane name opens its actions; after one, its mark, the narration and the timeline are in view unscrolled', async () => {
      await app.open(S1);
      await assertInView(page, await box(page, '[data-testid="narration"]'), 'the narration');
      const scrolled = await page.evaluate(() => window.scrollY);
      await press(lane('client-a'));
      const popover = page.locator('[data-testid="act-popover"]');
      await popover.waitFor();
      assert.equal(await popover.getAttribute('data-node'), 'client-a');
      const kinds = await page.locator('[data-testid="quick-action"]').evaluateAll((b) => b.map((e) => e.dataset.kind));
      assert.deepEqual(kinds, ['quick-pause', 'quick-crash', 'quick-cut']);
      await assertMenuFits(page, '[data-testid="act-popover"] button', 'the popover');
      await press('[data-testid="quick-action"][data-kind="quick-crash"]');
      await popover.waitFor({ state: 'detached' });
      const mark = '[data-testid="timeline-main"] [data-testid="event-mark"][data-kind="intervention"]';
      await page.locator(mark).first().waitFor();
      await app.settle();
      assert.equal(await page.evaluate(() => window.scrollY), scrolled, 'acting did not scroll the page');
      await assertInView(page, await box(page, mark), 'the intervention mark');
      await assertInView(page, await box(page, '[data-testid="timeline-main"] .timeline-plot'), 'the timeline');
      const narration = await box(page, '[data-testid="narration"]');
      assert.match(narration.text, /crash/i, 'the narration says what was done');
      await assertInView(page, narration, 'the narration');
      await app.screenshot(`in-place-acted-${device.name}`);
    });

    it('at the run’s end the verdict shows beside (desktop) or right under (phone) the timeline', async () => {
      await app.open(S1);
      assert.equal(await page.locator('[data-testid="run-verdict"]').count(), 0, 'no verdict before the end');
      const { of } = await app.position();
      await page.locator('[data-testid="scrubber"]').fill(String(of));
      await app.waitForPosition(of);
      const verdict = await box(page, '[data-testid="run-verdict"]');
      assert.match(verdict.text, /^✗ Data lost: 1 stale write accepted, 1 update lost/);
      const timeline = await box(page, '.story > .timeline-frame');
      if (device.name === 'desktop') {
        assert.ok(verdict.left >= timeline.right, `beside the timeline (${verdict.left} ≥ ${timeline.right})`);
        await assertInView(page, verdict, 'the verdict');
      } else {
        assert.ok(verdict.top >= timeline.bottom && verdict.top - timeline.bottom <= 12, `right under the timeline (${timeline.bottom} → ${verdict.top})`);
      }
      await press('[data-testid="verdict-details"]');
      assert.equal(await page.locator('[data-testid="run-outcome"]').getAttribute('open'), '', 'the full outcome opens');
    });

    it('Rewind keeps the interventions, "Reset to the original run" drops them, and the chip says so', async () => {
      await app.open(S1);
      const start = (await app.position()).at;
      assert.equal(await page.locator('[data-testid="edited-chip"]').count(), 0, 'an unedited run has no chip');
      await press(lane('client-a'));
      await press('[data-testid="quick-action"][data-kind="quick-pause"]');
      const chip = page.locator('[data-testid="edited-chip"]');
      await chip.waitFor();
      assert.match(await chip.innerText(), /edited · 1/);
      await press('[data-testid="reset"]');
      await app.waitForPosition(start);
      assert.equal(await page.locator('[data-testid="logged-intervention"]').count(), 1, 'Rewind keeps the intervention');
      assert.equal(await chip.count(), 1, 'and the chip');
      await press('[data-testid="edited-chip"]');
      await press('[data-testid="reset-original"]');
      await chip.waitFor({ state: 'detached' });
      assert.equal(await page.locator('[data-testid="logged-intervention"]').count(), 0, 'Reset drops it');
      assert.equal((await app.position()).at, start);
    });
  });
}

describe('a phone’s menus, narration, lane names and comparison', () => {
  let app;
  let page;

  before(async () => {
    app = await startApp(DEVICES[1].options);
    page = app.page;
  });
  after(async () => {
    await app?.close();
  });

  for (const width of [320, 375, 640]) {
    it(`at ${width} px every menu lies inside the window unoverlapped, and the narration clears the bar`, async () => {
      await page.setViewportSize({ width, height: 700 });
      await app.open(S1);
      await app.settle();
      await assertInView(page, await box(page, '[data-testid="narration"]'), `the narration at ${width} px`);
      for (const name of await page.locator('[data-testid="timeline-main"] [data-testid="lane-label"]').evaluateAll((b) => b.map((e) => e.dataset.node))) {
        const label = await box(page, lane(name));
        assert.ok(label.bottom - label.top >= 24, `${name}'s name is a finger's target (${label.bottom - label.top} px tall)`);
      }
      const toggle = page.locator('[data-testid="setup-toggle"]');
      if (await toggle.isVisible()) {
        await toggle.tap();
      }
      for (const [menu, items] of [
        ['share-menu', '.share .more-menu > *'],
        ['more-menu', 'details.more .more-menu > *'],
      ]) {
        await page.locator(`[data-testid="${menu}"]`).tap();
        // The list is moved inside the window on the menu's toggle event, a task after the tap.
        await app.settle();
        await assertMenuFits(page, items, `${menu} at ${width} px`);
        await page.locator(`[data-testid="${menu}"]`).tap();
      }
      await page.locator(lane('client-b')).tap();
      await page.locator('[data-testid="act-popover"]').waitFor();
      await assertMenuFits(page, '[data-testid="act-popover"] button', `the popover at ${width} px`);
    });
  }

  for (const height of [640, 568]) {
    it(`at 320×${height} the narration clears the bar on opening and after each of three Steps`, async () => {
      await page.setViewportSize({ width: 320, height });
      await app.open(S1);
      await app.settle();
      await assertInView(page, await box(page, '[data-testid="narration"]'), `the narration at 320×${height}`);
      for (let step = 1; step <= 3; step += 1) {
        const { at } = await app.position();
        await page.locator('button[data-testid="step"]').tap();
        await app.waitForPosition(at + 1);
        await app.settle();
        await assertInView(page, await box(page, '[data-testid="narration"]'), `the narration after Step ${step} at 320×${height}`);
      }
    });
  }

  it('the setup bar is one row on a phone, and a comparison’s two timelines are adjacent', async () => {
    await page.setViewportSize({ width: 375, height: 700 });
    await app.open(S1);
    const picker = await box(page, '.setup-bar .picker');
    const toggle = await box(page, '[data-testid="setup-toggle"]');
    assert.ok(Math.abs(picker.top - toggle.top) < 8, 'the scenario and "Setup" share one row');
    const bar = await box(page, '.setup-bar');
    assert.ok(bar.bottom - bar.top <= 60, `the bar is one row (${bar.bottom - bar.top} px)`);
    await app.open(S2_COMPARED);
    await page.locator('[data-testid="timeline-twin"]').waitFor();
    const main = await box(page, '.story > .timeline-frame');
    const twin = await box(page, '.story > .twin-timeline');
    assert.ok(twin.top >= main.bottom && twin.top - main.bottom <= 12, `adjacent (${main.bottom} → ${twin.top})`);
  });
});

describe('a desktop’s setup bar', () => {
  let app;

  before(async () => {
    app = await startApp(DEVICES[0].options);
  });
  after(async () => {
    await app?.close();
  });

  it('folds the seed into a “seed N” button until asked for; one click shows its input, focused', async () => {
    const { page } = app;
    await app.open(S1);
    const seed = page.locator('[data-testid="seed"]');
    assert.equal(await seed.isVisible(), false, 'the seed input is folded on first load');
    const unfold = page.locator('[data-testid="seed-unfold"]');
    assert.match(await unfold.innerText(), /^seed \d+$/, 'the button says the seed in use');
    await unfold.click();
    await seed.waitFor();
    assert.ok(await seed.evaluate((e) => e === document.activeElement), 'the unfolded input has the focus');
    await seed.fill('7');
    await seed.dispatchEvent('change');
    await page.waitForFunction(() => /(^|[#&;])seed=7($|[&;])/.test(window.location.hash));
    assert.ok(await seed.isVisible(), 'the input stays unfolded after a change');
  });
});
