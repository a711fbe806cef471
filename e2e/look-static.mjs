import { launchChromium } from './browser.mjs';
import { serveDirectory, DIST } from './harness.mjs';
const site = await serveDirectory(DIST, '/play/ground/');
const paths = process.argv.slice(2);
for (const js of [false, true]) {
  const b = await launchChromium({ javaScriptEnabled: js });
  const page = b.context.pages()[0] ?? (await b.context.newPage());
  page.on('console', (m) => console.log('console:', m.text()));
  page.on('pageerror', (e) => console.log('pageerror:', e.message));
  for (const p of paths) {
    await page.goto(site.url + p);
    if (js) await page.waitForFunction(() => !document.querySelector('[data-testid=loading-frame]'), null, { timeout: 30000 });
    const name = `/tmp/look/${p.replace(/[\/#=&]/g, '_')}-${js ? 'js' : 'nojs'}.png`;
    await page.screenshot({ path: name });
    console.log(name, page.url(), await page.title());
  }
  await b.close();
}
await site.close();
