// Lessons that flow and study tools that keep their place (issue 28, point 5), focused where
// learn.test.mjs walks everything: a scene change announced, the verdict before the
// explanation, a lesson's recap with "Next lesson →" and its ✓ in the list, the knowledge
// check's "See it" at the decisive moment and Back to the same question, its question kept in
// the address through a reload (issue 42), the deck's one-card practice and its round kept
// across a reload with its weak cards counted (issue 42), the focus after a prediction answered
// by key (issue 42); and on a phone as on a desktop, a prediction's verdict and the timeline on one
// screen after answering (point 3).

import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

import { startApp } from './harness.mjs';

const HERE = dirname(fileURLToPath(import.meta.url));
const content = async (file) => JSON.parse(await readFile(resolve(HERE, '..', 'content', file), 'utf8'));
const lessons = (await content('lessons.json')).lessons;
const questions = (await content('questions.json')).questions;
const cards = (await content('cards.json')).cards;

/** Whether step `i` of `lesson` opens another scenario or comparison than the step before. */
const changesScene = (lesson, i) => {
  if (i === 0) return false;
  const at = (j) => [lesson.steps[j].scenario ?? lesson.scenario, lesson.steps[j].compare ?? null];
  const [a, b] = [at(i - 1), at(i)];
  return a[0] !== b[0] || a[1] !== b[1];
};

describe('lessons that flow, and study tools that keep their place', () => {
  let app;
  let page;

  before(async () => {
    app = await startApp();
    page = app.page;
  });

  after(async () => {
    await app?.close();
  });

  async function openPage(fragment, testid) {
    await app.leave();
    await page.goto(`${app.site.url}#${fragment}`);
    await page.locator(`[data-testid="${testid}"]`).first().waitFor({ timeout: 30_000 });
  }

  it('announces a change of scene, and only there', async () => {
    const lesson = lessons.find((l) => l.id === 'fencing-tokens');
    const change = lesson.steps.findIndex((_, i) => changesScene(lesson, i));
    assert.ok(change > 0, 'the fencing lesson changes scene');
    await openPage(`learn=${lesson.id}&step=${change}`, 'lesson');
    await app.waitForPosition(lesson.steps[change - 1].event + 1);
    assert.equal(await page.locator('[data-testid="scene-change"]').count(), 0, 'the same scene: no banner');
    await page.locator('[data-testid="lesson-next"]').click();
    const banner = page.locator('[data-testid="scene-change"]');
    await banner.waitFor();
    assert.equal(await banner.getAttribute('data-scenario'), lesson.steps[change].scenario);
    assert.match(await banner.innerText(), /New scene/i);
    assert.ok((await banner.innerText()).includes(lesson.steps[change].scene), 'says what changed and why');
    // Above the step's text (or its question).
    const above = await page.evaluate(() => {
      const banner = document.querySelector('[data-testid="scene-change"]');
      const body = document.querySelector('[data-testid="lesson-text"], [data-testid="predict"]');
      return Boolean(banner.compareDocumentPosition(body) & Node.DOCUMENT_POSITION_FOLLOWING);
    });
    assert.equal(above, true);
    assert.deepEqual(app.problems, []);
  });

  it('gives the verdict before the explanation, right or not', async () => {
    const lesson = lessons.find((l) => l.id === 'not-a-mutex');
    const index = lesson.steps.findIndex((s) => s.predict);
    const { predict } = lesson.steps[index];
    for (const right of [false, true]) {
      await openPage(`learn=${lesson.id}&step=${index + 1}`, 'predict');
      const choice = right ? predict.answer : (predict.answer + 1) % predict.choices.length;
      await page.locator(`[data-testid="predict-choice"][data-index="${choice}"]`).click();
      const verdict = page.locator('[data-testid="predict-verdict"]');
      await verdict.waitFor();
      const words = (await verdict.innerText()).trim();
      if (right) assert.match(words, /^✓ Right\./);
      else assert.ok(words.startsWith(`✗ Not quite: the answer is “${predict.choices[predict.answer].text}”`), words);
      const order = await page.evaluate(() => {
        const result = document.querySelector('[data-testid="predict-result"]');
        const text = document.querySelector('[data-testid="lesson-text"]');
        const first = result.firstElementChild?.dataset.testid;
        return { first, before: Boolean(result.compareDocumentPosition(text) & Node.DOCUMENT_POSITION_FOLLOWING) };
      });
      assert.deepEqual(order, { first: 'predict-verdict', before: true }, 'the verdict, then why, then the text');
    }
    // The asides are folded.
    const deep = lessons.find((l) => l.steps.some((s) => s.deeper && !s.predict));
    const at = deep.steps.findIndex((s) => s.deeper && !s.predict);
    await openPage(`learn=${deep.id}&step=${at + 1}`, 'go-deeper');
    assert.equal(await page.locator('[data-testid="go-deeper"]').evaluate((d) => d.open), false);
    assert.deepEqual(app.problems, []);
  });

  it('ends a lesson with its recap and the next lesson, and marks it done in the list', async () => {
    await openPage('learn', 'lessons');
    await page.evaluate(() => localStorage.removeItem('lockstep-lessons-done-1'));
    const [first, second] = lessons;
    const last = first.steps.length;
    await openPage(`learn=${first.id}&step=${last}`, 'lesson');
    if (first.steps[last - 1].predict) await page.locator('[data-testid="predict-skip"]').click();
    const recap = page.locator('[data-testid="lesson-recap"]');
    await recap.waitFor();
    assert.equal(await recap.locator('li').count(), first.recap.length);
    const next = page.locator('[data-testid="next-lesson"]');
    assert.equal(await next.getAttribute('data-lesson'), second.id);
    await next.click();
    await page.waitForFunction((id) => document.querySelector('[data-testid="lesson"]')?.dataset.lesson === id, second.id);
    await openPage('learn', 'lessons');
    const marked = await page.locator('[data-testid="lesson-finished"]').evaluateAll((marks) =>
      marks.map((m) => m.closest('li').querySelector('[data-testid="lesson-link"]').dataset.lesson),
    );
    assert.deepEqual(marked, [first.id], 'only the lesson whose last step was reached');
    // The last lesson points to the knowledge check.
    const final = lessons.at(-1);
    await openPage(`learn=${final.id}&step=${final.steps.length}`, 'lesson');
    if (final.steps.at(-1).predict) await page.locator('[data-testid="predict-skip"]').click();
    // Links lead to pages' paths (decision 43): compared where they lead.
    assert.equal(await page.locator('[data-testid="next-lesson"]').evaluate((a) => a.href), `${app.site.url}quiz/`);
    assert.deepEqual(app.problems, []);
  });

  it("opens the quiz's decisive moment, and Back returns to the same question", async () => {
    const at = questions.findIndex((q, i) => i > 0 && q.scenario && q.moment > 0);
    const question = questions[at];
    await openPage(`quiz=${at + 1}`, 'question');
    assert.equal(await page.locator('[data-testid="question"]').getAttribute('data-question'), question.id);
    await page.locator('[data-testid="choice"][data-index="0"]').click();
    const seeIt = page.locator('[data-testid="see-it"]');
    assert.equal(await seeIt.evaluate((a) => a.href), `${app.site.url}s/${question.scenario}/#at=${question.moment + 1}`);
    await seeIt.click();
    await page.locator('[data-testid="timeline-main"] svg').waitFor();
    await app.waitForPosition(question.moment + 1);
    await page.goBack();
    await page.waitForFunction((id) => document.querySelector('[data-testid="question"]')?.dataset.question === id, question.id);
    assert.ok((await page.evaluate(() => location.pathname)).endsWith(`/quiz/${at + 1}/`));
    // Next writes its question into the address too.
    await page.locator('[data-testid="question-next"]').click();
    await page.waitForFunction((n) => location.pathname.endsWith(`/quiz/${n}/`), at + 2);
    assert.equal(await page.locator('[data-testid="question"]').getAttribute('data-question'), questions[at + 1].id);
    assert.deepEqual(app.problems, []);
  });

  it('practises the deck one card at a time: got it, again, shuffle, and a short answer first', async () => {
    await openPage('deck', 'deck-practice');
    const count = page.locator('[data-testid="deck-count"]');
    const current = () => page.locator('[data-testid="card"]').getAttribute('data-card');
    assert.equal(await page.locator('[data-testid="card"]').count(), 1, 'one card at a time');
    assert.equal((await count.innerText()).trim(), `1 of ${cards.length}`);
    const first = await current();
    await page.locator('[data-testid="show-answer"]').click();
    assert.equal((await page.locator('[data-testid="card-short"]').innerText()).trim(), cards[0].short);
    assert.equal(await page.locator('[data-testid="card-full"]').evaluate((d) => d.open), false, 'the full answer folded');
    await page.locator('[data-testid="deck-again"]').click();
    assert.notEqual(await current(), first, 'Again moves on');
    assert.equal((await count.innerText()).trim(), `1 of ${cards.length}`, 'nothing known yet');
    const seen = [];
    for (let i = 0; i < 3; i += 1) {
      seen.push(await current());
      await page.locator('[data-testid="show-answer"]').click();
      await page.locator('[data-testid="deck-got-it"]').click();
    }
    assert.equal((await count.innerText()).trim(), `4 of ${cards.length}`);
    assert.equal(await current(), first, 'the card put back comes again later in the round');
    assert.ok(!seen.includes(first));
    await page.locator('[data-testid="deck-shuffle"]').click();
    assert.equal((await count.innerText()).trim(), `1 of ${cards.length}`, 'a shuffle starts a new round');
    await page.locator('[data-testid="all-cards"]').click();
    assert.equal(await page.locator('[data-testid="card"]').count(), cards.length);
    assert.deepEqual(app.problems, []);
  });

  it('keeps the deck\'s round across a reload, brings back the cards marked Again, and counts them at the end', async () => {
    await openPage('deck', 'deck-practice');
    await page.evaluate(() => localStorage.removeItem('lockstep-deck-1'));
    await openPage('deck', 'deck-practice');
    const count = page.locator('[data-testid="deck-count"]');
    const current = () => page.locator('[data-testid="card"]').getAttribute('data-card');
    const answer = async (verdict) => {
      await page.locator('[data-testid="show-answer"]').click();
      await page.locator(`[data-testid="deck-${verdict}"]`).click();
    };
    const weak = await current();
    await answer('again');
    await answer('got-it');
    const next = await current();
    assert.equal((await count.innerText()).trim(), `2 of ${cards.length}`);
    await page.reload();
    await page.locator('html[data-app="running"]').waitFor({ state: 'attached', timeout: 30_000 });
    // The kept round shows once the app has run (read in an effect): wait for it.
    await page.waitForFunction((n) => document.querySelector('[data-testid="deck-count"]')?.textContent.trim() === `2 of ${n}`, cards.length);
    assert.equal(await current(), next, 'the same card as before the reload');
    await answer('got-it');
    await answer('got-it');
    assert.equal(await current(), weak, 'the card marked Again comes back after the reload too');
    while ((await page.locator('[data-testid="deck-done"]').count()) === 0) await answer('got-it');
    const done = page.locator('[data-testid="deck-done"]');
    assert.equal(await done.getAttribute('data-weak'), '1');
    assert.match(await done.innerText(), /1 was marked Again/);
    await page.locator('[data-testid="deck-weak"]').click();
    assert.equal((await count.innerText()).trim(), '1 of 1', 'a round of the weak cards alone');
    assert.equal(await current(), weak);
    assert.deepEqual(app.problems, []);
  });

  it('keeps the question in the address at every Next: a reload returns to it', async () => {
    await openPage('quiz', 'question');
    await page.evaluate(() => localStorage.removeItem('lockstep-quiz-1'));
    await openPage('quiz', 'question');
    await page.locator('[data-testid="choice"][data-index="0"]').click();
    for (let n = 2; n <= 4; n += 1) {
      await page.locator('[data-testid="question-next"]').click();
      await page.waitForFunction((at) => location.pathname.endsWith(`/quiz/${at}/`), n);
    }
    await page.reload();
    await page.locator('html[data-app="running"]').waitFor({ state: 'attached', timeout: 30_000 });
    assert.equal(await page.locator('[data-testid="question"]').getAttribute('data-question'), questions[3].id);
    assert.equal((await page.locator('[data-testid="question-place"]').innerText()).trim(), `4 of ${questions.length}`);
    await page.waitForFunction(() => document.querySelector('[data-testid="score"]')?.dataset.answered === '1');
    assert.deepEqual(app.problems, []);
  });

  it('leaves the keyboard\'s focus on the verdict after a prediction answered by key, not on the page', async () => {
    const lesson = lessons.find((l) => l.id === 'not-a-mutex');
    const index = lesson.steps.findIndex((s) => s.predict);
    for (const key of ['choice', 'skip']) {
      await openPage(`learn=${lesson.id}&step=${index + 1}`, 'predict');
      await page.locator('html[data-app="running"]').waitFor({ state: 'attached' });
      const control = key === 'choice' ? '[data-testid="predict-choice"][data-index="0"]' : '[data-testid="predict-skip"]';
      await page.locator(control).focus();
      await page.keyboard.press('Enter');
      await page.locator('[data-testid="predict-verdict"]').waitFor();
      const focused = await page.evaluate(() => document.activeElement?.dataset?.testid ?? document.activeElement?.tagName);
      assert.ok(['predict-verdict', 'lesson-next'].includes(focused), `${key}: the focus is on ${focused}`);
      // The next Tab goes on from there, to the step's own links and buttons.
      await page.keyboard.press('Tab');
      assert.equal(
        await page.evaluate(() => Boolean(document.activeElement?.closest('[data-testid="lesson"]'))),
        true,
        `${key}: Tab stays in the lesson`,
      );
    }
    assert.deepEqual(app.problems, []);
  });

  for (const [width, height] of [[375, 700], [320, 640], [1280, 800]]) {
    it(`keeps a prediction's verdict and its timeline on one screen at ${width}×${height}`, async () => {
      await page.setViewportSize({ width, height });
      try {
        for (const id of ['not-a-mutex', 'fencing-tokens']) {
          const lesson = lessons.find((l) => l.id === id);
          const index = lesson.steps.findIndex((s) => s.predict);
          await openPage(`learn=${lesson.id}&step=${index + 1}`, 'predict');
          await app.waitForPosition(lesson.steps[index].event);
          await page.locator(`[data-testid="predict-choice"][data-index="${lesson.steps[index].predict.answer}"]`).click();
          await app.waitForPosition(lesson.steps[index].event + 1);
          await app.settle();
          const boxes = await page.evaluate(() => {
            const box = (testid) => {
              const r = document.querySelector(`[data-testid="${testid}"]`).getBoundingClientRect();
              return { top: Math.round(r.top), bottom: Math.round(r.bottom) };
            };
            return { timeline: box('timeline-main'), verdict: box('predict-verdict'), height: innerHeight };
          });
          for (const part of ['timeline', 'verdict']) {
            assert.ok(
              boxes[part].top >= 0 && boxes[part].bottom <= boxes.height,
              `${id} at ${width}×${height}: the ${part} is in view (${JSON.stringify(boxes)})`,
            );
          }
        }
      } finally {
        await page.setViewportSize({ width: 1280, height: 800 });
      }
      assert.deepEqual(app.problems, []);
    });
  }
});
