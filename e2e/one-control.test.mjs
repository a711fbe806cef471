// One control per idea (issue 42, point 10), at 1280×800 and on a 375×700 touch screen:
// - comparing is one "Compare with…" select (fencing switched is one of its choices);
// - Play/Pause keeps its width, so the transport bar does not move when its label changes;
// - the pause length and the clock jump are set inside their buttons;
// - "Embed code…" opens a dialog with a live preview and the start and controls choices;
// - a prediction's question is a heading above its choices, inside the frame.

import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

import { startApp } from './harness.mjs';

const HERE = dirname(fileURLToPath(import.meta.url));
const { lessons } = JSON.parse(await readFile(resolve(HERE, '..', 'content', 'lessons.json'), 'utf8'));
// The first step that asks for a prediction, numbered from 1 as addresses are.
const PREDICTION = lessons
  .flatMap((lesson) => lesson.steps.map((step, i) => ({ lesson: lesson.id, step: i + 1, asks: Boolean(step.predict) })))
  .find((s) => s.asks);
const S2 = 's=s2-gc-pause-fenced';

const SCREENS = [
  { name: 'desktop', options: { viewport: { width: 1280, height: 800 } }, folded: false },
  { name: 'phone', options: { viewport: { width: 375, height: 700 }, hasTouch: true, isMobile: true }, folded: true },
];

/** An element's box as plain numbers. */
const box = (locator) => locator.evaluate((e) => {
  const r = e.getBoundingClientRect();
  return { left: r.left, right: r.right, top: r.top, bottom: r.bottom, width: r.width };
});

for (const screen of SCREENS) {
  describe(`one control per idea, ${screen.name}`, () => {
    let app;
    let page;
    before(async () => {
      app = await startApp(screen.options);
      page = app.page;
    });
    after(async () => app?.close());

    /** On a phone the setup bar shows its controls once "Setup" is pressed. */
    async function openSetup() {
      if (screen.folded) await page.locator('[data-testid="setup-toggle"]').click();
    }

    it('compares through one select, fencing switched among its choices', async () => {
      await app.open(`${S2}&at=20`);
      await openSetup();
      assert.equal(await page.locator('[data-testid="compare-toggle"]').count(), 0, 'no second control for comparing');
      const compare = page.locator('select[data-testid="compare-with"]');
      assert.ok(await compare.isVisible());
      await compare.selectOption('fencing');
      await page.locator('[data-testid="timeline-twin"]').waitFor();
      assert.equal(await compare.inputValue(), 'fencing');
      // The keyboard's `c` toggles the same comparison, and the select says so.
      await page.locator('[data-testid="scenario-name"]').click();
      await page.keyboard.press('c');
      await page.locator('[data-testid="timeline-twin"]').waitFor({ state: 'detached' });
      assert.equal(await compare.inputValue(), 'off');
      assert.deepEqual(app.problems, []);
    });

    it('keeps Play/Pause one width, so the bar does not move', async () => {
      await app.open(`${S2}&at=1`);
      const play = page.locator('[data-testid="play"]');
      const scrubber = page.locator('[data-testid="scrubber"]');
      const before = { play: await box(play), scrubber: await box(scrubber) };
      await play.click();
      // Read in the same task as the render that set `data-playing`, before the run can end.
      const during = await page.waitForFunction(() => {
        const button = document.querySelector('[data-testid="play"]');
        if (button?.dataset.playing !== 'true') return null;
        const of = (e) => { const r = e.getBoundingClientRect(); return { left: r.left, right: r.right, top: r.top, bottom: r.bottom, width: r.width }; };
        return { play: of(button), scrubber: of(document.querySelector('[data-testid="scrubber"]')), label: button.innerText.trim() };
      }).then((handle) => handle.jsonValue());
      assert.equal(during.label, 'Pause', 'it says Pause while playing');
      assert.equal(during.play.width, before.play.width, 'the button keeps its width');
      assert.deepEqual(during.scrubber, before.scrubber, 'the scrubber stays where it was');
      assert.match(await page.evaluate(() => document.querySelector('[data-testid="play"]').textContent), /Play/, 'both words are laid out');
      await play.click();
      await page.waitForFunction(() => document.querySelector('[data-testid="play"]').dataset.playing === 'false');
      assert.equal((await play.innerText()).trim(), 'Play');
      assert.deepEqual(app.problems, []);
    });

    it('sets the pause length and the clock jump inside their buttons', async () => {
      await app.open(`${S2}&at=8`);
      await page.locator('[data-testid="lane-label"][data-node="client-b"]').click();
      const panel = page.locator('[data-testid="node-actions"]');
      await panel.waitFor();
      for (const [button, field, value, name] of [
        ['act-pause', 'pause-ms', '3000', /^Pause client-b for 3000 ms$/],
        ['act-clock-jump', 'jump-ms', '-200', /^Jump its clock by -200 ms$/],
      ]) {
        const act = panel.locator(`[data-testid="${button}"]`);
        const input = panel.locator(`[data-testid="${field}"]`);
        await input.scrollIntoViewIfNeeded();
        const [b, i] = [await box(act), await box(input)];
        assert.ok(Math.abs((b.top + b.bottom) / 2 - (i.top + i.bottom) / 2) < 4, `${field} on the button's line: ${JSON.stringify({ b, i })}`);
        assert.ok(i.left >= b.right - 1 && i.left - b.right < 12, `${field} right after the button's words: ${JSON.stringify({ b, i })}`);
        // One frame around both: the field's nearest framed ancestor holds the button too.
        assert.equal(await input.evaluate((e, id) => Boolean(e.parentElement.closest('.act')?.querySelector(`[data-testid="${id}"]`)), button), true);
        await input.fill(value);
        await input.press('Tab');
        await page.waitForFunction(([id, v]) => document.querySelector(`[data-testid="${id}"]`)?.getAttribute('aria-label')?.includes(`${v} ms`), [button, value]);
        assert.match(await act.getAttribute('aria-label'), name);
      }
      await panel.locator('[data-testid="act-pause"]').click();
      await page.waitForFunction(() => document.querySelectorAll('[data-testid="logged-intervention"]').length === 1);
      assert.match(await page.locator('[data-testid="narration"]').innerText(), /client-b is paused for 3000 ms/);
      await app.screenshot(`one-control-amounts-${screen.name}`);
      assert.deepEqual(app.problems, []);
    });

    it('opens "Embed code…" as a dialog with a preview and the start and controls choices', async () => {
      await app.open(`${S2}&at=9`);
      await openSetup();
      await page.locator('[data-testid="share-menu"]').click();
      await page.locator('[data-testid="copy-embed-code"]').click();
      const dialog = page.locator('[data-testid="embed-dialog"]');
      await dialog.waitFor();
      const preview = page.frameLocator('[data-testid="embed-preview"]');
      await preview.locator('[data-testid="position"]').filter({ hasText: /^event 9 of \d+$/ }).waitFor({ timeout: 30_000 });
      // Shown before its app runs (the page's first frame): let it run before choosing again.
      await preview.locator('html[data-app="running"]').waitFor({ state: 'attached', timeout: 30_000 });
      for (const choice of ['embed-start', 'embed-controls', 'embed-form']) {
        assert.ok(await dialog.locator(`[data-testid="${choice}"]`).isVisible(), choice);
      }
      const [d, viewport] = [await box(dialog), page.viewportSize()];
      assert.ok(d.left >= 0 && d.right <= viewport.width, `the dialog fits the width: ${JSON.stringify(d)}`);
      await dialog.locator('[data-testid="embed-controls"]').selectOption('none');
      await preview.locator('[data-testid="step"]').waitFor({ state: 'detached', timeout: 30_000 });
      assert.match(await dialog.locator('[data-testid="embed-code"]').inputValue(), /data-controls="none"/);
      await app.screenshot(`one-control-embed-${screen.name}`);
      await dialog.locator('[data-testid="embed-close"]').click();
      await dialog.waitFor({ state: 'detached' });
      // The focus goes back where the author was: the menu's button.
      await page.waitForFunction(() => document.activeElement?.dataset.testid === 'share-menu');
      assert.deepEqual(app.problems, []);
    });

    it("puts a prediction's question in a heading above its choices, inside the frame", async () => {
      await app.leave();
      await page.goto(`${app.site.url}#learn=${PREDICTION.lesson}&step=${PREDICTION.step}`);
      await page.locator('html[data-app="running"]').waitFor({ state: 'attached', timeout: 30_000 });
      const predict = page.locator('[data-testid="predict"]');
      await predict.waitFor({ timeout: 30_000 });
      const question = predict.locator('[data-testid="predict-question"]');
      assert.equal(await question.evaluate((e) => /^H[2-4]$/.test(e.tagName)), true, 'a heading');
      assert.equal(await predict.locator('legend').count(), 0, 'not a legend on the border');
      assert.equal(await predict.getAttribute('aria-labelledby'), await question.getAttribute('id'), 'it names the group');
      const [frame, q, first] = [await box(predict), await box(question), await box(predict.locator('[data-testid="predict-choice"]').first())];
      assert.ok(q.top > frame.top + 2 && q.bottom <= first.top, `inside the frame, above the choices: ${JSON.stringify({ frame, q, first })}`);
      await app.screenshot(`one-control-predict-${screen.name}`);
      assert.deepEqual(app.problems, []);
    });
  });
}
