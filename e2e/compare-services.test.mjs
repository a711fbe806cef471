// Comparing two lock services in headless Chromium (issue 15): a comparison opened from the
// toolbar's "Compare with" and from a link; both runs stepped together by virtual time; the
// one-line verdict computed from both runs, above the story; what each intervention became on
// the other service (or why it has no counterpart); taking back an intervention changes both
// runs; a bad `compare=` value is named and the state survives; a lesson step opens its
// comparison; the story stays on one 1280×800 screen; axe-core finds nothing, light and dark.
//
// S10 (`s10-redlock-clock-jump`): Redlock, five nodes; a 15 s clock jump on node C at 300 ms
// lets client-2 take three of five while client-1 still believes it holds the lock (event 25,
// 550 ms). Against consensus the jump lands on a follower and nobody else ever holds the lock.
//
// S20's pair compares two scenarios (`compare=<scenario id>`): the same consensus service, clients
// and fault — one replica's clock at twice the true rate — on a follower and on the leader. On the
// leader the lease ends after about 5 s and two clients believe they hold the lock from 6,022 ms.

import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';

import { readFile } from 'node:fs/promises';

import { startApp } from './harness.mjs';

const S10 = 's=s10-redlock-clock-jump';
const S10_VERDICT =
  'Compared: Redlock, 5 nodes: two clients believed they held the lock from 550 ms; Consensus, 3 replicas: never';
const S9_VERDICT =
  'Compared: Replicated cache with failover: two clients believed they held the lock from 510 ms; Consensus, 3 replicas: never';
const FOLLOWER = 's20-consensus-fast-follower-clock';
const LEADER = 's20-consensus-fast-leader-clock';
const FOLLOWER_VERDICT = 'Compared: This run: never; the twin: two clients believed they held the lock from 6,022 ms';
const LEADER_VERDICT = 'Compared: This run: two clients believed they held the lock from 6,022 ms; the twin: never';

describe('comparing two lock services', () => {
  let app;
  let page;

  before(async () => {
    app = await startApp({ acceptDownloads: true });
    page = app.page;
  });

  after(async () => {
    await app?.close();
  });

  const verdict = () => page.locator('[data-testid="compare-verdict"]');
  const twin = () => page.locator('[data-testid="timeline-twin"]');
  const twinMarks = () => twin().locator('[data-testid="event-mark"]').count();
  const oneBeliever = (where) =>
    page.locator(`[data-testid="${where}"] [data-invariant="one_believer"]`).getAttribute('class');

  it('opens from the toolbar, steps both runs together and shows the verdict above the story', async () => {
    await app.open(`${S10}&at=1`);
    const choice = page.locator('[data-testid="compare-with"]');
    const offered = await choice.locator('option').evaluateAll((options) => options.map((o) => o.value));
    assert.deepEqual(offered, ['off', 'fencing', 'sql-row', 'cache', 'replicated-cache', 'data-grid', 'consensus'],
      'nothing, fencing on/off, or one of the five other services');
    await choice.selectOption('consensus');
    await twin().waitFor();
    assert.equal(await verdict().innerText(), S10_VERDICT);
    await page.waitForFunction(() => location.hash.includes('compare=consensus'));
    // The verdict is in the story's place: above the main timeline.
    const verdictBox = await verdict().boundingBox();
    const mainBox = await page.locator('[data-testid="timeline-main"]').boundingBox();
    assert.ok(verdictBox.y < mainBox.y, 'the verdict is above the main timeline');
    // Stepped by virtual time: at the start the twin shows only its first moment's events.
    const atStart = await twinMarks();
    await page.locator('[data-testid="step"]').click();
    await app.waitForPosition(2);
    await page.locator('[data-testid="scrubber"]').fill('25');
    await app.waitForPosition(25);
    await page.locator('[data-testid="step"]').click();
    await app.waitForPosition(26);
    assert.ok((await twinMarks()) > atStart, 'moving the main run moves the twin');
    assert.match(await oneBeliever('invariants'), /broken/, 'Redlock: two believers after event 25');
    assert.doesNotMatch(await oneBeliever('twin-invariants'), /broken/, 'consensus: one believer at most');
    // What each intervention became: the clock jump on Redlock's node lands on a follower.
    const mapped = await page.locator('[data-testid="carried-mapped"]').allInnerTexts();
    assert.ok(
      mapped.some((line) => /jump redis-c's clock/.test(line) && /→ jump etcd-\d's clock .*\(a follower\)/.test(line)),
      mapped.join('\n'),
    );
    // Going back takes the twin back too.
    await page.locator('[data-testid="scrubber"]').fill('1');
    await app.waitForPosition(1);
    assert.equal(await twinMarks(), atStart);
  });

  it('opens from a link, and lists what has no counterpart with its reason', async () => {
    await app.open('s=s9-failover-loses-the-lock&at=8&compare=consensus');
    await twin().waitFor();
    assert.equal(await verdict().innerText(), S9_VERDICT);
    assert.equal(await page.locator('[data-testid="compare-with"]').inputValue(), 'consensus');
    const mapped = await page.locator('[data-testid="carried-mapped"]').allInnerTexts();
    assert.ok(mapped.some((line) => /crash redis-primary .*the primary/.test(line) && /→ crash etcd-\d .*the leader/.test(line)),
      mapped.join('\n'));
    // Against a single SQL row, S10's jump on one of five nodes has nowhere to go.
    await app.open(`${S10}&at=1&compare=sql-row`);
    await twin().waitFor();
    const none = await page.locator('[data-testid="carried-none"]').allInnerTexts();
    assert.ok(none.some((line) => /jump redis-c's clock .*→ no counterpart on SQL row.*minority/i.test(line)), none.join('\n'));
  });

  it('compares with another scenario from a link: both files load, both runs step together', async () => {
    await app.open(`s=${FOLLOWER}&at=1&compare=${LEADER}`);
    await twin().waitFor();
    assert.equal(await verdict().innerText(), FOLLOWER_VERDICT);
    const choice = page.locator('[data-testid="compare-with"]');
    assert.equal(await choice.inputValue(), LEADER, 'the choice shows the twin scenario');
    assert.match(await twin().innerText(), /The twin: S20 · The same fast clock on the leader/);
    const twinBands = () => twin().locator('[data-testid="violation-band"]').count();
    assert.equal(await twinBands(), 0, 'at the start nothing is broken on either side');
    // Position 15: the follower's run at 6,102 ms, client-2 waiting; the twin stepped to the same
    // time shows client-2 told it holds the lock at 6,022 ms while client-1 still believes it does.
    await page.locator('[data-testid="scrubber"]').fill('15');
    await app.waitForPosition(15);
    assert.ok((await twinBands()) > 0, 'moving the main run moves the twin');
    assert.doesNotMatch(await oneBeliever('invariants'), /broken/, 'on a follower: one believer at most');
    assert.match(await oneBeliever('twin-invariants'), /broken/, 'on the leader: two believers by then');
    // The same pair the other way round, and back to no comparison with the choice.
    await app.open(`s=${LEADER}&at=1&compare=${FOLLOWER}`);
    await twin().waitFor();
    assert.equal(await verdict().innerText(), LEADER_VERDICT);
    await choice.selectOption('off');
    await page.waitForFunction(() => !location.hash.includes('compare='));
    assert.equal(await twin().count(), 0);
    assert.equal(await verdict().count(), 0);
  });

  it('carries an intervention to both runs, and taking it back changes both again', async () => {
    await app.open(`${S10}&at=1&compare=consensus`);
    await twin().waitFor();
    const hash = () => page.locator('[data-testid="trace-hash"]').innerText();
    const bands = (where) => page.locator(`[data-testid="${where}"] [data-testid="pause-band"][data-lane="client-1"]`).count();
    const before = { hash: await hash(), verdict: await verdict().innerText() };
    assert.equal(await bands('timeline-main'), 0);
    assert.equal(await bands('timeline-twin'), 0);
    await page.locator('[data-testid="lane-label"][data-node="client-1"]').first().click();
    await page.locator('[data-testid="act-pause-until-resumed"]').click();
    await page.locator('[data-testid="logged-intervention"]').waitFor();
    await page.waitForFunction((h) => document.querySelector('[data-testid="trace-hash"]')?.textContent !== h, before.hash);
    assert.equal(await bands('timeline-main'), 1, 'client-1 is paused in the main run');
    assert.equal(await bands('timeline-twin'), 1, 'and in the twin');
    const carried = await page.locator('[data-testid="carried-mapped"]').allInnerTexts();
    assert.ok(carried.some((line) => /pause client-1 .*→ pause client-1/.test(line)), carried.join('\n'));
    assert.notEqual(await verdict().innerText(), before.verdict, 'the verdict is recomputed from the new runs');
    await page.locator('[data-testid="logged-intervention"] button').click();
    await page.waitForFunction((h) => document.querySelector('[data-testid="trace-hash"]')?.textContent === h, before.hash);
    assert.equal(await bands('timeline-main'), 0);
    assert.equal(await bands('timeline-twin'), 0);
    assert.equal(await verdict().innerText(), before.verdict);
  });

  it("exports the twin's scenario file beside the scenario's", async () => {
    await app.open(`${S10}&at=1&compare=consensus`);
    await twin().waitFor();
    await page.locator('[data-testid="more-menu"]').click();
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.locator('[data-testid="export-twin-scenario"]').click(),
    ]);
    assert.equal(download.suggestedFilename(), 's10-redlock-clock-jump-against-consensus.json');
    const file = JSON.parse(await readFile(await download.path(), 'utf8'));
    assert.equal(file.lock_service.kind, 'consensus');
    assert.equal(file.seed, 42);
    const jump = file.interventions.find((i) => i.do.action === 'clock_jump');
    assert.ok(jump, JSON.stringify(file.interventions));
    assert.equal(jump.at_ms, 300);
    assert.match(jump.do.node, /^etcd-\d$/, 'the jump carried to a consensus replica');
  });

  it('names a bad compare= value, and opens what the rest of the link names', async () => {
    await app.open(`${S10}&at=5`);
    await page.evaluate((s) => { location.hash = `${s}&at=9&compare=zookeeper`; }, S10);
    const notice = page.locator('[data-testid="notice"]');
    await notice.waitFor();
    const text = await notice.innerText();
    assert.match(text, /`compare=`/);
    assert.match(text, /`zookeeper`/);
    assert.match(text, /consensus/);
    // A link that breaks gently (issue 42, point 4): its readable parts are kept, the bad one named.
    assert.equal((await app.position()).at, 9, "the link's position");
    assert.equal(await twin().count(), 0);
  });

  it('opens a lesson step with its comparison (the Redlock debate, S20 and failure modes)', async () => {
    const cases = [
      ['redlock-debate', 6, 28, S10_VERDICT, /on consensus never/],
      ['redlock-debate', 7, 14, FOLLOWER_VERDICT, /a follower's/],
      ['redlock-debate', 9, 21, LEADER_VERDICT, /never happens on the twin/],
      ['failure-modes', 8, 8, S9_VERDICT, /never on consensus/],
    ];
    for (const [id, number, position, expected, says] of cases) {
      await page.goto('about:blank');
      await page.goto(`${app.site.url}#learn=${id}&step=${number}`);
      await page.locator('[data-testid="lesson"]').waitFor({ timeout: 30_000 });
      await app.waitForPosition(position);
      await twin().waitFor();
      assert.equal(await verdict().innerText(), expected, `${id} step ${number}`);
      assert.match(await page.locator('[data-testid="lesson-text"]').innerText(), says);
      // The lesson's promise at 1280×800 holds with a comparison too: the step's text, Next,
      // the verdict, the timeline and the "now" line on one screen (the twin's timeline below).
      const outside = [];
      for (const testid of ['lesson-text', 'lesson-next', 'compare-verdict', 'timeline-main', 'narration']) {
        const box = await page.locator(`[data-testid="${testid}"]`).first().boundingBox();
        if (!box || box.y < 0 || box.y + box.height > 800) outside.push(`${testid} at ${JSON.stringify(box)}`);
      }
      assert.deepEqual(outside, [], `${id} step ${number}: all on the first screen`);
    }
  });

  it('keeps the story on one 1280×800 screen, and looks right on a phone', async () => {
    await app.open(`${S10}&at=26&compare=consensus`);
    await twin().waitFor();
    await app.settle();
    const parts = {
      'the verdict': '[data-testid="compare-verdict"]',
      'the main timeline': '[data-testid="timeline-main"]',
      Step: '[data-testid="step"]',
    };
    const outside = [];
    for (const [what, selector] of Object.entries(parts)) {
      const box = await page.locator(selector).first().boundingBox();
      if (!box || box.y < 0 || box.y + box.height > 800 || box.x + box.width > 1280) outside.push(`${what} at ${JSON.stringify(box)}`);
    }
    assert.deepEqual(outside, [], 'all on the first screen');
    await page.screenshot({ path: 'artifacts/compare-services-1280.png' });
    await app.screenshot('compare-services-1280-full');
    await page.setViewportSize({ width: 375, height: 700 });
    await app.settle();
    await page.screenshot({ path: 'artifacts/compare-services-375.png' });
    await app.screenshot('compare-services-375-full');
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    assert.ok(overflow <= 0, `the page is ${overflow} px wider than the phone`);
    await page.setViewportSize({ width: 1280, height: 800 });
  });

  // Issue 28: in compare the two time axes did not line up (0 ms at x = 181 vs 193, "2 s" at 813
  // vs 1100). One time domain: every time stands at the same x in both, and one "now" line.
  it('draws both timelines on one time axis: each tick at the same x in both, and one "now"', async () => {
    const ticks = (where) => page.locator(`[data-testid="timeline-${where}"] .tick`).evaluateAll((all) =>
      all.map((tick) => ({
        label: tick.querySelector('text')?.textContent ?? '',
        x: tick.querySelector('line').getBoundingClientRect().x,
      })));
    const nowX = (where) => page.locator(`[data-testid="timeline-${where}"] [data-testid="now-line"] line`)
      .evaluate((line) => line.getBoundingClientRect().x);
    // The playground's comparison, and a lesson step's.
    const opens = [
      async () => app.open(`${S10}&at=26&compare=consensus`),
      async () => {
        await page.goto('about:blank');
        await page.goto(`${app.site.url}#learn=redlock-debate&step=6`);
        await page.locator('[data-testid="lesson"]').waitFor({ timeout: 30_000 });
        await app.waitForPosition(28);
      },
    ];
    for (const [[width, height], open] of [[1280, 800], [375, 700]].flatMap((size) => opens.map((o) => [size, o]))) {
      await page.setViewportSize({ width, height });
      await open();
      await twin().waitFor();
      await app.settle();
      const [main, other] = [await ticks('main'), await ticks('twin')];
      const both = main.filter((tick) => tick.label && other.some((o) => o.label === tick.label));
      assert.ok(both.length >= 2 && both.some((tick) => tick.label === '0 ms'),
        `${width}: ticks in both: ${JSON.stringify({ main, other })}`);
      const apart = both
        .map((tick) => ({ label: tick.label, main: tick.x, twin: other.find((o) => o.label === tick.label).x }))
        .filter((t) => Math.abs(t.main - t.twin) > 1);
      assert.deepEqual(apart, [], `${width}: each time at the same x in both timelines`);
      const [mainNow, twinNow] = [await nowX('main'), await nowX('twin')];
      assert.ok(Math.abs(mainNow - twinNow) <= 1, `${width}: "now" at ${mainNow} and ${twinNow}`);
    }
    await page.setViewportSize({ width: 1280, height: 800 });
  });

  it("names each run's verdict at the end: the main run's, then the twin's", async () => {
    await app.open('s=s2-gc-pause-fenced&compare=1&at=24');
    await twin().waitFor();
    const main = page.locator('[data-testid="run-verdict"]');
    const other = page.locator('[data-testid="twin-verdict"]');
    assert.match(await main.innerText(), /^fencing on: ✓ Data intact/);
    assert.match(await other.innerText(), /^fencing off: ✗ Data lost/);
    assert.equal(await main.getAttribute('data-tone'), 'intact');
    assert.equal(await other.getAttribute('data-tone'), 'lost');
  });

  it('has no serious or critical accessibility findings, in light and dark', async () => {
    await app.open(`${S10}&at=26&compare=consensus`);
    await twin().waitFor();
    for (const scheme of ['light', 'dark']) {
      await page.emulateMedia({ colorScheme: scheme });
      const findings = await app.axe();
      assert.deepEqual(findings, [], `${scheme}: ${findings.join('\n')}`);
    }
    await page.emulateMedia({ colorScheme: 'light' });
  });
});
