// The guided material in headless Chromium: every lesson walked from its first step to its last
// and back, predictions answered before the reveal, deep links to a step, the arrows, "Now break
// it yourself"; the knowledge check with its score kept across a reload; the interview deck; the
// decision guide; the three verification tests against each lock service; the monitoring plots;
// and an accessibility scan of each page.

import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

import { startApp } from './harness.mjs';

const HERE = dirname(fileURLToPath(import.meta.url));
const lessons = JSON.parse(await readFile(resolve(HERE, '..', 'content', 'lessons.json'), 'utf8')).lessons;
const guide = JSON.parse(await readFile(resolve(HERE, '..', 'content', 'guide.json'), 'utf8'));

describe('the guided material, as a learner uses it', () => {
  let app;
  let page;

  before(async () => {
    app = await startApp();
    page = app.page;
  });

  after(async () => {
    await app?.close();
  });

  /** Opens a guided page (no timeline on most of them). */
  async function openPage(fragment, testid) {
    await page.goto('about:blank');
    await page.goto(`${app.site.url}#${fragment}`);
    await page.locator(`[data-testid="${testid}"]`).waitFor({ timeout: 30_000 });
  }

  const stepShown = async (lesson, index) => {
    await page.waitForFunction(
      ([n]) => document.querySelector('[data-testid="lesson"]')?.dataset.step === String(n),
      [index + 1],
    );
  };

  it('lists every lesson and walks each from its first step to its last and back', async () => {
    await openPage('learn', 'lessons');
    const listed = await page.locator('[data-testid="lesson-link"]').evaluateAll((links) => links.map((a) => a.dataset.lesson));
    assert.deepEqual(listed, lessons.map((l) => l.id));
    let predictions = 0;
    for (const lesson of lessons) {
      await openPage(`learn=${lesson.id}&step=1`, 'lesson');
      for (let i = 0; i < lesson.steps.length; i += 1) {
        const step = lesson.steps[i];
        const last = i + 1 === lesson.steps.length;
        const next = page.locator('[data-testid="lesson-next"]');
        await stepShown(lesson, i);
        if (step.predict) {
          // Asked before the reveal: the playground stands just before the event, and Next
          // (absent on a last step, which ends with "All lessons") waits for the answer.
          await page.locator('[data-testid="predict"]').waitFor();
          await app.waitForPosition(step.event);
          if (last) {
            assert.equal(await next.count(), 0, `${lesson.id} step ${i + 1}: no Next on the last step`);
            assert.equal(await page.locator('[data-testid="lesson-done"]').count(), 1);
          } else {
            assert.equal(await next.isDisabled(), true, `${lesson.id} step ${i + 1}: Next waits for the answer`);
          }
          // Every other prediction is answered wrongly: the page must say which it was.
          const right = predictions % 2 === 0;
          predictions += 1;
          const choice = right ? step.predict.answer : (step.predict.answer + 1) % step.predict.choices.length;
          await page.locator(`[data-testid="predict-choice"][data-index="${choice}"]`).click();
          assert.equal(await page.locator('[data-testid="predict-result"]').getAttribute('data-correct'), String(right));
        }
        if (!last) assert.equal(await page.locator('[data-testid="lesson-next"]').isEnabled(), true, `${lesson.id} step ${i + 1}: Next once shown`);
        await app.waitForPosition(step.event + 1);
        assert.equal((await page.locator('[data-testid="lesson-text"]').innerText()).trim(), step.text.trim(), `${lesson.id} step ${i + 1}`);
        if (i + 1 < lesson.steps.length) await page.locator('[data-testid="lesson-next"]').click();
      }
      assert.equal(await page.locator('[data-testid="lesson-done"]').count(), 1, `${lesson.id} ends`);
      for (let i = lesson.steps.length - 1; i > 0; i -= 1) {
        await page.locator('[data-testid="lesson-back"]').click();
        await stepShown(lesson, i - 1);
        // Going back shows the step as it was left, answered.
        await app.waitForPosition(lesson.steps[i - 1].event + 1);
      }
      assert.equal(await page.locator('[data-testid="lesson-back"]').isDisabled(), true);
    }
    assert.deepEqual(app.problems, []);
  });

  it('opens any step from its link, moves with the arrows, and opens the sandbox at that moment', async () => {
    const lesson = lessons.find((l) => l.steps.length >= 3 && !l.steps[2].predict && !l.steps[1].predict) ?? lessons[0];
    await openPage(`learn=${lesson.id}&step=3`, 'lesson');
    assert.equal(await page.locator('[data-testid="lesson-progress"]').getAttribute('aria-valuenow'), '3');
    await app.waitForPosition(lesson.steps[2].event + 1);
    await page.locator('.step-text').click();
    await page.keyboard.press('ArrowLeft');
    await stepShown(lesson, 1);
    // The URL follows within a quarter of a second (it is not written on every change).
    await page.waitForFunction((wanted) => location.hash.endsWith(wanted), `learn=${lesson.id}&step=2`);
    await page.keyboard.press('ArrowRight');
    await stepShown(lesson, 2);
    await page.locator('[data-testid="break-it"]').click();
    await page.locator('[data-testid="timeline-main"] [data-testid="lane"]').first().waitFor();
    await page.locator('[data-testid="step"]').waitFor();
    assert.equal((await app.position()).at, lesson.steps[2].event + 1, 'the sandbox opens at the lesson moment');
    assert.equal(await page.locator('[data-testid="notice"]').getAttribute('role'), 'status');
    await app.screenshot('break-it');
  });

    it('does not let → skip an open question', async () => {
    const lesson = lessons.find((l) => l.steps[0].predict) ?? lessons.find((l) => l.steps.some((s) => s.predict));
    const index = lesson.steps.findIndex((s) => s.predict);
    await openPage(`learn=${lesson.id}&step=${index + 1}`, 'predict');
    await page.locator('.lesson h2').click();
    await page.keyboard.press('ArrowRight');
    await app.settle();
    assert.equal(await page.locator('[data-testid="lesson"]').getAttribute('data-step'), String(index + 1), 'still asking');
    await page.locator('[data-testid="predict-skip"]').click();
    await page.locator('[data-testid="predict-result"]').waitFor();
    if (index + 1 < lesson.steps.length) {
      await page.keyboard.press('ArrowRight');
      await stepShown(lesson, index + 1);
    }
  });

  it('keeps the knowledge check score across a reload, reviews wrong answers, and starts again', async () => {
    await openPage('quiz', 'quiz');
    await page.locator('[data-testid="quiz-reset"]').click();
    const answerOf = async () => {
      const id = await page.locator('[data-testid="question"]').getAttribute('data-question');
      return { id };
    };
    const first = await answerOf();
    // Answer the first question wrongly and the second rightly, with the explanation shown.
    const choices = await page.locator('[data-testid="choice"]').count();
    let wrong = 0;
    for (; wrong < choices; wrong += 1) {
      await page.locator(`[data-testid="choice"][data-index="${wrong}"]`).click();
      if ((await page.locator('[data-testid="explanation"]').getAttribute('data-correct')) === 'false') break;
      await page.locator('[data-testid="quiz-reset"]').click();
    }
    assert.match(await page.locator('[data-testid="explanation"]').innerText(), /See it happen/);
    await page.locator('[data-testid="question-next"]').click();
    const right = await page.locator('[data-testid="choice"].right').count();
    assert.equal(right, 0, 'nothing is marked before answering');
    for (let i = 0; i < 5; i += 1) {
      await page.locator(`[data-testid="choice"][data-index="${i}"]`).click();
      if ((await page.locator('[data-testid="explanation"]').getAttribute('data-correct')) === 'true') break;
    }
    await page.reload();
    await page.locator('[data-testid="quiz"]').waitFor();
    const score = page.locator('[data-testid="score"]');
    assert.equal(await score.getAttribute('data-answered'), '2');
    assert.equal(await score.getAttribute('data-right'), '1');
    await page.locator('[data-testid="review"]').click();
    assert.equal(await page.locator('[data-testid="question"]').getAttribute('data-question'), first.id, 'the wrong one to review');
    await app.screenshot('quiz');
    await page.locator('[data-testid="quiz-reset"]').click();
    assert.equal(await score.getAttribute('data-answered'), '0');
    assert.ok(Number((await score.innerText()).match(/(\d+) questions/)[1]) >= 30);
  });

  it('hides interview answers in practice until asked, and the guide links a consequence to its lesson', async () => {
    await openPage('deck', 'deck');
    const card = page.locator('[data-testid="card"]').first();
    assert.equal(await card.locator('[data-testid="card-answer"]').count(), 0);
    await card.locator('[data-testid="show-answer"]').click();
    assert.match(await card.locator('[data-testid="card-answer"]').innerText(), /Follow-up/i);
    await openPage('guide', 'guide');
    const recommendation = page.locator('[data-testid="recommendation"]');
    for (const answer of guide.answers) {
      await page.locator(`[data-testid="consequence"][value="${answer.id}"]`).check();
      await page.waitForFunction(
        ([text]) => document.querySelector('[data-testid="recommendation"] p')?.textContent === text,
        [answer.recommendation],
      );
      assert.equal(await recommendation.getAttribute('data-verdict'), answer.verdict, answer.id);
      assert.equal(await recommendation.locator('[data-testid="guide-lesson"]').getAttribute('href'), `#learn=${answer.lesson}&step=1`, answer.id);
    }
    const last = guide.answers[guide.answers.length - 1];
    await recommendation.locator('[data-testid="guide-lesson"]').click();
    await page.locator(`[data-testid="lesson"][data-lesson="${last.lesson}"]`).waitFor();
    // The lesson stands the playground at its first step once that scenario's file is loaded.
    const first = lessons.find((l) => l.id === last.lesson).steps[0];
    await app.waitForPosition(first.predict ? first.event : first.event + 1);
  });

  it('runs the three verification tests in the page against each lock service, with fencing on and off', async () => {
    // The verdicts lockstep_sim::verification gives (asserted natively in
    // crates/lockstep-sim/tests/sim/verification.rs): [result, finding] per test, in order.
    const expected = [
      ['SQL row (the article\'s)', 'on', 1, [['pass', 'stale_write_rejected'], ['pass', 'new_holder_keeps_lock'], ['pass', 'data_intact']]],
      // Chaos seed 5 hits the fencing gap: a lost update with no stale write.
      ['SQL row (the article\'s)', 'on', 5, [['pass', 'stale_write_rejected'], ['pass', 'new_holder_keeps_lock'], ['fail', 'lost_update']]],
      ['SQL row (the article\'s)', 'off', 1, [['fail', 'stale_write_accepted'], ['pass', 'new_holder_keeps_lock'], ['fail', 'lost_update']]],
      ['Redlock, 5 nodes', 'on', 1, [['fail', 'new_holder_refused'], ['pass', 'new_holder_keeps_lock'], ['fail', 'nothing_accepted']]],
      ['Redlock, 5 nodes', 'off', 1, [['fail', 'stale_write_accepted'], ['pass', 'new_holder_keeps_lock'], ['fail', 'lost_update']]],
      ['Consensus, 3 replicas', 'on', 1, [['pass', 'stale_write_rejected'], ['pass', 'new_holder_keeps_lock'], ['pass', 'data_intact']]],
      ['Consensus, 3 replicas', 'off', 1, [['fail', 'stale_write_accepted'], ['pass', 'new_holder_keeps_lock'], ['fail', 'lost_update']]],
    ];
    await openPage('learn=verification&step=1', 'verification-tests');
    assert.equal(await page.locator('[data-testid="verification-seed"]').inputValue(), '1', 'the chaos seed starts at 1');
    const verdicts = page.locator('[data-testid="verification-verdicts"]');
    for (const [backend, fencing, seed, results] of expected) {
      await page.locator('[data-testid="verification-backend"]').selectOption({ label: backend });
      await page.locator('[data-testid="verification-fencing"]').selectOption({ label: fencing });
      await page.locator('[data-testid="verification-seed"]').fill(String(seed));
      await page.locator('[data-testid="verification-seed"]').dispatchEvent('change');
      await page.locator('[data-testid="verification-run"]').click();
      await page.waitForFunction(
        ([b, f, s]) => {
          const list = document.querySelector('[data-testid="verification-verdicts"]');
          return list?.dataset.backend === b && list?.dataset.fencing === f && list?.dataset.seed === s;
        },
        [backend, fencing, String(seed)],
        { timeout: 60_000 },
      );
      const shown = await verdicts.locator('[data-testid="verification-test"]')
        .evaluateAll((items) => items.map((i) => [i.dataset.result, i.dataset.finding]));
      assert.deepEqual(shown, results, `${backend}, fencing ${fencing}, chaos seed ${seed}`);
      // Each verdict says why, in words, next to what it ran against.
      const against = `(${backend}, fencing ${fencing}, chaos seed ${seed})`.replace(/[()]/g, '\\$&');
      for (const text of await verdicts.locator('[data-testid="verification-test"]').allInnerTexts()) {
        assert.match(text, new RegExp(`^(✓ pass|✗ fail): .+ — .+ ${against}$`));
      }
      if (backend.startsWith('SQL') && fencing === 'on' && seed === 1) await app.screenshot('verification-tests');
    }
    assert.deepEqual(app.problems, []);
  });

  it('plots what an operator watches as the run advances', async () => {
    await openPage('s=s2-gc-pause-fenced&at=5', 'monitor');
    const count = (metric) => page.locator(`[data-testid="metric"][data-metric="${metric}"]`).getAttribute('data-count');
    assert.equal(await count('fenced-writes'), '0');
    await page.keyboard.press('End');
    await app.waitForPosition(24);
    assert.equal(await count('fenced-writes'), '1');
    assert.equal(await count('expired-while-held'), '1');
    assert.equal(await count('wait'), '2');
  });

  it('has no serious or critical accessibility findings on the guided pages', async () => {
    for (const [fragment, testid] of [[`learn=${lessons[0].id}&step=1`, 'lesson'], ['learn', 'lessons'], ['quiz', 'quiz'], ['deck', 'deck'], ['guide', 'guide']]) {
      await openPage(fragment, testid);
      const findings = await app.axe();
      assert.deepEqual(findings, [], `${fragment}: ${findings.join('\n')}`);
    }
    assert.deepEqual(app.problems, []);
  });
});
