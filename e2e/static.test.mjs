// Static first (decision 43): every page the build knows is rendered at build time by the app's
// own components into its own folder of dist/, and the app then draws over it. Served here from
// a sub-path, as from any plain static host:
// - without JavaScript, a lesson step's text (a prediction's under "Just show me") and a
//   scenario's story and timeline are readable, and the links between pages lead to pages;
// - with it, the app's drawing of every page of sitemap.xml is the build's, node for node, and
//   so is its title, which follows the page as the app moves between pages in place;
// - every published `#…` link still opens what it opened, now at its page's path.

import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

import { launchChromium, watchForProblems } from './browser.mjs';
import { DIST, serveDirectory } from './harness.mjs';
import { countLayoutShift, firstDifference, layoutShift, snapshot } from './snapshot.mjs';

const HERE = dirname(fileURLToPath(import.meta.url));
const REPO = resolve(HERE, '..');
/** The address `cargo xtask dist` writes into canonical links and sitemap.xml by default. */
const PUBLISHED = 'http://127.0.0.1:8080/';

/** The site's pages as sitemap.xml lists them: each page's path from the site's root. */
function sitemapPaths() {
  const xml = readFileSync(join(DIST, 'sitemap.xml'), 'utf8');
  return [...xml.matchAll(/<loc>([^<]*)<\/loc>/g)].map(([, loc]) => {
    assert.ok(loc.startsWith(PUBLISHED), `${loc} is under ${PUBLISHED}`);
    return loc.slice(PUBLISHED.length);
  });
}

/**
 * Waits for `page`'s app to draw over the build's page: null once it has, else what the page
 * says of its loading (its loading line, its problem, the root's attributes).
 */
async function appStarts(page) {
  try {
    await page.locator('html[data-app="running"]').waitFor({ state: 'attached', timeout: 30_000 });
    return null;
  } catch {
    const said = await page.evaluate(() => ({
      loading: document.querySelector('[data-testid="loading-line"]')?.textContent.trim() ?? null,
      problem: document.querySelector('[data-testid="load-problem"]')?.textContent.trim() ?? null,
      html: [...document.documentElement.attributes].map((a) => `${a.name}=${a.value}`).join(' '),
    }));
    return JSON.stringify(said);
  }
}

describe('pages rendered at build time', () => {
  let site;
  let reader; // JavaScript off
  let visitor; // JavaScript on
  let plain;
  let running;
  const problems = [];

  before(async () => {
    site = await serveDirectory(DIST, '/static/first/');
    reader = await launchChromium({ javaScriptEnabled: false });
    visitor = await launchChromium();
    plain = reader.context.pages()[0] ?? (await reader.context.newPage());
    running = visitor.context.pages()[0] ?? (await visitor.context.newPage());
    watchForProblems(running, (problem) => problems.push(problem));
    await countLayoutShift(visitor.context);
  });

  after(async () => {
    await reader?.close();
    await visitor?.close();
    await site?.close();
  });

  it('reads a lesson step and a scenario without JavaScript, and its links lead to pages', async () => {
    const lessons = JSON.parse(readFileSync(join(REPO, 'content', 'lessons.json'), 'utf8')).lessons;
    const lesson = lessons.find((l) => l.id === 'not-a-mutex');
    await plain.goto(`${site.url}learn/not-a-mutex/3/`);
    assert.equal(await plain.title(), `${lesson.title}, step 3 of ${lesson.steps.length} — Lockstep`);
    const text = await plain.locator('[data-testid="lesson-text"]').innerText();
    assert.equal(text.replace(/\s+/g, ' '), lesson.steps[2].text.replace(/\s+/g, ' '));
    await plain.locator('[data-testid="timeline-main"] svg').waitFor();
    await plain.locator('[data-testid="noscript-rendered"]').waitFor();
    assert.equal(await plain.locator('[data-testid="noscript"]').isVisible(), false);
    // Next and Back lead to the steps' pages.
    await plain.locator('[data-testid="lesson-next"]').click();
    await plain.waitForURL(`${site.url}learn/not-a-mutex/4/`);
    await plain.locator('[data-testid="lesson-back"]').click();
    await plain.waitForURL(`${site.url}learn/not-a-mutex/3/`);

    // A step that asks for a prediction folds its text under "Just show me": closed, and
    // opened without JavaScript by the browser alone.
    const index = lesson.steps.findIndex((step) => step.predict);
    const asking = lesson.steps[index];
    await plain.goto(`${site.url}learn/not-a-mutex/${index + 1}/`);
    const fold = plain.locator('[data-testid="predict-fold"]');
    assert.equal(await fold.evaluate((details) => details.open), false, 'the fold spoils nothing');
    await plain.locator('[data-testid="predict-skip"]').click();
    assert.equal(await fold.evaluate((details) => details.open), true);
    const shown = (await fold.innerText()).replace(/\s+/g, ' ');
    assert.ok(shown.includes(asking.text.replace(/\s+/g, ' ')), shown);
    assert.ok(shown.includes(`The answer: “${asking.predict.choices[asking.predict.answer].text}”`), shown);

    await plain.goto(`${site.url}s/s1-gc-pause-unfenced/`);
    const scenario = JSON.parse(readFileSync(join(REPO, 'scenarios', 's1-gc-pause-unfenced.json'), 'utf8'));
    assert.equal(await plain.title(), `${scenario.title} — Lockstep`);
    assert.match(await plain.locator('[data-testid="narration"]').innerText(), /client-a asks lock-service for the lock/);
    assert.deepEqual(
      await plain.locator('[data-testid="timeline-main"] .lane-labels li').allInnerTexts().then((names) => names.map((n) => n.split('\n')[0])),
      ['client-a', 'client-b', 'lock-service', 'resource'],
    );
    assert.match(await plain.locator('[data-testid="position"]').first().innerText(), /^event 1 of \d+/);

    await plain.locator('[data-testid="nav-lessons"]').click();
    await plain.waitForURL(`${site.url}learn/`);
    assert.equal(await plain.title(), 'Lessons — Lockstep');
    await plain.locator('[data-testid="lesson-link"]').first().click();
    await plain.waitForURL(/\/learn\/[a-z0-9-]+\/1\/$/);
    await plain.locator('[data-testid="lesson-text"]').waitFor();
  });

  it('gives every page of sitemap.xml its own title, description and canonical address', async () => {
    const paths = sitemapPaths();
    assert.ok(paths.length > 200, `${paths.length} pages`);
    const titles = new Set();
    for (const path of paths) {
      const html = readFileSync(join(DIST, path, 'index.html'), 'utf8');
      const title = /<title>([^<]+)<\/title>/.exec(html)?.[1];
      assert.ok(title, `${path}: a title`);
      titles.add(title);
      assert.match(html, /<meta name="description" content="[^"]{20,}" \/>/, `${path}: a description`);
      assert.ok(html.includes(`<link rel="canonical" href="${PUBLISHED}${path}" />`), `${path}: canonical`);
    }
    assert.equal(titles.size, paths.length, 'no two pages share a title');
    const missing = await fetch(`${site.url}no/such/page/`);
    assert.equal(missing.status, 404);
    const notFound = readFileSync(join(DIST, '404.html'), 'utf8');
    assert.match(notFound, /This page is not here/);
    assert.ok(notFound.includes(`href="${PUBLISHED}learn/"`));
  });

  it('draws over every page exactly what the build drew, and nothing moves', async (t) => {
    const paths = sitemapPaths();
    const differences = [];
    const shifts = [];
    const titles = [];
    for (const path of paths) {
      await plain.goto(site.url + path);
      const built = await snapshot(plain);
      const before = problems.length;
      await running.goto(site.url + path);
      const first = await appStarts(running);
      if (first !== null) {
        // Once in 262 loads on a busy machine, a page's binary has not started: the page's own
        // words and the browser's reports say why, here and in the test's output. A second
        // load that fails too is a difference; one that starts is the page drawn as ever.
        const note = `/${path}: the app did not start (${running.url()}): ${first}; reported: ${problems.splice(before).join('; ') || 'nothing'}`;
        t.diagnostic(note);
        await running.reload();
        const second = await appStarts(running);
        if (second !== null) {
          differences.push(`${note}; and again on reload: ${second}`);
          continue;
        }
      }
      const drawn = await snapshot(running);
      // Two frames after the app's first render: any shift it caused has been reported.
      const shift = await layoutShift(running);
      if (shift > 0.01) shifts.push(`/${path}: ${shift.toFixed(4)}`);
      // The app sets the title it would give the page in place: the build's, to the letter.
      const [builtTitle, drawnTitle] = [await plain.title(), await running.title()];
      if (builtTitle !== drawnTitle) titles.push(`/${path}: ${JSON.stringify(builtTitle)} became ${JSON.stringify(drawnTitle)}`);
      if (JSON.stringify(built) !== JSON.stringify(drawn)) {
        differences.push(`/${path}: ${firstDifference(built, drawn)}`);
      }
    }
    assert.equal(differences.length, 0, `${differences.length} of ${paths.length} pages differ:\n${differences.slice(0, 8).join('\n\n')}`);
    assert.deepEqual(shifts, [], 'cumulative layout shift over 0.01');
    assert.deepEqual(titles, [], "the app's title for a page is the build's");
    assert.deepEqual(problems, [], 'the pages reported problems');
  });

  it('names the page it moves to in place, and the one Back returns to', async () => {
    const lessons = JSON.parse(readFileSync(join(REPO, 'content', 'lessons.json'), 'utf8')).lessons;
    const scenario = JSON.parse(readFileSync(join(REPO, 'scenarios', 's1-gc-pause-unfenced.json'), 'utf8'));
    // Leaving the page before aborts what it still had in flight: that alone is no problem.
    const before = problems.length;
    await running.goto('about:blank');
    const leaving = problems.splice(before);
    problems.push(...leaving.filter((problem) => !/^request failed: .*\(net::ERR_ABORTED\)$/.test(problem)));
    await running.goto(`${site.url}s/s1-gc-pause-unfenced/`);
    await running.locator('html[data-app="running"]').waitFor({ state: 'attached', timeout: 30_000 });
    assert.equal(await running.title(), `${scenario.title} — Lockstep`);
    // Gone if the page loads again: the links below must be followed in place.
    await running.evaluate(() => {
      window.lockstepStayed = true;
    });
    const titled = (title) => running.waitForFunction((wanted) => document.title === wanted, title);

    await running.locator('[data-testid="nav-lessons"]').click();
    await running.waitForURL(`${site.url}learn/`);
    await titled('Lessons — Lockstep');
    await running.locator('[data-testid="lesson-link"]').first().click();
    await running.waitForURL(`${site.url}learn/${lessons[0].id}/1/`);
    await titled(`${lessons[0].title}, step 1 of ${lessons[0].steps.length} — Lockstep`);
    await running.evaluate(() => history.back());
    await running.waitForURL(`${site.url}learn/`);
    await titled('Lessons — Lockstep');
    assert.equal(await running.evaluate(() => window.lockstepStayed), true, 'followed in place');
    assert.deepEqual(problems, [], 'the page reported problems');
  });

  it('keeps a Step and a key pressed before the app runs, and applies them once it does', async () => {
    let release;
    const held = new Promise((resolve) => {
      release = resolve;
    });
    await running.route('**/lockstep_bg.wasm', async (route) => {
      await held;
      await route.continue();
    });
    await running.goto(`${site.url}s/s1-gc-pause-unfenced/`);
    const position = () => running.locator('[data-testid="position"]').first().innerText();
    const before = Number(/^event (\d+) of/.exec(await position())[1]);
    await running.locator('[data-testid="step"]').click();
    assert.equal(await running.locator('[data-testid="step"]').getAttribute('aria-busy'), 'true', 'the Step says it waits');
    await running.locator('body').press('ArrowRight');
    assert.equal(await running.evaluate(() => document.documentElement.dataset.app), undefined, 'the app is not running yet');
    release();
    await running.locator('html[data-app="running"]').waitFor({ state: 'attached', timeout: 30_000 });
    await running.waitForFunction(
      (wanted) => document.querySelector('[data-testid="position"]')?.textContent.startsWith(`event ${wanted} of`),
      before + 2,
    );
    await running.unroute('**/lockstep_bg.wasm');
    assert.deepEqual(problems, [], 'the page reported problems');
  });

  it("shows the visitor's stored theme in the theme control before the app runs", async () => {
    let release;
    const held = new Promise((resolve) => {
      release = resolve;
    });
    await running.goto(`${site.url}s/s1-gc-pause-unfenced/`);
    await running.evaluate(() => localStorage.setItem('lockstep-theme', 'dark'));
    await running.route('**/lockstep-full_bg.wasm', async (route) => {
      await held;
      await route.continue();
    });
    await running.goto(`${site.url}learn/not-a-mutex/2/`);
    const control = running.locator('[data-testid="theme"]');
    assert.equal(await running.evaluate(() => document.documentElement.dataset.app), undefined, 'the app is not running yet');
    assert.equal(await running.locator('html').getAttribute('data-theme'), 'dark');
    assert.equal(await control.inputValue(), 'dark', 'the control says what the page shows');
    release();
    await running.locator('html[data-app="running"]').waitFor({ state: 'attached', timeout: 30_000 });
    await running.waitForFunction(() => document.querySelector('[data-testid="theme"]')?.value === 'dark');
    await running.unroute('**/lockstep-full_bg.wasm');
    await running.evaluate(() => localStorage.removeItem('lockstep-theme'));
    assert.deepEqual(problems, [], 'the page reported problems');
  });

  it("opens every published link where it opened before, at its page's path", async () => {
    const corpus = readFileSync(join(REPO, 'crates/lockstep-sim/tests/corpus/links/v1.txt'), 'utf8')
      .split('\n')
      .filter((line) => line && !line.startsWith('#'))
      .map((line) => line.split('\t'));
    for (const [fragment, opens] of corpus) {
      // A fresh load each: from the root to the root, only the fragment would change. Leaving
      // aborts what the page still had in flight: that alone is not the page's problem.
      const before = problems.length;
      await running.goto('about:blank');
      const leaving = problems.splice(before);
      problems.push(...leaving.filter((problem) => !/^request failed: .*\(net::ERR_ABORTED\)$/.test(problem)));
      await running.goto(`${site.url}#${fragment}`);
      await running
        .locator('html[data-app="running"]')
        .waitFor({ state: 'attached', timeout: 30_000 })
        .catch(() => assert.fail(`#${fragment.slice(0, 60)}: the app did not start`));
      if (fragment.startsWith('embed&')) {
        await running.locator('[data-testid="embed"]').waitFor();
        continue;
      }
      await running.locator('[data-testid="timeline-main"] svg').waitFor();
      if (opens === 'custom' || opens.startsWith('chaos')) continue;
      await running.waitForFunction(
        (id) => document.querySelector('select[data-testid="scenario-picker"]')?.value === id,
        opens,
      );
      await running.locator('html[data-url="written"]').waitFor({ state: 'attached' });
      const url = new URL(running.url());
      assert.equal(url.pathname, `/static/first/s/${opens}/`, `#${fragment} shows its scenario's path`);
    }
    assert.deepEqual(problems, [], 'the pages reported problems');
  });
});
