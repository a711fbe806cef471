// Tests of the harness's own static server: the browser tests are only as good as it is.

import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { serveDirectory } from './server.mjs';

describe('static server', () => {
  let dir;
  let site;

  before(async () => {
    // dir/secret.txt sits beside the served directory dir/site/, for the escape test.
    dir = await mkdtemp(join(tmpdir(), 'lockstep-server-test-'));
    const root = join(dir, 'site');
    await mkdir(join(root, 'nested'), { recursive: true });
    await writeFile(join(dir, 'secret.txt'), 'secret');
    await writeFile(join(root, 'index.html'), '<p>home</p>');
    await writeFile(join(root, 'app_bg.wasm'), Buffer.from([0, 0x61, 0x73, 0x6d]));
    await writeFile(join(root, 'app.js'), 'export {};');
    await writeFile(join(root, 'nested', 'index.html'), '<p>nested</p>');
    site = await serveDirectory(root, '/some/sub/path/');
  });

  after(async () => {
    await site.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('serves index.html at the sub-path', async () => {
    assert.match(site.url, /^http:\/\/127\.0\.0\.1:\d+\/some\/sub\/path\/$/);
    const response = await fetch(site.url);
    assert.equal(response.status, 200);
    assert.equal(response.headers.get('content-type'), 'text/html; charset=utf-8');
    assert.equal(await response.text(), '<p>home</p>');
  });

  it('gives wasm and JavaScript the MIME types browsers require', async () => {
    const wasm = await fetch(new URL('app_bg.wasm', site.url));
    assert.equal(wasm.headers.get('content-type'), 'application/wasm');
    assert.deepEqual([...new Uint8Array(await wasm.arrayBuffer())], [0, 0x61, 0x73, 0x6d]);
    const js = await fetch(new URL('app.js', site.url));
    assert.equal(js.headers.get('content-type'), 'text/javascript; charset=utf-8');
  });

  it('serves a directory index', async () => {
    const response = await fetch(new URL('nested/', site.url));
    assert.equal(await response.text(), '<p>nested</p>');
  });

  it('answers 404 outside the sub-path, for missing files and for escapes, and records them', async () => {
    const origin = new URL(site.url).origin;
    const paths = ['/app.js', '/some/sub/path/missing.js', '/some/sub/path/..%2fsecret.txt'];
    for (const path of paths) {
      const response = await fetch(origin + path);
      assert.equal(response.status, 404, path);
    }
    assert.deepEqual(site.notFound, paths);
  });
});
