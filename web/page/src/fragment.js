// The address fragment (docs/language.md, decision 20): `#example=NAME`, `args=A,B,...` (each
// argument URL-encoded, commas between), `code=...` (the program, compressed by lz-string:
// the permalink), `start=`, `next=`, `goal=`, `h=`, `view=`, `symmetry=` (the Explore fields,
// URL-encoded), `time=S`, `steps=N`, `memory=MB` (the limits' fields), `run` (run at once) and
// `explore` (explore at once), joined by `&`. Also the arguments field's own form:
// words separated by spaces, "double quotes" around a word with spaces.
// lz-string is a CommonJS module: its default export holds the functions.
import LZString from 'lz-string';

const { compressToEncodedURIComponent, decompressFromEncodedURIComponent } = LZString;

/** The limits a link may carry, in the order a link writes them. */
export const LIMITS = ['time', 'steps', 'memory'];

/** The Explore fields a link may carry (ds explore's options), in the order a link writes them. */
export const EXPLORE = ['start', 'next', 'goal', 'h', 'view', 'symmetry'];

/** The parts of a fragment (with or without its `#`): {example, args, code, limits, explore,
 * run, exploreNow, problems}. `code` is the program's text, `limits` the limits it gives by
 * name (numbers > 0), `explore` the Explore fields it gives by name; a part that cannot be read
 * is named in `problems`. */
export function parseFragment(hash) {
  const out = { example: null, args: null, code: null, limits: {}, explore: {}, run: false, exploreNow: false, problems: [] };
  const text = hash.startsWith('#') ? hash.slice(1) : hash;
  for (const part of text.split('&').filter((p) => p !== '')) {
    const eq = part.indexOf('=');
    const key = eq < 0 ? part : part.slice(0, eq);
    const value = eq < 0 ? null : part.slice(eq + 1);
    if (key === 'run' && value === null) out.run = true;
    else if (key === 'explore' && value === null) out.exploreNow = true;
    else if (EXPLORE.includes(key) && value) out.explore[key] = decode(value, out.problems, key);
    else if (key === 'example' && value) out.example = decode(value, out.problems, 'example');
    else if (key === 'args' && value !== null) {
      out.args = value === '' ? [] : value.split(',').map((a) => decode(a, out.problems, 'args'));
    } else if (key === 'code' && value !== null) {
      const code = decompressFromEncodedURIComponent(value);
      if (typeof code === 'string' && (code !== '' || value === '')) out.code = code;
      else out.problems.push('the program in this link (code=...) is damaged: it cannot be decompressed');
    } else if (LIMITS.includes(key) && value !== null) {
      const n = Number(value);
      if (value !== '' && Number.isFinite(n) && n > 0) out.limits[key] = n;
      else out.problems.push(`the link's limit ${key} must be a number > 0, not \`${value.slice(0, 20)}\``);
    } else out.problems.push(`the link has a part this page does not know: \`${part.slice(0, 40)}\``);
  }
  return out;
}

function decode(text, problems, what) {
  try {
    return decodeURIComponent(text);
  } catch {
    problems.push(`the link's ${what} are not URL-encoded properly`);
    return text;
  }
}

/** The fragment (with its `#`) for an example or a program, its arguments, its limits (by
 * name: `{time, steps, memory}`, those given), its Explore fields (by name, those given) and
 * `run`. */
export function makeFragment({ example = null, code = null, args = [], limits = {}, explore = {}, run = false }) {
  const parts = [];
  if (code !== null) parts.push('code=' + compressToEncodedURIComponent(code));
  else if (example) parts.push('example=' + encodeURIComponent(example));
  if (args.length) parts.push('args=' + args.map(encodeURIComponent).join(','));
  for (const key of EXPLORE) if (explore[key]) parts.push(`${key}=${encodeURIComponent(explore[key])}`);
  for (const key of LIMITS) if (limits[key] !== undefined) parts.push(`${key}=${encodeURIComponent(limits[key])}`);
  if (run) parts.push('run');
  return '#' + parts.join('&');
}

/** The arguments typed in the field: words split at spaces, a "quoted" part kept whole
 * (`\"` inside quotes is a quote). */
export function splitArgs(text) {
  const args = [];
  let word = null;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '"') {
      word ??= '';
      for (i++; i < text.length && text[i] !== '"'; i++) {
        if (text[i] === '\\' && text[i + 1] === '"') i++;
        word += text[i];
      }
    } else if (/\s/.test(c)) {
      if (word !== null) args.push(word);
      word = null;
    } else word = (word ?? '') + c;
  }
  if (word !== null) args.push(word);
  return args;
}

/** The field's text for some arguments: the inverse of `splitArgs`. */
export function joinArgs(args) {
  return args.map((a) => (a === '' || /[\s"]/.test(a) ? '"' + a.replace(/"/g, '\\"') + '"' : a)).join(' ');
}
