// The story above the transport bar (issue 42, point 1): on a phone, stepping a catalogue
// scenario from its first event to its last, Step by Step as a reader presses it, never leaves
// the "now" line (however many lines it has grown to) or the timeline's last lane under the bar
// held at the window's bottom, nor the line above the window's top. Every catalogue scenario, at
// 375×700 and at 320×640.

import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

import { startApp } from './harness.mjs';

const HERE = dirname(fileURLToPath(import.meta.url));
const CATALOGUE = readdirSync(resolve(HERE, '..', 'scenarios'))
  .filter((name) => name.endsWith('.json'))
  .map((name) => name.slice(0, -'.json'.length))
  .sort();

/** What of the story is out of the room between the window's top and the bar's top, if anything. */
function hidden(page) {
  return page.evaluate(() => {
    const box = (element) => element?.getBoundingClientRect();
    const bar = box(document.querySelector('.transport-bar'));
    const line = box(document.querySelector('[data-testid="narration"]'));
    const lanes = document.querySelectorAll('[data-testid="timeline-main"] [data-testid="lane"]');
    const last = lanes[lanes.length - 1];
    const lane = box(last);
    const out = [];
    if (!bar || !line || !lane) return [`missing: bar ${!!bar}, now line ${!!line}, lane ${!!lane}`];
    if (line.bottom > bar.top + 0.5) out.push(`the now line ends at ${line.bottom.toFixed(0)}, under the bar at ${bar.top.toFixed(0)}`);
    if (line.top < -0.5) out.push(`the now line starts at ${line.top.toFixed(0)}, above the window`);
    if (lane.bottom > bar.top + 0.5) {
      out.push(`the last lane (${last.getAttribute('data-node')}) ends at ${lane.bottom.toFixed(0)}, under the bar at ${bar.top.toFixed(0)}`);
    }
    return out;
  });
}

describe('the story above the transport bar, Step by Step on a phone', () => {
  let app;

  before(async () => {
    app = await startApp();
  });

  after(async () => {
    await app?.close();
  });

  for (const [width, height] of [
    [375, 700],
    [320, 640],
  ]) {
    it(`keeps the now line and the last lane in view through every catalogue scenario, at ${width}×${height}`, async () => {
      const { page } = app;
      await page.setViewportSize({ width, height });
      const found = [];
      for (const id of CATALOGUE) {
        await app.open(`s=${id}`);
        const step = page.locator('[data-testid="step"]');
        let { at, of } = await app.position();
        while (at < of) {
          await step.click();
          at += 1;
          await page.waitForFunction((n) => document.querySelector('[data-testid="position"]')?.textContent?.startsWith(`event ${n} of`), at);
          await app.settle();
          const out = await hidden(page);
          if (out.length > 0) {
            found.push(`${id}, event ${at} of ${of}: ${out.join('; ')}`);
            break;
          }
        }
      }
      assert.deepEqual(found, [], `${found.length} of ${CATALOGUE.length} scenarios hide their story under the bar`);
      assert.deepEqual(app.problems, []);
    });
  }
});
