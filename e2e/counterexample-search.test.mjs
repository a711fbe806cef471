// The counterexample search in the lab page, in headless Chromium: a lesson hands its scenario
// to the search; the search runs in its worker with live progress and finds the shortest run
// that breaks "no stale write" without fencing, which opens in the playground at the event that
// breaks it; with fencing on it finds none within the bounds and says how many states it
// explored; Stop stops, and the slice the worker was exploring then is dropped when it comes
// back; a bad link parameter is named; axe-core finds nothing serious. How soon Stop is
// answered is measured by `cargo xtask bench` (e2e/bench-search.mjs), not judged here.

import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';

import { startApp } from './harness.mjs';

/** A lab address whose search section has these settings. */
const searchLink = (settings) =>
  `lab&${Object.entries(settings)
    .map(([name, value]) => `${name}=${value}`)
    .join('&')}`;

describe('the counterexample search, as a learner uses it', () => {
  let app;
  let page;

  before(async () => {
    app = await startApp();
    page = app.page;
  });

  after(async () => {
    await app?.close();
  });

  async function openLab(fragment) {
    await app.leave();
    await page.goto(`${app.site.url}#${fragment}`);
    await page.locator('[data-testid="counterexample-search"]').waitFor({ timeout: 30_000 });
  }

  const status = () => page.locator('[data-testid="search-status"]');

  /** Waits until the search's status is one of `words`, and returns it. */
  async function waitForStatus(words, timeout = 60_000) {
    await page.waitForFunction(
      (ws) => ws.includes(document.querySelector('[data-testid="search-status"]')?.dataset.status),
      words,
      { timeout },
    );
    return status().getAttribute('data-status');
  }

  it('hands a lesson\'s scenario to the search', async () => {
    await page.goto(`${app.site.url}#learn=fencing-tokens&step=1`);
    const searchIt = page.locator('[data-testid="search-it"]');
    await searchIt.waitFor({ timeout: 30_000 });
    const href = await searchIt.getAttribute('href');
    const scenario = /search=([a-z0-9-]+)/.exec(href)?.[1];
    assert.ok(scenario, href);
    await searchIt.click();
    await page.locator('[data-testid="counterexample-search"]').waitFor();
    assert.equal(await page.locator('[data-testid="search-scenario"]').inputValue(), scenario);
    assert.deepEqual(await page.locator('[data-testid="lab-link-problem"]').count(), 0);
  });

  it('finds the shortest counterexample with progress and opens it at the violation', async () => {
    // Two faults (pauses or held messages): thousands of states, so several slices of progress.
    await openLab(searchLink({
      search: 's1-gc-pause-unfenced',
      'search-invariant': 'no_stale_write',
      'search-faults': 2,
      'search-kinds': 'pauses,message-delays',
      'search-max-events': 60,
    }));
    // Record every status the page shows, from before the click.
    await page.evaluate(() => {
      window.searchSeen = [];
      const note = () => {
        const s = document.querySelector('[data-testid="search-status"]');
        if (s) window.searchSeen.push([s.dataset.status, Number(s.dataset.states)]);
      };
      new MutationObserver(note).observe(document.body, { subtree: true, childList: true, characterData: true, attributes: true });
    });
    await page.locator('[data-testid="search-run"]').click();
    assert.equal(await waitForStatus(['found', 'exhausted', 'failed']), 'found', await status().innerText());
    const seen = await page.evaluate(() => window.searchSeen);
    const running = seen.filter(([word, states]) => word === 'running' && states > 0);
    assert.ok(running.length >= 2, `progress shown while running: ${JSON.stringify(seen.slice(-5))}`);
    const found = page.locator('[data-testid="search-found"]');
    const length = Number(await found.getAttribute('data-length'));
    assert.ok(length > 0);
    assert.match(await found.innerText(), /The shortest run that breaks “No write accepted with a stale token” has \d+ events/);
    assert.match(await found.innerText(), /At [\d,]+ ms, client-a is paused for 2,000 ms\./);

    await page.locator('[data-testid="search-open"]').click();
    await page.locator('[data-testid="app"] [data-testid="timeline-main"] svg').waitFor({ timeout: 30_000 });
    await app.waitForPosition(length);
    const now = await page.locator('[data-testid="narration"]').innerText();
    assert.match(now, /This breaks an invariant: No write accepted with a stale token\./, now);
    assert.deepEqual(app.problems, []);
  });

  it('finds none within the bounds with fencing on, and says how many states it explored', async () => {
    await openLab(searchLink({
      search: 's1-gc-pause-unfenced',
      'search-fencing': 'on',
      'search-invariant': 'no_stale_write',
      'search-faults': 1,
    }));
    await page.locator('[data-testid="search-run"]').click();
    assert.equal(await waitForStatus(['found', 'exhausted', 'failed']), 'exhausted', await status().innerText());
    const none = await page.locator('[data-testid="search-none"]').innerText();
    assert.match(none, /^No run within the bounds breaks “No write accepted with a stale token”: [\d,]+ states explored/);
    assert.ok(Number(await status().getAttribute('data-states')) > 100);
    // The same search with fencing off finds one: the page can report a violation here.
    await page.locator('[data-testid="search-fencing"]').selectOption('off');
    await page.locator('[data-testid="search-run"]').click();
    assert.equal(await waitForStatus(['found', 'exhausted', 'failed']), 'found');
  });

  it('stops when asked, and explores nothing after', async () => {
    await openLab(searchLink({
      search: 's1-gc-pause-unfenced',
      'search-faults': 4,
      'search-kinds': 'pauses,partitions,clock-jumps,message-delays',
      'search-max-events': 2000,
    }));
    await page.locator('[data-testid="search-run"]').click();
    await page.waitForFunction(() => Number(document.querySelector('[data-testid="search-status"]')?.dataset.states) > 0, null, { timeout: 60_000 });
    // What the page shows in the render that says "stopped" (a later reply could change it).
    await page.evaluate(() => {
      window.atStop = null;
      const note = () => {
        const s = document.querySelector('[data-testid="search-status"]');
        if (window.atStop === null && s?.dataset.status === 'stopped') {
          window.atStop = { states: s.dataset.states, outstanding: s.dataset.outstanding };
        }
      };
      new MutationObserver(note).observe(document.body, { subtree: true, childList: true, characterData: true, attributes: true });
    });
    await page.locator('[data-testid="search-stop"]').click();
    assert.equal(await waitForStatus(['stopped']), 'stopped');
    const { states, outstanding } = await page.evaluate(() => window.atStop);
    // The worker was exploring a slice when Stop came (the page asks for the next at once).
    assert.equal(outstanding, '1', 'a slice was under way at Stop');
    // It has answered: nothing more can arrive, so nothing more can be counted.
    await page.waitForFunction(() => document.querySelector('[data-testid="search-status"]')?.dataset.outstanding === '0', null, { timeout: 30_000 });
    assert.equal(await status().getAttribute('data-states'), states, 'no slice counted after Stop');
    assert.equal(await status().getAttribute('data-status'), 'stopped');
    assert.equal(await page.locator('[data-testid="search-run"]').isEnabled(), true);
  });

  it('takes a new search address while the lab is open', async () => {
    await openLab(searchLink({ search: 's1-gc-pause-unfenced' }));
    await page.evaluate((fragment) => { window.location.hash = fragment; }, searchLink({ search: 's4-delayed-packet', 'search-fencing': 'on' }));
    await page.waitForFunction(() => document.querySelector('[data-testid="search-scenario"]')?.value === 's4-delayed-packet');
    assert.equal(await page.locator('[data-testid="search-fencing"]').inputValue(), 'on');
  });

  it('names a bad link parameter and keeps the good ones', async () => {
    await openLab(searchLink({ search: 's2-gc-pause-fenced', 'search-faults': 'many' }));
    const problem = await page.locator('[data-testid="search-link-problem"]').innerText();
    assert.match(problem, /`search-faults=many`: a whole number from 0 to 4/);
    assert.equal(await page.locator('[data-testid="search-scenario"]').inputValue(), 's2-gc-pause-fenced');
  });

  it('has no serious or critical accessibility findings with a result shown', async () => {
    await openLab(searchLink({ search: 's1-gc-pause-unfenced' }));
    await page.locator('[data-testid="search-run"]').click();
    await waitForStatus(['found', 'exhausted']);
    const findings = await app.axe();
    assert.deepEqual(findings, [], findings.join('\n'));
    assert.deepEqual(app.problems, []);
  });
});
