// The book (dist/book/, built by `cargo xtask dist` or the `build` step of `cargo xtask test`)
// as a reader meets it: served from a sub-path with the app beside it, a page's ```lockstep
// block has become a self-sizing iframe (through the host script, found at a relative URL) of
// the embed's document the build rendered (decision 44) or of the app's embed view, and Step
// inside it moves the story on as the native CLI's trace says. The catalogue's pages are the catalogue: one per built-in scenario, in the sidebar.
//
// A catalogue page's "Embed it" HTML is copied with the page's own copy button, read back from
// the clipboard and pasted, unchanged, into a page of another origin, which must show the
// scenario. The build names the site in that snippet by the address it was told the site is
// published at (`LOCKSTEP_SITE_URL`, http://127.0.0.1:8080/ by default), while this test serves
// dist/ on a port of its own: rather than edit the copied text (which would hide a snippet that
// works nowhere), the browser is made to reach the test server whenever a page asks for the
// built address (harness.mjs `reachBuiltSite`), as a published site's name and proxy would.
// Any other address in the snippet, a placeholder or a stand-in, still goes to the network and
// shows nothing.
//
// `cargo xtask test` builds everything and sets LOCKSTEP_DIST, LOCKSTEP_CLI and
// LOCKSTEP_CHROMIUM; run alone after one build with
//   cd e2e && LOCKSTEP_DIST=../dist node --test --test-reporter=spec book.test.mjs

import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { after, before, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

import { launchChromium, watchForProblems } from './browser.mjs';
import { reachBuiltSite, serveDirectory } from './harness.mjs';

const HERE = dirname(fileURLToPath(import.meta.url));
const DIST = process.env.LOCKSTEP_DIST ?? resolve(HERE, '..', 'dist');
const CLI = process.env.LOCKSTEP_CLI ?? resolve(HERE, '..', 'target', 'debug', 'lockstep-cli');
/** Not the server's root: the book finds the app's host script only by relative URLs. */
const BASE_PATH = '/docs/lockstep/';

let site;
/** Another origin's site, for the pasted snippet. */
let host;
let hostDir;
/** The address the build was told the site is at, which the browser reaches `site` by. */
let built;
let browser;
let page;
const problems = [];

before(async () => {
  assert.ok(existsSync(join(DIST, 'book', 'index.html')), `no book in ${DIST}/book: build it first (cargo xtask dist)`);
  site = await serveDirectory(DIST, BASE_PATH);
  hostDir = await mkdtemp(join(tmpdir(), 'lockstep-copied-'));
  host = await serveDirectory(hostDir, '/');
  // The copy button's text is read back from the clipboard.
  browser = await launchChromium({ permissions: ['clipboard-read', 'clipboard-write'] });
  built = await reachBuiltSite(browser.context, site.url);
  page = browser.context.pages()[0] ?? (await browser.context.newPage());
  page.setDefaultTimeout(30_000);
  watchForProblems(page, (problem) => problems.push(problem));
});

after(async () => {
  await browser?.close();
  await site?.close();
  await host?.close();
  if (hostDir) await rm(hostDir, { recursive: true, force: true });
});

/** The native CLI's trace of a built-in scenario. */
async function nativeTrace(id) {
  assert.ok(existsSync(CLI), `no CLI at ${CLI}: build it first (cargo build -p lockstep-cli)`);
  const { stdout } = await promisify(execFile)(CLI, ['run', id, '--format', 'json'], {
    maxBuffer: 64 * 1024 * 1024,
  });
  return JSON.parse(stdout);
}

/** The position an embed's transport shows ("event 10 of 24"), as a number. */
async function position(frame) {
  const text = await frame.locator('[data-testid="position"]').textContent();
  const match = /^event (\d+)/.exec(text ?? '');
  assert.ok(match, `the embed's position reads "${text}"`);
  return Number(match[1]);
}

/** Opens a page of the book and returns its one embed's iframe element and frame. */
async function openEmbed(path) {
  problems.length = 0;
  await page.goto(site.url + path);
  const iframe = page.locator('.lockstep-embed iframe');
  await iframe.scrollIntoViewIfNeeded();
  const frame = page.frameLocator('.lockstep-embed iframe');
  await frame.locator('[data-testid="embed"] [data-testid="step"]').waitFor();
  return { iframe, frame };
}

test('a scenario page embeds its scenario through the host script, and Step moves it on', async () => {
  const id = 's2-gc-pause-fenced';
  const trace = await nativeTrace(id);
  const { iframe, frame } = await openEmbed(`book/scenarios/${id}.html`);

  // The host script came from the app's folder, two levels up from the page, at a relative URL.
  const script = await page.locator('script[src$="embed.js"]').getAttribute('src');
  assert.equal(script, '../../embed.js');
  const src = await iframe.getAttribute('src');
  // The build rendered this embed (decision 44): the frame opens its document.
  assert.equal(src, `${site.url}embed/${id}/controls=full/`, `the iframe shows ${src}`);
  assert.equal(await iframe.getAttribute('loading'), 'lazy');
  assert.ok((await iframe.getAttribute('title'))?.length > 0, 'the iframe has a title');
  assert.equal(await page.locator('main h1').textContent(), (await frame.locator('[data-testid="embed-caption"]').textContent()).trim());

  // Step twice from wherever the embed opens; each step tells the event the native run has next.
  const opening = await position(frame);
  for (const next of [opening + 1, opening + 2]) {
    await frame.locator('[data-testid="step"]').click();
    await frame.locator('[data-testid="position"]').filter({ hasText: new RegExp(`^event ${next} `) }).waitFor();
    assert.match(await frame.locator('[data-testid="narration"]').textContent(), new RegExp(escape(trace.events[next - 1].description)));
  }
  assert.deepEqual(problems, [], 'the page and its embed reported problems');
  assert.deepEqual(await site.notFound(), [], 'every file the book asked for was there');
});

test('a block with `at` opens there, and the frame is as tall as its content', async () => {
  const trace = await nativeTrace('s2-gc-pause-fenced');
  const { iframe, frame } = await openEmbed('book/index.html');
  assert.equal(await page.locator('script[src$="embed.js"]').getAttribute('src'), '../embed.js');
  assert.equal(await position(frame), 10, 'the introduction embeds S2 at 10');
  assert.match(await frame.locator('[data-testid="narration"]').textContent(), new RegExp(escape(trace.events[9].description)));
  await frame.locator('[data-testid="step"]').click();
  await frame.locator('[data-testid="position"]').filter({ hasText: /^event 11 / }).waitFor();
  assert.match(await frame.locator('[data-testid="narration"]').textContent(), new RegExp(escape(trace.events[10].description)));

  // The embed posted its height and the host script applied it: no inner scrollbar.
  const content = await frame.locator('html').evaluate((html) => html.scrollHeight);
  await page.waitForFunction(
    ([height]) => Number(document.querySelector('.lockstep-embed iframe').getAttribute('height')) === height,
    [content],
  );
  const box = await iframe.boundingBox();
  assert.ok(Math.abs(box.height - content) <= 1, `the frame is ${box.height} px for ${content} px of content`);
  assert.deepEqual(problems, [], 'the page and its embed reported problems');
});

test("an author's own scenario, inline in a block, is embedded and steps", async () => {
  const { iframe, frame } = await openEmbed('book/mdbook.html');
  assert.match(await iframe.getAttribute('src'), /#embed&scenario=[A-Za-z0-9_-]+&controls=full$/);
  assert.equal(
    (await frame.locator('[data-testid="embed-caption"]').textContent()).trim(),
    'A lease of 500 ms and a pause of 1500 ms, without fencing',
  );
  assert.equal(await frame.locator('[data-testid="embed-problem"]').count(), 0);
  const opening = await position(frame);
  await frame.locator('[data-testid="step"]').click();
  await frame.locator('[data-testid="position"]').filter({ hasText: new RegExp(`^event ${opening + 1} `) }).waitFor();
  assert.deepEqual(problems, [], 'the page and its embed reported problems');
});

test('the catalogue has one page per built-in scenario, each in the sidebar', async () => {
  const ids = readdirSync(resolve(HERE, '..', 'scenarios'))
    .filter((file) => file.endsWith('.json'))
    .map((file) => file.slice(0, -'.json'.length));
  assert.ok(ids.length >= 20, `only ${ids.length} scenario files`);
  problems.length = 0;
  await page.goto(site.url + 'book/scenarios/index.html');
  const listed = await page
    .locator('main a[href$=".html"]')
    .evaluateAll((links) => links.map((a) => a.getAttribute('href').replace(/\.html$/, '')));
  assert.deepEqual([...listed].sort(), [...ids].sort(), 'the catalogue page lists every scenario file');
  const sidebar = await page
    .locator('mdbook-sidebar-scrollbox a[href*="scenarios/"], #mdbook-sidebar a[href*="scenarios/"], .sidebar a[href*="scenarios/"]')
    .evaluateAll((links) => links.map((a) => a.getAttribute('href')));
  for (const id of ids) {
    assert.ok(sidebar.some((href) => href.endsWith(`scenarios/${id}.html`)), `the sidebar links ${id}`);
  }
  assert.deepEqual(problems, [], 'the page reported problems');
});

test('a scenario page\'s "Embed it" HTML, copied by its button and pasted as it is into a page of another origin, shows the scenario', async () => {
  const id = 's2-gc-pause-fenced';
  problems.length = 0;
  await page.goto(`${site.url}book/scenarios/${id}.html`);
  const title = (await page.locator('main h1').textContent()).trim();
  const block = page.locator('main pre', { has: page.locator('code.language-html') }).last();
  await block.scrollIntoViewIfNeeded();
  await block.hover();
  await block.locator('.clip-button').click();
  await page.locator('.clip-button.tooltipped').filter({ hasText: 'Copied!' }).waitFor();
  const copied = await page.evaluate(() => navigator.clipboard.readText());
  assert.equal(copied.trim(), (await block.locator('code').textContent()).trim(), 'the button copies the snippet shown');
  assert.equal(
    copied.trim(),
    `<script src="${built}embed.js" defer></script>\n<div data-lockstep="${id}"></div>`,
    'the snippet loads the host script from the site the build was told',
  );
  assert.deepEqual(problems, [], 'the book page reported problems');
  // Leaving the book page stops its own embed loading, which it reports: not what is tested here.
  await page.goto('about:blank');
  problems.length = 0;

  await writeFile(
    join(hostDir, 'pasted.html'),
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><link rel="icon" href="data:,"><title>Pasted</title></head>\n<body>\n${copied}\n</body></html>\n`,
  );
  await page.goto(`${host.url}pasted.html`);
  assert.notEqual(new URL(host.url).origin, new URL(built).origin);
  const iframe = page.locator(`[data-lockstep="${id}"] iframe`);
  await iframe.scrollIntoViewIfNeeded();
  const frame = page.frameLocator(`[data-lockstep="${id}"] iframe`);
  await frame.locator('[data-testid="embed"] [data-testid="timeline-main"]').waitFor();
  assert.equal((await frame.locator('[data-testid="embed-caption"]').textContent()).trim(), title);
  assert.equal(await frame.locator('[data-testid="embed-problem"]').count(), 0);
  assert.ok((await iframe.getAttribute('src')).startsWith(built), 'the frame comes from the built site');
  assert.deepEqual(problems, [], 'the pasted page and its embed reported problems');
});

/** `text` as a regular expression that matches it literally. */
function escape(text) {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
