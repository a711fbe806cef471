// A message between the page and a Web Worker that the browser refuses to post, in headless
// Chromium: the chaos lab and the counterexample search say their run failed and why, instead
// of waiting for an answer that cannot come. The worker's postMessage is made to refuse by
// serving its loader with a line in front that replaces it; the page's by replacing
// Worker.prototype.postMessage before the page's scripts run. Both throw the DataCloneError a
// browser throws for a message it cannot post.

import { after, before, beforeEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';

import { startApp } from './harness.mjs';

/** The worker's loader, with its postMessage refusing every reply whose text matches `refused`. */
function refusingLoader(refused) {
  return async (route) => {
    const original = await (await route.fetch()).text();
    const prelude = `{
  const refused = new RegExp(${JSON.stringify(refused.source)});
  const post = self.postMessage.bind(self);
  self.postMessage = (message, ...rest) => {
    if (typeof message === 'string' && refused.test(message)) {
      throw new DOMException('refused by the test', 'DataCloneError');
    }
    return post(message, ...rest);
  };
}
`;
    await route.fulfill({ status: 200, contentType: 'text/javascript', body: prelude + original });
  };
}

describe('a message to or from a worker that cannot be posted', () => {
  let app;
  let page;

  before(async () => {
    app = await startApp();
    page = app.page;
    // The page's posts to its workers refuse while `window.refusePosts` is true.
    await page.addInitScript(() => {
      const post = Worker.prototype.postMessage;
      Worker.prototype.postMessage = function (...args) {
        if (window.refusePosts) throw new DOMException('refused by the test', 'DataCloneError');
        return post.apply(this, args);
      };
    });
  });

  after(async () => {
    await app?.close();
  });

  beforeEach(async () => {
    await page.unrouteAll({ behavior: 'wait' });
  });

  async function openLab(fragment) {
    await app.leave();
    await page.goto(`${app.site.url}#${fragment}`);
    await page.locator('[data-testid="chaos-lab"]').waitFor({ timeout: 30_000 });
  }

  const labProgress = () =>
    page.locator('[data-testid="lab-progress"]').evaluate((p) => ({ status: p.dataset.status, outstanding: p.dataset.outstanding }));

  it('the chaos lab says its run failed when the worker cannot post the runs back', async () => {
    await page.route('**/lockstep-worker_loader.js', refusingLoader(/^\{"chaos_runs"/));
    await openLab('lab&fencing=on&runs=100&seed=1');
    await page.locator('[data-testid="lab-run"]').click();
    await page.waitForFunction(() => document.querySelector('[data-testid="lab-progress"]')?.dataset.status === 'failed', null, { timeout: 30_000 });
    assert.match(
      await page.locator('[data-testid="lab-status"]').innerText(),
      /^The run failed: the worker could not post its reply \(DataCloneError: refused by the test\)\./,
    );
    assert.deepEqual(app.problems, []);
  });

  it('the counterexample search says it failed when the worker cannot post a slice back', async () => {
    await page.route('**/lockstep-worker_loader.js', refusingLoader(/^\{"search"/));
    await openLab('lab&search=s1-gc-pause-unfenced');
    await page.locator('[data-testid="search-run"]').click();
    await page.waitForFunction(() => document.querySelector('[data-testid="search-status"]')?.dataset.status === 'failed', null, { timeout: 30_000 });
    assert.equal(
      await page.locator('[data-testid="search-status"]').innerText(),
      'The search failed: the worker could not post its reply (DataCloneError: refused by the test).',
    );
    assert.deepEqual(app.problems, []);
  });

  it('the chaos lab and the search say they failed when the page cannot post to their worker', async () => {
    await openLab('lab&fencing=on&runs=100&seed=1&search=s1-gc-pause-unfenced');
    await page.evaluate(() => { window.refusePosts = true; });
    await page.locator('[data-testid="lab-run"]').click();
    await page.waitForFunction(() => document.querySelector('[data-testid="lab-progress"]')?.dataset.status === 'failed', null, { timeout: 30_000 });
    assert.match(
      await page.locator('[data-testid="lab-status"]').innerText(),
      /^The run failed: the request could not be posted to the worker \(DataCloneError: refused by the test\)\./,
    );
    assert.deepEqual(await labProgress(), { status: 'failed', outstanding: '0' }, 'no batch is counted as under way');
    await page.locator('[data-testid="search-run"]').click();
    await page.waitForFunction(() => document.querySelector('[data-testid="search-status"]')?.dataset.status === 'failed', null, { timeout: 30_000 });
    assert.equal(
      await page.locator('[data-testid="search-status"]').innerText(),
      'The search failed: the request could not be posted to the worker (DataCloneError: refused by the test).',
    );
    assert.equal(await page.locator('[data-testid="search-status"]').getAttribute('data-outstanding'), '0');
    assert.deepEqual(app.problems, []);
  });
});
