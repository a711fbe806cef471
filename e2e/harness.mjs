// Shared plumbing for the playground's browser tests: serve dist/ (or any directory) with
// `cargo xtask serve-dir` (and reach it at the address the build was told), open the app at a link, fail on any console error, page error or
// failed request, read the transport's position, and keep screenshots as artefacts in
// e2e/artifacts/.

import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

import { launchChromium, watchForProblems } from './browser.mjs';

const HERE = dirname(fileURLToPath(import.meta.url));

/** The built-in scenario a playground link (`s=<id>&…`) names, if it names one that exists. */
function builtInNamed(fragment) {
  const id = /^s=([a-z0-9-]+)(?:&|$)/.exec(fragment)?.[1];
  return id && existsSync(resolve(HERE, '..', 'scenarios', `${id}.json`)) ? id : undefined;
}
export const DIST = process.env.LOCKSTEP_DIST ?? resolve(HERE, '..', 'dist');
export const ARTIFACTS = join(HERE, 'artifacts');
const BASE_PATH = '/play/ground/';
const REPO = resolve(HERE, '..');

/**
 * Serves `root` at `http://127.0.0.1:<port><basePath>` with xtask's static file server
 * (`cargo xtask serve-dir`, xtask/src/static_files.rs), the one `cargo xtask serve` serves the
 * book with: anything outside `basePath`, or missing, is a 404 that it reports. With
 * `{ precompressed: true }` it sends the copies that `cargo xtask dist` wrote beside a file
 * (`FILE.br`, `FILE.gz`: brotli 11, gzip 9) to a client that accepts their encoding, as a real host
 * would (the load benchmark counts the bytes a visitor transfers); it compresses nothing itself, so
 * a file without copies goes as it is. It runs the xtask binary
 * that `cargo xtask test`, `bench` and `shots` name in LOCKSTEP_XTASK, else `cargo run` (which
 * checks the build first, so is slower to start). The server stops when its stdin ends, so it
 * cannot outlive this process.
 * @param {string} root directory to serve
 * @param {string} basePath URL path prefix, starting and ending with `/`
 * @param {{precompressed?: boolean}} options
 * @returns {Promise<{url: string, notFound: () => Promise<string[]>, close: () => Promise<void>}>}
 *   `url` is the site's address (with `basePath`); `notFound()` lists the path of every 404
 *   answered so far.
 */
export async function serveDirectory(root, basePath, { precompressed = false } = {}) {
  const xtask = process.env.LOCKSTEP_XTASK;
  const [program, prefix] = xtask ? [xtask, []] : ['cargo', ['run', '--quiet', '--package', 'xtask', '--']];
  const args = [...prefix, 'serve-dir', resolve(root), '--base', basePath, '--piped', ...(precompressed ? ['--precompressed'] : [])];
  const server = spawn(program, args, { cwd: REPO, stdio: ['pipe', 'pipe', 'inherit'] });
  const notFound = [];
  // Callers of `notFound()` waiting for their `synced`, oldest first.
  const syncs = [];
  const exited = new Promise((done) => server.once('exit', done));
  exited.then(() => syncs.splice(0).forEach(({ fail }) => fail(new Error('serve-dir has stopped'))));
  server.stdin.on('error', () => {}); // a stopped server's closed pipe: `exited` says so
  const url = await new Promise((done, fail) => {
    server.once('error', fail);
    exited.then((code) => fail(new Error(`serve-dir stopped (${code}) before serving ${root}`)));
    createInterface({ input: server.stdout }).on('line', (line) => {
      if (line.startsWith('http://')) done(line);
      else if (line.startsWith('404 ')) notFound.push(line.slice('404 '.length));
      else if (line === 'synced') syncs.shift()?.done();
    });
  });
  return {
    url,
    /** Every 404 so far: the server reports each before answering it, and `sync` after them. */
    async notFound() {
      await new Promise((done, fail) => {
        syncs.push({ done, fail });
        server.stdin.write('sync\n');
      });
      return [...notFound];
    },
    async close() {
      server.stdin.end();
      await exited;
    },
  };
}

/**
 * The address `cargo xtask dist` was told the site is published at (`LOCKSTEP_SITE_URL`, else
 * http://127.0.0.1:8080/), as the build wrote it: the root page's canonical link. The book's
 * snippets for other sites name it.
 */
export async function builtSiteAddress(dist = DIST) {
  const html = await readFile(join(dist, 'index.html'), 'utf8');
  const href = /<link rel="canonical" href="([^"]+)"/.exec(html)?.[1];
  assert.ok(href, `${dist}/index.html has no canonical link`);
  return href;
}

/**
 * Makes the browser of `context` reach `served` (where a test serves dist/) whenever a page asks
 * for the address the build was told the site is at (`builtSiteAddress`), as a host's name
 * and proxy would: a snippet copied from the book can then be pasted as it is, with its address
 * unchanged, although the test server listens on a port of its own. Only requests under that
 * address are answered this way; any other address goes to the network as it would. Returns
 * the built address.
 */
export async function reachBuiltSite(context, served) {
  const built = await builtSiteAddress();
  assert.notEqual(new URL(built).origin, new URL(served).origin, 'the test server listens where the build was told');
  await context.route(
    (url) => url.href.startsWith(built),
    async (route) => {
      const request = route.request();
      const headers = Object.fromEntries(Object.entries(request.headers()).filter(([name]) => name !== 'host'));
      const response = await context.request.fetch(served + request.url().slice(built.length), {
        method: request.method(),
        headers,
        data: request.postDataBuffer() ?? undefined,
      });
      await route.fulfill({ response });
    },
  );
  return built;
}

/**
 * Serves the site and starts Chromium. Returns helpers bound to one page; every wait gives up
 * at once if the page reports a problem, and says what the page reported. `options` go to
 * `launchChromium`: a returning visitor unless `{ firstVisit: true }`.
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
    /**
     * Opens the app afresh (a real page load) at `fragment` and waits for it to render. A
     * playground link naming a built-in scenario (`s=<id>`) waits for that scenario too: the
     * default one is drawn while its file is fetched, and a test that read the page then would
     * read the wrong scenario.
     */
    async open(fragment = '') {
      await app.leave();
      await page.goto(site.url + (fragment ? `#${fragment}` : ''));
      await page.locator('[data-testid="app"]').waitFor({ state: 'visible', timeout: 30_000 });
      // A page the build rendered shows the app's markup before the app runs (decision 43).
      await page.locator('html[data-app="running"]').waitFor({ state: 'attached', timeout: 30_000 });
      await page.locator('[data-testid="timeline-main"] svg').waitFor();
      const named = builtInNamed(fragment);
      if (named) {
        await page.waitForFunction(
          (id) => document.querySelector('select[data-testid="scenario-picker"]')?.value === id,
          named,
        );
      }
      assert.deepEqual(problems, [], 'the page reported problems');
    },
    /**
     * Opens the folded panel `name` (`<name>-fold`, e.g. the inspector) as a user does, unless it
     * is open, and waits until it is open and the page has kept that choice for the visit. A test
     * that reads a folded panel calls this after each `open`, rather than trusting an earlier
     * test's click to have been kept. The summary is clicked where it is, without scrolling to
     * it: a test of what is out of sight keeps its window.
     */
    async unfold(name) {
      const fold = page.locator(`[data-testid="${name}-fold"]`);
      if (!(await fold.evaluate((details) => details.open))) await fold.locator(':scope > summary').evaluate((summary) => summary.click());
      await page.waitForFunction(
        (panel) =>
          document.querySelector(`[data-testid="${panel}-fold"]`)?.open === true &&
          (sessionStorage.getItem('lockstep-open-panels') ?? '').split(' ').includes(panel),
        name,
      );
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
