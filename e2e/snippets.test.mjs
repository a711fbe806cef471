// Every code snippet the book shows, pasted as a reader would copy it from the page. The page's
// own text of each `<pre><code>` is read from the built book (dist/book/), and the one change
// made to it is the documented one: `https://example.org/lockstep/` (the guide's stand-in for
// "wherever a Lockstep site is served") becomes the test server's address of the app, and
// `https://example.org` its origin. The catalogue's snippets name the address the build was told
// the site is at, and are pasted unchanged: the browser reaches the test server there
// (harness.mjs `reachBuiltSite`). Then:
// - HTML and Markdown with a `div[data-lockstep]` or an iframe: pasted into a page of another
//   origin (with the host script's line, when the snippet is only a div), each frame must show
//   its embed, with a timeline and no problem;
// - an embed's address: opened;
// - the size message's shape: compared with the message an embed sends; the listener: pasted
//   into a page with a plain iframe, which it must size;
// - mdBook's `book.toml` part and every ```lockstep example: a new book made of them, built by
//   mdBook with the preprocessor on PATH (as `cargo install` puts it), whose pages must embed.
// A snippet none of these takes fails the test, unless it is in `NOT_PASTED` with the reason.
//
// `cargo xtask test` sets LOCKSTEP_DIST and LOCKSTEP_PREPROCESSOR_DIR (where mdbook-lockstep was
// built); mdBook itself is found on PATH.

import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join, resolve } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

import { launchChromium, watchForProblems } from './browser.mjs';
import { DIST, reachBuiltSite, serveDirectory } from './harness.mjs';

const HERE = dirname(fileURLToPath(import.meta.url));
const PREPROCESSOR_DIR = process.env.LOCKSTEP_PREPROCESSOR_DIR ?? resolve(HERE, '..', 'target', 'debug');
const STAND_IN = 'https://example.org/lockstep/';
const STAND_IN_ORIGIN = 'https://example.org';
/** The book's guide pages; the catalogue's pages are added from dist/book/scenarios/. */
const GUIDE_PAGES = ['html.html', 'static-sites.html', 'mdbook.html', 'options.html'];

/** Snippets that are not pasted anywhere, each matched by a test of its text, with the reason. */
const NOT_PASTED = [
  {
    why: 'installs the preprocessor: the pasted book runs the same binary, built from this checkout',
    matches: (s) => s.language === 'sh' && /^cargo install --locked --path crates\/mdbook-lockstep\s*$/.test(s.text),
  },
  {
    why: "what a broken book's build prints (cargo xtask test's book step checks that message)",
    matches: (s) => s.language === 'text' && /lockstep block: /.test(s.text),
  },
  {
    why: "a Hugo template, run by Hugo, not pasted into a page; what it writes is a div like the ones pasted here",
    matches: (s) => s.language === 'html' && s.text.includes('{{ .Get "scenario" }}'),
  },
];

/** Every `<pre><code>` of a built book page: its language (from the class) and its text. */
async function snippetsOf(page, url, name) {
  await page.goto(url);
  const blocks = await page.locator('main pre > code').evaluateAll((codes) =>
    codes.map((code) => ({
      language: [...code.classList].find((c) => c.startsWith('language-'))?.slice('language-'.length) ?? '',
      text: code.textContent,
    })),
  );
  return blocks.map((block, index) => ({ ...block, where: `${name} #${index + 1}` }));
}

const pasted = (body, phone = false) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><link rel="icon" href="data:,"><title>Pasted</title></head>
<body style="margin:0"><div style="width: ${phone ? '100%' : '720px'}">
${body}
</div></body></html>
`;

/** A page with a plain iframe of the app, for the listener snippet. */
const listenerPage = (app, listener) =>
  pasted(`<iframe id="my-lockstep-frame" src="${app}#embed&amp;s=s2-gc-pause-fenced&amp;at=4" title="Lockstep" style="width:100%;border:0"></iframe>
<script>
${listener}
</script>`);

describe('every snippet in the book, pasted as-is', () => {
  let appSite;
  let hostSite;
  let bookSite;
  let hostDir;
  let bookDir;
  let browser;
  let page;
  let snippets = [];
  const problems = [];

  before(async () => {
    assert.ok(existsSync(join(DIST, 'book', 'html.html')), `no book in ${DIST}/book: build it first (cargo xtask dist)`);
    appSite = await serveDirectory(DIST, '/lockstep/');
    hostDir = await mkdtemp(join(tmpdir(), 'lockstep-pasted-'));
    hostSite = await serveDirectory(hostDir, '/');
    assert.notEqual(new URL(hostSite.url).origin, new URL(appSite.url).origin);
    browser = await launchChromium();
    await reachBuiltSite(browser.context, appSite.url);
    page = browser.context.pages()[0] ?? (await browser.context.newPage());
    page.setDefaultTimeout(30_000);
    watchForProblems(page, (problem) => problems.push(problem));
    const pages = [
      ...GUIDE_PAGES,
      ...readdirSync(join(DIST, 'book', 'scenarios'))
        .filter((f) => f.endsWith('.html') && f !== 'index.html' && f !== 'README.html')
        .map((f) => `scenarios/${f}`),
    ];
    for (const name of pages) snippets.push(...(await snippetsOf(page, `${appSite.url}book/${name}`, name)));
    // Leaving a book page stops its own embeds loading: reported, and not what is tested here.
    await page.goto('about:blank');
    problems.length = 0;
    snippets = snippets.map((s) => ({
      ...s,
      text: s.text.replaceAll(STAND_IN, appSite.url).replaceAll(STAND_IN_ORIGIN, new URL(appSite.url).origin),
    }));
    // The file a snippet's `data-src="/scenarios/my-pause.json"` names, on the pasting site.
    const mine = JSON.parse(await readFile(join(DIST, 'scenarios', 's1-gc-pause-unfenced.json'), 'utf8'));
    await mkdir(join(hostDir, 'scenarios'), { recursive: true });
    await writeFile(join(hostDir, 'scenarios', 'my-pause.json'), JSON.stringify({ ...mine, id: 'my-pause' }, null, 2));
  });

  after(async () => {
    await browser?.close();
    await appSite?.close();
    await hostSite?.close();
    await bookSite?.close();
    for (const dir of [hostDir, bookDir]) if (dir) await rm(dir, { recursive: true, force: true });
  });

  const embedsIn = (s) => /data-lockstep=|<iframe /.test(s.text) && !NOT_PASTED.some((n) => n.matches(s));
  const isScript = (s) => s.language === 'html' && /^<script src="[^"]+embed\.js" defer><\/script>\s*$/.test(s.text);
  const isAddress = (s) => s.language === 'text' && /^http:\/\/\S+#embed&\S+\s*$/.test(s.text);
  const isLockstepExample = (s) => s.language === 'markdown' && s.text.startsWith('```lockstep');
  const isBookToml = (s) => s.language === 'toml' && s.text.includes('[preprocessor.lockstep]');
  const isMessageShape = (s) => s.language === 'js' && s.text.trimStart().startsWith('{ type:');
  const isListener = (s) => s.language === 'js' && s.text.startsWith('window.addEventListener("message"');
  const TAKEN = [embedsIn, isScript, isAddress, isLockstepExample, isBookToml, isMessageShape, isListener];

  it('takes every snippet the book shows (and there are the ones this test knows)', () => {
    const untaken = snippets.filter((s) => !TAKEN.some((take) => take(s)) && !NOT_PASTED.some((n) => n.matches(s)));
    assert.deepEqual(untaken.map((s) => `${s.where} (${s.language}): ${s.text.slice(0, 80)}`), []);
    assert.ok(snippets.filter(embedsIn).length >= 8, `only ${snippets.filter(embedsIn).length} embedding snippets`);
    assert.equal(snippets.filter((s) => isLockstepExample(s) && s.where.startsWith('mdbook.html')).length, 6);
    for (const reason of NOT_PASTED) assert.ok(snippets.some((s) => reason.matches(s)), `nothing is "${reason.why}"`);
  });

  /**
   * Waits until every frame on the page shows its embed with a timeline (a recorded run's: the
   * recording's, beside its simulation's), and no problem.
   */
  async function expectEmbeds(where, count) {
    const frames = page.locator('iframe');
    await frames.first().waitFor({ state: 'attached' });
    assert.equal(await frames.count(), count, `${where}: ${await frames.count()} frames`);
    for (let i = 0; i < count; i++) {
      await frames.nth(i).scrollIntoViewIfNeeded();
      const frame = await (await frames.nth(i).elementHandle()).contentFrame();
      await frame.locator(
        '[data-testid="embed"] [data-testid="timeline-main"], [data-testid="embed"] [data-testid="timeline-recorded"], [data-testid="embed-problem"]',
      ).first().waitFor({ timeout: 30_000 });
      const problem = frame.locator('[data-testid="embed-problem"]');
      if ((await problem.count()) > 0) assert.fail(`${where}: frame ${i + 1} says ${await problem.first().textContent()}`);
    }
  }

  for (const viewport of [{ width: 1280, height: 800 }, { width: 375, height: 700 }]) {
    // On a phone, the guide's snippets (the catalogue's are made by the same code).
    const phone = viewport.width < 640;
    it(`shows an embed in every frame of each HTML or Markdown snippet, pasted into a page of its own, at ${viewport.width}x${viewport.height}`, async () => {
      await page.setViewportSize(viewport);
      const script = snippets.find(isScript);
      assert.ok(script, 'no snippet that is only the host script');
      for (const snippet of snippets.filter(embedsIn).filter((s) => !phone || !s.where.startsWith('scenarios/'))) {
        const needsScript = snippet.text.includes('data-lockstep') && !snippet.text.includes('embed.js');
        const file = `${snippet.where.replace(/[^a-z0-9]+/gi, '-')}-${viewport.width}.html`;
        await writeFile(join(hostDir, file), pasted(`${needsScript ? script.text : ''}\n${snippet.text}`, phone));
        await page.goto(`${hostSite.url}${file}`);
        const count = (snippet.text.match(/data-lockstep=|<iframe /g) ?? []).length;
        await expectEmbeds(`${snippet.where} at ${viewport.width} px`, count);
      }
      await page.setViewportSize({ width: 1280, height: 800 });
      assert.deepEqual(problems, []);
    });
  }

  it("opens the embed's address as written", async () => {
    const addresses = snippets.filter(isAddress);
    assert.ok(addresses.length > 0);
    for (const address of addresses) {
      await page.goto(address.text.trim());
      await page.locator('[data-testid="embed"] [data-testid="timeline-main"]').waitFor();
      assert.equal(await page.locator('[data-testid="embed-problem"]').count(), 0, address.where);
    }
    assert.deepEqual(problems, []);
  });

  it('sends the size message the book shows, and its listener sizes a plain iframe', async () => {
    const shape = snippets.find(isMessageShape);
    const listener = snippets.find(isListener);
    assert.ok(shape && listener);
    await writeFile(join(hostDir, 'listener.html'), listenerPage(appSite.url, listener.text));
    await page.addInitScript(() => {
      window.sizeMessages = [];
      window.addEventListener('message', (event) => window.sizeMessages.push(event.data));
    });
    await page.goto(`${hostSite.url}listener.html`);
    const told = await (await page.waitForFunction(() => window.sizeMessages.at(-1))).jsonValue();
    const documented = await page.evaluate(`(${shape.text.replace(/\/\/.*$/m, '')})`);
    assert.deepEqual(Object.keys(told).sort(), Object.keys(documented).sort());
    assert.equal(told.type, documented.type);
    assert.equal(told.version, documented.version);
    assert.ok(Number.isInteger(told.height) && told.height > 100, `height ${told.height}`);
    await page.waitForFunction(
      () => document.querySelector('#my-lockstep-frame').style.height === `${window.sizeMessages.at(-1).height}px`,
    );
    assert.deepEqual(problems, []);
  });

  it("builds a book of mdBook's book.toml part and every ```lockstep example, whose pages embed", async () => {
    const toml = snippets.find(isBookToml);
    const examples = snippets.filter(isLockstepExample);
    bookDir = await mkdtemp(join(tmpdir(), 'lockstep-pasted-book-'));
    await mkdir(join(bookDir, 'src', 'scenarios'), { recursive: true });
    await writeFile(join(bookDir, 'book.toml'), `[book]\ntitle = "Pasted"\nsrc = "src"\n\n${toml.text}`);
    const chapters = examples.map((example, i) => ({ file: `example-${i + 1}.md`, example }));
    await writeFile(
      join(bookDir, 'src', 'SUMMARY.md'),
      `# Summary\n\n${chapters.map((c) => `- [${c.example.where}](${c.file})`).join('\n')}\n`,
    );
    for (const { file, example } of chapters) {
      await writeFile(join(bookDir, 'src', file), `# ${example.where}\n\n${example.text}\n`);
    }
    // The file a block's `file = scenarios/my-pause.json` names, beside the chapters.
    await writeFile(join(bookDir, 'src', 'scenarios', 'my-pause.json'), await readFile(join(hostDir, 'scenarios', 'my-pause.json')));
    const env = { ...process.env, PATH: `${PREPROCESSOR_DIR}${delimiter}${process.env.PATH}` };
    await promisify(execFile)('mdbook', ['build', bookDir, '--dest-dir', join(bookDir, 'out')], { env });
    bookSite = await serveDirectory(join(bookDir, 'out'), '/pasted-book/');
    for (const { file, example } of chapters) {
      await page.goto(`${bookSite.url}${file.replace(/\.md$/, '.html')}`);
      await expectEmbeds(example.where, 1);
    }
    assert.deepEqual(problems, []);
  });
});
