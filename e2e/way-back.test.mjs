// A way back in (issue 42, point 6), at 1280×800 and on a 375×700 touch screen:
// - "Guided start" in the navigation bar (behind Menu on a phone) begins the guided start over
//   S1 again for a returning visitor, from any page;
// - a returning visitor's landing (the site's root) says where to begin: the lesson step they
//   last stood on, or after a lesson's last step the next lesson; nothing before any lesson.

import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

import { startApp } from './harness.mjs';

const HERE = dirname(fileURLToPath(import.meta.url));
const { lessons } = JSON.parse(await readFile(resolve(HERE, '..', 'content', 'lessons.json'), 'utf8'));
const PLACE_KEY = 'lockstep-lesson-place-1';

const SCREENS = [
  { name: 'desktop', options: { viewport: { width: 1280, height: 800 } }, menu: false },
  { name: 'phone', options: { viewport: { width: 375, height: 700 }, hasTouch: true, isMobile: true }, menu: true },
];

for (const screen of SCREENS) {
  describe(`a way back in, ${screen.name}`, () => {
    let app;
    let page;
    before(async () => {
      app = await startApp(screen.options);
      page = app.page;
    });
    after(async () => app?.close());

    /** Opens the page at `fragment` and waits for the app to run on it. */
    async function openPage(fragment, testid) {
      await app.leave();
      await page.goto(`${app.site.url}${fragment ? `#${fragment}` : ''}`);
      await page.locator('html[data-app="running"]').waitFor({ state: 'attached', timeout: 30_000 });
      await page.locator(`[data-testid="${testid}"]`).first().waitFor({ timeout: 30_000 });
    }

    it('begins the guided start from the navigation bar, from another page', async () => {
      await openPage('learn', 'lessons');
      if (screen.menu) await page.locator('[data-testid="nav-menu"]').click();
      const begin = page.locator('[data-testid="nav-guided-start"]');
      assert.equal(await begin.isVisible(), true, 'in the bar, or its menu on a phone');
      await begin.click();
      await page.locator('[data-testid="guided-start"][data-stage="start"]').waitFor();
      await page.waitForFunction(() => document.querySelector('select[data-testid="scenario-picker"]')?.value === 's1-gc-pause-unfenced');
      assert.equal((await app.position()).at, 0, 'at event 0');
      // The card walks on as the run does.
      const stage = () => page.locator('[data-testid="guided-start"]').getAttribute('data-stage');
      for (let i = 0; i < 30 && (await stage()) === 'start'; i += 1) {
        const { at } = await app.position();
        await page.locator('[data-testid="step"]').click();
        await app.waitForPosition(at + 1);
      }
      assert.equal(await stage(), 'paused');
      await app.screenshot(`way-back-guided-${screen.name}`);
      assert.deepEqual(app.problems, []);
    });

    it("says on a returning visitor's landing where to begin, from the lessons left", async () => {
      await openPage('', 'app');
      await page.evaluate((key) => localStorage.removeItem(key), PLACE_KEY);
      await openPage('', 'app');
      await app.settle();
      assert.equal(await page.locator('[data-testid="welcome-back"]').count(), 0, 'no lesson begun: nothing to resume');
      const [first, second] = lessons;
      await openPage(`learn=${first.id}&step=3`, 'lesson');
      await page.waitForFunction((key) => localStorage.getItem(key)?.includes('"step":3'), PLACE_KEY);
      await openPage('', 'welcome-back');
      const resume = page.locator('[data-testid="welcome-resume"]');
      assert.deepEqual([await resume.getAttribute('data-lesson'), await resume.getAttribute('data-step')], [first.id, '3']);
      assert.match(await page.locator('[data-testid="welcome-back"]').innerText(), new RegExp(`step 3 of .${first.title}`));
      await app.screenshot(`way-back-welcome-${screen.name}`);
      await resume.click();
      await page.waitForFunction((id) => {
        const lesson = document.querySelector('[data-testid="lesson"]');
        return lesson?.dataset.lesson === id && lesson.dataset.step === '3';
      }, first.id);
      // After a lesson's last step, the next lesson.
      await openPage(`learn=${first.id}&step=${first.steps.length}`, 'lesson');
      await page.waitForFunction(([key, id]) => localStorage.getItem(key)?.includes(`"lesson":"${id}"`), [PLACE_KEY, second.id]);
      await openPage('', 'welcome-back');
      assert.deepEqual([await resume.getAttribute('data-lesson'), await resume.getAttribute('data-step')], [second.id, '1']);
      // A link to a page is not a landing: it shows what it names.
      await openPage('s=s2-gc-pause-fenced', 'timeline-main');
      await app.settle();
      assert.equal(await page.locator('[data-testid="welcome-back"]').count(), 0);
      assert.deepEqual(app.problems, []);
    });
  });
}
