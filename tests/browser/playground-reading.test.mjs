// The playground for a class (issue 55): it opens on an English tour whose answer is checked,
// with a help panel, the seed's wolf.ds unmodified in the menu; the text of the editor and the
// output grows for a projector; pictures and graphs grow with the picture size; the world
// drawing fills its panel, with nodes large enough to read and edge labels apart.
// Run with the others: `npm run test:playground` (after `cargo xtask web`).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { openBrowser, serveFolder } from './chromium.mjs';

const root = new URL('../../', import.meta.url).pathname;
const web = process.env.WEB || join(root, 'target/web');

let server, base, page, browser;
const problems = [];

before(async () => {
  ({ server, base } = await serveFolder(web));
  browser = await openBrowser('playground-reading', problems);
  page = browser.page;
});

after(async () => {
  await browser?.close();
  server?.close();
});

async function open(fragment = '') {
  await page.waitForLoadState('networkidle');
  await page.goto('about:blank');
  await page.goto(base + fragment);
  await page.waitForSelector('body:not([data-run=loading])', { timeout: 30000 });
}

async function ended(timeout = 60000) {
  await page.waitForSelector('body:not([data-run=running]):not([data-run=loading]):not([data-run=idle])', { timeout });
  return page.getAttribute('body', 'data-run');
}

const code = () => page.evaluate(() => window.dsPlayground.editor.code);
const pixels = (selector) => page.evaluate((s) => parseFloat(getComputedStyle(document.querySelector(s)).fontSize), selector);

test('a fresh page opens on the English tour, which gives its checked answer; wolf.ds is the seed\'s', async () => {
  await open();
  assert.equal(await page.inputValue('#example'), 'tour');
  assert.equal(await code(), readFileSync(join(root, 'scripts/tour.ds'), 'utf8'));
  assert.match(await code(), /^\/\/ A tour of ds/);
  await page.click('#run');
  assert.equal(await ended(), 'finished');
  assert.equal(await page.textContent('#output'), readFileSync(join(root, 'tests/expected/tour.out'), 'utf8'));
  assert.equal(await page.isVisible('#help-box'), false);
  await page.click('#help');
  assert.match(await page.textContent('#help-box'), /Run[\s\S]*Stop[\s\S]*docs\/language\.md/);
  await page.selectOption('#example', 'wolf');
  assert.equal(await code(), readFileSync(join(root, 'scripts/wolf.ds'), 'utf8'));
});

test('A+ makes the editor\'s and the output\'s text larger, and the size stays for the next visit', async () => {
  await open();
  const before = [await pixels('#output'), await pixels('#editor .cm-scroller')];
  assert.deepEqual(before, [13, 13]);
  for (let i = 0; i < 4; i++) await page.click('#text-larger');
  const after = [await pixels('#output'), await pixels('#editor .cm-scroller')];
  assert.deepEqual(after, [20, 20], 'four steps: 14, 16, 18, 20');
  await open();
  assert.equal(await pixels('#output'), 20);
  for (let i = 0; i < 4; i++) await page.click('#text-smaller');
  assert.equal(await pixels('#output'), 13);
});

test('the picture size scales a printed SVG', async () => {
  await open();
  await page.evaluate(() => {
    window.dsPlayground.editor.code = 'out "<svg xmlns=\\"http://www.w3.org/2000/svg\\" width=\\"120\\" height=\\"60\\"><rect width=\\"120\\" height=\\"60\\" fill=\\"teal\\"/></svg>"\n';
  });
  await page.click('#run');
  assert.equal(await ended(), 'finished');
  const width = () => page.evaluate(async () => {
    const img = document.querySelector('#output figure.picture img');
    await img.decode();
    return img.getBoundingClientRect().width;
  });
  assert.ok(Math.abs((await width()) - 122) <= 2, `drawn ${await width()} px wide at 100%`);
  await page.selectOption('#picture-size', '2');
  assert.ok(Math.abs((await width()) - 244) <= 4, `drawn ${await width()} px wide at 200%`);
  await page.selectOption('#picture-size', '1');
});

test('the world of wolf.ds fills its panel, its nodes readable and its edge labels apart', async () => {
  await open('#example=wolf&run');
  assert.equal(await ended(), 'finished');
  await page.waitForSelector('#world-box .graph-box[data-nodes]');
  const drawn = await page.evaluate(() => {
    const box = document.querySelector('#world-box .graph-box');
    const cy = box.cy;
    const all = cy.elements().renderedBoundingBox();
    const labels = cy.edges().map((e) => e.renderedBoundingBox({ includeNodes: false, includeEdges: false, includeLabels: true }));
    let overlaps = 0;
    for (let i = 0; i < labels.length; i++) {
      for (let j = i + 1; j < labels.length; j++) {
        const a = labels[i], b = labels[j];
        if (a.x1 < b.x2 && b.x1 < a.x2 && a.y1 < b.y2 && b.y1 < a.y2) overlaps++;
      }
    }
    return {
      width: box.clientWidth, height: box.clientHeight, drawnWidth: all.w, drawnHeight: all.h,
      node: Math.min(...cy.nodes().map((n) => n.renderedHeight())), overlaps,
      font: parseFloat(cy.nodes()[0].renderedStyle('font-size')),
    };
  });
  console.log(`# the world of wolf.ds: ${JSON.stringify(drawn)}`);
  assert.ok(drawn.drawnWidth >= 0.7 * drawn.width || drawn.drawnHeight >= 0.7 * drawn.height, 'the drawing fills its panel');
  assert.ok(drawn.node >= 30, `nodes ${drawn.node} px high`);
  assert.ok(drawn.font >= 12, `labels in ${drawn.font} px`);
  assert.equal(drawn.overlaps, 0, 'no two edge labels overlap');
});

test('no errors, warnings or requests beyond the page', () => {
  assert.deepEqual(problems, []);
});
