// The playground's layout as a first-time learner meets it (issue 12, "story first"): for every
// built-in scenario, at its opening position and at its last, on a 1280×800 screen and on a
// 375×700 touch screen.
// - Desktop: the timeline's lanes, the current narration ("now") and Step are all on screen
//   together without scrolling, and none of them lies under the transport bar.
// - Phone: the first screen shows the top of the timeline (its first lane) and the transport,
//   whose every control is a touch target of at least 44×44 px.
// - Neither scrolls sideways.
// - Scrolled to the bottom of the page, the transport (Step) is still on screen and not covered.
// Axe-core on each screen, with the section menu and the "More" menu open. The page chrome: each
// tab's label is the heading of the page it opens, and the trace hash shows only where there is a
// run (the playground, a lesson). Then the theme: a manual light or dark choice (made with the nav's control, as a user does)
// wins over the system's, has no serious or critical accessibility finding in either, and
// survives a reload. Screenshots go to e2e/artifacts/layout-*.png.

import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readdir, readFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

import { startApp } from './harness.mjs';

const HERE = dirname(fileURLToPath(import.meta.url));
const SCENARIOS = resolve(HERE, '..', 'scenarios');
/** Every built-in scenario, as the catalogue's files name them: `{ id, title }`. */
const CATALOGUE = await Promise.all(
  (await readdir(SCENARIOS))
    .filter((name) => name.endsWith('.json'))
    .sort()
    .map(async (name) => {
      const { id, title } = JSON.parse(await readFile(resolve(SCENARIOS, name), 'utf8'));
      return { id, title };
    }),
);

const SCREENS = [
  { name: 'desktop', options: { viewport: { width: 1280, height: 800 } } },
  { name: 'phone', options: { viewport: { width: 375, height: 700 }, hasTouch: true, isMobile: true } },
];

/**
 * Where the parts of the story are, in viewport pixels, with the page scrolled to the top: the
 * main timeline's lanes, the narration's "now" line, Step and the transport bar around it, and
 * how far the page scrolls sideways.
 */
function measure(page) {
  return page.evaluate(async () => {
    window.scrollTo(0, 0);
    await new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)));
    const box = (element) => {
      if (!element) return null;
      const { top, bottom, left, right } = element.getBoundingClientRect();
      return { top, bottom, left, right };
    };
    const step = document.querySelector('[data-testid="step"]');
    return {
      scrollY: window.scrollY,
      innerWidth: window.innerWidth,
      innerHeight: window.innerHeight,
      scrollWidth: document.scrollingElement.scrollWidth,
      lanes: [...document.querySelectorAll('[data-testid="timeline-main"] [data-testid="lane"]')].map(box),
      narration: box(document.querySelector('[data-testid="narration"]')),
      // The legend: a row under the axis on a desktop, a disclosure's summary on a phone.
      legend: (() => {
        const legend = document.querySelector('[data-testid="timeline-main"]')?.parentElement
          ?.querySelector('[data-testid="timeline-legend"]');
        return box(legend?.querySelector(':scope > summary') ?? legend);
      })(),
      timeline: box(document.querySelector('[data-testid="timeline-main"] svg')),
      stage: box(document.querySelector('[data-testid="stage"]')),
      step: box(step),
      transport: box(step?.closest('[data-testid="transport"]')),
      // The transport's controls on screen, with their sizes: touch targets.
      targets: [...document.querySelectorAll('[data-testid="transport"] :is(button, select, input)')]
        .filter((e) => e.getClientRects().length > 0 && getComputedStyle(e).visibility !== 'hidden')
        .map((e) => {
          const { width, height } = e.getBoundingClientRect();
          return { name: e.dataset.testid ?? e.tagName, width, height };
        }),
    };
  });
}

/** Whether `inner` lies wholly inside the viewport. */
const onScreen = (inner, m) => inner.top >= 0 && inner.bottom <= m.innerHeight && inner.left >= 0 && inner.right <= m.innerWidth;
/** Whether `box` lies wholly above the transport bar (not under it). */
const aboveTransport = (box, m) => box.bottom <= m.transport.top + 0.5;

/**
 * Scrolls to the bottom of the page and says whether Step is on screen and is what a tap at its
 * centre reaches (nothing covers it); then scrolls back to the top.
 */
function stepAfterScrollingDown(page) {
  return page.evaluate(async () => {
    window.scrollTo(0, document.scrollingElement.scrollHeight);
    await new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)));
    const step = document.querySelector('[data-testid="step"]');
    const { top, bottom, left, right } = step.getBoundingClientRect();
    const hit = document.elementFromPoint((left + right) / 2, (top + bottom) / 2);
    const result = {
      scrolled: window.scrollY,
      top,
      bottom,
      innerHeight: window.innerHeight,
      reachable: hit === step || step.contains(hit),
    };
    window.scrollTo(0, 0);
    return result;
  });
}

for (const screen of SCREENS) {
  describe(`the story at a glance, ${screen.name} (${screen.options.viewport.width}×${screen.options.viewport.height})`, () => {
    let app;
    let page;

    before(async () => {
      app = await startApp(screen.options);
      page = app.page;
      await app.open('s=s2-gc-pause-fenced');
    });

    after(async () => {
      await app?.close();
    });

    it('offers every scenario of the catalogue in the menu', async () => {
      const offered = await page
        .locator('select[data-testid="scenario-picker"] option')
        .evaluateAll((options) => options.map((o) => o.value).filter(Boolean));
      assert.deepEqual([...offered].sort(), CATALOGUE.map((s) => s.id).sort());
    });

    for (const { id, title } of CATALOGUE) {
      it(`${id}: the story fits, at the opening and at the end`, async () => {
        await page.evaluate((fragment) => {
          window.location.hash = fragment;
        }, `s=${id}`);
        await page.waitForFunction(
          (t) => document.querySelector('[data-testid="scenario-name"]')?.textContent === t,
          title,
          { timeout: 30_000 },
        );
        const opening = await app.position();
        const last = opening.of;
        const failures = [];
        for (const [where, at] of [['opening', opening.at], ['end', last]]) {
          if (where === 'end') {
            await page.evaluate((fragment) => {
              window.location.hash = fragment;
            }, `s=${id}&at=${at}`);
            await app.waitForPosition(at);
          }
          await app.settle();
          const m = await measure(page);
          const say = (what) => failures.push(`${where} (event ${at}): ${what}`);
          if (m.scrollY !== 0) say(`the page would not scroll to its top (scrollY ${m.scrollY})`);
          if (m.scrollWidth > m.innerWidth) say(`the page scrolls sideways: ${m.scrollWidth} px wide in ${m.innerWidth}`);
          if (m.lanes.length === 0) say('no lane drawn');
          if (!m.step || !m.transport) {
            say('no Step button inside a [data-testid="transport"] bar');
          } else {
            if (!onScreen(m.step, m)) say(`Step is off screen: ${JSON.stringify(m.step)} in ${m.innerWidth}×${m.innerHeight}`);
            if (screen.name === 'phone') {
              const small = m.targets.filter((t) => t.width < 44 || t.height < 44);
              if (m.targets.length < 5 || small.length > 0) say(`touch targets under 44 px: ${JSON.stringify(small)} of ${m.targets.length}`);
            }
          }
          if (m.lanes.length > 0 && m.transport) {
            const wanted = screen.name === 'desktop' ? m.lanes : m.lanes.slice(0, 1);
            wanted.forEach((lane, index) => {
              if (!onScreen(lane, m) || !aboveTransport(lane, m)) {
                say(`lane ${index + 1} of ${m.lanes.length} is not on the first screen: ${JSON.stringify(lane)}, transport from ${m.transport.top}`);
              }
            });
          }
          if (!m.legend || m.legend.bottom - m.legend.top < 8) say(`no legend drawn with the timeline: ${JSON.stringify(m.legend)}`);
          if (screen.name === 'desktop' && m.transport) {
            if (!m.stage || !onScreen(m.stage, m) || m.stage.left < m.timeline.right) {
              say(`the stage is not on screen beside the timeline: stage ${JSON.stringify(m.stage)}, timeline ${JSON.stringify(m.timeline)}`);
            }
            if (!m.narration) say('no narration');
            else if (!onScreen(m.narration, m) || !aboveTransport(m.narration, m)) {
              say(`the narration is not on the first screen: ${JSON.stringify(m.narration)}, transport from ${m.transport.top}`);
            }
          }
          const down = await stepAfterScrollingDown(page);
          if (down.top < 0 || down.bottom > down.innerHeight || !down.reachable) {
            say(`scrolled down by ${down.scrolled} px, Step is not reachable on screen: top ${down.top}, bottom ${down.bottom}, reachable ${down.reachable}`);
          }
        }
        if (failures.length > 0) await app.screenshot(`layout-fail-${screen.name}-${id}`);
        assert.deepEqual(failures, [], `${id} (${title})`);
      });
    }

    it('has no serious or critical accessibility findings, with the menus open', async () => {
      await page.evaluate(() => {
        window.location.hash = 's=s2-gc-pause-fenced&at=11';
      });
      await app.waitForPosition(11);
      const findings = await app.axe();
      if (screen.name === 'phone') await page.locator('[data-testid="nav-menu"]').click();
      // On a phone the setup bar is one row: "Setup" shows the rest, More included.
      if (screen.name === 'phone') await page.locator('[data-testid="setup-toggle"]').click();
      await page.locator('[data-testid="more-menu"]').click();
      findings.push(...(await app.axe()));
      await app.screenshot(`layout-menus-${screen.name}`);
      assert.deepEqual(findings, [], findings.join('\n'));
      // Escape closes the "More" menu and leaves the focus on its button.
      await page.locator('[data-testid="import"]').focus();
      await page.keyboard.press('Escape');
      assert.equal(await page.locator('details.more').evaluate((d) => d.open), false, 'Escape closes the menu');
      assert.equal(await page.evaluate(() => document.activeElement?.dataset.testid), 'more-menu');
    });

    it('reported no console error, page error or failed request', () => {
      assert.deepEqual(app.problems, []);
    });
  });
}

describe('the theme: a manual light or dark choice beside the system\'s', () => {
  let app;
  let page;

  before(async () => {
    app = await startApp();
    page = app.page;
  });

  after(async () => {
    await app?.close();
  });

  const background = () => page.evaluate(() => getComputedStyle(document.body).backgroundColor);
  const LIGHT = 'rgb(255, 255, 255)';
  const DARK = 'rgb(17, 20, 24)';

  it('follows the system until the user chooses, then the choice wins, with nothing serious for axe', async () => {
    await page.emulateMedia({ colorScheme: 'dark' });
    await app.open('s=s2-gc-pause-fenced&at=24');
    const theme = page.locator('[data-testid="theme"]');
    assert.equal(await theme.inputValue(), 'auto', 'a first visit follows the system');
    assert.equal(await background(), DARK, 'the system asks for dark');
    await page.locator('select[data-testid="compare-with"]').selectOption('fencing');
    await page.locator('[data-testid="timeline-twin"]').waitFor();
    const laneFills = [];
    for (const [choice, colour] of [['light', LIGHT], ['dark', DARK]]) {
      await theme.selectOption(choice);
      await page.waitForFunction((c) => document.documentElement.dataset.theme === c, choice);
      assert.equal(await background(), colour, `${choice}: the page's background`);
      // The timeline is drawn with the page's variables: its lanes change with the theme.
      laneFills.push(await page.locator('[data-testid="timeline-main"] [data-testid="lane"]').first().evaluate((r) => getComputedStyle(r).fill));
      const findings = await app.axe();
      assert.deepEqual(findings, [], `${choice}: ${findings.join('\n')}`);
      await app.screenshot(`layout-theme-${choice}`);
    }
    assert.notEqual(laneFills[0], laneFills[1], `the timeline's lanes are ${laneFills[0]} in both themes`);
    // The system now asks for light; the user's dark stays.
    await page.emulateMedia({ colorScheme: 'light' });
    assert.equal(await background(), DARK, 'the manual choice beats the system');
  });

  it('keeps the choice across a reload, applied before the app runs', async () => {
    await page.emulateMedia({ colorScheme: 'light' });
    await page.locator('[data-testid="theme"]').selectOption('dark');
    // Held back, the wasm cannot run: what shows is the page's own script at work.
    let release;
    const held = new Promise((done) => {
      release = done;
    });
    await page.route(/\.wasm(\?|$)/, async (route) => {
      await held;
      await route.continue();
    });
    await page.reload();
    await page.locator('[data-testid="loading-frame"]').waitFor();
    assert.equal(await page.evaluate(() => document.documentElement.dataset.theme), 'dark', 'before the app runs');
    assert.equal(await background(), DARK);
    release();
    // The page's markup is there before the app (decision 43): the control is the app's.
    await page.locator('html[data-app="running"]').waitFor({ state: 'attached', timeout: 30_000 });
    assert.equal(await page.locator('[data-testid="theme"]').inputValue(), 'dark', 'the control says what is in use');
    assert.equal(await background(), DARK);
    await page.unrouteAll({ behavior: 'ignoreErrors' });
    // Back to following the system.
    await page.locator('[data-testid="theme"]').selectOption('auto');
    assert.equal(await background(), LIGHT, 'auto follows the system again');
    await page.reload();
    await page.locator('html[data-app="running"]').waitFor({ state: 'attached', timeout: 30_000 });
    assert.equal(await page.locator('[data-testid="theme"]').inputValue(), 'auto');
    assert.deepEqual(app.problems, []);
  });
});

describe('the page chrome', () => {
  let app;
  let page;

  before(async () => {
    app = await startApp();
    page = app.page;
  });

  after(async () => {
    await app?.close();
  });

  it('labels each tab with the heading of the page it opens', async () => {
    await app.open('s=s2-gc-pause-fenced');
    const tabs = await page.locator('.site-nav a').evaluateAll((links) => links.map((a) => [a.dataset.testid, a.textContent.trim()]));
    assert.equal(tabs.length, 8, JSON.stringify(tabs));
    const mismatches = [];
    for (const [testid, label] of tabs) {
      await page.locator(`[data-testid="${testid}"]`).click();
      await page.waitForFunction((t) => document.querySelector(`[data-testid="${t}"]`)?.getAttribute('aria-current') === 'page', testid);
      await page.locator('main h2').first().waitFor({ state: 'attached' });
      const heading = (await page.locator('main h2').first().textContent()).trim();
      if (heading !== label) mismatches.push(`the tab "${label}" opens a page headed "${heading}"`);
    }
    assert.deepEqual(mismatches, []);
  });

  it('shows the trace hash with a run only: on the playground and a lesson, not on the other pages', async () => {
    const hashShown = async (fragment, testid) => {
      await page.goto('about:blank');
      await page.goto(`${app.site.url}#${fragment}`);
      await page.locator(`[data-testid="${testid}"]`).first().waitFor({ timeout: 30_000 });
      // A lesson shows before its scenario's file has arrived: leaving at once would abort
      // that request, which the harness rightly counts as a failed request.
      await page.waitForLoadState('networkidle');
      return page.locator('[data-testid="trace-hash"]').count();
    };
    assert.equal(await hashShown('s=s2-gc-pause-fenced', 'timeline-main'), 1, 'the playground');
    assert.equal(await hashShown('learn=not-a-mutex&step=1', 'lesson'), 1, 'a lesson');
    for (const [fragment, testid] of [['learn', 'lessons'], ['quiz', 'quiz'], ['deck', 'deck'], ['guide', 'guide'], ['sources', 'sources']]) {
      assert.equal(await hashShown(fragment, testid), 0, `#${fragment}`);
    }
    assert.deepEqual(app.problems, []);
  });
});
