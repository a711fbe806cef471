// Shared plumbing for the playground's browser tests: serve dist/, open the app at a link, fail
// on any console error, page error or failed request, read the transport's position, and keep
// screenshots as artefacts in e2e/artifacts/.

import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

import { launchChromium, watchForProblems } from './browser.mjs';
import { serveDirectory } from './server.mjs';

const HERE = dirname(fileURLToPath(import.meta.url));
export const DIST = process.env.LOCKSTEP_DIST ?? resolve(HERE, '..', 'dist');
export const ARTIFACTS = join(HERE, 'artifacts');
const BASE_PATH = '/play/ground/';

/**
 * Serves the site and starts Chromium. Returns helpers bound to one page; every wait gives up
 * at once if the page reports a problem, and says what the page reported.
 */
export async function startApp(options = {}) {
  assert.ok(existsSync(join(DIST, 'index.html')), `no site in ${DIST}: build it first (cargo xtask dist)`);
  const site = await serveDirectory(DIST, BASE_PATH);
  const browser = await launchChromium(options);
  const page = browser.context.pages()[0] ?? (await browser.context.newPage());
  page.setDefaultTimeout(15_000);
  const problems = [];
  watchForProblems(page, (problem) => problems.push(problem));

  const app = {
    page,
    site,
    problems,
    /**
     * Leaves the page for about:blank. Leaving aborts what the page still had in flight (its
     * favicon, say): that is the navigation's doing, not a problem of either page, so those
     * aborts alone are forgiven.
     */
    async leave() {
      const before = problems.length;
      await page.goto('about:blank');
      const leaving = problems.splice(before);
      problems.push(...leaving.filter((problem) => !/^request failed: .*\(net::ERR_ABORTED\)$/.test(problem)));
    },
    /** Opens the app afresh (a real page load) at `fragment` and waits for it to render. */
    async open(fragment = '') {
      await app.leave();
      await page.goto(site.url + (fragment ? `#${fragment}` : ''));
      await page.locator('[data-testid="app"]').waitFor({ state: 'visible', timeout: 30_000 });
      await page.locator('[data-testid="timeline-main"] svg').waitFor();
      assert.deepEqual(problems, [], 'the page reported problems');
    },
    /** The transport's "event N of M", as numbers. */
    async position() {
      const text = await page.locator('[data-testid="position"]').innerText();
      const match = /event (\d+) of (\d+)/.exec(text);
      assert.ok(match, `unexpected position text: ${text}`);
      return { at: Number(match[1]), of: Number(match[2]) };
    },
    /**
     * Waits until the position is `at`, and the panels below the story (inspector, monitoring,
     * event log) show it too: out of view they catch up once the story rests.
     */
    async waitForPosition(at) {
      await page.waitForFunction(
        (n) =>
          document.querySelector('[data-testid="position"]')?.textContent?.startsWith(`event ${n} of`) &&
          document.querySelector('[data-testid="below-story"]')?.getAttribute('aria-busy') !== 'true',
        at,
      );
    },
    /** Lets pending renders land: two animation frames. */
    async settle() {
      await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
    },
    /** Saves a full-page screenshot as e2e/artifacts/<name>.png. */
    async screenshot(name) {
      await mkdir(ARTIFACTS, { recursive: true });
      await page.screenshot({ path: join(ARTIFACTS, `${name}.png`), fullPage: true });
    },
    /** Every serious or critical accessibility finding of axe-core on the page as it is. */
    async axe() {
      await page.addScriptTag({ path: join(HERE, 'node_modules', 'axe-core', 'axe.min.js') });
      const result = await page.evaluate(() => window.axe.run(document, { resultTypes: ['violations'] }));
      return result.violations
        .filter((v) => v.impact === 'serious' || v.impact === 'critical')
        .map((v) => `${v.impact} ${v.id}: ${v.help} (${v.nodes.length}×, e.g. ${v.nodes[0]?.target})`);
    },
    async close() {
      await browser.close();
      await site.close();
    },
  };
  return app;
}
