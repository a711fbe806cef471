// Landing where the story is (issue 42, point 1): entering the playground from another page of
// the app — a lesson's "Now break it yourself", the knowledge check's "See it happen" — shows the
// scenario's title and its timeline on the first screen, above the transport bar, however far
// down the page before had been scrolled; and moving to another page opens it at its top. On a
// phone (375×700) and at 1280×800.

import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';

import { startApp } from './harness.mjs';

/** Where the story's parts are against the window and the transport bar's top. */
function storyPlaces(page) {
  return page.evaluate(() => {
    const box = (selector) => document.querySelector(selector)?.getBoundingClientRect();
    const bar = box('.transport-bar');
    const room = bar && bar.top > 0 ? bar.top : window.innerHeight;
    const outside = [];
    for (const [what, selector] of [
      ['the title', '[data-testid="scenario-name"]'],
      ['the timeline', '[data-testid="timeline-main"]'],
    ]) {
      const place = box(selector);
      if (!place || place.top < 0 || place.bottom > room) outside.push(`${what} at ${place?.top}–${place?.bottom} (room 0–${room})`);
    }
    return outside;
  });
}

describe('landing where the story is', () => {
  let app;
  let page;

  before(async () => {
    app = await startApp();
    page = app.page;
  });

  after(async () => {
    await app?.close();
  });

  for (const [width, height] of [
    [375, 700],
    [1280, 800],
  ]) {
    it(`opens the playground on its story from a lesson scrolled down, at ${width} px`, async () => {
      await page.setViewportSize({ width, height });
      await app.leave();
      await page.goto(`${app.site.url}learn/not-a-mutex/3/`);
      await page.locator('html[data-app="running"]').waitFor({ state: 'attached', timeout: 30_000 });
      await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
      await page.locator('[data-testid="break-it"]').click();
      await page.locator('[data-testid="scenario-name"]').waitFor();
      await page.waitForFunction(() => {
        const timeline = document.querySelector('[data-testid="timeline-main"]')?.getBoundingClientRect();
        return timeline && timeline.top >= 0 && timeline.top < window.innerHeight;
      });
      assert.deepEqual(await storyPlaces(page), []);
      assert.deepEqual(app.problems, []);
    });

    it(`opens the playground on its story from the knowledge check's "See it happen", and another page at its top, at ${width} px`, async () => {
      await page.setViewportSize({ width, height });
      await app.leave();
      await page.goto(`${app.site.url}quiz/`);
      await page.locator('html[data-app="running"]').waitFor({ state: 'attached', timeout: 30_000 });
      // Answer questions, from the first, until one offers its scenario.
      await page.locator('[data-testid="quiz-reset"]').click();
      for (let question = 0; question < 20; question += 1) {
        await page.locator('[data-testid="choice"]').first().click();
        await page.locator('[data-testid="explanation"]').waitFor();
        if ((await page.locator('[data-testid="see-it"]').count()) > 0) break;
        await page.locator('[data-testid="question-next"]').click();
      }
      await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
      await page.locator('[data-testid="see-it"]').click();
      await page.locator('[data-testid="scenario-name"]').waitFor();
      await page.waitForFunction(() => {
        const timeline = document.querySelector('[data-testid="timeline-main"]')?.getBoundingClientRect();
        return timeline && timeline.top >= 0 && timeline.top < window.innerHeight;
      });
      assert.deepEqual(await storyPlaces(page), []);

      // From the playground scrolled down, the Lessons tab opens the lessons at their top.
      await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
      if (width < 700) await page.locator('[data-testid="nav-menu"]').click();
      await page.locator('[data-testid="nav-lessons"]').click();
      await page.locator('[data-testid="lesson-link"]').first().waitFor();
      await page.waitForFunction(() => window.scrollY === 0);
      assert.deepEqual(app.problems, []);
    });
  }
});
