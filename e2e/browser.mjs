// Launches the machine's own Chromium (Debian's /usr/bin/chromium) through playwright-core,
// headless, with a fresh profile. playwright-core never downloads a browser, and these machines
// could not: they reach package registries only.

import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { chromium } from 'playwright-core';

export const CHROMIUM = process.env.LOCKSTEP_CHROMIUM ?? '/usr/bin/chromium';

// --no-sandbox: the tests run as root. The rest keep Chromium off the network (this machine's
// closed network refuses its background connections, noisily) and quiet.
const ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** The local-storage key by which the app knows a returning visitor (platform/browser.rs). */
export const VISITED_KEY = 'lockstep-visited';

/**
 * Starts headless Chromium with a new, empty profile directory. The visitor is a returning one:
 * the app's local-storage mark is set before any page's script runs, so the first-run guided
 * start stays away; `{ firstVisit: true }` leaves storage empty instead. The other `options` go
 * to Playwright's launchPersistentContext (a phone's viewport and touch screen, say).
 * @returns {Promise<{context: import('playwright-core').BrowserContext, close: () => Promise<void>}>}
 *   `close` stops the browser and deletes the profile.
 */
export async function launchChromium({ firstVisit = false, ...options } = {}) {
  const userDataDir = await mkdtemp(join(tmpdir(), 'lockstep-chromium-'));
  try {
    const context = await chromium.launchPersistentContext(userDataDir, {
      executablePath: CHROMIUM,
      headless: true,
      args: ARGS,
      viewport: { width: 1280, height: 800 },
      timeout: 60_000,
      ...options,
    });
    if (!firstVisit) {
      await context.addInitScript((key) => {
        try {
          localStorage.setItem(key, '1');
        } catch {
          // about:blank and opaque origins have no storage: nothing to mark there.
        }
      }, VISITED_KEY);
    }
    return {
      context,
      close: async () => {
        await context.close();
        await rm(userDataDir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    await rm(userDataDir, { recursive: true, force: true });
    throw error;
  }
}

/**
 * Calls `report` with a one-line description of every problem the page shows: a console
 * error, an uncaught exception (a wasm panic ends up here), a failed request or an HTTP error.
 */
export function watchForProblems(page, report) {
  page.on('console', (message) => {
    if (message.type() === 'error') report(`console error: ${message.text()}`);
  });
  page.on('pageerror', (error) => report(`page error: ${error.message}`));
  page.on('requestfailed', (request) =>
    report(`request failed: ${request.url()} (${request.failure()?.errorText})`),
  );
  page.on('response', (response) => {
    if (response.status() >= 400) report(`HTTP ${response.status()}: ${response.url()}`);
  });
}

/**
 * Builds a scenario with the "Build your own" form, as a user does: `numbers` fill the number
 * fields (`{ clients: 8, run: 180000 }` fills `build-clients` and `build-run`), `menus` choose
 * in the menus (`{ backend: 'consensus' }`). Resolves once the page shows the built scenario.
 */
export async function buildScenario(page, { numbers = {}, menus = {} }) {
  await page.locator('[data-testid="more-menu"]').click();
  await page.locator('[data-testid="build-scenario"]').click();
  for (const [field, value] of Object.entries(numbers)) {
    const input = page.locator(`[data-testid="build-${field}"]`);
    await input.fill(String(value));
    await input.press('Tab');
  }
  for (const [field, value] of Object.entries(menus)) {
    await page.locator(`[data-testid="build-${field}"]`).selectOption(value);
  }
  await page.locator('[data-testid="build-run-it"]').click();
  await page.waitForFunction(() => /^Sandbox/.test(document.querySelector('[data-testid="scenario-name"]').textContent));
}

/**
 * For the benchmarks: clicks `testid` with a real (CDP) mouse click and returns, for each of
 * `answers` (functions run in the page, as text is sent), the milliseconds from the click's input
 * event to the first frame after that answer holds in the DOM.
 */
export async function timeClick(page, testid, answers) {
  await page.evaluate(
    ([id, checks]) => {
      const target = document.querySelector(`[data-testid="${id}"]`);
      window.clickTimings = new Promise((resolve) => {
        target.addEventListener(
          'click',
          (event) => {
            const input = event.timeStamp;
            const times = checks.map((check) => {
              // eslint-disable-next-line no-new-func
              const holds = new Function(`return (${check})()`);
              return new Promise((done) => {
                const frame = () => requestAnimationFrame(() => done(performance.now() - input));
                if (holds()) return frame();
                const observer = new MutationObserver(() => {
                  if (holds()) {
                    observer.disconnect();
                    frame();
                  }
                });
                observer.observe(document.body, { subtree: true, childList: true, attributes: true, characterData: true });
              });
            });
            resolve(Promise.all(times));
          },
          { capture: true, once: true },
        );
      });
    },
    [testid, answers.map((answer) => answer.toString())],
  );
  await page.locator(`[data-testid="${testid}"]`).click();
  return page.evaluate(() => window.clickTimings);
}
