// The stage beside the timeline, in headless Chromium: it shows the timeline's messages in
// flight and the inspector's holders and beliefs at every position tried, stepping as a user
// steps; selecting on it selects on the timeline (and the other way round); its messages glide
// over one autoplay tick, and not at all with reduced motion.
//
// S2 (`s2-gc-pause-fenced`, one SQL row) and S10 (`s10-redlock-clock-jump`, five Redis nodes)
// are the runs compared; S15 (`s15-consensus-leader-crash`, three etcd replicas, the leader
// crashes) adds roles and a crashed node. Their traces are pinned by the golden tests.

import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';

import { startApp } from './harness.mjs';

const S2 = 's=s2-gc-pause-fenced';
const S10 = 's=s10-redlock-clock-jump';
const S15 = 's=s15-consensus-leader-crash';
const S9 = 's=s9-failover-loses-the-lock';
/** How each one's title starts, which the page shows once its file has loaded. */
const TITLES = { [S2]: 'S2 ·', [S10]: 'S10 ·', [S15]: 'S15 ·', [S9]: 'S9 ·' };

const TIMELINE_IN_FLIGHT =
  '[data-testid="timeline-main"] [data-testid="message"][data-state="in_flight"], ' +
  '[data-testid="timeline-main"] [data-testid="message"][data-state="held"]';
const STAGE_MESSAGE = '[data-testid="stage"] [data-testid="stage-message"]';
const stageNode = (name) => `[data-testid="stage"] [data-testid="stage-node"][data-node="${name}"]`;
const laneLabel = (name) => `[data-testid="timeline-main"] [data-testid="lane-label"][data-node="${name}"]`;

/** The messages on their way as [id, state] pairs, sorted, from the timeline and the stage. */
async function inFlight(page) {
  const read = (selector) =>
    page.locator(selector).evaluateAll((nodes) =>
      nodes.map((n) => `${n.dataset.messageId}:${n.dataset.state}`).sort(),
    );
  return { timeline: await read(TIMELINE_IN_FLIGHT), stage: await read(STAGE_MESSAGE) };
}

/** What the inspector says about each node, keyed by node name, as the stage's data says it. */
async function inspectorSays(page) {
  return page.evaluate(() => {
    const cell = (card, column) => card.querySelector(`td[data-column="${column}"]`)?.textContent ?? null;
    const says = {};
    for (const card of document.querySelectorAll('[data-testid="client-row"]')) {
      const token = cell(card, 'token');
      says[card.querySelector('h2').textContent] = {
        believes: cell(card, 'believes it holds'),
        token: token === '—' ? null : token,
      };
    }
    // The lock's storage, as each design names it: the SQL row's holder_id (one card, titled
    // by the table), a cache key's "set by", a Raft replica's holder ("client-a (revision 1)").
    const services = [];
    for (const card of document.querySelectorAll('[data-testid="lock-row"]')) {
      const title = card.querySelector('h2').textContent;
      const raw = cell(card, 'holder_id') ?? cell(card, 'set by') ?? cell(card, 'holder');
      const holder = ['NULL', '—'].includes(raw) ? '' : raw.replace(/ \(revision \d+\)$/, '');
      services.push({ title, holder });
    }
    const resource = document.querySelector('[data-testid="resource-row"] td[data-column="fencing_token"]');
    return { clients: says, services, highest: resource?.textContent ?? null };
  });
}

/** What the stage's boxes say, in the same shape. */
async function stageSays(page) {
  return page.evaluate(() => {
    const nodes = [...document.querySelectorAll('[data-testid="stage"] [data-testid="stage-node"]')];
    const clients = {};
    const services = [];
    let highest = null;
    for (const node of nodes) {
      const d = node.dataset;
      if (d.role === 'client') clients[d.node] = { believes: d.believes, token: d.token ?? null };
      if (d.role === 'service') services.push({ name: d.node, liveness: d.liveness, holder: d.holder ?? null });
      if (d.role === 'resource') highest = d.highestToken ?? null;
    }
    return { clients, services, highest };
  });
}

/** The stage's boxes agree with the inspector: beliefs, tokens, each running node's record. */
async function assertAgreesWithInspector(page, where) {
  const inspector = await inspectorSays(page);
  const stage = await stageSays(page);
  const clients = Object.fromEntries(
    Object.entries(inspector.clients).map(([name, c]) => [name, { believes: c.believes, token: c.token }]),
  );
  assert.deepEqual(stage.clients, clients, `${where}: clients`);
  assert.equal(stage.services.length, inspector.services.length, `${where}: one box per service node`);
  let compared = 0;
  for (const [i, box] of stage.services.entries()) {
    const card = inspector.services[i];
    if (inspector.services.length > 1) assert.ok(card.title.startsWith(box.name), `${where}: ${card.title} is ${box.name}`);
    if (box.liveness === 'crashed') {
      assert.equal(box.holder, null, `${where}: a crashed node shows no record`);
      continue;
    }
    assert.equal(box.holder, card.holder, `${where}: ${box.name}'s record`);
    compared += 1;
  }
  assert.equal(stage.highest ?? '', inspector.highest === 'NULL' ? '' : inspector.highest, `${where}: highest token`);
  return compared;
}

/**
 * Opens `scenario` at `at` events and waits until the page shows it: S10 and S15 are fetched,
 * and until they arrive the page shows the default scenario.
 */
async function openAt(app, scenario, at) {
  await app.open(`${scenario}&at=${at}`);
  await app.page.waitForFunction(
    (title) => document.querySelector('[data-testid="scenario-name"]')?.textContent.startsWith(title),
    TITLES[scenario],
  );
  await app.waitForPosition(at);
  await app.settle();
}

describe('the stage beside the timeline', () => {
  let app;
  let page;

  before(async () => {
    app = await startApp();
    page = app.page;
    // The inspector is folded until asked for (issue 28): the tests that read it open it
    // (`app.unfold`), and it stays open for the visit.
    await app.open('');
    await app.unfold('inspector');
  });

  after(async () => {
    await app?.close();
  });

  it('shows the messages the timeline shows in flight, stepping through S2 and S10', async () => {
    let seen = 0;
    for (const [scenario, starts] of [
      [S2, [1, 8, 13, 19]],
      [S10, [4, 16, 26, 38]],
    ]) {
      for (const start of starts) {
        await openAt(app, scenario, start);
        // Step as a user steps: the stage follows each Step, not only a page load.
        for (let at = start; at < start + 3; at += 1) {
          if (at > start) {
            await page.locator('[data-testid="step"]').click();
            await app.waitForPosition(at);
            await app.settle();
          }
          const { timeline, stage } = await inFlight(page);
          assert.deepEqual(stage, timeline, `${scenario} at ${at}`);
          seen += stage.length;
        }
      }
    }
    assert.ok(seen >= 15, `${seen} messages in flight compared`);
    // The counts that make the comparison bite: the grant in flight in S2 at 2, and client-1's
    // five requests at once in Redlock at 5.
    await openAt(app, S2, 2);
    assert.deepEqual((await inFlight(page)).stage.map((m) => m.split(':')[1]), ['in_flight']);
    await openAt(app, S10, 5);
    assert.equal((await inFlight(page)).stage.length, 5);
    await app.screenshot('stage-s10-five-requests');
  });

  it('places a message along its trip, and moves it as time passes', async () => {
    // S10 at 17: client-2's five requests left at 500 ms; by event 19 (507 ms) they are on their way.
    await openAt(app, S10, 17);
    const first = page.locator(STAGE_MESSAGE).first();
    const id = await first.getAttribute('data-message-id');
    const message = page.locator(`${STAGE_MESSAGE}[data-message-id="${id}"]`);
    assert.equal(await message.getAttribute('data-fraction'), '0.000', 'just sent: at its sender');
    const at17 = await message.evaluate((m) => m.style.transform);
    await page.locator('[data-testid="step"]').click();
    await app.waitForPosition(18);
    await page.locator('[data-testid="step"]').click();
    await app.waitForPosition(19);
    const fraction = Number(await message.getAttribute('data-fraction'));
    assert.ok(fraction > 0 && fraction < 1, `on its way: ${fraction}`);
    assert.notEqual(await message.evaluate((m) => m.style.transform), at17, 'it moved');
  });

  it('says on its boxes what the inspector says: beliefs, tokens, each node’s record', async () => {
    let records = 0;
    for (const [scenario, positions] of [
      [S2, [3, 6, 8, 11, 15, 21, 24]],
      [S10, [5, 14, 26, 30, 45]],
      [S15, [6, 9, 14, 24, 40]],
    ]) {
      for (const at of positions) {
        await openAt(app, scenario, at);
        records += await assertAgreesWithInspector(page, `${scenario} at ${at}`);
      }
    }
    assert.equal(records, 43, "every running node's record compared");
    // S2 at 11: client-a, paused, still believes with token 33 while the row names client-b.
    await openAt(app, S2, 11);
    const a = page.locator(stageNode('client-a'));
    assert.equal(await a.getAttribute('data-liveness'), 'paused');
    assert.equal(await a.getAttribute('data-believes'), 'yes');
    assert.equal(await a.getAttribute('data-token'), '33');
    const boxText = (await a.locator('text').allTextContents()).map((t) => t.trim());
    assert.deepEqual(boxText, ['client-a', 'paused', 'believes it holds', 'token 33'], 'paused in words, belief as belief');
    assert.equal(await a.getAttribute('aria-label'), 'client-a paused believes it holds token 33. Select to act on it.');
    assert.equal(await page.locator(stageNode('lock-service')).getAttribute('data-holder'), 'client-b');
    assert.match(await page.locator('[data-testid="stage-holder"]').innerText(), /lock service says client-b holds the lock/);
    // S15 at 9: the leader is down, and says so.
    await openAt(app, S15, 9);
    await app.unfold('inspector');
    const leader = page.locator(stageNode('etcd-1'));
    assert.equal(await leader.getAttribute('data-liveness'), 'crashed');
    assert.equal((await leader.locator('text').nth(1).textContent()).trim(), 'crashed');
    // The inspector agrees: the crashed replica's card does not call it the leader.
    const card = page.locator('[data-testid="lock-row"]', { has: page.locator('h2', { hasText: /^etcd-1 / }) });
    assert.match(await card.locator('h2').innerText(), /^etcd-1 \(crashed; it was a (leader|follower|candidate) in term \d+\)$/);
    await app.screenshot('stage-s15-leader-down');
    // S9 at 8: the crashed primary's card says it is down, not which role its state last had.
    await openAt(app, S9, 8);
    assert.equal(await page.locator(stageNode('redis-primary')).getAttribute('data-liveness'), 'crashed');
    const primary = page.locator('[data-testid="lock-row"] h2', { hasText: /^redis-primary / });
    assert.equal(await primary.innerText(), 'redis-primary (crashed): key resource-x');
  });

  it('selects a node as its lane’s name does, with the mouse and the keyboard', async () => {
    await openAt(app, S2, 11);
    await page.locator(stageNode('client-a')).click();
    assert.equal(await page.locator(laneLabel('client-a')).getAttribute('aria-pressed'), 'true', 'the lane is selected');
    assert.equal(await page.locator('[data-testid="node-actions"]').getAttribute('data-node'), 'client-a');
    assert.equal(await page.locator(stageNode('client-a')).getAttribute('aria-pressed'), 'true');
    // And the other way: the lane's name selects the box.
    await page.locator(laneLabel('lock-service')).click();
    assert.equal(await page.locator(stageNode('lock-service')).getAttribute('aria-pressed'), 'true');
    assert.equal(await page.locator(stageNode('client-a')).getAttribute('aria-pressed'), 'false');
    // Keyboard: Enter selects, Space deselects; neither steps nor plays.
    await page.locator(stageNode('resource')).focus();
    await page.keyboard.press('Enter');
    assert.equal(await page.locator('[data-testid="node-actions"]').getAttribute('data-node'), 'resource');
    await page.keyboard.press(' ');
    assert.equal(await page.locator('[data-testid="node-actions"]').count(), 0, 'Space pressed it again: deselected');
    assert.equal(await page.locator('[data-testid="play"]').getAttribute('data-playing'), 'false');
    assert.deepEqual(await app.position(), { at: 11, of: 24 });
  });

  it('selects a message as the timeline does', async () => {
    // S2 at 20: client-a's write with token 33 is on its way to the resource.
    await openAt(app, S2, 20);
    const message = page.locator(STAGE_MESSAGE);
    assert.equal(await message.count(), 1);
    const id = await message.getAttribute('data-message-id');
    assert.equal(await message.getAttribute('data-label'), 'write');
    assert.match(await message.getAttribute('aria-label'), /write from client-a to resource, in flight/);
    // Its kind in words on focus (and on hover), not before.
    const label = message.locator('.stage-message-label');
    const shown = () => label.evaluate((l) => getComputedStyle(l).display !== 'none');
    assert.equal(await shown(), false);
    await message.focus();
    assert.equal(await shown(), true);
    assert.equal(await label.textContent(), 'write');
    await message.click();
    const onTimeline = page.locator(`[data-testid="timeline-main"] [data-testid="message"][data-message-id="${id}"]`);
    assert.equal(await onTimeline.getAttribute('aria-pressed'), 'true', 'selected on the timeline');
    assert.equal(await page.locator('[data-testid="message-actions"]').getAttribute('data-message-id'), id);
    assert.equal(await message.getAttribute('aria-pressed'), 'true');
    await app.screenshot('stage-s2-write-selected');
  });

  it('glides messages over one autoplay tick while playing', async () => {
    await openAt(app, S10, 17);
    const glide = () => page.locator(STAGE_MESSAGE).first().evaluate((m) => getComputedStyle(m).transitionDuration);
    assert.equal(await glide(), '0.2s', 'a Step by hand: briefly');
    await page.locator('[data-testid="speed"]').selectOption('2');
    await page.locator('[data-testid="play"]').click();
    await app.waitForPosition(18);
    assert.equal(await glide(), '0.5s', 'two events a second: half a second');
    await page.locator('[data-testid="play"]').click();
  });
});

describe('the stage with reduced motion', () => {
  let app;

  before(async () => {
    app = await startApp({ reducedMotion: 'reduce' });
  });

  after(async () => {
    await app?.close();
  });

  it('moves no message: no transition at all', async () => {
    const page = app.page;
    await openAt(app, S10, 17);
    await page.locator('[data-testid="speed"]').selectOption('2');
    await page.locator('[data-testid="play"]').click();
    await app.waitForPosition(18);
    const messages = page.locator(STAGE_MESSAGE);
    assert.ok((await messages.count()) > 0);
    const durations = await messages.evaluateAll((all) => all.map((m) => getComputedStyle(m).transitionDuration));
    assert.ok(durations.every((d) => d === '0s'), `transition durations ${durations}`);
    await page.locator('[data-testid="play"]').click();
  });
});
