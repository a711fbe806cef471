// The part of the load benchmark (bench-load.mjs, which runs it and prints its table) that
// measures issue 41's "first readable story": how soon a first visit shows the story's words,
// for four pages, on the slow link only (issue 41's targets are for it):
// - the playground's first visit: the site's root (`/`);
// - a scenario link: `s/s1-gc-pause-unfenced/`;
// - a lesson step: `learn/not-a-mutex/3/`;
// - an embed on a host page: the reader benchmark's docs page, its first embed (S2 at event 10,
//   as the book has it): the host script points its frame at the document the build rendered
//   (decision 44), whose wasm loads only when the reader acts. Its interactive figure is for a
//   reader who points at the embed as soon as its story shows; before that, the visit waits
//   READ_MS and counts the wasm fetched while the embed was only read.
// Each page is visited RUNS times from a server that sends the `.gz` copies `cargo xtask dist`
// writes (the precompressed server, gzip 9: this browser accepts gzip only), and RUNS times from
// one that sends every file as it is (plain). A module, not a script: it measures and returns
// figures, and judges nothing.
//
// The first readable story is the first frame in which the page shows the story's words. Measured
// as the load benchmark measures interactive: a MutationObserver installed before the document's
// first byte (an init script, in the page and in each frame) checks, on each change, whether the
// page holds them; once it does, two animation-frame callbacks: the second runs after the frame
// that first showed them has been rendered, and its time (ms from the document's navigation) is
// the figure. Not First Contentful Paint: a page may paint its navigation bar before its story has
// arrived (the document arrives in pieces on a slow link), and the embed's host page paints its
// own text long before the frame shows anything; there is no element-timing attribute in the
// app's markup to observe either. The page "holds" the words when:
// - the playground and a scenario link: an element `[data-testid="narration"]` with text, and
//   an svg in `[data-testid="timeline-main"]`;
// - a lesson step: `[data-testid="lesson-text"]` or `[data-testid="predict"]` with text, and an
//   svg in `[data-testid="timeline-main"]`;
// - the embed: `[data-testid="narration"]` with text, in the embed's frame (its document, or the
//   app's root at `#embed&…`);
// each of them rendered: `checkVisibility()` (not under display: none, visibility: hidden or
// opacity 0) and a box of some size. That rules out markup that is in the document but not shown:
// an embed's frame at the app's root (`#embed&…`) hides the root's build-rendered playground
// (`html[data-stale]`) until the embed's app draws. Not required: that the words be within the
// viewport.
//
// For each it reports, as medians:
// - bytes before it (gzip server): the compressed bodies (`encodedBodySize`, headers not
//   counted) of the page's document, counted whole even if its end arrives after the story shows,
//   and of every other response that ended before the story showed (Resource Timing); for the
//   embed, the host page's (its document, embed.js: sized by the DevTools protocol, being of
//   another origin) and the frame's;
// - time to it from the gzip server and from the plain one (the plain visit's bytes shown beside
//   it);
// - time to interactive (gzip server): bench-load-reader.mjs's WATCH, the first frame after the
//   app has drawn (`<html data-app="running">`) with the Step button enabled, after which one
//   Step must move the position on; for the lesson step, which has no Step button, the first
//   frame after the app has drawn. A plain visit stops once its story has shown.

import {
  EMBEDS,
  HIDDEN_GRACE_MS,
  LOAD_TIMEOUT_MS,
  failOnProblems,
  frameOf,
  openThrottled,
  serveDocsPage,
  stepWorks,
  waitInteractive,
} from './bench-load-reader.mjs';

/** The pages, with what shows each one's story (`kind`, for STORY_WATCH). */
export const STORY_PAGES = [
  { name: "the playground's first visit (`/`)", path: '', kind: 'scenario', step: true },
  { name: 'a scenario link (`s/s1-gc-pause-unfenced/`)', path: 's/s1-gc-pause-unfenced/', kind: 'scenario', step: true },
  { name: 'a lesson step (`learn/not-a-mutex/3/`)', path: 'learn/not-a-mutex/3/', kind: 'lesson', step: false },
  { name: 'an embed on a host page (`embed/s2-gc-pause-fenced/at=10/`)', embed: true, kind: 'embed', step: true },
];

/** Issue 41's targets, slow 4G. Interactive: no later than the playground was before (3.4 s). */
export const STORY_TARGETS = {
  bytes: 60_000,
  gzipMs: 1000,
  plainMs: 1500,
  interactiveMs: 3400,
  shift: 0.01,
};

/** The layout shift `target` (a page or frame) has had so far, once the current frame is drawn. */
function shiftOf(target) {
  return target.evaluate(
    () => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(() => done(window.__lockstepStory.shift)))),
  );
}

// Runs in the page and in each of its frames before any of their own scripts (with the `kind`
// of the page): records the first frame that shows the story's words (see the header), and
// whether the app had drawn by then.
export const STORY_WATCH = (kind) => {
  const marks = (window.__lockstepStory = { at: null, byApp: null, shift: 0 });
  // Cumulative layout shift, as the browser reports it: shifts right after an input excluded.
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) if (!entry.hadRecentInput) marks.shift += entry.value;
  }).observe({ type: 'layout-shift', buffered: true });
  const shown = (element) => {
    if (!element.checkVisibility({ opacityProperty: true, visibilityProperty: true })) return false;
    const box = element.getBoundingClientRect();
    return box.width > 0 && box.height > 0;
  };
  // Matches with text, then (which asks for layout) one of them shown.
  const words = (selector) =>
    [...document.querySelectorAll(selector)].filter((element) => element.textContent.trim() !== '');
  const timeline = () => [...document.querySelectorAll('[data-testid="timeline-main"] svg')];
  const holds = () => {
    if (kind === 'embed' && !/^#embed(&|$)/.test(location.hash) && !location.pathname.includes('/embed/')) return false;
    const text = words(kind === 'lesson' ? '[data-testid="lesson-text"], [data-testid="predict"]' : '[data-testid="narration"]');
    const svgs = kind === 'embed' ? [] : timeline();
    if (text.length === 0 || (kind !== 'embed' && svgs.length === 0)) return false;
    return text.some(shown) && (kind === 'embed' || svgs.some(shown));
  };
  new MutationObserver((_, observer) => {
    if (marks.at !== null || !holds()) return;
    marks.at = 'pending';
    marks.byApp = document.documentElement.dataset.app === 'running';
    observer.disconnect();
    requestAnimationFrame(() =>
      requestAnimationFrame(() => {
        marks.at = performance.now();
      }),
    );
  }).observe(document, { childList: true, subtree: true, attributes: true, characterData: true });
};

/**
 * Waits until `target` (a page or frame) has marked its first readable story, and returns its
 * marks; `null` if the app has drawn (`<html data-app="running">`) and HIDDEN_GRACE_MS later the
 * story is still not shown: the page never shows it.
 */
async function waitStory(target) {
  const handle = await target.waitForFunction(
    (grace) => {
      if (typeof window.__lockstepStory?.at === 'number') return 'shown';
      const running = window.__lockstepLoad?.running;
      return typeof running === 'number' && performance.now() - running > grace ? 'never' : false;
    },
    HIDDEN_GRACE_MS,
    { timeout: LOAD_TIMEOUT_MS, polling: 50 },
  );
  if ((await handle.jsonValue()) === 'never') return null;
  return target.evaluate(() => window.__lockstepStory);
}

/**
 * The compressed bodies of what `target` fetched before `until` (ms of its own clock): its
 * document whole, the rest if its response had ended by then; frames it holds left out (each
 * frame's own timing counts its document). `sizes` (URL → body bytes, from the DevTools
 * protocol) sizes files of another origin, which Resource Timing shows as 0. Also whether the
 * document had all arrived by then (`arrived`): if not, part of what is counted came after.
 */
async function bytesBefore(target, until, sizes = new Map()) {
  const entries = await target.evaluate(
    (end) =>
      [...performance.getEntriesByType('navigation'), ...performance.getEntriesByType('resource')]
        .filter((e) => e.entryType === 'navigation' || (e.responseEnd <= end && e.initiatorType !== 'iframe'))
        .map((e) => ({ name: e.name, body: e.encodedBodySize, document: e.entryType === 'navigation', end: e.responseEnd })),
    until,
  );
  return {
    bytes: entries.reduce((total, e) => total + (e.body === 0 && sizes.has(e.name) ? sizes.get(e.name) : e.body), 0),
    arrived: entries.every((e) => !e.document || e.end <= until),
  };
}

/** A visit whose page never showed its story: no figures (the table says "not shown"). */
function notShown(problems) {
  failOnProblems(problems);
  return { storyMs: null, bytes: null, arrived: null, byApp: null, interactiveMs: null };
}

/**
 * One fresh visit to the page at `url` under `profile`: its first readable story (ms from
 * navigation), the bytes before it, whether the app had drawn it; with `interactive`, then the
 * time to interactive, checked to work.
 */
async function visitPage(url, profile, page, interactive) {
  const { browser, page: tab, cdp, problems } = await openThrottled(profile);
  try {
    await tab.addInitScript(STORY_WATCH, page.kind);
    await tab.goto(url, { waitUntil: 'commit' });
    const story = await waitStory(tab);
    if (story === null) return notShown(problems);
    const { bytes, arrived } = await bytesBefore(tab, story.at);
    const result = { storyMs: story.at, bytes, arrived, byApp: story.byApp };
    if (interactive) {
      if (page.step) await waitInteractive(tab);
      else await tab.waitForFunction(() => typeof window.__lockstepLoad?.running === 'number', null, { timeout: LOAD_TIMEOUT_MS, polling: 100 });
      result.interactiveMs = await tab.evaluate((step) => window.__lockstepLoad[step ? 'interactive' : 'running'], page.step);
      result.shift = await shiftOf(tab);
      if (page.step) {
        await cdp.send('Emulation.setCPUThrottlingRate', { rate: 1 });
        await stepWorks(tab);
      }
    }
    failOnProblems(problems);
    return result;
  } finally {
    await browser.close();
  }
}

/**
 * One fresh visit to the docs page at `url` under `profile`: its first embed's first readable
 * story (ms from the host page's navigation), the bytes before it (host page's and frame's);
 * with `interactive`, then the embed's time to interactive, checked to work.
 */
async function visitEmbed(url, profile, interactive) {
  const { browser, page, cdp, problems } = await openThrottled(profile);
  try {
    const sizes = new Map();
    page.on('requestfinished', async (request) => {
      sizes.set(request.url(), (await request.sizes()).responseBodySize);
    });
    await page.addInitScript(STORY_WATCH, 'embed');
    await page.goto(url, { waitUntil: 'commit' });
    const frame = await frameOf(page, EMBEDS[0].box, problems);
    const story = await waitStory(frame);
    if (story === null) return notShown(problems);
    const hostOrigin = await page.evaluate(() => performance.timeOrigin);
    const toHost = async (at) => (await frame.evaluate(() => performance.timeOrigin)) + at - hostOrigin;
    const storyMs = await toHost(story.at);
    const [inFrame, inHost] = [await bytesBefore(frame, story.at), await bytesBefore(page, storyMs, sizes)];
    const result = { storyMs, bytes: inFrame.bytes + inHost.bytes, arrived: inFrame.arrived && inHost.arrived, byApp: story.byApp };
    if (interactive) {
      // Only read for a while: what a reader who never touches the embed downloads.
      await page.waitForTimeout(READ_MS);
      result.wasmWhileRead = await frame.evaluate(() =>
        performance.getEntriesByType('resource').filter((e) => e.name.endsWith('.wasm')).reduce((total, e) => total + e.encodedBodySize, 0),
      );
      const acted = await frame.evaluate(() => performance.now());
      await frame.locator('[data-testid="embed"]').hover();
      await waitInteractive(frame);
      result.interactiveMs = (await frame.evaluate(() => window.__lockstepLoad.interactive)) - acted;
      // The frame's own and the host page's (a frame that changes height moves the host's text).
      result.shift = (await shiftOf(frame)) + (await shiftOf(page));
      await cdp.send('Emulation.setCPUThrottlingRate', { rate: 1 });
      await stepWorks(frame);
    }
    failOnProblems(problems);
    return result;
  } finally {
    await browser.close();
  }
}

/** How long the embed's visit only reads before the reader points at the embed. */
const READ_MS = 5000;

/**
 * RUNS visits to each page in STORY_PAGES under `profile` from `gzipUrl` (the site served with
 * its `.gz` copies; these visits wait for interactive too) and RUNS from `plainUrl` (served as
 * it is). Progress on stderr.
 */
export async function measureStories(gzipUrl, plainUrl, profile, runs) {
  const docs = { gzip: await serveDocsPage(gzipUrl), plain: await serveDocsPage(plainUrl, { precompressed: false }) };
  try {
    const results = [];
    for (const page of STORY_PAGES) {
      const visits = { gzip: [], plain: [] };
      for (const server of ['gzip', 'plain']) {
        for (let run = 1; run <= runs; run += 1) {
          console.error(`bench-load: first readable story, ${page.name}, ${server} server, ${profile.name}, visit ${run} of ${runs}`);
          const interactive = server === 'gzip';
          const visit = page.embed
            ? await visitEmbed(docs[server].url, profile, interactive)
            : await visitPage((server === 'gzip' ? gzipUrl : plainUrl) + page.path, profile, page, interactive);
          console.error(
            visit.storyMs === null
              ? `  story not shown ${HIDDEN_GRACE_MS / 1000} s after the app had drawn`
              : `  story ${seconds(visit.storyMs)} (${visit.byApp ? 'drawn by the app' : "the build's markup"}), ` +
                  `${kb(visit.bytes)} before it${visit.arrived ? '' : " (the document's end came after)"}` +
                  (interactive ? `, interactive ${seconds(visit.interactiveMs)}` : ''),
          );
          visits[server].push(visit);
        }
      }
      results.push({ page, visits });
    }
    return results;
  } finally {
    await docs.gzip.close();
    await docs.plain.close();
  }
}

/** The median; a visit that never showed the story counts as infinitely late (and heavy). */
function median(values) {
  values = values.map((value) => value ?? Infinity);
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

const NOT_SHOWN = 'not shown';
const kb = (bytes) => (Number.isFinite(bytes) ? `${(bytes / 1000).toFixed(1)} KB` : NOT_SHOWN);
const seconds = (ms) => (Number.isFinite(ms) ? `${(ms / 1000).toFixed(2)} s` : NOT_SHOWN);

/** How far `value` is from `target` (lower is better), in words that judge nothing. */
function distance(value, target, unit) {
  if (!Number.isFinite(value)) return `the story was not shown ${HIDDEN_GRACE_MS / 1000} s after the app had drawn`;
  if (value <= target) return `${unit(target - value)} under the target`;
  return `${unit(value - target)} over the target (${(value / target).toFixed(2)}×)`;
}

/** What showed the story, over the visits: the build's markup, the app's drawing, or both. */
function shownBy(visits) {
  const by = [...new Set(visits.map((v) => (v.byApp === null ? NOT_SHOWN : v.byApp ? 'drawn by the app' : "the build's markup")))];
  return by.join(' / ');
}

/** A note for the bytes of `visits` whose document had not all arrived when the story showed. */
function documentLate(visits) {
  const late = visits.filter((v) => v.arrived === false).length;
  return late === 0 ? '' : `; in ${late} of ${visits.length} the document's end came after the story, counted anyway`;
}

/** The markdown table of `results` (from measureStories), with issue 41's targets. */
export function storyReport(results, profile, runs) {
  const row = (page, what, value, target, unit) =>
    `| ${page} | ${what} | ${unit(value)} | ≤ ${unit(target)} | ${distance(value, target, unit)} |`;
  const lines = [
    '',
    `### First readable story (issue 41; median of ${runs} fresh visits each, empty cache, ${profile.name})`,
    '',
    `${profile.name}: ${profile.rttMs} ms RTT, ${profile.downKbps} kbit/s down, ${profile.upKbps} kbit/s up, ` +
      `CPU ${profile.cpuSlowdown}× slower, as in the first-load table.`,
    '',
    '| page | figure | measured | target | distance |',
    '|---|---|---|---|---|',
  ];
  for (const { page, visits } of results) {
    const { gzip, plain } = visits;
    const interactiveWhat = page.embed
      ? `Step enabled and working, from the reader pointing at the embed after reading it ${READ_MS / 1000} s`
      : page.step
        ? 'Step enabled and working'
        : 'the app has drawn; no Step button';
    lines.push(
      row(page.name, `bytes before the first readable story (gzip${documentLate(gzip)})`, median(gzip.map((v) => v.bytes)), STORY_TARGETS.bytes, kb),
      row('', `first readable story, server sends gzip (shown by: ${shownBy(gzip)})`, median(gzip.map((v) => v.storyMs)), STORY_TARGETS.gzipMs, seconds),
      row(
        '',
        `first readable story, server sends plain (${kb(median(plain.map((v) => v.bytes)))} before it${documentLate(plain)}; shown by: ${shownBy(plain)})`,
        median(plain.map((v) => v.storyMs)),
        STORY_TARGETS.plainMs,
        seconds,
      ),
      row('', `interactive, server sends gzip (${interactiveWhat})`, median(gzip.map((v) => v.interactiveMs)), STORY_TARGETS.interactiveMs, seconds),
    );
    lines.push(
      row(
        '',
        'layout shift, cumulative until interactive (gzip server)',
        median(gzip.map((v) => v.shift)),
        STORY_TARGETS.shift,
        (v) => (Number.isFinite(v) ? v.toFixed(3) : NOT_SHOWN),
      ),
    );
    if (page.embed) {
      lines.push(row('', `wasm fetched while the embed is only read (${READ_MS / 1000} s after its story)`, median(gzip.map((v) => v.wasmWhileRead)), 0, kb));
    }
  }
  lines.push(
    '',
    'The first readable story is the first frame that shows the story\'s words: for the playground ' +
      'and a scenario, the narration (with text) and the timeline\'s svg; for a lesson step, the ' +
      "step's text or its prediction, and the timeline's svg; for the embed, the narration in its " +
      'frame; each rendered (`checkVisibility()`, a box of some size), in the viewport or not. A ' +
      'MutationObserver watches from before the first byte; the time is taken in the second ' +
      'animation-frame callback after the words are in the page, i.e. once the frame showing them ' +
      'is rendered, from the navigation (the host page\'s, for the embed). "Shown by" says whether ' +
      "the app had drawn (`<html data-app=\"running\">`) when the words appeared, or the build's " +
      'markup showed them. Bytes: response bodies as transferred, headers not counted; the ' +
      "document whole, the rest if it had ended by then; the embed's count the host page's and the " +
      "frame's. The plain server sends every file uncompressed (the host page too). Interactive: " +
      '`<html data-app="running">` and Step enabled, after which one Step must move the position ' +
      'on; a visit to the plain server stops at its story.',
  );
  return `${lines.join('\n')}\n`;
}
