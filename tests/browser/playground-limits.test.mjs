// The playground's limits in headless Chromium (issues 55 and 56): deep recursion ends in the
// depth limit's error on every run, not in the browser's own stack; errors name the program
// being run; a flood of output or of pictures never blocks the page, and Stop answers at once;
// a printed SVG cannot run script in the page's origin; a memory limit too large for wasm32 is
// refused. Run with the others: `npm run test:playground` (after `cargo xtask web`).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { openBrowser, serveFolder } from './chromium.mjs';
import { makeFragment } from '../../web/page/src/fragment.js';

const root = new URL('../../', import.meta.url).pathname;
const web = process.env.WEB || join(root, 'target/web');

let server, base, page, browser;
const problems = [];

before(async () => {
  ({ server, base } = await serveFolder(web));
  browser = await openBrowser('playground-limits', problems);
  page = browser.page;
});

after(async () => {
  await browser?.close();
  server?.close();
});

/** Opens the page at `fragment` (a fresh load) and waits until the engine is ready. */
async function open(fragment = '') {
  await page.waitForLoadState('networkidle');
  await page.goto('about:blank');
  await page.goto(base + fragment);
  await page.waitForSelector('body:not([data-run=loading])', { timeout: 30000 });
}

/** Waits for the run in progress to end; its state (finished, runtime_error, ...). */
async function ended(timeout = 60000) {
  await page.waitForSelector('body:not([data-run=running]):not([data-run=loading]):not([data-run=idle])', { timeout });
  return page.getAttribute('body', 'data-run');
}

const output = () => page.textContent('#output');
const setCode = (code) => page.evaluate((c) => { window.dsPlayground.editor.code = c; }, code);
/** The fragment of a link to `code` that runs it at once (the page's own fragment.js). */
const runLink = (code) => makeFragment({ code, run: true });

test('deep recursion ends in the depth limit\'s error on every run, and after a fresh load', async () => {
  await open();
  const code = 'def f(n) : return f(n + 1)\nout f(0)\n';
  await setCode(code);
  for (let i = 1; i <= 4; i++) {
    await page.click('#run');
    assert.equal(await ended(), 'runtime_error', `run ${i}: ${await output()}`);
    assert.match(await output(), /recursion too deep/, `run ${i}`);
  }
  // a fresh load (the browser may now hold the engine's optimised code)
  await open(runLink(code));
  assert.equal(await ended(), 'runtime_error', await output());
  assert.match(await output(), /recursion too deep/);
});

test('after an example, "(your program)" and edited text are named scripts/playground.ds', async () => {
  await open('#example=heuristics');
  await page.selectOption('#example', '');
  await setCode('out Y\n');
  await page.click('#run');
  assert.equal(await ended(), 'compile_error');
  assert.match(await output(), /scripts\/playground\.ds:1:5/);
  // an example edited is the user's program too: the menu says so
  await page.selectOption('#example', 'heuristics');
  await page.evaluate(() => window.dsPlayground.editor.view.dispatch({ changes: { from: 0, insert: 'out Q\n' } }));
  assert.equal(await page.inputValue('#example'), '');
  await page.click('#run');
  assert.equal(await ended(), 'compile_error');
  assert.match(await output(), /scripts\/playground\.ds:1:5/);
});

test('a dangling operator is marked at the operator, on its own line', async () => {
  await open();
  await setCode('var X = 3\nout X +\nout "after"\n');
  await page.click('#run');
  assert.equal(await ended(), 'compile_error');
  assert.match(await output(), /scripts\/playground\.ds:2:7/);
  assert.deepEqual(await page.evaluate(() => window.dsPlayground.editor.markedLines()), [2]);
});

test('a memory limit of 4096 MB is refused with the largest one, not wrapped to 0 bytes', async () => {
  await open(makeFragment({ code: 'out 6 * 7\n', limits: { memory: 4096 }, run: true }));
  assert.equal(await ended(), 'bad_request', await output());
  assert.match(await output(), /at most 4095 MB/);
  await page.click('#limits summary');
  await page.fill('#limit-memory', '4095');
  await page.click('#run');
  assert.equal(await ended(), 'finished', await output());
  assert.equal(await output(), '42\n');
});

test('a printed SVG holds no script: opened as a tab of its own, it runs nothing in the page\'s origin', async () => {
  await open();
  await page.evaluate(() => localStorage.removeItem('pwned'));
  const svg = [
    '<?xml-stylesheet type="text/xsl" href="x.xsl"?>',
    '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="40" height="40" onload="localStorage.setItem(\'pwned\', \'onload\')">',
    '<script>localStorage.setItem(\'pwned\', \'script\')</script>',
    '<rect width="40" height="40" fill="teal" onclick="localStorage.setItem(\'pwned\', \'click\')"/>',
    '<a xlink:href="javascript:localStorage.setItem(\'pwned\', \'link\')"><circle r="5" cx="20" cy="20"/></a>',
    '<foreignObject width="40" height="40"><body xmlns="http://www.w3.org/1999/xhtml"><iframe src="javascript:parent.localStorage.setItem(\'pwned\', \'frame\')"></iframe></body></foreignObject>',
    '</svg>',
  ].join('\n');
  await setCode(`out ${JSON.stringify(svg).replace(/\\n/g, '\\n')}\n`);
  await page.click('#run');
  assert.equal(await ended(), 'finished', await output());
  const url = await page.getAttribute('#output figure.picture img', 'src');
  const served = await page.evaluate((u) => fetch(u).then((r) => r.text()), url);
  assert.doesNotMatch(served, /script|onload|onclick|foreignObject|iframe|javascript|xml-stylesheet/i, served);
  assert.match(served, /<rect/, 'the shapes stay');
  const tab = await browser.context.newPage();
  await tab.goto(url);
  await tab.waitForTimeout(300);
  await tab.mouse.click(20, 20);
  await tab.waitForTimeout(200);
  await tab.close();
  assert.equal(await page.evaluate(() => localStorage.getItem('pwned')), null);
  // the text under the picture is the script's own
  assert.match(await output(), /<script>/);
});

/** Starts measuring how long the page's main thread is kept from its timers: the longest gap
 * between ticks of a 10 ms interval, in ms, read by `longestGap()`. */
const watchMainThread = () => page.evaluate(() => {
  clearInterval(window.gapTimer);
  window.gap = { last: performance.now(), longest: 0 };
  window.gapTimer = setInterval(() => {
    const now = performance.now();
    window.gap.longest = Math.max(window.gap.longest, now - window.gap.last);
    window.gap.last = now;
  }, 10);
});
const longestGap = () => page.evaluate(() => window.gap.longest);

/** Stop pressed in the page: ms until the page says stopped. */
const stopInPage = () => page.evaluate(() => new Promise((resolve) => {
  const pressed = performance.now();
  new MutationObserver((_, observer) => {
    if (document.body.dataset.run !== 'stopped') return;
    observer.disconnect();
    resolve(performance.now() - pressed);
  }).observe(document.body, { attributes: true });
  document.getElementById('stop').click();
}));

test('3,000 small pictures from a #code=...&run link never block the tab; pictures count against the cap', async () => {
  const code = 'for i in range(3000) : out "<svg xmlns=\\"http://www.w3.org/2000/svg\\" width=\\"4\\" height=\\"4\\"><rect width=\\"4\\" height=\\"4\\"/></svg>"\n';
  await open();
  const link = runLink(code);
  await open();
  await watchMainThread();
  const started = Date.now();
  await page.evaluate((l) => { location.hash = l; }, link);
  assert.equal(await ended(), 'finished', (await output()).slice(0, 300));
  const gap = await longestGap();
  const pictures = await page.evaluate(() => document.querySelectorAll('#output figure.picture').length);
  console.log(`# 3,000 pictures: ${pictures} shown, the longest block of the page ${gap.toFixed(0)} ms, ${Date.now() - started} ms in all`);
  assert.ok(pictures > 0 && pictures <= 200, `${pictures} pictures shown`);
  assert.match(await output(), /the output is cut here/);
  assert.ok(gap < 400, `the page was blocked for ${gap} ms`);
});

test('`while True { out ... }` streams without blocking the page, and Stop answers within 200 ms', async () => {
  await open();
  await setCode('while True { out "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx" }\n');
  await page.click('#run');
  await page.waitForFunction(() => document.getElementById('output').textContent.length > 1000);
  await watchMainThread();
  await page.waitForTimeout(3000);
  const gap = await longestGap();
  const ms = await stopInPage();
  console.log(`# an endless out: the longest block of the page ${gap.toFixed(0)} ms, Stop answered in ${ms.toFixed(0)} ms`);
  assert.ok(gap < 400, `the page was blocked for ${gap} ms`);
  assert.ok(ms < 200, `Stop took ${ms} ms`);
  assert.match(await output(), /stopped after/);
  await setCode('out 6 * 7\n');
  await page.click('#run');
  assert.equal(await ended(), 'finished');
  assert.equal(await output(), '42\n');
});
