// The page's loader (decision 33). The page has three binaries: the story (`lockstep`: the
// playground), the embed (`lockstep-embed`: an embed's moment) and the full app
// (`lockstep-full`: the lessons, the knowledge check, the deck, the guide, the sources, the chaos
// lab, the builder, the real runs, an embed of a whole lesson or of a real run). This starts the one the address needs and
// reports the download's progress and any failure on the loading line that index.html shows
// before any script runs (`window.lockstepLoading`, defined there). It also gives the story its
// way to hand the page over (`window.lockstepBoot.handoff`, used by src/platform/handoff.rs):
// fetch and compile the full binary, stop the story's app, start the full one.
//
// Which addresses need the full binary is `lockstep_view::split::Feature::of_route`; the browser
// tests (e2e/split.test.mjs) check that the two agree.

const STORY = 'lockstep';
const EMBED = 'lockstep-embed';
const FULL = 'lockstep-full';
const FULL_ADDRESS = /^#(learn|quiz|deck|guide|lab|sources|real)(=|&|$)|^#embed&(.*&)?(learn|real)=/;
const EMBED_ADDRESS = /^#embed(&|$)/;
// A page's path from the site's root (decision 43, `lockstep_view::link::path`).
const FULL_PATH = /^(learn|quiz|deck|guide|lab|sources|real)\//;
const EMBED_PATH = /^embed\//;

// The site's root, from the way back to it the build writes into the page, read against the
// address the page was loaded at: the app changes the address as the visitor moves, not the root.
const SITE_ROOT = new URL(document.querySelector('meta[name=lockstep-base]')?.content ?? './', location.href);

/** The page's path from the site's root. */
function pagePath() {
  const root = SITE_ROOT.pathname;
  return location.pathname.startsWith(root) ? location.pathname.slice(root.length) : '';
}

/** The binary the page's address needs: a fragment naming a page wins over the path. */
function binaryFor() {
  if (FULL_ADDRESS.test(location.hash)) return FULL;
  if (EMBED_ADDRESS.test(location.hash)) return EMBED;
  if (/^#(s|scenario|chaos)=/.test(location.hash)) return STORY;
  const path = pagePath();
  return FULL_PATH.test(path) ? FULL : EMBED_PATH.test(path) ? EMBED : STORY;
}

const loading = window.lockstepLoading;
const sizes = readSizes();

/** The binaries' sizes that `cargo xtask dist` writes into the loading line: unpacked and gzip. */
function readSizes() {
  const slot = document.querySelector('[data-wasm-size]');
  const found = {};
  for (const entry of (slot?.dataset.sizes ?? '').split(' ')) {
    const [name, raw, gzip] = entry.split(':');
    if (name) found[name] = { raw: Number(raw), gzip: Number(gzip) };
  }
  return found;
}

/** A failure, tagged with what failed: the glue script or the wasm. */
class LoadError extends Error {
  constructor(kind, cause) {
    super(describe(cause));
    this.kind = kind;
  }
}

/** Fetches and compiles `name`'s wasm as it arrives, reporting bytes received and expected. */
async function compile(name, onProgress) {
  const response = await fetch(new URL(`${name}_bg.wasm`, import.meta.url));
  if (!response.ok) throw new Error(`${name}_bg.wasm answered HTTP ${response.status}`);
  const total = sizes[name]?.raw || 0;
  let received = 0;
  const counted = response.body.pipeThrough(
    new TransformStream({
      transform(chunk, controller) {
        received += chunk.byteLength;
        onProgress(received, total);
        controller.enqueue(chunk);
      },
    }),
  );
  return WebAssembly.compileStreaming(new Response(counted, { headers: { 'content-type': 'application/wasm' } }));
}

/** `name`'s glue and compiled wasm, fetched side by side. */
function load(name, onProgress) {
  const glue = import(new URL(`${name}.js`, import.meta.url).href).catch((error) => {
    throw new LoadError('script', error);
  });
  const wasm = compile(name, onProgress).catch((error) => {
    throw new LoadError('wasm', error);
  });
  return Promise.all([glue, wasm]);
}

/** Instantiates and runs a loaded binary: its `main` mounts its app. */
async function start([glue, module]) {
  await glue.default({ module_or_path: module });
  window.wasmBindings = glue;
}

let running = null;
let full = null;
let fullProgress = () => {};

/** The full binary, fetched once; a failed fetch is forgotten so that the next try fetches again. */
function fetchFull() {
  if (!full) {
    full = load(FULL, (received, total) => fullProgress(received, total));
    full.catch(() => {
      full = null;
    });
  }
  return full;
}

window.lockstepBoot = {
  /** The story's handover: resolves once the full app runs, rejects (with why) if it cannot. */
  handoff(onProgress) {
    fullProgress = onProgress;
    return fetchFull().then(
      (loaded) => {
        window.wasmBindings?.lockstepStop?.();
        running = FULL;
        return start(loaded);
      },
      // The page says why in its own words: the failure's message, without "Error:".
      (error) => {
        throw error instanceof Error ? error.message : String(error);
      },
    );
  },
};

/**
 * Whether `link` leads to a page only the full binary has: by its fragment (`#learn=…`), or by
 * its path under the site's root (`../../learn/x/1/`, resolved by the browser).
 */
function leadsToFull(link) {
  if (FULL_ADDRESS.test(link.getAttribute('href'))) return true;
  if (!(link instanceof HTMLAnchorElement) || !link.href.startsWith(SITE_ROOT.href)) return false;
  const url = new URL(link.href);
  if (FULL_ADDRESS.test(url.hash)) return true;
  const root = SITE_ROOT.pathname;
  return url.pathname.startsWith(root) && FULL_PATH.test(url.pathname.slice(root.length));
}

// A pointer resting on, or the keyboard's focus on, a link to a page only the full binary has
// starts its download while the visitor decides: the click then waits less. Nothing is fetched
// for a visitor who never goes near one.
for (const type of ['pointerover', 'focusin']) {
  addEventListener(type, (event) => {
    const link = event.target instanceof Element ? event.target.closest('a[href]') : null;
    if (running === STORY && link && leadsToFull(link)) fetchFull();
  });
}

/**
 * On a page the build rendered (decision 43), the controls are there before the app is. A click
 * on one, or a key, while the app loads is kept, the control marked busy, and given to the app
 * once it has drawn over the page (`<html data-app="running">`): the same control, found by its
 * `data-testid` (and `data-index`), is clicked; the keys are pressed again. Links need no app
 * and go on as they are.
 */
/** The wait between two kept presses given to the app: past a Step's catch-up (150 ms). */
const REPLAY_GAP_MS = 200;

function keepEarlyInput() {
  const html = document.documentElement;
  if (!html.hasAttribute('data-rendered') || html.hasAttribute('data-stale')) return;
  const kept = [];
  const control = (target) =>
    target instanceof Element ? target.closest('button, input, select, summary, [role="button"], [tabindex]') : null;
  const onClick = (event) => {
    const found = control(event.target);
    if (!found || !found.closest('#lockstep-root') || !found.dataset.testid) return;
    event.preventDefault();
    event.stopPropagation();
    found.setAttribute('aria-busy', 'true');
    kept.push({ kind: 'click', testid: found.dataset.testid, index: found.dataset.index });
  };
  // The app's shortcuts (src/hooks/keyboard.rs), as it takes them: not in a field, and Space
  // not on a control (which it presses).
  const SHORTCUTS = new Set([' ', 'k', 'ArrowRight', 'l', 'ArrowLeft', 'j', 'Home', 'End', 'n', 'p', 'f', 'c', '?']);
  const onKey = (event) => {
    if (!SHORTCUTS.has(event.key) || event.ctrlKey || event.metaKey || event.altKey) return;
    const target = event.target instanceof Element ? event.target : null;
    if (target?.closest('input, select, textarea')) return;
    if (event.key === ' ' && target?.closest('a, button, summary, [role="button"]')) return;
    event.preventDefault();
    kept.push({ kind: 'key', key: event.key, code: event.code, shiftKey: event.shiftKey });
  };
  addEventListener('click', onClick, true);
  addEventListener('keydown', onKey, true);
  const watch = new MutationObserver(() => {
    if (html.dataset.app !== 'running') return;
    watch.disconnect();
    removeEventListener('click', onClick, true);
    removeEventListener('keydown', onKey, true);
    // One at a time, each after the page has drawn the one before, as a person's presses come.
    const replay = (index) => {
      const input = kept[index];
      if (!input) return;
      if (input.kind === 'key') {
        document.dispatchEvent(new KeyboardEvent('keydown', { key: input.key, code: input.code, shiftKey: input.shiftKey, bubbles: true, cancelable: true }));
      } else {
        const at = input.index === undefined ? '' : `[data-index="${CSS.escape(input.index)}"]`;
        document.querySelector(`#lockstep-root [data-testid="${CSS.escape(input.testid)}"]${at}`)?.click();
      }
      requestAnimationFrame(() => setTimeout(() => replay(index + 1), REPLAY_GAP_MS));
    };
    replay(0);
  });
  watch.observe(html, { attributes: true, attributeFilter: ['data-app'] });
}

/**
 * Runs `load` now, or, in an embed's document that waits for its reader (`<html
 * data-wasm-wait>`, set by index.html unless the embed plays by itself), once the reader points
 * at it, touches it, focuses it or presses a key in it: an embed that is only read downloads
 * no wasm, and one that is used starts loading as the pointer reaches it.
 */
function whenWanted(load) {
  const html = document.documentElement;
  if (!html.hasAttribute('data-wasm-wait')) return load();
  const acts = ['pointerover', 'pointerdown', 'focusin', 'keydown'];
  const acted = () => {
    acts.forEach((type) => removeEventListener(type, acted, true));
    html.removeAttribute('data-wasm-wait');
    load();
  };
  acts.forEach((type) => addEventListener(type, acted, true));
}

function firstLoad() {
  if (typeof WebAssembly !== 'object') return; // index.html has said so already
  keepEarlyInput();
  whenWanted(loadBinary);
}

function loadBinary() {
  const name = binaryFor();
  const slot = document.querySelector('[data-wasm-size]');
  if (slot && sizes[name]) slot.textContent = ` (WebAssembly, ${Math.ceil(sizes[name].gzip / 1000)}\u00a0KB compressed)`;
  let shown = '';
  const show = (received, total) => {
    const text = total > 0 && received < total ? ` ${Math.floor((100 * received) / total)} %` : ' starting it';
    if (text === shown) return;
    shown = text;
    loading.progress(text);
  };
  running = name;
  load(name, show).then(start).catch(report);
}

function report(error) {
  if (error instanceof LoadError && error.kind === 'script') {
    loading.problem('script', [
      'Lockstep could not start: one of its scripts did not load.',
      'Reload the page. If this keeps happening, check your connection.',
    ]);
    return;
  }
  loading.problem('wasm', [
    'The simulator could not be loaded, so Lockstep cannot start.',
    `What failed: ${error instanceof LoadError ? error.message : describe(error)}.`,
    'Reload the page. If it fails again, check your connection, or open the page in a current Firefox, Chrome, Edge or Safari.',
  ]);
}

/** What went wrong: its message, with the kind of error where that says more than "Error". */
function describe(error) {
  if (!(error instanceof Error)) return String(error);
  const message = error.message.replace(/\.$/, '');
  return error.name === 'Error' || error.name === 'TypeError' ? message : `${error.name}: ${message}`;
}

firstLoad();
