// `cargo xtask shots`: screenshots people look at. For every built-in scenario, at 1280×800 and
// on a 375×700 touch screen, the opening view and the moment things first go wrong, found as a
// learner finds them: the "first violation" control, and the first rejected-write mark on the
// timeline (the run's end, with the whole run in view, then that mark). A scenario with neither
// is shown at its last position, and its file name says so. Then the guided pages: the lessons'
// index, the first step of every lesson, the knowledge check answered rightly and wrongly, the
// interview deck and the guide. Everything goes to e2e/artifacts/shots/ as
// <name>-<width>.png, with index.html, a contact sheet of them all with their names.
//
// The moments are checked against the native CLI's trace (LOCKSTEP_CLI): a control that lands
// anywhere else fails the run. So does a page that reports a problem (a console error, a page
// error, a failed request) or a shot that comes out blank. Every shot is taken even after a
// failure, so that the sheet shows what went wrong; the run then exits with status 1.

import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFile, rm, mkdir, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

import { ARTIFACTS, startApp } from './harness.mjs';

const HERE = dirname(fileURLToPath(import.meta.url));
const SHOTS = join(ARTIFACTS, 'shots');
const CLI = process.env.LOCKSTEP_CLI;
assert.ok(CLI, 'LOCKSTEP_CLI must name the native CLI (cargo xtask shots sets it)');

const content = async (file) => JSON.parse(await readFile(resolve(HERE, '..', 'content', file), 'utf8'));
const lessons = (await content('lessons.json')).lessons;
const questions = (await content('questions.json')).questions;

const SIZES = [
  { width: 1280, height: 800, label: 'desktop, 1280×800', options: {} },
  { width: 375, height: 700, label: 'phone, 375×700, touch', options: { hasTouch: true, isMobile: true } },
];

/** The built-in scenarios, in the CLI's order, with what the native trace says goes wrong. */
function catalogue() {
  const listed = execFileSync(CLI, ['list'], { encoding: 'utf8' }).trim().split('\n');
  return listed.map((line) => {
    const [, id, title] = /^(\S+)\s+(.*)$/.exec(line);
    const run = JSON.parse(execFileSync(CLI, ['run', id, '--format', 'json'], { encoding: 'utf8', maxBuffer: 1 << 28 }));
    const violation = run.events.find((e) => e.broke.length > 0);
    const rejection = run.events.find((e) => e.kind === 'write_rejected');
    return { id, title, events: run.events.length, violation: violation?.id, rejection: rejection?.id };
  });
}

const shots = [];
const failures = [];

async function main() {
  const scenarios = catalogue();
  await rm(SHOTS, { recursive: true, force: true });
  await mkdir(SHOTS, { recursive: true });
  for (const size of SIZES) {
    console.log(`==> ${size.label}: ${scenarios.length} scenarios, then the guided pages`);
    const app = await startApp({ viewport: { width: size.width, height: size.height }, ...size.options });
    try {
      for (const scenario of scenarios) await scenarioShots(app, size, scenario);
      await guidedShots(app, size);
    } finally {
      await app.close();
    }
  }
  await writeFile(join(SHOTS, 'index.html'), contactSheet(scenarios));
  console.log(`==> ${shots.length} shots and a contact sheet: ${join(SHOTS, 'index.html')}`);
  if (failures.length > 0) {
    console.error(`\n${failures.length} problem(s):\n${failures.map((f) => `  - ${f}`).join('\n')}`);
    process.exit(1);
  }
}

/**
 * Runs `body`, recording its failure under `name` rather than stopping the run; the problems the
 * page reported go with it, so that the next shot starts clean. (Leaving a page the browser has
 * closed can itself fail; that failure is already recorded.)
 */
async function attempt(app, name, body) {
  try {
    await body();
  } catch (error) {
    // What the page reported explains a wait that timed out; say it with the failure.
    const reported = app.problems.length > 0 ? ` (the page reported: ${app.problems.join('; ')})` : '';
    failures.push(`${name}: ${error.message.split('\n')[0]}${reported}`);
    console.error(`    FAILED ${name}: ${error.message}${reported}`);
    // Leaving the failed page aborts what it still had in flight: that is its problem too.
    await app.page.goto('about:blank').catch(() => {});
  }
  app.problems.splice(0);
}

async function scenarioShots(app, size, scenario) {
  const { page } = app;
  const { id } = scenario;
  await attempt(app, `${id} (${size.width})`, async () => {
    await app.open(`s=${id}`);
    // The scenario's file loads after the page: wait for its run, whatever position it opens at.
    await page.waitForFunction(
      (events) => new RegExp(`^event \\d+ of ${events}$`).test(document.querySelector('[data-testid="position"]')?.textContent ?? '')
        && !document.querySelector('.notice.loading'),
      scenario.events,
    );
    await shoot(app, size, { group: id, name: `${id}-opening`, caption: await momentCaption(app, 'opening view') });

    const first = page.locator('[data-testid="first-violation"]');
    if (scenario.violation !== undefined) {
      if (await first.isVisible()) {
        assert.equal(await first.isEnabled(), true, `${id}: the CLI finds a violation at event ${scenario.violation}, but "first violation" is disabled`);
        await first.click();
        await app.waitForPosition(scenario.violation + 1);
        await shoot(app, size, { group: id, name: `${id}-first-violation`, caption: await momentCaption(app, 'first violation') });
      } else {
        // This screen hides the control: the violation bands on the timeline are what is left.
        await openEarliest(app, scenario, '[data-testid="violation-band"]', scenario.violation, 'violation band');
        await shoot(app, size, {
          group: id,
          name: `${id}-first-violation`,
          caption: await momentCaption(app, 'first violation (by its band on the timeline: this screen shows no "first violation" control)'),
        });
      }
    } else if (await first.isVisible()) {
      assert.equal(await first.isEnabled(), false, `${id}: the CLI finds no violation, but "first violation" is enabled`);
    }

    const rejected = '[data-testid="event-mark"][data-kind="write_rejected"]';
    if (scenario.rejection !== undefined) {
      await openEarliest(app, scenario, rejected, scenario.rejection, 'rejected-write mark');
      await shoot(app, size, { group: id, name: `${id}-first-rejection`, caption: await momentCaption(app, 'first rejected write') });
    } else {
      await showWholeRun(app, scenario);
      const marks = await page.locator(`[data-testid="timeline-main"] ${rejected}`).count();
      assert.equal(marks, 0, `${id}: the CLI finds no rejected write, but the timeline marks ${marks}`);
    }
    if (scenario.violation === undefined && scenario.rejection === undefined) {
      await shoot(app, size, {
        group: id,
        name: `${id}-end-no-violation`,
        caption: await momentCaption(app, 'no violation and no rejected write: the last position'),
      });
    }
  });
}

/** The run's end, with the whole run in view on the main timeline. */
async function showWholeRun(app, scenario) {
  await app.page.keyboard.press('End');
  await app.waitForPosition(scenario.events);
  const whole = app.page.locator('[data-testid="timeline-main"] [data-testid="zoom-fit"]');
  if (await whole.isVisible()) await whole.click();
  await app.settle();
}

/**
 * Opens the earliest of the shapes `selector` on the main timeline as a keyboard user does (focus,
 * Enter), from the run's end with the whole run in view, and checks that it is the event the
 * CLI's trace names (`expected`) and that the page then stands just after it.
 */
async function openEarliest(app, scenario, selector, expected, what) {
  const { page } = app;
  await showWholeRun(app, scenario);
  const shapes = page.locator(`[data-testid="timeline-main"] ${selector}`);
  const ids = (await shapes.evaluateAll((all) => all.map((s) => Number(s.dataset.eventId)))).sort((a, b) => a - b);
  assert.equal(ids[0], expected, `${scenario.id}: the CLI's trace says event ${expected}; the timeline's earliest ${what} is at [${ids}]`);
  await shapes.and(page.locator(`[data-event-id="${expected}"]`)).first().focus();
  await page.keyboard.press('Enter');
  await app.waitForPosition(expected + 1);
}

/** "first violation: event 11 of 24", read off the page. */
async function momentCaption(app, what) {
  const { at, of } = await app.position();
  return `${what}: event ${at} of ${of}`;
}

/** Opens a guided page (most have no timeline) and waits for `testid`. */
async function openGuided(app, fragment, testid) {
  await app.page.goto('about:blank');
  await app.page.goto(`${app.site.url}#${fragment}`);
  await app.page.locator(`[data-testid="${testid}"]`).first().waitFor({ timeout: 30_000 });
}

async function guidedShots(app, size) {
  const { page } = app;
  await attempt(app, `lessons index (${size.width})`, async () => {
    await openGuided(app, 'learn', 'lessons');
    await shoot(app, size, { group: 'lessons', name: 'lessons-index', caption: 'the lessons' });
  });
  for (const lesson of lessons) {
    await attempt(app, `lesson ${lesson.id} (${size.width})`, async () => {
      const step = lesson.steps[0];
      await openGuided(app, `learn=${lesson.id}&step=1`, 'lesson');
      await app.waitForPosition(step.predict ? step.event : step.event + 1);
      await shoot(app, size, { group: 'lessons', name: `lesson-${lesson.id}-step-1`, caption: `${lesson.title}, step 1 of ${lesson.steps.length}` });
    });
  }
  await attempt(app, `knowledge check (${size.width})`, async () => {
    await openGuided(app, 'quiz', 'quiz');
    for (const verdict of ['right', 'wrong']) {
      await page.locator('[data-testid="quiz-reset"]').click();
      const id = await page.locator('[data-testid="question"]').getAttribute('data-question');
      const question = questions.find((q) => q.id === id);
      assert.ok(question, `the page asks question ${id}, which content/questions.json does not have`);
      const choice = verdict === 'right' ? question.answer : (question.answer + 1) % question.choices.length;
      await page.locator(`[data-testid="choice"][data-index="${choice}"]`).click();
      const shown = await page.locator('[data-testid="explanation"]').getAttribute('data-correct');
      assert.equal(shown, String(verdict === 'right'), `answered ${verdict}ly, the page says data-correct=${shown}`);
      await shoot(app, size, { group: 'guided', name: `quiz-answered-${verdict}`, caption: `knowledge check, answered ${verdict}ly` });
    }
    await page.locator('[data-testid="quiz-reset"]').click();
  });
  await attempt(app, `interview deck (${size.width})`, async () => {
    await openGuided(app, 'deck', 'deck');
    await page.locator('[data-testid="show-answer"]').first().click();
    await shoot(app, size, { group: 'guided', name: 'deck', caption: 'interview deck, the first answer shown' });
  });
  await attempt(app, `guide (${size.width})`, async () => {
    await openGuided(app, 'guide', 'guide');
    await page.locator('[data-testid="consequence"]').first().check();
    await page.locator('[data-testid="recommendation"]').waitFor();
    await shoot(app, size, { group: 'guided', name: 'guide', caption: 'the guide, the first consequence chosen' });
  });
}

/**
 * Takes the screen as a visitor sees it (the viewport, scrolled to the top), after checking that
 * the page reported no problem since the last shot and that the shot is not blank.
 */
async function shoot(app, size, { group, name, caption }) {
  const { page } = app;
  await page.evaluate(() => window.scrollTo(0, 0));
  await app.settle();
  const file = `${name}-${size.width}.png`;
  const picture = await page.screenshot({ path: join(SHOTS, file) });
  shots.push({ group, name, file, width: size.width, height: size.height, caption });
  const problems = app.problems.splice(0);
  assert.deepEqual(problems, [], `${file}: the page reported problems`);
  const colours = await distinctColours(page, picture);
  assert.ok(colours >= 100, `${file} looks blank: ${colours} distinct colours in it (a line of text alone has about 40)`);
  console.log(`    ${file}  (${caption})`);
}

/**
 * How many distinct colours the picture has (sampled on a grid): a blank page has one, a line
 * of text alone about 40 (its anti-aliasing), the sparsest real page here (the guide on a
 * phone) about 400. Decoded by the browser itself, so no PNG
 * library is needed.
 */
async function distinctColours(page, picture) {
  return page.evaluate(async (base64) => {
    const image = new Image();
    image.src = `data:image/png;base64,${base64}`;
    await image.decode();
    const canvas = document.createElement('canvas');
    canvas.width = image.naturalWidth;
    canvas.height = image.naturalHeight;
    const context = canvas.getContext('2d');
    context.drawImage(image, 0, 0);
    const { data } = context.getImageData(0, 0, canvas.width, canvas.height);
    const seen = new Set();
    for (let i = 0; i < data.length; i += 4 * 7) seen.add((data[i] << 16) | (data[i + 1] << 8) | data[i + 2]);
    return seen.size;
  }, picture.toString('base64'));
}

const escape = (text) => String(text).replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]);

/** The contact sheet: every shot with its file name and what it shows, a section per scenario. */
function contactSheet(scenarios) {
  const titles = new Map(scenarios.map((s) => [s.id, s.title]));
  const groups = [...new Set(shots.map((s) => s.group))];
  const heading = (group) => ({ lessons: 'Lessons', guided: 'Knowledge check, interview deck, guide' })[group] ?? titles.get(group) ?? group;
  const figure = (s) => `
      <figure class="w${s.width}">
        <a href="${escape(s.file)}"><img src="${escape(s.file)}" alt="${escape(`${heading(s.group)}: ${s.caption}, ${s.width}×${s.height}`)}" loading="lazy" width="${s.width / 2}" height="${s.height / 2}"></a>
        <figcaption><code>${escape(s.file)}</code><br>${escape(s.caption)}</figcaption>
      </figure>`;
  const failed = failures.length === 0 ? '' : `
  <section class="failures"><h2>Problems (${failures.length})</h2><ul>${failures.map((f) => `<li>${escape(f)}</li>`).join('')}</ul></section>`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>Lockstep: screenshots (cargo xtask shots)</title>
<style>
  body { font: 14px/1.4 system-ui, sans-serif; margin: 16px 24px; color: #1a1d21; background: #fff; }
  h1 { font-size: 20px; } h2 { font-size: 16px; margin: 24px 0 8px; border-top: 1px solid #d9dde3; padding-top: 12px; }
  .row { display: flex; flex-wrap: wrap; gap: 16px; align-items: flex-start; }
  figure { margin: 0; }
  img { display: block; border: 1px solid #d9dde3; height: auto; }
  figcaption { font-size: 12px; color: #555; max-width: 640px; }
  .failures { background: #fff1e8; border: 2px dashed #b84700; padding: 8px 16px; }
</style>
</head>
<body>
<h1>Lockstep: ${shots.length} screenshots</h1>
<p>Made by <code>cargo xtask shots</code> from the release build in <code>dist/</code>: each scenario's opening view and the
moment it first goes wrong, found with the page's own controls and checked against the native CLI's trace, at 1280×800 and on a
375×700 touch screen (the screen as it shows, scrolled to the top), then the guided pages. Shown at half size: click a shot for
the full picture.</p>${failed}
${groups.map((group) => `
  <section>
    <h2>${escape(heading(group))}</h2>
    <div class="row">${shots.filter((s) => s.group === group).map(figure).join('')}
    </div>
  </section>`).join('')}
</body>
</html>
`;
}

await main();
