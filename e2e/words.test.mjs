// Words (issue 42, point 11), on a desktop (1280×800): an event that breaks two invariants at
// once says so in one sentence, not the same sentence twice; the glossary defines the words a
// Redlock scenario's titles use (Redlock, check-and-set), naming its source.
//
// S1 (`s1-gc-pause-unfenced`): client-a's late write with token 33 is accepted after token 34,
// which breaks two of the data's invariants at one event. S10's two titles say "check-and-set"
// (`s10-redlock-check-and-set`) and "Redlock" (`s10-redlock-clock-jump`).

import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';

import { startApp } from './harness.mjs';

describe('words', () => {
  let app;
  let page;

  before(async () => {
    app = await startApp({ viewport: { width: 1280, height: 800 } });
    page = app.page;
  });
  after(async () => {
    await app?.close();
  });

  it('two invariants broken at one event are named in one sentence', async () => {
    await app.open('s=s1-gc-pause-unfenced');
    await page.keyboard.press('End');
    await page.locator('[data-testid="run-verdict"]').waitFor();
    const twice = page.locator('[data-testid="event"]').filter({ has: page.locator('.event-violation:nth-of-type(2)') });
    assert.ok((await twice.count()) >= 1, 'an event of S1 breaks two invariants');
    await twice.first().locator('button.event-open').click();
    await page.waitForFunction(() => /This breaks/.test(document.querySelector('[data-testid="narration"]').textContent));
    const now = await page.locator('[data-testid="narration"]').innerText();
    assert.equal(now.match(/This breaks/g).length, 1, now);
    assert.match(now, /This breaks two invariants: [a-z][^.]+, and [a-z][^.]+\./, now);
  });

  for (const [term, source, scenario] of [
    ['check-and-set', /Is Redlock safe\?/, 's10-redlock-check-and-set'],
    ['Redlock', /Distributed locks with Redis/, 's10-redlock-clock-jump'],
  ]) {
    it(`the glossary defines ${term}, naming its source`, async () => {
      await app.open(`s=${scenario}`);
      const marked = page.locator(`[data-testid="term"][data-term="${term}"]:visible`).first();
      await marked.scrollIntoViewIfNeeded();
      await marked.hover();
      const definition = page.locator('[data-testid="term-definition"]');
      await definition.waitFor();
      assert.match(await definition.innerText(), source);
    });
  }
});
