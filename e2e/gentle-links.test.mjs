// Links that break gently (issue 42, point 4), at 1280×800 and on a 375×700 touch screen:
// - a share link cut short or garbled in one part opens the scenario and the moment its readable
//   parts name, and its banner says what was left out and why ("This link looks cut short");
// - the address stays as it came until the user acts (a Step writes the moment shown);
// - a link whose scenario cannot be read shows the default scenario, the banner, and keeps the
//   address;
// - `#learn=nope`, a lesson step past the last and `#quiz=999` show the same banner and the list
//   of lessons or questions, and no timeline of some other run.

import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

import { startApp } from './harness.mjs';

const HERE = dirname(fileURLToPath(import.meta.url));
const read = async (file) => JSON.parse(await readFile(resolve(HERE, '..', file), 'utf8'));
const { lessons } = await read('content/lessons.json');
const { questions } = await read('content/questions.json');
// Not the default scenario (S2): a link read in part must show its own.
const S1 = 's1-gc-pause-unfenced';
const S1_TITLE = (await read(`scenarios/${S1}.json`)).title;
const DEFAULT_TITLE = (await read('scenarios/s2-gc-pause-fenced.json')).title;

const SCREENS = [
  { name: 'desktop', options: { viewport: { width: 1280, height: 800 } } },
  { name: 'phone', options: { viewport: { width: 375, height: 700 }, hasTouch: true, isMobile: true } },
];

const BANNER = '[data-testid="notice"][data-notice="link"]';

for (const screen of SCREENS) {
  describe(`links that break gently, ${screen.name}`, () => {
    let app;
    let page;
    before(async () => {
      app = await startApp(screen.options);
      page = app.page;
    });
    after(async () => app?.close());

    /** Opens the site at `fragment` (a real page load) and waits for the link's banner. */
    async function arrive(fragment) {
      await app.leave();
      await page.goto(`${app.site.url}#${fragment}`);
      await page.locator('html[data-app="running"]').waitFor({ state: 'attached', timeout: 30_000 });
      await page.locator(BANNER).waitFor({ timeout: 30_000 });
      return (await page.locator(`${BANNER} > span`).innerText()).trim();
    }

    const scenarioName = () => page.locator('[data-testid="scenario-name"]').innerText();
    /** The address's parameters after its `#`, whatever path the app shows it at. */
    const parameters = () => page.evaluate(() => location.hash.slice(1).split('&').filter(Boolean));

    it('opens a link cut short at the scenario and moment it names, says what was left out, and keeps the address until a Step', async () => {
      const text = await arrive(`s=${S1}&seed=3&at=12&compare=redl`);
      assert.match(text, /^This link looks cut short/, text);
      assert.match(text, /`compare=`/, 'it names the part left out');
      assert.match(text, /the scenario, the seed, the moment/, 'and what it kept');
      assert.equal(await scenarioName(), S1_TITLE);
      await app.waitForPosition(12);
      assert.equal(await page.locator('[data-testid="seed"]').inputValue(), '3');
      await page.locator('html[data-url="written"]').waitFor({ state: 'attached' });
      assert.deepEqual((await parameters()).filter((p) => !p.startsWith('s=')), ['seed=3', 'at=12', 'compare=redl'], 'the address as it came');
      await app.screenshot(`gentle-links-cut-${screen.name}`);
      // The user acts: the address now says what is shown, and the banner has said its piece.
      await page.locator('[data-testid="step"]').click();
      await app.waitForPosition(13);
      await page.waitForFunction(() => location.hash.includes('at=13'));
      assert.equal((await parameters()).some((p) => p.startsWith('compare=')), false);
      assert.equal(await page.locator(BANNER).count(), 0);
      assert.deepEqual(app.problems, []);
    });

    it('keeps what reads around a garbled part, and names it', async () => {
      const text = await arrive(`s=${S1}&seed=x&fencing=on&at=7`);
      assert.match(text, /^Part of this link could not be read/, text);
      assert.match(text, /`seed=`/);
      assert.equal(await scenarioName(), S1_TITLE);
      await app.waitForPosition(7);
      assert.equal(await page.locator('[data-testid="fencing-toggle"]').getAttribute('aria-checked'), 'true', 'its fencing=on is kept');
      assert.ok((await parameters()).includes('seed=x'), 'the address as it came');
      assert.deepEqual(app.problems, []);
    });

    it('shows the default scenario under a link whose scenario is cut, and keeps the address', async () => {
      const text = await arrive('s=s1-gc-pau');
      assert.match(text, /^This link looks cut short: its scenario could not be read/, text);
      assert.match(text, /The default scenario is shown\.$/);
      assert.equal(await scenarioName(), DEFAULT_TITLE);
      await page.locator('html[data-url="written"]').waitFor({ state: 'attached' });
      assert.match(await page.evaluate(() => location.href), /s=s1-gc-pau$/);
      assert.deepEqual(app.problems, []);
    });

    for (const [what, fragment, list, count, says] of [
      ['an unknown lesson', 'learn=nope', 'lesson-link', lessons.length, /a lesson that does not exist \(`learn=nope`\)/],
      ['a step past the last', `learn=${lessons[0].id}&step=99`, 'lesson-link', lessons.length,
        new RegExp(`step 99 of “${lessons[0].title}”, which has ${lessons[0].steps.length} steps`)],
      ['a question past the last', 'quiz=999', 'question-link', questions.length,
        new RegExp(`question 999, but the knowledge check has ${questions.length} questions`)],
    ]) {
      it(`shows the banner and the list for ${what}, and no timeline`, async () => {
        const text = await arrive(fragment);
        assert.match(text, says, text);
        await page.locator(`[data-testid="${list}"]`).first().waitFor();
        assert.equal(await page.locator(`[data-testid="${list}"]`).count(), count);
        assert.equal(await page.locator('[data-testid="timeline-main"]').count(), 0, 'no run is left behind the message');
        assert.equal(await page.locator('[data-testid="lesson"], [data-testid="question"]').count(), 0);
        assert.equal(await page.locator(BANNER).count(), 1);
        await app.screenshot(`gentle-links-${fragment.replace(/[^a-z0-9]+/g, '-')}-${screen.name}`);
        assert.deepEqual(app.problems, []);
      });
    }
  });
}
