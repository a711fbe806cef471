// Actions that do what they say (issue 42, point 5), on a desktop (1280×800). The popover's
// "Pause it" is a GC pause with a length, twice the client's lease: the client wakes on its own
// after its lease ended at the service and writes with its old token, which the resource refuses
// with fencing on and accepts with it off. The pause that never ends by itself is the full
// panel's "Freeze until I resume it". While the client sleeps past its lease, the inspector's
// `heldSafely()` line says how long ago the lease ended by the client's own clock, and from when
// it counts, not a negative time left.
//
// The scenario is S1 without its own pause: client-a takes the lock, client-b asks for it later.

import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';

import { startApp } from './harness.mjs';

const s1 = JSON.parse(readFileSync(new URL('../scenarios/s1-gc-pause-unfenced.json', import.meta.url), 'utf8'));
delete s1.interventions;
delete s1.expectations;
const unpaused = (fencing) => `scenario=${Buffer.from(JSON.stringify(s1)).toString('base64url')}&fencing=${fencing}`;

const lane = (node) => `[data-testid="timeline-main"] [data-testid="lane-label"][data-node="${node}"]`;
const badge = (node) => `${lane(node)} .badge`;

describe('actions that do what they say', () => {
  let app;
  let page;

  before(async () => {
    app = await startApp({ viewport: { width: 1280, height: 800 } });
    page = app.page;
  });
  after(async () => {
    await app?.close();
  });

  /** Steps on until `node`'s badge reads `text`. */
  async function stepUntil(node, text) {
    for (;;) {
      if ((await page.locator(badge(node)).innerText()) === text) return;
      const { at, of } = await app.position();
      assert.ok(at < of, `${node} never reads "${text}"`);
      await page.locator('[data-testid="step"]').click();
      await app.waitForPosition(at + 1);
    }
  }

  /** Pauses client-a from the popover once it holds the lock; returns the button's words. */
  async function pauseClientA(fencing) {
    await app.open(unpaused(fencing));
    await stepUntil('client-a', 'believes it holds');
    await page.locator(lane('client-a')).click();
    const pause = page.locator('[data-testid="quick-action"][data-kind="quick-pause"]');
    const label = await pause.innerText();
    await pause.click();
    await page.locator('[data-testid="logged-intervention"]').waitFor();
    return label;
  }

  /** The trace's descriptions from the start to the end of the run. */
  async function storyToTheEnd() {
    await page.keyboard.press('End');
    await page.locator('[data-testid="run-verdict"]').waitFor();
    return page.locator('[data-testid="event-description"]').allInnerTexts();
  }

  for (const [fencing, verdict, stale] of [
    ['on', /^✓ Data intact: 1 stale write refused/, /rejects client-a's write with token 33: it has already accepted token 34/],
    ['off', /^✗ Data lost: 1 stale write accepted/, /accepts client-a's write of \d+ with token 33/],
  ]) {
    it(`with fencing ${fencing}, the quick pause outlives client-a's lease and its stale write comes`, async () => {
      const label = await pauseClientA(fencing);
      assert.equal(label, 'Pause it for 2,000 ms (a GC pause twice its lease)');
      const story = await storyToTheEnd();
      const paused = story.findIndex((line) => /^client-a is paused for 2000 ms/.test(line));
      const taken = story.findIndex((line) => /accepts client-b's write of \d+ with token 34/.test(line));
      const woke = story.findIndex((line) => /^client-a resumes after 2000 ms/.test(line));
      const written = story.findIndex((line) => stale.test(line));
      assert.ok(paused >= 0 && woke > paused, `client-a is paused, then wakes by itself:\n${story.join('\n')}`);
      assert.ok(taken > paused && written > taken && written > woke, `client-b writes during the pause, client-a after:\n${story.join('\n')}`);
      assert.match(await page.locator('[data-testid="run-verdict"]').innerText(), verdict);
    });
  }

  it('while client-a sleeps past its lease, heldSafely() says how long ago it ended, by whose clock, from when', async () => {
    await pauseClientA('on');
    await stepUntil('client-b', 'believes it holds');
    await app.unfold('inspector');
    // The panels below the story catch up once it rests: read the row once it is drawn.
    await page.waitForFunction(() => document.querySelector('[data-testid="below-story"]')?.getAttribute('aria-busy') !== 'true');
    const card = page.locator('[data-testid="client-row"]').filter({ hasText: 'client-a' }).filter({ hasText: 'heldSafely()' });
    await card.waitFor();
    const line = await card.innerText();
    assert.match(line, /heldSafely\(\)\s+no: ended [\d,]+ ms ago by client-a's clock \(counted from [\d,]+ ms, when its acquire returned\)/);
    assert.doesNotMatch(line, /-\d+ ms left/);
  });

  it('the pause that never ends by itself is named "Freeze until I resume it"', async () => {
    await app.open(unpaused('on'));
    await page.locator(lane('client-a')).click();
    await page.locator('[data-testid="act-more"]').click();
    assert.equal(await page.locator('[data-testid="act-pause-until-resumed"]').innerText(), 'Freeze until I resume it');
  });
});
