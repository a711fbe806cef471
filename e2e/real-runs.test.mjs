// The real runs (issue 26) in headless Chromium: a scenario with a recording offers "Real run"
// in the playground; the recording opens beside its simulation (the full binary, fetched on
// first use), both stepped by one clock, with both verdicts. S2 against PostgreSQL shows
// PostgreSQL itself refusing token 33; S6 against one Redis, the plain DEL letting client-c
// in; S9 against a Redis primary and replica, the failover losing the lock, and with a token
// counter, handing out token 1 twice; Redlock on five Redis nodes, a clock jump on one node
// letting two clients lock overlapping majorities, and a node killed and restarted empty letting
// a second client lock it (S11); three etcd members expiring a cut-off
// client's session (S14), etcd 3.4 telling a waiter whose lease ran out that it holds the lock
// (S18) and etcd 3.5 telling it its session expired (S18's fix); PostgreSQL applying a crashed
// client's write held on a slow link after the next holder's (S4). Lessons link to recordings:
// the fencing lesson's refused write, the no-exclusion lesson's delayed packet, the Redlock
// lesson's restarted node, the failure-modes lesson's etcd bug and its fix. A history of one's own loads from disk and is
// judged alone (a write its crashed client never heard of judged by the resource's log), and a
// malformed one is named where it is wrong while what was shown stays; a history imported in
// the playground is pointed to the real-runs page; an embed shows a recording beside its
// simulation; the page reads at 375 px and axe finds nothing. The list names each recording by
// its scenario's title, in catalogue order (S1 first), with a line on what it shows; the run
// chosen comes into the window.

import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFile, readdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

import { startApp } from './harness.mjs';

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const EXAMPLE = join(REPO, 'docs', 'examples', 'history-gc-pause.json');
const DELAYED = join(REPO, 'docs', 'examples', 'history-delayed-write.json');

describe('real runs', () => {
  let app;
  let page;

  before(async () => {
    app = await startApp();
    page = app.page;
  });

  after(async () => {
    await app?.close();
  });

  const run = () => page.locator('[data-testid="real-run"]');
  const marks = (name) => page.locator(`[data-testid="timeline-${name}"] [data-testid="event-mark"]`);
  const row = (invariant, side) =>
    page.locator(`[data-testid="real-verdicts"] tr[data-invariant="${invariant}"] [data-testid="verdict-${side}"]`);
  const position = () => page.locator('[data-testid="real-position"]').innerText();

  async function openReal(fragment) {
    await app.leave();
    await page.goto(`${app.site.url}#${fragment}`);
    await page.locator('[data-testid="real-runs"]').waitFor({ timeout: 30_000 });
  }

  it('offers the real run from the playground and opens it beside its simulation', async () => {
    await app.open('s=s2-gc-pause-fenced');
    const link = page.locator('[data-testid="real-run-link"]');
    assert.equal(await link.innerText(), 'Real run: PostgreSQL');
    await link.click();
    await run().waitFor({ timeout: 30_000 });
    assert.match(await page.locator('[data-testid="real-recorded"]').innerText(),
      /^Recorded by lockstep-real [\d.]+ on \d{4}-\d\d-\d\d against PostgreSQL 1\d\.\d+\./);
    await page.locator('[data-testid="timeline-simulated"] svg').waitFor();
    await page.locator('[data-testid="timeline-recorded"] svg').waitFor();
    // At the end: PostgreSQL itself refused 33 after 34 was written, as the simulation did.
    const refused = marks('recorded').and(page.locator('[data-outcome="rejected"]'));
    assert.equal(await refused.getAttribute('data-token'), '33');
    assert.equal(await refused.getAttribute('data-lane'), await marks('simulated')
      .and(page.locator('[data-outcome="rejected"]')).getAttribute('data-lane'), 'the same resource lane');
    assert.equal(await row('one_believer', 'simulated').innerText(), 'broken');
    assert.match(await row('one_believer', 'recorded').innerText(),
      /^broken: client-b was granted the lock at \d+ ms while client-a still believed it held it$/);
    for (const invariant of ['one_lease', 'tokens_increase', 'no_stale_write', 'one_writer_per_token', 'no_lost_update']) {
      assert.equal(await row(invariant, 'simulated').innerText(), 'holds', invariant);
      assert.equal(await row(invariant, 'recorded').innerText(), 'holds', invariant);
    }
    assert.match(await page.locator('[data-testid="real-agree"]').innerText(), /agree on every invariant/);
    await app.screenshot('real-run-s2');
    assert.deepEqual(await app.axe(), []);
    assert.deepEqual(app.problems, []);
  });

  it('steps both runs by one clock', async () => {
    await page.locator('[data-testid="real-start"]').click();
    assert.match(await position(), /^t = 0 ms · step 0 of \d+$/);
    assert.equal(await marks('recorded').count(), 0);
    assert.equal(await marks('simulated').count(), 0);
    assert.equal(await row('one_believer', 'recorded').innerText(), 'holds', 'nothing has happened yet');
    // Step until client-b's grant: both runs break one believer at the same step or close.
    let steps = 0;
    while ((await row('one_believer', 'recorded').innerText()) === 'holds' && steps < 200) {
      await page.locator('[data-testid="real-step"]').click();
      steps += 1;
    }
    const at = Number(/t = ([\d,]+) ms/.exec(await position())[1].replace(',', ''));
    assert.ok(at >= 1_200 && at < 1_300, `client-b is granted the lock about 1,200 ms in, not at ${at} ms`);
    assert.match(await page.locator('[data-testid="real-now-recorded"]').innerText(), /grants client-b the lock with token 34/);
    assert.equal(await marks('recorded').and(page.locator('[data-outcome="rejected"]')).count(), 0, 'not refused yet');
    await page.locator('[data-testid="real-end"]').click();
    assert.equal(await marks('recorded').and(page.locator('[data-outcome="rejected"]')).count(), 1);
  });

  it('shows Redis letting client-c in after a plain DEL', async () => {
    await openReal('real=s6-plain-del-release.redis');
    await run().waitFor();
    assert.match(await page.locator('[data-testid="real-recorded"]').innerText(), /against Redis 7\.\d+\.\d+ and PostgreSQL/);
    const writers = await marks('recorded').evaluateAll((all) => all.map((m) => m.getAttribute('data-outcome')));
    assert.deepEqual(writers, ['accepted', 'accepted', 'accepted'], 'all three blind writes land');
    assert.equal(await row('one_believer', 'simulated').innerText(), 'broken');
    // client-a's lease ran out while it still worked: client-b's grant made two believers.
    assert.match(await row('one_believer', 'recorded').innerText(),
      /^broken: client-b was granted the lock at \d+ ms while client-a still believed it held it$/);
    assert.equal(await row('one_lease', 'recorded').innerText(), 'holds', 'the DEL removed client-b\'s key');
    assert.deepEqual(app.problems, []);
  });

  it('shows a Redis failover losing the lock: the replica grants it again', async () => {
    await openReal('real=s9-failover-loses-the-lock.redis-failover');
    await run().waitFor();
    assert.match(await page.locator('[data-testid="real-recorded"]').innerText(), /against Redis 7\.\d+\.\d+, primary and replica/);
    const lanes = (name) => page.locator(`[data-testid="timeline-${name}"] [data-testid="lane-label"]`)
      .evaluateAll((all) => all.map((l) => l.getAttribute('data-node')));
    assert.deepEqual(await lanes('recorded'), await lanes('simulated'), 'the same lanes: the primary and the replica');
    // The crash on the primary and the failover on the replica, as the simulation's monitor does it.
    const faults = await marks('recorded').and(page.locator('[data-kind="intervention"]'))
      .evaluateAll((all) => all.map((m) => m.getAttribute('data-lane')));
    assert.deepEqual(faults, ['redis-primary', 'redis-replica']);
    assert.equal(await row('one_believer', 'simulated').innerText(), 'broken');
    assert.match(await row('one_believer', 'recorded').innerText(), /^broken: client-b was granted the lock at \d+ ms while client-a still believed it held it$/);
    assert.equal(await row('one_lease', 'recorded').innerText(), 'holds', 'the crashed primary serves no lease');
    assert.match(await page.locator('[data-testid="real-agree"]').innerText(), /agree on every invariant/);
    await app.screenshot('real-run-s9');
    assert.deepEqual(app.problems, []);
  });

  it('shows a Redis failover handing out the same token twice, and the resource taking both writes', async () => {
    await openReal('real=s9-failover-reissues-a-token.redis-failover');
    await run().waitFor();
    // Both writes carry token 1 and both are accepted: 1 is not lower than the highest seen.
    const writes = await marks('recorded').and(page.locator('[data-testid="event-mark"]:not([data-kind="intervention"])'))
      .evaluateAll((all) => all.map((m) => `${m.getAttribute('data-outcome')} ${m.getAttribute('data-token')}`));
    assert.deepEqual(writes, ['accepted 1', 'accepted 1']);
    for (const invariant of ['one_believer', 'tokens_increase', 'one_writer_per_token']) {
      assert.equal(await row(invariant, 'simulated').innerText(), 'broken', invariant);
      assert.match(await row(invariant, 'recorded').innerText(), /^broken: /, invariant);
    }
    assert.match(await row('tokens_increase', 'recorded').innerText(),
      /^broken: client-b was told a token at \d+ ms no higher than one client-a had been told$/);
    assert.equal(await row('no_stale_write', 'recorded').innerText(), 'holds', 'an equal token is not stale');
    assert.match(await page.locator('[data-testid="real-agree"]').innerText(), /agree on every invariant/);
    await app.screenshot('real-run-s9-token');
    assert.deepEqual(app.problems, []);
  });

  it('shows Redlock on five Redis nodes: a clock jump on one lets two clients hold overlapping majorities', async () => {
    await openReal('real=s10-redlock-clock-jump.redlock');
    await run().waitFor();
    assert.match(await page.locator('[data-testid="real-recorded"]').innerText(), /against Redis 7\.\d+\.\d+, 5 independent nodes/);
    const lanes = (name) => page.locator(`[data-testid="timeline-${name}"] [data-testid="lane-label"]`)
      .evaluateAll((all) => all.map((l) => l.getAttribute('data-node')));
    assert.deepEqual(await lanes('recorded'), await lanes('simulated'), 'the same lanes: both clients, five nodes, the resource');
    // The four cut links, and the clock jump on redis-c, drawn as the simulation draws them.
    const cuts = (name) => page.locator(`[data-testid="timeline-${name}"] [data-testid="cut-link"]`)
      .evaluateAll((all) => all.map((c) => `${c.getAttribute('data-from')}-${c.getAttribute('data-to')}`).sort());
    assert.deepEqual(await cuts('recorded'), ['client-1-redis-d', 'client-1-redis-e', 'client-2-redis-a', 'client-2-redis-b']);
    assert.deepEqual(await cuts('recorded'), await cuts('simulated'));
    const jump = marks('recorded').and(page.locator('[data-kind="clock_jumped"]'));
    assert.equal(await jump.getAttribute('data-lane'), 'redis-c');
    // client-1's lease on redis-c ends at the jump; client-2's lease there begins after it.
    const leasesOnC = await page.locator('[data-testid="timeline-recorded"] [data-testid="lease-bar"][data-lane="redis-c"]').count();
    assert.equal(leasesOnC, 2, 'client-1\'s lease, cut short, then client-2\'s');
    const writes = await marks('recorded').and(page.locator('[data-kind="write_accepted"]')).count();
    assert.equal(writes, 2, 'both blind writes land');
    assert.equal(await row('one_believer', 'simulated').innerText(), 'broken');
    assert.match(await row('one_believer', 'recorded').innerText(),
      /^broken: client-2 was granted the lock at \d+ ms while client-1 still believed it held it$/);
    assert.equal(await row('one_lease', 'simulated').innerText(), 'holds');
    assert.equal(await row('one_lease', 'recorded').innerText(), 'holds', 'never two majorities at once');
    assert.match(await page.locator('[data-testid="real-agree"]').innerText(), /agree on every invariant/);
    await app.screenshot('real-run-s10');
    assert.deepEqual(app.problems, []);
  });

  const lanesOf = (name) => page.locator(`[data-testid="timeline-${name}"] [data-testid="lane-label"]`)
    .evaluateAll((all) => all.map((l) => l.getAttribute('data-node')));
  const cutsOf = (name) => page.locator(`[data-testid="timeline-${name}"] [data-testid="cut-link"]`)
    .evaluateAll((all) => all.map((c) => `${c.getAttribute('data-from')}-${c.getAttribute('data-to')} ${c.getAttribute('data-both-ways')}`).sort());
  const outcomes = (name) => marks(name).evaluateAll((all) =>
    all.map((m) => m.getAttribute('data-outcome')).filter((o) => o && o !== 'none'));
  const crashes = (name) => page.locator(`[data-testid="timeline-${name}"] [data-testid="crash-band"]`)
    .evaluateAll((all) => all.map((b) => b.getAttribute('data-lane')));
  const lost = (name) => page.locator(`[data-testid="timeline-${name}"] [data-testid="message"][data-state="lost"]`).count();

  it('shows a Redlock node killed and restarted empty letting a second client lock it (S11)', async () => {
    await openReal('real=s11-redlock-crash-restart.redlock');
    await run().waitFor();
    assert.match(await page.locator('[data-testid="real-recorded"]').innerText(), /against Redis 7\.\d+\.\d+, 5 independent nodes/);
    assert.deepEqual(await lanesOf('recorded'), await lanesOf('simulated'));
    // redis-c is killed 300 ms in and comes back at once, in both runs.
    assert.deepEqual(await crashes('recorded'), ['redis-c']);
    assert.deepEqual(await crashes('recorded'), await crashes('simulated'));
    // client-2 locks C, D and E while client-1 still believes: both write.
    assert.deepEqual(await outcomes('recorded'), ['accepted', 'accepted']);
    assert.deepEqual(await outcomes('recorded'), await outcomes('simulated'));
    assert.equal(await row('one_believer', 'simulated').innerText(), 'broken');
    assert.match(await row('one_believer', 'recorded').innerText(),
      /^broken: client-2 was granted the lock at \d+ ms while client-1 still believed it held it$/);
    assert.match(await page.locator('[data-testid="real-agree"]').innerText(), /agree on every invariant/);
    await app.screenshot('real-run-s11-redlock');
    assert.deepEqual(app.problems, []);
  });

  it('shows etcd expiring the session of a client cut off from it: the next holder and the old one both write', async () => {
    await openReal('real=s14-consensus-client-partitioned.etcd');
    await run().waitFor();
    assert.match(await page.locator('[data-testid="real-recorded"]').innerText(),
      /against etcd 3\.5\.\d+, a cluster of 3 members and PostgreSQL/);
    assert.deepEqual(await lanesOf('recorded'), await lanesOf('simulated'), 'both clients, the three members, the resource');
    // client-a is cut off from every member, both ways, 200 ms in, as the simulation cuts it.
    const cuts = await cutsOf('recorded');
    assert.deepEqual(cuts, ['client-a-etcd-1 true', 'client-a-etcd-2 true', 'client-a-etcd-3 true']);
    assert.deepEqual(cuts, await cutsOf('simulated'));
    // Its keepalives go out every TTL/3 and are lost on the cut link, in both runs (nothing
    // else is lost in either).
    assert.ok(await lost('recorded') >= 5, 'client-a\'s keepalives are drawn lost');
    assert.ok(await lost('simulated') >= 5);
    // client-b's write, then client-a's stale one over it: drawn alike in both runs.
    assert.deepEqual(await outcomes('recorded'), ['accepted', 'stale']);
    assert.deepEqual(await outcomes('recorded'), await outcomes('simulated'));
    for (const invariant of ['one_believer', 'no_stale_write', 'no_lost_update']) {
      assert.equal(await row(invariant, 'simulated').innerText(), 'broken', invariant);
      assert.match(await row(invariant, 'recorded').innerText(), /^broken: /, invariant);
    }
    assert.match(await page.locator('[data-testid="real-agree"]').innerText(), /agree on every invariant/);
    // Stepped by one clock: nobody has two believers until etcd revokes client-a's lease and
    // grants client-b the lock, after client-b starts at 1,500 ms.
    await page.locator('[data-testid="real-start"]').click();
    let steps = 0;
    while ((await row('one_believer', 'recorded').innerText()) === 'holds' && steps < 300) {
      await page.locator('[data-testid="real-step"]').click();
      steps += 1;
    }
    const at = Number(/t = ([\d,]+) ms/.exec(await position())[1].replace(',', ''));
    assert.ok(at >= 1_500 && at < 2_200, `client-b is granted the lock after 1,500 ms, not at ${at} ms`);
    assert.equal(await row('one_believer', 'simulated').innerText(), 'broken', 'the simulation has broken it by then too');
    await page.locator('[data-testid="real-end"]').click();
    await app.screenshot('real-run-s14-etcd');
    assert.deepEqual(app.problems, []);
  });

  it('shows etcd 3.4 telling a waiter whose lease ran out that it holds the lock', async () => {
    await openReal('real=s18-etcd-3-4-3-lock-bug.etcd');
    await run().waitFor();
    assert.deepEqual(await lanesOf('recorded'), await lanesOf('simulated'));
    // client-1's messages to the members are lost from 300 ms; their answers still arrive.
    const cuts = await cutsOf('recorded');
    assert.deepEqual(cuts, ['client-1-etcd-1 false', 'client-1-etcd-2 false', 'client-1-etcd-3 false']);
    assert.deepEqual(cuts, await cutsOf('simulated'));
    // All three writes land, client-1's after client-3 was told a higher token, as Jepsen saw.
    assert.equal((await outcomes('recorded')).length, 3);
    assert.deepEqual(await outcomes('recorded'), await outcomes('simulated'));
    for (const invariant of ['one_believer', 'no_stale_write']) {
      assert.equal(await row(invariant, 'simulated').innerText(), 'broken', invariant);
      assert.match(await row(invariant, 'recorded').innerText(), /^broken: /, invariant);
    }
    assert.match(await row('one_believer', 'recorded').innerText(),
      /^broken: client-3 was granted the lock at \d+ ms while client-1 still believed it held it$/);
    assert.equal(await row('no_lost_update', 'recorded').innerText(), 'holds', 'blind writes lose nothing');
    assert.match(await page.locator('[data-testid="real-agree"]').innerText(), /agree on every invariant/);
    await app.screenshot('real-run-s18-etcd');
    assert.deepEqual(app.problems, []);
  });

  it('shows etcd 3.5 telling the same waiter its session expired: one holder, nothing broken', async () => {
    await openReal('real=s18-etcd-lock-rechecks-the-lease.etcd');
    await run().waitFor();
    assert.match(await page.locator('[data-testid="real-recorded"]').innerText(), /against etcd 3\.5\.\d+, a cluster of 3 members/);
    assert.deepEqual(await lanesOf('recorded'), await lanesOf('simulated'));
    const cuts = await cutsOf('recorded');
    assert.deepEqual(cuts, ['client-1-etcd-1 false', 'client-1-etcd-2 false', 'client-1-etcd-3 false']);
    assert.deepEqual(cuts, await cutsOf('simulated'));
    // client-1 is refused, so only client-2 and client-3 write, in both runs.
    assert.deepEqual(await outcomes('recorded'), ['accepted', 'accepted']);
    assert.deepEqual(await outcomes('recorded'), await outcomes('simulated'));
    for (const invariant of ['one_believer', 'one_lease', 'tokens_increase', 'no_stale_write', 'one_writer_per_token', 'no_lost_update']) {
      assert.equal(await row(invariant, 'simulated').innerText(), 'holds', invariant);
      assert.equal(await row(invariant, 'recorded').innerText(), 'holds', invariant);
    }
    assert.match(await page.locator('[data-testid="real-agree"]').innerText(), /agree on every invariant/);
    await app.screenshot('real-run-s18-fixed-etcd');
    assert.deepEqual(app.problems, []);
  });

  it('shows PostgreSQL applying a crashed client\'s delayed write after the next holder\'s (S4)', async () => {
    await openReal('real=s4-delayed-packet.postgres');
    await run().waitFor();
    assert.match(await page.locator('[data-testid="real-recorded"]').innerText(), /against PostgreSQL 1\d\.\d+\./);
    assert.deepEqual(await lanesOf('recorded'), await lanesOf('simulated'));
    // client-a crashes, drawn on its lane in both runs.
    assert.equal((await crashes('recorded')).length, 1, 'one crash, client-a\'s');
    assert.deepEqual(await crashes('recorded'), await crashes('simulated'));
    // client-b's write, then client-a's over it, stale: the order the register applied them.
    assert.deepEqual(await outcomes('recorded'), ['accepted', 'stale']);
    assert.deepEqual(await outcomes('recorded'), await outcomes('simulated'));
    assert.equal(await row('no_stale_write', 'simulated').innerText(), 'broken');
    assert.match(await row('no_stale_write', 'recorded').innerText(),
      /^broken: client-a's write was accepted at 1[56]\d\d ms after client-b had been told a higher token$/);
    assert.equal(await row('one_believer', 'recorded').innerText(), 'holds', 'client-a crashed before client-b was granted the lock');
    assert.match(await page.locator('[data-testid="real-agree"]').innerText(), /agree on every invariant/);
    // Stepped by one clock: the stale write breaks the invariant only when it lands, about
    // 1.5 s after it was sent, not when it was sent.
    await page.locator('[data-testid="real-start"]').click();
    let steps = 0;
    while ((await row('no_stale_write', 'recorded').innerText()) === 'holds' && steps < 300) {
      await page.locator('[data-testid="real-step"]').click();
      steps += 1;
    }
    const at = Number(/t = ([\d,]+) ms/.exec(await position())[1].replace(',', ''));
    assert.ok(at >= 1_500 && at < 1_700, `client-a's write lands about 1,600 ms in, not at ${at} ms`);
    assert.match(await page.locator('[data-testid="real-now-recorded"]').innerText(), /by its own log; no answer reaches client-a/);
    // The real write landed a few milliseconds before the model's: a difference of time, said
    // as one, not as a disagreement.
    const agree = await page.locator('[data-testid="real-agree"]').innerText();
    if ((await row('no_stale_write', 'simulated').innerText()) === 'holds') {
      assert.match(agree, /^They differ here only in time/);
    } else {
      assert.match(agree, /agree on every invariant so far/);
    }
    await app.screenshot('real-run-s4-postgres');
    assert.deepEqual(app.problems, []);
  });

  it('embeds a recorded run beside its simulation, and names a recording that does not exist', async () => {
    // The page gives the code; the iframe's address is the embed.
    await openReal('real=s2-gc-pause-fenced.postgres');
    await run().waitFor();
    await page.locator('[data-testid="real-embed"] summary').click();
    assert.match(await page.locator('[data-testid="real-embed-host-script"]').inputValue(),
      /<script src="[^"]+\/embed\.js" defer><\/script>\n<div data-lockstep="" data-real="s2-gc-pause-fenced\.postgres" data-title="Lockstep: S2 · [^"]+"><\/div>$/);
    const iframe = await page.locator('[data-testid="real-embed-iframe"]').inputValue();
    const source = /src="([^"]+)"/.exec(iframe)[1].replaceAll('&amp;', '&');
    assert.ok(source.endsWith('#embed&real=s2-gc-pause-fenced.postgres'), source);
    await app.leave();
    await page.goto(source);
    await page.locator('[data-testid="embed"] [data-testid="real-run"]').waitFor({ timeout: 30_000 });
    assert.equal(await page.locator('[data-testid="embed-caption"]').innerText(), 'A run recorded against real servers, beside Lockstep\'s simulation');
    assert.match(await page.locator('[data-testid="real-title"]').innerText(), /^S2 · .*recorded against PostgreSQL/);
    assert.match(await page.locator('[data-testid="embed-open"]').getAttribute('href'), /#real=s2-gc-pause-fenced\.postgres$/);
    await page.locator('[data-testid="timeline-simulated"] svg').waitFor();
    await page.locator('[data-testid="timeline-recorded"] svg').waitFor();
    assert.equal(await marks('recorded').and(page.locator('[data-outcome="rejected"]')).getAttribute('data-token'), '33');
    assert.equal(await row('one_believer', 'recorded').innerText().then((t) => t.split(':')[0]), 'broken');
    assert.equal(await page.locator('nav').count(), 0, 'no site around it');
    await page.locator('[data-testid="real-start"]').click();
    assert.match(await position(), /^t = 0 ms · step 0 of \d+$/);
    await app.screenshot('real-run-embed');
    assert.deepEqual(app.problems, []);
    await app.leave();
    await page.goto(`${app.site.url}#embed&real=s2-gc-pause-fenced.redis`);
    const problem = page.locator('[data-testid="embed-problem"]');
    await problem.waitFor({ timeout: 30_000 });
    assert.match(await problem.innerText(), /`real=`: there is no recorded run `s2-gc-pause-fenced\.redis`; the recordings: s1-gc-pause-unfenced\.postgres, s2-gc-pause-fenced\.postgres/);
  });

  it('judges a history of one\'s own, and names what is wrong in a bad one while keeping the shown one', async () => {
    await openReal('real');
    await page.locator('[data-testid="load-history"]').setInputFiles(EXAMPLE);
    await run().waitFor();
    assert.equal(await page.locator('[data-testid="real-title"]').innerText(),
      'A GC pause outlives the lease: the write with 33 comes after 34\'s');
    assert.equal(await page.locator('[data-testid="timeline-simulated"]').count(), 0, 'it names no scenario: shown alone');
    assert.match(await row('one_believer', 'recorded').innerText(), /^broken: client-2 was granted the lock at 1202 ms/);
    assert.equal(await row('no_stale_write', 'recorded').innerText(), 'holds');
    const bad = join(tmpdir(), 'lockstep-bad-history.json');
    const text = await readFile(EXAMPLE, 'utf8');
    await writeFile(bad, text.replace('"answered_ms": 4, "value": 0', '"answered_ms": 4'));
    await page.locator('[data-testid="load-history"]').setInputFiles(bad);
    const problem = page.locator('[data-testid="history-problem"]');
    await problem.waitFor();
    assert.match(await problem.innerText(), /operations\[1\]\.value: a read answered at 4 ms needs "value"/);
    assert.match(await page.locator('[data-testid="real-title"]').innerText(), /^A GC pause outlives/, 'still shown');
    await page.setViewportSize({ width: 375, height: 700 });
    await app.screenshot('real-run-own-375');
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - innerWidth);
    assert.ok(overflow <= 0, `the page is ${overflow} px wider than a 375-px screen`);
    await page.setViewportSize({ width: 1280, height: 800 });
    assert.deepEqual(app.problems, []);
  });

  it('judges a write its crashed client never heard of by the resource\'s own log (S4\'s delayed packet)', async () => {
    await openReal('real');
    await page.locator('[data-testid="load-history"]').setInputFiles(DELAYED);
    await run().waitFor();
    assert.match(await page.locator('[data-testid="real-title"]').innerText(), /^A delayed packet/);
    // client-a's write reaches the resource at 1,606 ms, by the log, and is drawn stale there.
    assert.deepEqual(await outcomes('recorded'), ['accepted', 'stale']);
    assert.equal(await lost('recorded'), 0, 'the write is drawn arriving, not lost');
    assert.match(await row('no_stale_write', 'recorded').innerText(),
      /^broken: client-a's write was accepted at 1606 ms after client-b had been told a higher token$/);
    assert.equal(await row('one_believer', 'recorded').innerText(), 'holds', 'client-a crashed before client-b was granted the lock');
    // It opens at the end, whose last moment is the write landing.
    assert.match(await page.locator('[data-testid="real-now-recorded"]').innerText(),
      /register applies client-a's write of 33 with token 33, sent at 104 ms, by its own log; no answer reaches client-a/);
    await app.screenshot('real-run-own-delayed');
    assert.deepEqual(app.problems, []);
  });

  it('links the fencing lesson\'s refused write to PostgreSQL refusing it for real', async () => {
    await app.leave();
    await page.goto(`${app.site.url}#learn=fencing-tokens&step=6`);
    await page.locator('[data-testid="predict-skip"]').click({ timeout: 30_000 });
    const link = page.locator('[data-testid="lesson-real-run"] a');
    assert.match(await link.innerText(), /^This is PostgreSQL itself refusing token 33/);
    await link.click();
    await run().waitFor();
    assert.match(await page.locator('[data-testid="real-title"]').innerText(), /^S2 · .*recorded against PostgreSQL/);
    assert.equal(await marks('recorded').and(page.locator('[data-outcome="rejected"]')).getAttribute('data-token'), '33');
  });

  it('links the no-exclusion lesson\'s delayed packet to PostgreSQL applying it for real', async () => {
    await app.leave();
    await page.goto(`${app.site.url}#learn=no-exclusion&step=8`);
    await page.locator('[data-testid="predict-skip"]').click({ timeout: 30_000 });
    const link = page.locator('[data-testid="lesson-real-run"] a');
    assert.match(await link.innerText(), /^This is a real PostgreSQL applying it/);
    await link.click();
    await run().waitFor();
    assert.match(await page.locator('[data-testid="real-title"]').innerText(), /^S4 · .*recorded against PostgreSQL/);
    assert.match(await row('no_stale_write', 'recorded').innerText(), /^broken: client-a's write was accepted/);
  });

  it('links the failure-modes lesson\'s etcd bug to etcd 3.4.23 doing it for real', async () => {
    await app.leave();
    await page.goto(`${app.site.url}#learn=failure-modes&step=11`);
    const link = page.locator('[data-testid="lesson-real-run"] a');
    await link.waitFor({ timeout: 30_000 });
    assert.match(await link.innerText(), /^Every 3\.4\.x release has the bug: .*Debian's etcd 3\.4\.23/);
    await link.click();
    await run().waitFor();
    assert.match(await page.locator('[data-testid="real-title"]').innerText(), /^S18 · .*recorded against etcd 3\.4\.23/);
    assert.match(await row('one_believer', 'recorded').innerText(), /^broken: client-3 was granted the lock/);
  });

  it('links the failure-modes lesson\'s fixed etcd to etcd 3.5.16 refusing the waiter for real', async () => {
    await app.leave();
    await page.goto(`${app.site.url}#learn=failure-modes&step=13`);
    const link = page.locator('[data-testid="lesson-real-run"] a');
    await link.waitFor({ timeout: 30_000 });
    assert.match(await link.innerText(), /^And fixed for real: .*etcd 3\.5\.16/);
    await link.click();
    await run().waitFor();
    assert.match(await page.locator('[data-testid="real-title"]').innerText(), /^S18 · The fix.*recorded against etcd 3\.5\.16/);
    assert.equal(await row('one_believer', 'recorded').innerText(), 'holds');
  });

  it('links the Redlock lesson\'s restarted node to five real Redis nodes doing it', async () => {
    await app.leave();
    await page.goto(`${app.site.url}#learn=redlock-debate&step=13`);
    const link = page.locator('[data-testid="lesson-real-run"] a');
    await link.waitFor({ timeout: 30_000 });
    assert.match(await link.innerText(), /^This is five real Redis nodes doing it/);
    await link.click();
    await run().waitFor();
    assert.match(await page.locator('[data-testid="real-title"]').innerText(), /^S11 · .*recorded against Redis/);
    assert.match(await row('one_believer', 'recorded').innerText(), /^broken: client-2 was granted the lock/);
  });

  it('points a history imported in the playground to the real-runs page, keeping the scenario', async () => {
    await app.open('s=s2-gc-pause-fenced');
    await page.locator('[data-testid="import"]').setInputFiles(EXAMPLE);
    const notice = page.locator('[data-testid="notice"]');
    await notice.waitFor();
    assert.match(await notice.innerText(), /recorded history of a real system.*Real runs page/s);
    assert.match(await page.locator('[data-testid="scenario-name"]').innerText(), /GC pause/, 'S2 stays open');
  });
  // Issue 42, point 12: the list says which scenario each recording plays, by its title, in the
  // catalogue's order (S1 first), and in one line what the real servers did. At a laptop's
  // width and a phone's.
  for (const [width, height] of [[1280, 800], [375, 700]]) {
    it(`lists the recordings by title in catalogue order, each saying what it shows, at ${width}×${height}`, async () => {
      await page.setViewportSize({ width, height });
      await openReal('real');
      const items = await page.locator('[data-testid="recording"]').evaluateAll((all) =>
        all.map((li) => ({
          id: li.dataset.recording,
          link: li.querySelector('a').textContent,
          service: li.querySelector('.recording-service').textContent,
          shows: li.querySelector('[data-testid="recording-shows"]').textContent,
          box: (({ left, right }) => ({ left, right }))(li.getBoundingClientRect()),
        })),
      );
      assert.equal(items.length, 16);
      // The catalogue's order: a letter, then the number in the id compared as a number.
      const place = (id) => {
        const [, letter, number] = /^([a-z])(\d+)/.exec(id);
        return [letter, Number(number), id];
      };
      const scenarios = (await readdir(join(REPO, 'scenarios'))).filter((f) => f.endsWith('.json')).map((f) => f.slice(0, -5))
        .sort((a, b) => {
          const [pa, pb] = [place(a), place(b)];
          return pa[0].localeCompare(pb[0]) || pa[1] - pb[1] || (pa[2] < pb[2] ? -1 : 1);
        });
      const order = items.map((i) => scenarios.indexOf(i.id.split('.')[0]));
      assert.ok(order.every((n, i) => n >= 0 && (i === 0 || order[i - 1] <= n)), `catalogue order: ${items.map((i) => i.id).join(', ')}`);
      assert.equal(items[0].id, 's1-gc-pause-unfenced.postgres');
      for (const item of items) {
        const scenario = JSON.parse(await readFile(join(REPO, 'scenarios', `${item.id.split('.')[0]}.json`), 'utf8'));
        assert.equal(item.link, scenario.title, `${item.id} is named by its scenario's title`);
        assert.match(item.service, /^ · on (PostgreSQL|one Redis|a Redis primary and its replica|five Redis nodes|three etcd 3\.[45] members)$/);
        assert.ok(item.shows.length > 40 && /\.$/.test(item.shows), `${item.id} says what it shows: ${item.shows}`);
        assert.ok(item.box.left >= 0 && item.box.right <= width, `${item.id} stays inside the window`);
      }
      // What each shows is its own line, and says what the real servers did.
      assert.equal(new Set(items.map((i) => i.shows)).size, items.length);
      assert.match(items.find((i) => i.id === 's2-gc-pause-fenced.postgres').shows, /PostgreSQL refuses client-a's write with token 33/);
      assert.match(items.find((i) => i.id === 's18-etcd-3-4-3-lock-bug.etcd').shows, /^etcd 3\.4\.23 tells client-1/);
      // A title opens its recording, which comes into the window: the list above it is long.
      await page.locator('[data-testid="recording-s1-gc-pause-unfenced.postgres"]').click();
      await run().waitFor({ timeout: 30_000 });
      assert.match(await page.locator('[data-testid="real-title"]').innerText(), /^S1 · /);
      const inView = () =>
        page.waitForFunction(() => {
          const title = document.querySelector('[data-testid="real-title"]').getBoundingClientRect();
          return title.top >= 0 && title.bottom <= window.innerHeight;
        }, null, { timeout: 5_000 });
      await inView();
      assert.equal(await page.locator('[data-testid="recording-s1-gc-pause-unfenced.postgres"]').getAttribute('aria-current'), 'page');
      await app.screenshot(`real-runs-list-${width}`);
      assert.deepEqual(await app.axe(), []);
      assert.deepEqual(app.problems, []);
    });
  }
});
