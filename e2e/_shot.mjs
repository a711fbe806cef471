import { startApp } from './harness.mjs';
import { mkdirSync } from 'node:fs';
mkdirSync('/tmp/shots', { recursive: true });
const sizes = [[1280, 800], [375, 700]];
const frags = process.argv.slice(2);
for (const [w, h] of sizes) {
  const app = await startApp({ viewport: { width: w, height: h } });
  for (const f of frags) {
    await app.open(f);
    await app.page.waitForTimeout(1500);
    await app.page.screenshot({ path: `/tmp/shots/${f.replace(/[^a-z0-9]+/gi, '_').slice(0, 60)}-${w}.png` });
  }
  await app.close();
}
