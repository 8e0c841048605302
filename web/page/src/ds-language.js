// ds highlighting for CodeMirror, read from the VS Code extension's TextMate grammar
// (editors/vscode/syntaxes/ds.tmLanguage.json, bundled by esbuild): the same patterns and token
// classes in both editors, kept in one file. A StreamLanguage tokenizer runs the grammar's
// `match` patterns at each position; the few `begin`/`end` rules (nested block comments,
// strings, a def's parameters, `edges`/`nodes` declarations) are states of the tokenizer.
import { StreamLanguage } from '@codemirror/language';
import grammar from '../../../editors/vscode/syntaxes/ds.tmLanguage.json';

const repo = grammar.repository;

/** The highlighting tag (CodeMirror's names) of a TextMate scope. */
const SCOPES = [
  ['comment', 'comment'],
  ['punctuation.definition.comment', 'comment'],
  ['punctuation.definition.string', 'string'],
  ['constant.character.escape', 'escape'],
  ['string', 'string'],
  ['keyword.control.import', 'moduleKeyword'],
  ['keyword.control', 'controlKeyword'],
  ['keyword.operator', 'operator'],
  ['keyword.other', 'keyword'],
  ['storage.type', 'definitionKeyword'],
  ['entity.name.function.call', 'variableName.function'],
  ['entity.name.function', 'variableName.definition'],
  ['variable.parameter', 'variableName.local'],
  ['entity.name.type', 'typeName'],
  ['entity.name.constant', 'variableName.special'],
  ['constant.other.node', 'variableName.special'],
  ['constant.other.edge', 'labelName'],
  ['constant.language', 'bool'],
  ['variable.language', 'atom'],
  ['constant.numeric', 'number'],
  ['support.class', 'namespace'],
  ['punctuation', 'punctuation'],
];

export function tagOf(scope) {
  if (!scope) return null;
  const hit = SCOPES.find(([prefix]) => scope === prefix || scope.startsWith(prefix + '.'));
  return hit ? hit[1] : null;
}

/** A grammar rule's `match` (or `begin`) as a sticky regexp with capture indices. */
function sticky(source) {
  return new RegExp(source, 'yd');
}

/** The `match` rules of a repository entry, flattened through `include`s, in order. */
function matchRules(entry, out = []) {
  if (entry.include) return matchRules(repo[entry.include.slice(1)], out);
  if (entry.patterns && !entry.begin) {
    for (const p of entry.patterns) matchRules(p, out);
    return out;
  }
  if (entry.match) out.push({ re: sticky(entry.match), name: entry.name, captures: entry.captures });
  return out;
}

// The expression's one-line rules; comments and strings are handled as states below.
const EXPRESSION = ['keywords', 'constants', 'numbers', 'modules', 'calls', 'operators', 'punctuation']
  .flatMap((k) => matchRules(repo[k]));
const INCLUDE = matchRules(repo.include);
const DEF = { re: sticky(repo.def.begin), captures: repo.def.beginCaptures };
const DECLARATIONS = repo.declarations.patterns.map((p) => ({
  re: sticky(p.begin), captures: p.beginCaptures, end: sticky(p.end),
  names: p.patterns.map((q) => ({ re: sticky(q.match), name: q.name })),
}));
const DEF_PARAMS = repo.def.patterns.filter((p) => p.match).map((p) => ({ re: sticky(p.match), name: p.name }));
const ESCAPE = sticky(repo.escapes.match);

/** Tries `re` at the stream's position (lookbehinds see the line before it). */
function at(stream, re) {
  re.lastIndex = stream.pos;
  return re.exec(stream.string);
}

/** Queues the pieces of a match: each captured group with its tag, the text between them
 * untagged. Returns the first piece's tag, having consumed it. */
function pieces(stream, state, m, rule) {
  const parts = [];
  let pos = m.index;
  const groups = Object.keys(rule.captures || {}).map(Number).filter((g) => g > 0 && m.indices[g]).sort((a, b) => a - b);
  for (const g of groups) {
    const [lo, hi] = m.indices[g];
    if (lo > pos) parts.push([pos, lo, null]);
    parts.push([lo, hi, tagOf(rule.captures[g].name)]);
    pos = hi;
  }
  const end = m.index + m[0].length;
  if (end > pos) parts.push([pos, end, groups.length ? null : tagOf(rule.name)]);
  state.queue = parts;
  return next(stream, state);
}

/** The next queued piece. */
function next(stream, state) {
  const [, hi, tag] = state.queue.shift();
  stream.pos = hi;
  return tag;
}

// Inside a block comment (they nest): to the end of the comment or of the line.
function blockComment(stream, state) {
  while (!stream.eol()) {
    if (stream.match('/*')) state.comment++;
    else if (stream.match('*/')) {
      state.comment--;
      if (state.comment === 0) break;
    } else stream.next();
  }
  return 'comment';
}

/** Inside a string: an escape, or the text up to the next escape, the closing quote or the
 * end of the line. */
function string(stream, state) {
  if (at(stream, ESCAPE)) {
    stream.pos += 2;
    return 'escape';
  }
  const start = stream.pos;
  while (!stream.eol()) {
    if (stream.peek() === '\\' && stream.pos > start) break;
    if (stream.next() === state.quote) {
      state.quote = null;
      break;
    }
  }
  return 'string';
}

function firstMatch(stream, state, rules) {
  for (const rule of rules) {
    const m = at(stream, rule.re);
    if (m && m[0].length > 0) return pieces(stream, state, m, rule);
  }
  return undefined;
}

/** The names of a def's parameter list or of a declaration, up to its end. */
function inside(stream, state) {
  if (state.def) {
    if (stream.eat(')')) {
      state.def = false;
      return 'punctuation';
    }
    const hit = firstMatch(stream, state, DEF_PARAMS);
    if (hit !== undefined) return hit;
  }
  if (state.decl !== null) {
    const d = DECLARATIONS[state.decl];
    if (at(stream, d.end)) state.decl = null;
    else {
      const hit = firstMatch(stream, state, d.names);
      if (hit !== undefined) return hit;
    }
  }
  return undefined;
}

function token(stream, state) {
  if (stream.sol()) {
    state.queue = [];
    state.decl = null;
    state.quote = null;
  }
  if (state.queue.length) return next(stream, state);
  if (state.comment > 0) return blockComment(stream, state);
  if (state.quote) return string(stream, state);
  if (stream.eatSpace()) return null;
  if (stream.match('//')) {
    stream.skipToEnd();
    return 'comment';
  }
  if (stream.match('/*')) {
    state.comment = 1;
    return blockComment(stream, state);
  }
  const within = inside(stream, state);
  if (within !== undefined) return within;
  const q = stream.peek();
  if (q === '"' || q === "'") {
    stream.next();
    state.quote = q;
    return 'string';
  }
  return startOf(stream, state) ?? firstMatch(stream, state, [...INCLUDE, ...EXPRESSION]) ?? (stream.next(), null);
}

/** A `def NAME(` or an `edges`/`nodes` declaration starting here. */
function startOf(stream, state) {
  const m = at(stream, DEF.re);
  if (m) {
    state.def = true;
    return pieces(stream, state, m, DEF);
  }
  for (let i = 0; i < DECLARATIONS.length; i++) {
    const d = at(stream, DECLARATIONS[i].re);
    if (d) {
      state.decl = i;
      return pieces(stream, state, d, DECLARATIONS[i]);
    }
  }
  return undefined;
}

export const dsLanguage = StreamLanguage.define({
  name: 'ds',
  startState: () => ({ comment: 0, def: false, decl: null, quote: null, queue: [] }),
  copyState: (s) => ({ ...s, queue: s.queue.slice() }),
  token,
  languageData: { commentTokens: { line: '//', block: { open: '/*', close: '*/' } } },
});
