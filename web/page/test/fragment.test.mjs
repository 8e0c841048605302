// The address fragment and the arguments field (src/fragment.js), and the DOT this page reads
// (src/dot.js), without a browser: `npm test` in web/page/.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseFragment, makeFragment, splitArgs, joinArgs } from '../src/fragment.js';
import { parseDot } from '../src/dot.js';

test('the parts of decision 20', () => {
  const f = parseFragment('#example=eight&args=867254301,123456780,--manhattan&run');
  assert.deepEqual([f.example, f.args, f.code, f.run, f.problems], ['eight', ['867254301', '123456780', '--manhattan'], null, true, []]);
  assert.deepEqual(parseFragment('').problems, []);
  assert.equal(parseFragment('#example=wolf').run, false);
});

test('a program and its arguments round-trip, commas and spaces included', () => {
  const code = 'out "a & b # c = d, e % f" // ü ✓\n';
  const args = ['a,b', 'c d', '', '%'];
  const f = parseFragment(makeFragment({ code, args, run: true }));
  assert.deepEqual([f.code, f.args, f.run, f.problems], [code, args, true, []]);
});

test('the limits round-trip with the program; a link without them gives none', () => {
  const limits = { time: 2.5, steps: 1000, memory: 64 };
  const f = parseFragment(makeFragment({ code: 'out 1\n', limits }));
  assert.deepEqual([f.code, f.limits, f.problems], ['out 1\n', limits, []]);
  assert.equal(makeFragment({ example: 'wolf', limits: { steps: 5 } }), '#example=wolf&steps=5');
  assert.deepEqual(parseFragment('#example=wolf').limits, {});
  assert.match(parseFragment('#steps=-3').problems.join(), /steps must be a number > 0/);
  assert.match(parseFragment('#time=soon').problems.join(), /time must be a number > 0/);
});

test('the Explore fields round-trip, with explore to explore at once', () => {
  const explore = { start: 'make_world(4)', next: 'all_actions', goal: 'target_state', symmetry: 'canon' };
  const f = parseFragment(makeFragment({ example: 'wolf', explore }));
  assert.deepEqual([f.example, f.explore, f.exploreNow, f.problems], ['wolf', explore, false, []]);
  assert.equal(makeFragment({ example: 'wolf', explore: { start: 'a b&c', h: '' } }), '#example=wolf&start=a%20b%26c');
  assert.deepEqual(parseFragment('#example=wolf&goal=G&explore').exploreNow, true);
  assert.deepEqual(parseFragment('#example=wolf').explore, {});
});

test('a damaged link is named, not guessed', () => {
  assert.match(parseFragment('#code=%%%').problems.join(), /damaged/);
  assert.match(parseFragment('#args=%E0%A4%A').problems.join(), /URL-encoded/);
  assert.match(parseFragment('#surprise=1').problems.join(), /does not know/);
});

test('the arguments field splits at spaces and keeps quoted parts', () => {
  assert.deepEqual(splitArgs(' 283164705  --svg - '), ['283164705', '--svg', '-']);
  assert.deepEqual(splitArgs('"c d" e"f g" "" "say \\"hi\\""'), ['c d', 'ef g', '', 'say "hi"']);
  for (const args of [['a b', 'c'], ['', 'x"y'], []]) assert.deepEqual(splitArgs(joinArgs(args)), args);
});

test('DOT as ds writes it, and as eight.ds writes it', () => {
  const g = parseDot('digraph {\n    0 [ label = "a"]\n    1 [ label = "b"]\n    0 -> 1 [ label = "on"]\n    0 -> 1 [ label = "!want", color = red]\n}');
  assert.deepEqual(g.nodes.map((n) => n.label), ['a', 'b']);
  assert.deepEqual(g.edges.map((e) => [e.source, e.target, e.label, e.color]), [['0', '1', 'on', undefined], ['0', '1', '!want', 'red']]);
  const tree = parseDot('digraph search_tree {\n  node [shape=box, fontname="Courier"];\n  n1 [label="node 1\\n2 8 3", style=bold];\n  n1 -> n2 [label="up"];\n}');
  assert.deepEqual(tree.nodes.map((n) => [n.id, n.label]), [['n1', 'node 1\n2 8 3'], ['n2', 'n2']]);
  assert.equal(parseDot('digraph { subgraph x { a } }'), null);
  assert.equal(parseDot('not a graph'), null);
});
