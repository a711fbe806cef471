// A learner's first minute (issue 28, point 1), at 1280×800 and on a 375×700 touch screen:
// - a first visit (empty storage, no fragment) lands on the guided start over S1 at event 0,
//   with Step pointed at; stepping reaches the stale write, accepted, and the card says the
//   data was lost, pointing at that write; "Turn fencing on" refuses the same write (33 < 34);
//   "Explore freely" closes it;
// - a second visit, and a shared link on a first visit, never see it;
// - a glossary term shows its definition on hover (desktop) or tap (phone), inside the window,
//   and Escape closes it;
// - the inspector and the monitoring plots are folded on first load (the event log too, for a
//   long run), and an opened panel stays open across pages for the visit.
// Screenshots of each stage go to e2e/artifacts/first-run-<stage>-<screen>.png.

import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';

import { startApp } from './harness.mjs';

const SCREENS = [
  { name: 'desktop', options: { viewport: { width: 1280, height: 800 } } },
  { name: 'phone', options: { viewport: { width: 375, height: 700 }, hasTouch: true, isMobile: true } },
];
const CARD = '[data-testid="guided-start"]';
const POINTED = '[data-guide-target]';

/** Asserts that `locator`'s box lies inside the window. */
async function assertInWindow(page, locator, what) {
  const box = await locator.boundingBox();
  const { width, height } = page.viewportSize();
  assert.ok(box, `${what} is drawn`);
  assert.ok(box.x >= 0 && box.x + box.width <= width + 0.5, `${what} inside the window sideways: ${JSON.stringify(box)}`);
  assert.ok(box.y >= 0 && box.y + box.height <= height + 0.5, `${what} inside the window: ${JSON.stringify(box)}`);
}

for (const screen of SCREENS) {
  describe(`the first-run path, ${screen.name}`, () => {
    let app;
    let page;
    const stage = () => page.locator(CARD).getAttribute('data-stage');
    before(async () => {
      app = await startApp({ firstVisit: true, ...screen.options });
      page = app.page;
    });
    after(async () => app?.close());

    it('shows a shared link as it is, even to a first visitor', async () => {
      await app.open('s=s2-gc-pause-fenced&at=3');
      await app.settle();
      assert.equal(await page.locator(CARD).count(), 0, 'no guided start on a link');
      assert.equal(await page.evaluate(() => localStorage.getItem('lockstep-visited')), null, 'a link does not count as the visit');
    });

    it('lands a first visit on the guided start and walks it to the refused write', async () => {
      await app.open('');
      await page.locator(`${CARD}[data-stage="start"]`).waitFor();
      assert.equal(await page.locator('select[data-testid="scenario-picker"]').inputValue(), 's1-gc-pause-unfenced');
      assert.equal((await app.position()).at, 0, 'at event 0');
      assert.equal(await page.locator('[data-testid="fencing-toggle"]').getAttribute('aria-checked'), 'false', 'fencing off');
      assert.equal(await page.locator(`[data-testid="step"]${POINTED}`).count(), 1, 'the card points at Step');
      await assertInWindow(page, page.locator('[data-testid="step"]'), 'Step');
      await app.screenshot(`first-run-start-${screen.name}`);
      const seen = ['start'];
      for (let i = 0; i < 60 && (await stage()) !== 'lost'; i += 1) {
        const at = (await app.position()).at;
        await page.locator('[data-testid="step"]').click();
        await app.waitForPosition(at + 1);
        const now = await stage();
        if (now !== seen.at(-1)) {
          seen.push(now);
          await app.screenshot(`first-run-${now}-${screen.name}`);
        }
      }
      assert.deepEqual(seen, ['start', 'paused', 'other-wrote', 'lost']);
      assert.match(await page.locator(CARD).innerText(), /update is\s+lost/);
      const accepted = page.locator(`[data-testid="timeline-main"] ${POINTED}`);
      assert.equal(await accepted.getAttribute('data-outcome'), 'stale', 'the card points at the stale write, accepted (marked stale)');
      assert.equal(await accepted.getAttribute('data-token'), '33');
      const event = await accepted.getAttribute('data-event-id');

      await page.locator('[data-testid="guided-fencing-on"]').click();
      await page.locator(`${CARD}[data-stage="refused"]`).waitFor();
      assert.equal(await page.locator('[data-testid="fencing-toggle"]').getAttribute('aria-checked'), 'true', 'the setup bar says fencing is on');
      const refused = page.locator(`[data-testid="timeline-main"] ${POINTED}`);
      assert.equal(await refused.getAttribute('data-event-id'), event, 'the same write');
      assert.equal(await refused.getAttribute('data-outcome'), 'rejected', 'now refused');
      assert.match(await page.locator(CARD).innerText(), /token 34.*token 33/s);
      await assertInWindow(page, page.locator('[data-testid="guided-explore"]'), 'Explore freely');
      await app.screenshot(`first-run-refused-${screen.name}`);

      await page.locator('[data-testid="guided-explore"]').click();
      assert.equal(await page.locator(CARD).count(), 0, 'Explore freely closes it');
      assert.equal(await page.locator(POINTED).count(), 0, 'and points at nothing');
      assert.deepEqual(app.problems, []);
    });

    it('never shows it on a second visit', async () => {
      await app.open('');
      // The first visit's scenario would have loaded by now: the default one stays.
      await page.waitForFunction(() => document.documentElement.dataset.url === 'written');
      await app.settle();
      assert.equal(await page.locator(CARD).count(), 0);
      assert.equal(await page.locator('select[data-testid="scenario-picker"]').inputValue(), 's2-gc-pause-fenced');
    });

    it('defines a glossary term where it appears, inside the window', async () => {
      const term = page.locator('[data-testid="term"]:visible').first();
      await term.scrollIntoViewIfNeeded();
      const name = await term.getAttribute('data-term');
      if (screen.name === 'phone') await term.tap();
      else await term.hover();
      const definition = page.locator('[data-testid="term-definition"]');
      await definition.waitFor();
      assert.match(await definition.innerText(), new RegExp(`^${name} — .{20,}`, 'i'));
      await assertInWindow(page, definition, `the definition of ${name}`);
      assert.equal(await term.getAttribute('aria-describedby'), await definition.getAttribute('id'));
      await app.screenshot(`first-run-glossary-${screen.name}`);
      await term.focus();
      await page.keyboard.press('Escape');
      assert.equal(await definition.count(), 0, 'Escape closes it');
    });

    it('keeps the inspector and monitoring folded until asked for, then open for the visit', async () => {
      await app.open('');
      const inspector = page.locator('[data-testid="inspector-fold"]');
      assert.equal(await inspector.evaluate((d) => d.open), false, 'the inspector is folded');
      assert.equal(await page.locator('[data-testid="monitor-fold"]').evaluate((d) => d.open), false, 'monitoring is folded');
      assert.equal(await page.locator('[data-testid="invariants"]').isVisible(), false);
      const logOpen = () => page.locator('[data-testid="log-fold"]').evaluate((d) => d.open);
      assert.equal(await logOpen(), true, "a short run's event log is open");
      await inspector.locator('summary').click();
      assert.equal(await page.locator('[data-testid="invariants"]').isVisible(), true);
      await page.locator('[data-testid="nav-guide"]').first().evaluate((a) => a.click());
      await page.locator('[data-testid="guide"]').waitFor();
      await page.goBack();
      await page.locator('[data-testid="inspector-fold"]').waitFor();
      assert.equal(await page.locator('[data-testid="inspector-fold"]').evaluate((d) => d.open), true, 'kept open for the visit');
      await app.open('s=s10-redlock-clock-jump&at=10');
      const { of } = await app.position();
      assert.ok(of > 40, `S10 is a long run (${of} events)`);
      assert.equal(await logOpen(), false, "a long run's event log is folded");
    });
  });
}
