import { launchChromium } from './browser.mjs';
import { serveDirectory, DIST } from './harness.mjs';
const site = await serveDirectory(DIST, '/play/ground/');
const b = await launchChromium();
const page = b.context.pages()[0] ?? (await b.context.newPage());
for (const p of process.argv.slice(2)) {
  await page.goto(site.url + p);
  await page.locator('html[data-app="running"]').waitFor({ state: 'attached', timeout: 30000 });
  const w = await page.evaluate(() => [...document.querySelectorAll('.timeline-plot')].map((e) => [e.closest('[data-testid^=timeline-]')?.dataset.testid, e.clientWidth]));
  console.log(p, JSON.stringify(w));
}
await b.close(); await site.close();
