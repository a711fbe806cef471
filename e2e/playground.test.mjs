// The playground in headless Chromium, driven as a user drives it: clicks, keys and taps on what
// is on screen. One test per capability of the playground issue: the timeline, the controls,
// interventions, the inspector, narration and invariants, compare, the sandbox (build, import,
// export), shareable links, keyboard and small screens, and an accessibility scan. Screenshots
// land in e2e/artifacts/.
//
// The scenario is S2 (`s2-gc-pause-fenced`): client-a takes token 33, is paused for 2 s; its
// lease expires; client-b takes token 34 and writes; client-a wakes and writes with 33, which the
// resource rejects (33 < 34). Its 24 events are pinned by the simulation's golden tests.

import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

import { buildScenario } from './browser.mjs';
import { startApp } from './harness.mjs';

const HERE = dirname(fileURLToPath(import.meta.url));
const S2 = 's=s2-gc-pause-fenced';
const S2_END = `${S2}&at=24`;

const sel = {
  mark: (kind) => `[data-testid="timeline-main"] [data-testid="event-mark"][data-kind="${kind}"]`,
  main: (testid) => `[data-testid="timeline-main"] [data-testid="${testid}"]`,
};

/**
 * Clicks Step (`{ step: true }`) or moves the scrubber as a drag does (`{ scrubTo: n }`: an input
 * event, the button still down), and reads the page in the same task as the render it causes:
 * no timer can have run in between, however slow the machine.
 */
function actAndRead(page, act) {
  return page.evaluate(async ({ step, scrubTo }) => {
    const position = document.querySelector('[data-testid="position"]');
    const rendered = new Promise((done) => {
      const observer = new MutationObserver(() => {
        observer.disconnect();
        done();
      });
      observer.observe(position, { childList: true, characterData: true, subtree: true });
    });
    if (step) {
      document.querySelector('[data-testid="step"]').click();
    } else {
      const input = document.querySelector('[data-testid="scrubber"]');
      input.value = String(scrubTo);
      input.dispatchEvent(new Event('input', { bubbles: true }));
    }
    await rendered;
    return {
      position: position.textContent,
      narration: document.querySelector('[data-testid="narration"]').textContent,
      logged: document.querySelectorAll('[data-testid="trace"] [data-testid="event"]').length,
      busy: document.querySelector('[data-testid="below-story"]').getAttribute('aria-busy'),
    };
  }, act);
}

describe('the playground, as a user uses it', () => {
  let app;
  let page;

  before(async () => {
    app = await startApp({ acceptDownloads: true });
    page = app.page;
    // The inspector is folded until asked for (issue 28): the tests that read it open it
    // (`app.unfold`), and it stays open for the visit.
    await app.open('');
    await app.unfold('inspector');
  });

  after(async () => {
    await app?.close();
  });

  it('draws lanes, leases, beliefs, the overhang, the pause, writes and the broken invariant', async () => {
    await app.open(S2_END);
    const lanes = await page.locator(sel.main('lane')).evaluateAll((rects) => rects.map((r) => r.dataset.node));
    assert.deepEqual(lanes, ['client-a', 'client-b', 'lock-service', 'resource']);
    const leases = await page.locator(sel.main('lease-bar')).evaluateAll((bars) => bars.map((b) => [b.dataset.lane, b.dataset.token]));
    assert.deepEqual(leases, [['lock-service', '33'], ['lock-service', '34']]);
    const beliefs = await page.locator(sel.main('belief-bar')).evaluateAll((bars) => bars.map((b) => [b.dataset.lane, b.dataset.token]));
    assert.deepEqual(beliefs, [['client-a', '33'], ['client-b', '34']]);
    assert.equal(await page.locator(`${sel.main('overhang')}[data-lane="client-a"]`).count(), 1, 'belief outlives truth');
    assert.equal(await page.locator(`${sel.main('pause-band')}[data-lane="client-a"]`).count(), 1);
    const accepted = page.locator(sel.mark('write_accepted'));
    assert.equal(await accepted.getAttribute('data-token'), '34');
    assert.equal(await accepted.getAttribute('data-outcome'), 'accepted');
    const rejected = page.locator(sel.mark('write_rejected'));
    assert.equal(await rejected.getAttribute('data-token'), '33');
    assert.match(await rejected.textContent(), /33 < 34/);
    const band = page.locator(sel.main('violation-band'));
    assert.equal(await band.getAttribute('data-invariant'), 'one_believer');
    // Delivered messages are drawn together, in batches: a shaft and a head for each, in paths.
    const delivered = page.locator(sel.main('delivered-messages'));
    const count = Number(await delivered.getAttribute('data-count'));
    assert.ok(count >= 10, `${count} delivered messages drawn`);
    const paths = (selector) => delivered.locator(selector).evaluateAll((all) => all.map((p) => p.getAttribute('d')).join(''));
    assert.equal((await paths('path.shaft')).match(/M/g).length, count);
    assert.equal((await paths('path.arrow-head')).match(/z/g).length, count);
    assert.ok((await delivered.locator('path.shaft').count()) < count, 'fewer paths than messages');
    assert.equal(await page.locator(sel.main('now-line')).count(), 1);
    await app.screenshot('timeline-s2');
  });

  it('shows only what has happened: in-flight messages, an open lease, no write yet', async () => {
    await app.open(`${S2}&at=2`);
    const lease = page.locator(sel.main('lease-bar'));
    assert.equal(await lease.count(), 1);
    assert.equal(await lease.getAttribute('data-open'), 'true');
    assert.equal(await page.locator(`${sel.main('message')}[data-state="in_flight"]`).count(), 1, 'the grant is on its way');
    assert.equal(await page.locator(sel.mark('write_accepted')).count(), 0);
  });

  it('zooms, pans and shows the whole run again', async () => {
    await app.open(S2_END);
    const range = page.locator(sel.main('view-range'));
    // It opens on the stretch where things happen (timeline.test.mjs checks that further).
    const opening = await range.innerText();
    await page.locator(sel.main('zoom-in')).click();
    await page.locator(sel.main('zoom-in')).click();
    const zoomed = await range.innerText();
    assert.notEqual(zoomed, opening);
    await page.locator(sel.main('pan-left')).click();
    assert.notEqual(await range.innerText(), zoomed, 'panning moves the view');
    await page.locator(sel.main('zoom-fit')).click();
    assert.equal(await range.innerText(), '0 ms – 4 s');
    // Dragging the plot pans it too.
    await page.locator(sel.main('zoom-in')).click();
    const before = await range.innerText();
    const plot = await page.locator('[data-testid="timeline-main"] .timeline-plot').boundingBox();
    await page.mouse.move(plot.x + plot.width / 2, plot.y + 20);
    await page.mouse.down();
    await page.mouse.move(plot.x + plot.width / 2 + 200, plot.y + 20, { steps: 5 });
    await page.mouse.up();
    assert.notEqual(await range.innerText(), before, 'dragging pans');
  });

  it('plays, pauses, steps back, scrubs and jumps to violations, replaying the same events', async () => {
    await app.open(S2);
    assert.deepEqual(await app.position(), { at: 1, of: 24 });
    // Slow enough that the run cannot reach its end (where Play starts again) before Pause lands,
    // even on a loaded machine: 5 events a second leaves 4 s between event 4 and event 24.
    await page.locator('[data-testid="speed"]').selectOption('5');
    await page.locator('[data-testid="play"]').click();
    await page.waitForFunction(() => /event ([4-9]|1\d) of/.test(document.querySelector('[data-testid="position"]').textContent));
    await page.locator('[data-testid="play"]').click();
    assert.equal(await page.locator('[data-testid="play"]').getAttribute('data-playing'), 'false');
    const paused = (await app.position()).at;
    await app.settle();
    assert.equal((await app.position()).at, paused, 'paused means paused');
    const narrationAt = async () => page.locator('[data-testid="narration"]').innerText();
    await page.locator('[data-testid="scrubber"]').fill('8');
    await app.waitForPosition(8);
    const atEight = await narrationAt();
    await page.locator('[data-testid="step"]').click();
    await app.waitForPosition(9);
    await page.locator('[data-testid="back"]').click();
    await app.waitForPosition(8);
    assert.equal(await narrationAt(), atEight, 'stepping back replays to the same moment');
    await page.locator('[data-testid="first-violation"]').click();
    await app.waitForPosition(11);
    assert.match(await narrationAt(), /breaks an invariant: At most one client believes it holds the lock/);
    await page.locator('[data-testid="next-violation"]').click();
    assert.match(await page.locator('[data-testid="notice"]').innerText(), /No invariant breaks after this point/);
    await page.locator('[data-testid="reset"]').click();
    await app.waitForPosition(1);
  });

  it('while the scrubber is dragged, the story follows every move and the panels below wait for the drag to rest', async () => {
    await app.open(S2);
    const below = page.locator('[data-testid="below-story"]');
    const logged = () => page.locator('[data-testid="trace"] [data-testid="event"]').count();
    // One move of a drag (an input event, the button still down).
    const move = (to) => actAndRead(page, { scrubTo: to });
    const before = await logged();
    const first = await move(5);
    assert.match(first.position, /^event 5 of/);
    assert.equal(first.busy, 'true', 'the panels say they are not up to date');
    assert.equal(first.logged, before, 'the event log waits for the drag to rest');
    const second = await move(9);
    assert.match(second.position, /^event 9 of/);
    assert.notEqual(second.narration, first.narration, 'the "now" line follows every move');
    assert.equal(second.logged, before);
    // Letting go (a change event) brings the panels to the moment shown.
    await page.locator('[data-testid="scrubber"]').dispatchEvent('change');
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="trace"] [data-testid="event"]').length === 9);
    assert.equal(await below.getAttribute('aria-busy'), null);
    // A drag that stops moving with the button still down brings them there too.
    const third = await move(14);
    assert.equal(third.logged, 9);
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="trace"] [data-testid="event"]').length === 14);
    assert.equal(await below.getAttribute('aria-busy'), null);
    assert.deepEqual(await app.position(), { at: 14, of: 24 });
  });

  it('out of sight, the panels below the story wait for a run of Steps to rest; in view they follow every Step', async () => {
    // Redlock's eight lanes fill the first screen at 1280×800: the panels start under the
    // transport bar.
    await app.open('s=s10-redlock-clock-jump&at=10');
    await app.unfold('inspector');
    const below = page.locator('[data-testid="below-story"]');
    const geometry = await page.evaluate(() => ({
      top: document.querySelector('[data-testid="below-story"] .panels').getBoundingClientRect().top,
      height: window.innerHeight,
    }));
    assert.ok(geometry.top > 0.75 * geometry.height, `the panels start at ${geometry.top} of ${geometry.height} px`);
    const step = () => actAndRead(page, { step: true });
    const logged = () => page.locator('[data-testid="trace"] [data-testid="event"]').count();
    assert.equal(await logged(), 10);
    const first = await step();
    assert.match(first.position, /^event 11 of/);
    assert.equal(first.busy, 'true', 'out of sight, the panels say they are behind');
    assert.equal(first.logged, 10, 'and keep the moment they had');
    const second = await step();
    assert.match(second.position, /^event 12 of/);
    assert.equal(second.logged, 10);
    // When the Steps stop, they catch up.
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="trace"] [data-testid="event"]').length === 12);
    assert.equal(await below.getAttribute('aria-busy'), null);
    // Scrolled into view, they follow every Step at once.
    await page.locator('[data-testid="inspector-panel"], .inspector-panel').first().evaluate((panel) => panel.scrollIntoView({ block: 'center' }));
    await app.settle();
    const third = await step();
    assert.match(third.position, /^event 13 of/);
    assert.equal(third.busy, null, 'in view, nothing waits');
    assert.equal(third.logged, 13, 'the event log shows the Step at once');
    await page.evaluate(() => window.scrollTo(0, 0));
  });

  it('pauses autoplay when the tab is hidden', async () => {
    await app.open(S2);
    await page.locator('[data-testid="speed"]').selectOption('1');
    await page.locator('[data-testid="play"]').click();
    assert.equal(await page.locator('[data-testid="play"]').getAttribute('data-playing'), 'true');
    await page.evaluate(() => {
      Object.defineProperty(document, 'hidden', { value: true, configurable: true });
      document.dispatchEvent(new Event('visibilitychange'));
    });
    await page.waitForFunction(() => document.querySelector('[data-testid="play"]').dataset.playing === 'false');
  });

  it('pauses a client from its lane, and the pause is logged, drawn and replayed', async () => {
    await app.open(`${S2}&at=8`);
    await page.locator('[data-testid="lane-label"][data-node="client-b"]').click();
    assert.equal(await page.locator('[data-testid="node-actions"]').getAttribute('data-node'), 'client-b');
    await page.locator('[data-testid="pause-ms"]').fill('3000');
    await page.locator('[data-testid="pause-ms"]').press('Tab');
    await page.locator('[data-testid="act-pause"]').click();
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="logged-intervention"]').length === 1);
    assert.match(await page.locator('[data-testid="narration"]').innerText(), /client-b is paused for 3000 ms/);
    assert.equal(await page.locator(`${sel.main('pause-band')}[data-lane="client-b"]`).count(), 1);
    assert.ok((await page.locator(`${sel.mark('intervention')}[data-lane="client-b"]`).count()) >= 1);
    assert.equal(await page.locator('[data-testid="lane-label"][data-node="client-b"] .badge').innerText(), 'paused');
        const logged = (n) =>
      page.waitForFunction((count) => document.querySelectorAll('[data-testid="logged-intervention"]').length === count, n);
    // Resume ends the pause early.
    await page.locator('[data-testid="act-resume"]').click();
    await logged(2);
    assert.match(await page.locator('[data-testid="narration"]').innerText(), /client-b resumes/);
    // Taking both back restores the scenario's own run.
    await page.locator('[data-testid="logged-intervention"] button').nth(1).click();
    await logged(1);
    await page.locator('[data-testid="logged-intervention"] button').first().click();
    await logged(0);
    assert.equal(await page.locator(`${sel.main('pause-band')}[data-lane="client-b"]`).count(), 0);
    // Paused until resumed: it stays paused however far the run goes.
    await page.locator('[data-testid="act-pause-until-resumed"]').click();
    await logged(1);
    await page.keyboard.press('End');
    await app.settle();
    assert.equal(await page.locator('[data-testid="lane-label"][data-node="client-b"] .badge').innerText(), 'paused');
    assert.equal(await page.locator(`${sel.main('pause-band')}[data-lane="client-b"]`).getAttribute('data-open'), 'true');
  });

  it('expires the lease, crashes and restarts a node, cuts and heals a link, and switches fencing', async () => {
    await app.open(`${S2}&at=3`);
    await app.unfold('inspector');
    await page.locator('[data-testid="lane-label"][data-node="lock-service"]').click();
    await page.locator('[data-testid="act-force-expire"]').click();
    await page.waitForFunction(() => /expire/i.test(document.querySelector('[data-testid="narration"]').textContent));
    await page.locator('[data-testid="act-crash"]').click();
    await page.waitForFunction(() => document.querySelector('[data-testid="lane-label"][data-node="lock-service"] .badge').textContent === 'crashed');
    assert.equal(await page.locator(`${sel.main('crash-band')}[data-lane="lock-service"]`).count(), 1);
    await page.locator('[data-testid="act-restart"]').click();
    await page.waitForFunction(() => document.querySelector('[data-testid="lane-label"][data-node="lock-service"] .badge').textContent === 'up');
    await page.locator('[data-testid="partition-peer"]').selectOption({ label: 'client-b' });
    await page.locator('[data-testid="act-partition"]').click();
    await page.waitForFunction(() => /lock-service → client-b/.test(document.querySelector('[data-testid="network"]').textContent));
    await page.locator('[data-testid="act-heal"]').click();
    await page.waitForFunction(() => /cut links\s*none/.test(document.querySelector('[data-testid="network"]').innerText));
    assert.equal(await page.locator('[data-testid="logged-intervention"]').count(), 5);
    await page.locator('[data-testid="lane-label"][data-node="resource"]').click();
    await page.locator('[data-testid="act-fencing"]').click();
    await page.waitForFunction(() => /fencing off/.test(document.querySelector('[data-testid="resource-row"]').textContent));
    assert.equal(await page.locator('[data-testid="fencing-toggle"]').getAttribute('aria-checked'), 'false');
    await app.screenshot('interventions');
  });

  it('crashes and restarts the resource: 34 kept durably still fences 33, kept in memory it lets 33 in', async () => {
    const badge = (word) =>
      page.waitForFunction((w) => document.querySelector('[data-testid="lane-label"][data-node="resource"] .badge')?.textContent === w, word);
    const outcome = () => page.locator('[data-testid="run-outcome"] [data-testid="outcome-line"]').allTextContents();
    // S2 just after the resource accepted client-b's write with 34.
    await app.open(`${S2}&at=15`);
    await app.unfold('inspector');
    await page.locator('[data-testid="lane-label"][data-node="resource"]').click();
    assert.equal(await page.locator('[data-testid="node-actions"]').getAttribute('data-node'), 'resource');
    await page.locator('[data-testid="act-crash"]').click();
    await badge('crashed');
    assert.match(await page.locator('[data-testid="narration"]').innerText(), /The resource crashes: it answers nothing/);
    assert.equal(await page.locator(`${sel.main('crash-band')}[data-lane="resource"]`).count(), 1);
    await page.locator('[data-testid="act-restart"]').click();
    await badge('up');
    assert.equal(await page.locator('[data-testid="logged-intervention"]').count(), 2);
    await page.keyboard.press('End');
    await app.settle();
    const rejected = page.locator(sel.mark('write_rejected'));
    assert.equal(await rejected.getAttribute('data-token'), '33');
    assert.match(await rejected.textContent(), /33 < 34/);
    assert.ok((await outcome()).some((line) => /token 33 was refused: 33 < 34/.test(line)), 'a durable memory keeps 34');
    // The catalogue's variant keeps the highest token in memory only: after its restart, 33 lands.
    await app.open('s=s2-gc-pause-fenced-resource-restarts&at=26');
    await app.unfold('inspector');
    await page.waitForFunction(() => /forgets its highest token/.test(document.querySelector('[data-testid="scenario-name"]').textContent));
    await app.waitForPosition(26);
    assert.equal(await page.locator(`${sel.main('crash-band')}[data-lane="resource"]`).count(), 1);
    assert.equal(await page.locator(sel.mark('write_rejected')).count(), 0);
    const accepted = await page.locator(sel.mark('write_accepted')).evaluateAll((marks) => marks.map((m) => m.dataset.token));
    assert.deepEqual(accepted, ['34']);
    const stale = await page.locator(sel.mark('stale_write')).evaluateAll((marks) => marks.map((m) => m.dataset.token));
    assert.deepEqual(stale, ['33'], 'accepted after 34 was granted: marked stale, not ✓');
    assert.ok((await outcome()).some((line) => /token 33 was accepted/.test(line) && /client-b's update is lost/.test(line)));
    assert.match(await page.locator('[data-testid="resource-row"]').innerText(), /in memory only, so a crash forgets it/);
    assert.ok(
      await page.locator('[data-testid="trace"]').evaluate((log) => /kept the highest token it had seen, 34, only in memory/.test(log.textContent)),
      'the event log narrates what the crash forgot',
    );
    await app.screenshot('resource-restart-forgets');
  });

  it('holds, releases and drops a message in flight', async () => {
    await app.open(`${S2}&at=1`);
    await app.unfold('inspector');
    const message = page.locator(`${sel.main('message')}[data-state="in_flight"]`);
    const id = await message.getAttribute('data-message-id');
    await message.click();
    await page.locator('[data-testid="act-hold"]').click();
    const held = page.locator(`${sel.main('message')}[data-message-id="${id}"]`);
    await page.waitForFunction((m) => document.querySelector(`[data-testid="timeline-main"] [data-message-id="${m}"]`)?.dataset.state === 'held', id);
    assert.match(await page.locator('[data-testid="network"]').innerText(), new RegExp(`#${id} acquire`));
    // Time passes; the held message stays where it is.
    await page.locator('[data-testid="step"]').click();
    await page.locator('[data-testid="step"]').click();
        assert.equal(await held.getAttribute('data-state'), 'held');
    assert.equal(await page.locator('[data-testid="message-actions"]').getAttribute('data-message-id'), id, 'still selected');
    await page.locator('[data-testid="act-release"]').click();
    await page.waitForFunction((m) => document.querySelector(`[data-testid="timeline-main"] [data-message-id="${m}"]`)?.dataset.state !== 'held', id);
    // Drop the next request in flight: it never arrives.
    await app.open(`${S2}&at=1`);
    await page.locator(`${sel.main('message')}[data-state="in_flight"]`).click();
    await page.locator('[data-testid="act-drop"]').click();
    await page.waitForFunction((m) => document.querySelector(`[data-testid="timeline-main"] [data-message-id="${m}"]`)?.dataset.state === 'lost', id);
  });

  it('inspects the SQL row, the clients and the resource, and opens the moment after a chosen event', async () => {
    await app.open(S2_END);
    await app.unfold('inspector');
    const columns = await page.locator('[data-testid="lock-row"] td').evaluateAll((cells) => cells.map((c) => c.dataset.column));
    assert.deepEqual(columns, ['lock_name', 'holder_id', 'fencing_token', 'expires_at']);
    assert.equal(await page.locator('[data-testid="client-row"]').count(), 2);
    assert.match(await page.locator('[data-testid="client-row"]').first().innerText(), /heldSafely\(\)[\s\S]*renewals left/);
    // Open the moment just after client-b's write was accepted.
    const accepted = page.locator(sel.mark('write_accepted'));
    const event = Number(await accepted.getAttribute('data-event-id'));
    await accepted.click();
    await app.waitForPosition(event + 1);
    assert.match(await page.locator('[data-testid="resource-row"] td[data-column="fencing_token"]').innerText(), /34/);
    assert.match(await page.locator('[data-testid="lock-row"] td[data-column="holder_id"]').innerText(), /client-b/);
    // The log links back: choosing an entry opens its moment.
    await page.locator('[data-testid="event"] button').first().click();
    await app.waitForPosition(1);
  });

  it('narrates each step in a live region and shows every invariant at the current step', async () => {
    await app.open(`${S2}&at=10`);
    assert.equal(await page.locator('[data-testid="narration"]').getAttribute('aria-live'), 'polite');
    const invariant = page.locator('[data-testid="invariants"] [data-invariant="one_believer"]');
    assert.doesNotMatch((await invariant.getAttribute('class')) ?? '', /broken/);
    await page.locator('[data-testid="step"]').click();
    await app.waitForPosition(11);
    assert.match(await page.locator('[data-testid="narration"]').innerText(), /client-b is told it holds the lock with token 34/);
    assert.match((await invariant.getAttribute('class')) ?? '', /broken/);
    await page.keyboard.press('End');
    await app.waitForPosition(24);
    assert.doesNotMatch((await invariant.getAttribute('class')) ?? '', /broken/, 'it holds again once client-a learns');
  });

  it('compares fencing on and off side by side: one rejects the stale write, the other is corrupted', async () => {
    await app.open(S2_END);
    await page.locator('select[data-testid="compare-with"]').selectOption('fencing');
    const twin = page.locator('[data-testid="timeline-twin"]');
    await twin.waitFor();
    const stale = twin.locator('[data-testid="event-mark"][data-kind="stale_write"][data-token="33"]');
    assert.equal(await stale.count(), 1, 'without fencing the zombie write with 33 is accepted, and marked stale');
    assert.equal(await twin.locator('[data-testid="violation-band"][data-invariant="no_stale_write"]').count(), 1);
    assert.equal(await page.locator(sel.mark('write_rejected')).getAttribute('data-token'), '33');
    assert.match(await page.locator('[data-testid="twin-invariants"] [data-invariant="no_stale_write"]').getAttribute('class'), /broken/);
    // Stepped together: going back before the write takes both back.
    await page.locator('[data-testid="scrubber"]').fill('12');
    await app.waitForPosition(12);
    assert.equal(await twin.locator('[data-testid="event-mark"]:is([data-kind="write_accepted"], [data-kind="stale_write"])').count(), 0);
    await page.locator('[data-testid="scrubber"]').fill('24');
    await app.waitForPosition(24);
    await app.screenshot('compare');
  });

  it('says how the run ends, computed from the run: fencing on refuses 33, fencing off loses an update', async () => {
    await app.open(S2);
    const outcome = page.locator('[data-testid="run-outcome"]');
    assert.equal(await outcome.evaluate((d) => d.open), false, 'closed: the end is not spoiled');
    await outcome.locator('summary').click();
    assert.equal(await outcome.evaluate((d) => d.open), true);
    const lines = () => outcome.locator('[data-testid="outcome-line"]').allInnerTexts();
    assert.deepEqual(await lines(), ['At 2058 ms client-a\'s write with token 33 was refused: 33 < 34, the highest token accepted.']);
    await page.locator('[data-testid="fencing-toggle"]').click();
    await page.waitForFunction(() => /fencing off/i.test(document.querySelector('[data-testid="run-outcome"] summary').textContent));
    const off = await lines();
    assert.equal(off.length, 1, off.join('\n'));
    assert.match(off[0], /client-a's write with token 33 was accepted .*client-b's update is lost/);
  });

  it('cites the scenario\'s sources and lists every source on the Sources page, each linking out', async () => {
    await app.open(S2);
    const cited = await page.locator('[data-testid="citations"] li').evaluateAll((items) => items.map((i) => i.dataset.source));
    assert.ok(cited.includes('kleppmann-2016'), cited.join(','));
    const bibliography = JSON.parse(await readFile(resolve(HERE, '../content/sources.json'), 'utf8'));
    await page.locator('[data-testid="nav-sources"]').click();
    await page.locator('[data-testid="sources"]').waitFor();
    assert.equal(await page.locator('[data-testid="nav-sources"]').getAttribute('aria-current'), 'page');
    const shown = await page.locator('[data-testid="sources"] [data-testid="source"]').evaluateAll((items) => items.map((i) => i.dataset.source));
    assert.deepEqual([...shown].sort(), bibliography.sources.map((entry) => entry.id).sort());
    for (const entry of bibliography.sources.filter((e) => e.url)) {
      const link = page.locator(`[data-testid="source"][data-source="${entry.id}"] [data-testid="source-link"]`);
      assert.equal(await link.getAttribute('href'), entry.url, entry.id);
      assert.equal(await link.getAttribute('target'), '_blank', entry.id);
      assert.match(await link.getAttribute('rel'), /noopener/, entry.id);
    }
    // The article without an address still says what it is: its first and last sections by
    // their headings, and what it gave Lockstep.
    const article = await page.locator('[data-testid="source"][data-source="the-article"]').innerText();
    for (const words of ['Why This Is Not Like a Mutex', 'Knowledge Check', 'performGuardedWork', 'no author, date or address']) {
      assert.ok(article.includes(words), `the article's citation names ${words}: ${article}`);
    }
    await app.screenshot('sources');
  });

  it('builds a scenario from the sandbox form and runs it', async () => {
    await app.open(S2);
        await buildScenario(page, { numbers: { clients: 4 }, menus: { backend: 'consensus', behaviour: 'renewing' } });
    assert.match(await page.locator('[data-testid="scenario-name"]').innerText(), /Sandbox · 4 clients, Consensus/);
    const lanes = await page.locator(sel.main('lane')).evaluateAll((rects) => rects.map((r) => r.dataset.node));
    assert.deepEqual(lanes, ['client-a', 'client-b', 'client-c', 'client-d', 'etcd-1', 'etcd-2', 'etcd-3', 'resource']);
    assert.match(await page.locator('[data-testid="scenario-picker"] option:checked').innerText(), /^Your own: Sandbox/);
    assert.ok((await app.position()).of > 50);
  });

  it('imports a scenario file, and a broken one says what is wrong and keeps the current run', async () => {
    await app.open(`${S2}&at=6`);
    await page.locator('[data-testid="import"]').setInputFiles({
      name: 'broken.json',
      mimeType: 'application/json',
      buffer: Buffer.from('{ "format": 1, "id": "x", "title": "t", "seed": 1, "end_ms": 100, "colour": "red" }'),
    });
    const notice = page.locator('[data-testid="notice"]');
    await notice.waitFor();
    assert.equal(await notice.getAttribute('role'), 'alert');
    assert.match(await notice.innerText(), /colour/);
    assert.match(await page.locator('[data-testid="scenario-name"]').innerText(), /^S2/);
    assert.equal((await app.position()).at, 6, 'the current state survives');
    const s1 = await readFile(resolve(HERE, '..', 'scenarios', 's1-gc-pause-unfenced.json'));
    await page.locator('[data-testid="import"]').setInputFiles({ name: 's1.json', mimeType: 'application/json', buffer: s1 });
    await page.waitForFunction(() => /^S1/.test(document.querySelector('[data-testid="scenario-name"]').textContent));
  });

  it('exports the scenario with the interventions, the trace and the timeline as SVG', async () => {
    await app.open(`${S2}&at=3`);
    await page.locator('[data-testid="lane-label"][data-node="client-b"]').click();
    await page.locator('[data-testid="act-crash"]').click();
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="logged-intervention"]').length === 1);
    const download = async (testid) => {
      await page.locator('[data-testid="more-menu"]').click();
      const [file] = await Promise.all([page.waitForEvent('download'), page.locator(`[data-testid="${testid}"]`).click()]);
      return readFile(await file.path(), 'utf8');
    };
    const scenario = JSON.parse(await download('export-scenario'));
    assert.equal(scenario.id, 's2-gc-pause-fenced');
    assert.deepEqual(scenario.interventions.map((i) => i.do.action), ['pause', 'crash']);
    const trace = JSON.parse(await download('export-trace'));
    assert.equal(trace.hash, await page.locator('[data-testid="trace-hash"]').innerText());
    const svg = await download('export-svg');
    assert.match(svg, /^<svg[^>]*xmlns="http:\/\/www.w3.org\/2000\/svg"/);
    assert.match(svg, /data-testid="lease-bar"/);
        assert.deepEqual(trace.source, scenario, 'the trace carries the scenario file that reproduces it');
    // The exported files import back to the same run: the scenario, and the trace by replay.
    await app.open('s=s1-gc-pause-unfenced');
    await page.locator('[data-testid="import"]').setInputFiles({ name: 'again.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(scenario)) });
    await page.waitForFunction((hash) => document.querySelector('[data-testid="trace-hash"]').textContent === hash, trace.hash);
    await app.open('s=s1-gc-pause-unfenced');
    await page.locator('[data-testid="import"]').setInputFiles({ name: 'trace.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(trace)) });
    await page.waitForFunction((hash) => document.querySelector('[data-testid="trace-hash"]').textContent === hash, trace.hash);
    assert.match(await page.locator('[data-testid="notice"]').innerText(), /same hash/);
    assert.deepEqual(await app.position(), { at: trace.events.length, of: trace.events.length });
    // A trace that was changed is refused, and says why.
    const changed = { ...trace, events: trace.events.slice(0, 5) };
    await page.locator('[data-testid="import"]').setInputFiles({ name: 'changed.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(changed)) });
    await page.waitForFunction(() => /does not replay/.test(document.querySelector('[data-testid="notice"]')?.textContent ?? ''));
    assert.equal(await page.locator('[data-testid="trace-hash"]').innerText(), trace.hash, 'the current run survives');
  });

  it('keeps the exact moment in the URL: a reload reproduces it, a bad link opens the default with a message', async () => {
    await app.open(`${S2}&at=4`);
    await page.locator('[data-testid="lane-label"][data-node="client-a"]').click();
    await page.locator('[data-testid="act-clock-jump"]').click();
    await page.locator('[data-testid="fencing-toggle"]').click();
    await page.locator('[data-testid="step"]').click();
    await app.settle();
    const hash = await page.locator('[data-testid="trace-hash"]').innerText();
    const position = await app.position();
    // The URL follows once the playground stands still (a quarter of a second), not on every
    // step: writing it costs Chromium milliseconds.
    await page.waitForFunction((at) => location.hash.includes(`&at=${at}`), position.at);
    const url = page.url();
    assert.match(url, /fencing=off/);
    assert.match(url, /log=/);
    await page.reload();
    await page.locator('[data-testid="timeline-main"] svg').waitFor();
    assert.equal(await page.locator('[data-testid="trace-hash"]').innerText(), hash);
    assert.deepEqual(await app.position(), position);
    assert.equal(await page.locator('[data-testid="logged-intervention"]').count(), 1);
    await page.locator('[data-testid="share-menu"]').click();
    await page.locator('[data-testid="share"]').click();
    assert.equal(await page.locator('[data-testid="share-link"]').inputValue(), page.url());
    await app.open('s=no-such-scenario&at=3');
    const notice = page.locator('[data-testid="notice"]');
    assert.match(await notice.innerText(), /s=no-such-scenario/);
    assert.match(await page.locator('[data-testid="scenario-name"]').innerText(), /^S2/);
    await app.open(`${S2}&at=2&log=%%%`);
    assert.match(await notice.innerText(), /`log=`/);
  });

  it('does everything from the keyboard: space, arrows, ? and Escape, with a visible focus', async () => {
    await app.open(S2);
    await page.locator('[data-testid="scenario-name"]').click();
    await page.keyboard.press('ArrowRight');
    await app.waitForPosition(2);
    await page.keyboard.press('ArrowLeft');
    await app.waitForPosition(1);
    await page.keyboard.press('?');
    await page.locator('[data-testid="shortcuts"]').waitFor();
    await app.screenshot('shortcuts');
    await page.keyboard.press('Escape');
    await page.locator('[data-testid="shortcuts"]').waitFor({ state: 'detached' });
    await page.keyboard.press(' ');
    await page.waitForFunction(() => document.querySelector('[data-testid="play"]').dataset.playing === 'true');
    await page.keyboard.press(' ');
    await page.waitForFunction(() => document.querySelector('[data-testid="play"]').dataset.playing === 'false');
    // Tab reaches a lane, Enter selects it; its actions are buttons.
    const lane = page.locator('[data-testid="lane-label"][data-node="client-a"]');
    await lane.focus();
    const outline = await lane.evaluate((el) => getComputedStyle(el).outlineStyle);
    assert.notEqual(outline, 'none', 'focus is visible');
    await page.keyboard.press('Enter');
    await page.locator('[data-testid="node-actions"]').waitFor();
        await page.keyboard.press('End');
    await app.waitForPosition(24);
    const mark = page.locator(sel.mark('write_rejected'));
    await mark.focus();
    await page.keyboard.press('Enter');
    await app.waitForPosition(Number(await mark.getAttribute('data-event-id')) + 1);
  });

  it('lets a keyboard skip to the player, hints at the shortcuts, and keeps the stage out of the Tab order', async () => {
    await app.open(S2);
    await page.keyboard.press('Tab');
    const first = await page.evaluate(() => document.activeElement?.dataset.testid);
    assert.equal(first, 'skip-link', 'the first Tab reaches the skip link');
    assert.ok(await page.locator('[data-testid="skip-link"]').isVisible(), 'focused, it is in sight');
    await page.keyboard.press('Enter');
    const focused = await page.evaluate(() => document.activeElement?.dataset.testid);
    assert.equal(focused, 'step', 'Enter on the skip link puts the focus on Step');
    await page.keyboard.press('Enter');
    await app.waitForPosition(2);
    const tabbable = await page.locator('[data-testid="stage-node"]').evaluateAll((nodes) =>
      nodes.map((n) => n.getAttribute('tabindex')),
    );
    assert.ok(tabbable.length > 0, 'the stage is drawn');
    assert.deepEqual([...new Set(tabbable)], ['-1'], 'no stage node is a Tab stop: its lane name is');
    const hint = page.locator('[data-testid="shortcuts-hint"]');
    assert.ok(await hint.isVisible(), 'the transport bar shows the shortcuts hint at 1280 px');
    await hint.click();
    await page.locator('[data-testid="shortcuts"]').waitFor();
    await page.keyboard.press('Escape');
    await page.locator('[data-testid="shortcuts"]').waitFor({ state: 'detached' });
  });

  it('has no serious or critical accessibility findings, in light and dark', async () => {
    await app.open(S2_END);
    await page.locator('[data-testid="lane-label"][data-node="client-a"]').click();
    await page.locator('select[data-testid="compare-with"]').selectOption('fencing');
    await page.locator('[data-testid="timeline-twin"]').waitFor();
    for (const scheme of ['light', 'dark']) {
      await page.emulateMedia({ colorScheme: scheme });
      const findings = await app.axe();
      assert.deepEqual(findings, [], `${scheme}: ${findings.join('\n')}`);
    }
    await app.screenshot('dark');
    const background = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    assert.equal(background, 'rgb(17, 20, 24)', 'the dark palette is in use');
    await page.emulateMedia({ colorScheme: 'light' });
    await page.locator('[data-testid="more-menu"]').click();
    await page.locator('[data-testid="help"]').click();
    assert.deepEqual(await app.axe(), [], 'the shortcut sheet');
  });

  it('reported no console error, page error or failed request', () => {
    assert.deepEqual(app.problems, []);
  });
});

describe('the playground on a 375-px touch screen', () => {
  let app;

  before(async () => {
    app = await startApp({ viewport: { width: 375, height: 740 }, hasTouch: true, isMobile: true });
  });

  after(async () => {
    await app?.close();
  });

  it('fits the width, and taps step, select and act', async () => {
    const { page } = app;
    await app.open(S2);
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    assert.ok(width <= 376, `the page is ${width} px wide: it scrolls sideways`);
    await page.locator('[data-testid="step"]').tap();
    await app.waitForPosition(2);
    const box = await page.locator('[data-testid="step"]').boundingBox();
    assert.ok(box.height >= 44 && box.width >= 44, 'a touch target of at least 44 px');
    await page.locator('[data-testid="lane-label"][data-node="client-b"]').tap();
    // The lane's actions open in a sheet; "More…" puts it away for the full panel.
    await page.locator('[data-testid="act-more"]').tap();
    await page.locator('[data-testid="act-crash"]').tap();
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="logged-intervention"]').length === 1);
    await app.screenshot('phone');
    assert.deepEqual(app.problems, []);
  });
});
