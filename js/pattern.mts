// JSON Schema `pattern` in linear time (internal module). A tool's arguments are chosen by the
// model, and JavaScript's own RegExp backtracks: `^(a+)+$` on 30 characters and a `!` takes
// seconds, on 10,000 forever, and even `[a-z]+@` is quadratic as a search. So a pattern is parsed
// here into a small program and run as a Thompson NFA (a Pike VM without captures): every
// character is read once, with at most one thread per instruction, so the time is at most the
// string's length times the program's size, whatever the pattern. What one character matches
// (`.`, `[...]`, `\d`, `\p{L}`, a literal) is still decided by JavaScript's RegExp, on that one
// character, so the semantics are ECMAScript's (Unicode mode when the pattern reads in it, as the
// schema checker always did). Not checked, because no linear-time match exists for them:
// backreferences (`\1`, `\k<name>`) and lookarounds (`(?=`, `(?!`, `(?<=`, `(?<!`); nor a
// pattern whose program would exceed MAX_PROGRAM instructions (`a{1,100000}`).

/** How a value fares against a pattern. */
export type PatternVerdict = "match" | "no_match" | "unchecked" | "over_budget";

/** The most instructions a pattern's program may have (counted repetitions are unrolled). */
const MAX_PROGRAM = 20_000;
/** The most thread steps one test may take (about a second at worst; ordinary patterns on 1 MB take a fraction). */
const MAX_STEPS = 50_000_000;
/** How many compiled patterns are kept. */
const CACHE_SIZE = 256;

const CHAR = 0;
const SPLIT = 1;
const JMP = 2;
const ASSERT = 3;
const MATCH = 4;

const BOL = 0;
const EOL = 1;
const WORD_BOUNDARY = 2;
const NOT_WORD_BOUNDARY = 3;

/** What one character matches: JavaScript's RegExp on that character, remembered. */
class CharSet {
  readonly #re: RegExp;
  readonly #ascii = new Int8Array(128); // 0 not yet asked, 1 matches, 2 does not
  #other = new Map<number, boolean>();

  constructor(re: RegExp) {
    this.#re = re;
  }

  has(c: number, unicode: boolean): boolean {
    if (c < 128) {
      const known = this.#ascii[c];
      if (known !== 0) return known === 1;
      const yes = this.#re.test(String.fromCharCode(c));
      this.#ascii[c] = yes ? 1 : 2;
      return yes;
    }
    const known = this.#other.get(c);
    if (known !== undefined) return known;
    const yes = this.#re.test(unicode ? String.fromCodePoint(c) : String.fromCharCode(c));
    if (this.#other.size >= 4096) this.#other = new Map();
    this.#other.set(c, yes);
    return yes;
  }
}

type Node =
  | { t: "char"; set: number }
  | { t: "assert"; kind: number }
  | { t: "cat"; items: Node[] }
  | { t: "alt"; items: Node[] }
  | { t: "rep"; node: Node; min: number; max: number };

/** A pattern it declines to run (a backreference, a lookaround, an atom RegExp cannot read alone). */
class Unsupported extends Error {}

const QUANTIFIER = /\{(\d+)(?:(,)(\d*))?\}/y;
const HEX2 = /[0-9a-fA-F]{2}/y;
const HEX4 = /[0-9a-fA-F]{4}/y;

/** Parses a pattern JavaScript already accepted (with `unicode` or without) into a tree. */
class Parser {
  readonly #src: string;
  readonly #unicode: boolean;
  readonly #flags: string;
  #pos = 0;
  readonly sets: CharSet[] = [];
  readonly #setIndex = new Map<string, number>();

  constructor(src: string, unicode: boolean) {
    this.#src = src;
    this.#unicode = unicode;
    this.#flags = unicode ? "u" : "";
  }

  parse(): Node {
    const node = this.#alternation();
    if (this.#pos < this.#src.length) throw new Unsupported("unbalanced");
    return node;
  }

  #alternation(): Node {
    const items = [this.#sequence()];
    while (this.#src[this.#pos] === "|") {
      this.#pos++;
      items.push(this.#sequence());
    }
    return items.length === 1 ? (items[0] as Node) : { t: "alt", items };
  }

  #sequence(): Node {
    const items: Node[] = [];
    for (;;) {
      const c = this.#src[this.#pos];
      if (c === undefined || c === "|" || c === ")") break;
      items.push(this.#quantified(this.#term()));
    }
    return items.length === 1 ? (items[0] as Node) : { t: "cat", items };
  }

  #quantified(node: Node): Node {
    const c = this.#src[this.#pos];
    let min: number;
    let max: number;
    if (c === "*") [min, max] = [0, Infinity];
    else if (c === "+") [min, max] = [1, Infinity];
    else if (c === "?") [min, max] = [0, 1];
    else if (c === "{") {
      QUANTIFIER.lastIndex = this.#pos;
      const m = QUANTIFIER.exec(this.#src);
      if (m === null) return node; // a literal `{` (outside Unicode mode)
      min = Number(m[1]);
      max = m[2] === undefined ? min : m[3] === "" ? Infinity : Number(m[3]);
      this.#pos += m[0].length - 1;
    } else return node;
    this.#pos++;
    if (this.#src[this.#pos] === "?") this.#pos++; // lazy: the same strings match
    return { t: "rep", node, min, max };
  }

  #term(): Node {
    const src = this.#src;
    const start = this.#pos;
    const c = src[start];
    if (c === "^") return this.#assert(BOL, 1);
    if (c === "$") return this.#assert(EOL, 1);
    if (c === "(") return this.#group();
    if (c === "[") {
      let i = start + 1;
      if (src[i] === "^") i++;
      while (i < src.length && src[i] !== "]") i += src[i] === "\\" ? 2 : 1;
      return this.#char(i + 1 - start);
    }
    if (c === "\\") return this.#escape();
    // a literal, or `.`: one code point in Unicode mode
    const width = this.#unicode && (src.codePointAt(start) ?? 0) > 0xffff ? 2 : 1;
    return this.#char(width);
  }

  #assert(kind: number, width: number): Node {
    this.#pos += width;
    return { t: "assert", kind };
  }

  #group(): Node {
    const src = this.#src;
    let i = this.#pos + 1;
    if (src[i] === "?") {
      if (src[i + 1] === ":") i += 2;
      else if (src[i + 1] === "<" && src[i + 2] !== "=" && src[i + 2] !== "!") {
        const close = src.indexOf(">", i);
        if (close < 0) throw new Unsupported("group name");
        i = close + 1;
      } else throw new Unsupported("lookaround or modifier");
    }
    this.#pos = i;
    const inner = this.#alternation();
    if (src[this.#pos] !== ")") throw new Unsupported("unbalanced");
    this.#pos++;
    return inner;
  }

  #escape(): Node {
    const src = this.#src;
    const at = this.#pos;
    const d = src[at + 1];
    if (d === undefined) throw new Unsupported("trailing backslash");
    if (d === "b") return this.#assert(WORD_BOUNDARY, 2);
    if (d === "B") return this.#assert(NOT_WORD_BOUNDARY, 2);
    if ((d >= "1" && d <= "9") || d === "k") throw new Unsupported("backreference");
    if (d === "0" && /[0-9]/.test(src[at + 2] ?? "")) throw new Unsupported("octal escape");
    if (d === "c") {
      if (!/[A-Za-z]/.test(src[at + 2] ?? "")) throw new Unsupported("\\c without a letter");
      return this.#char(3);
    }
    if (d === "x") {
      HEX2.lastIndex = at + 2;
      return this.#char(HEX2.test(src) ? 4 : 2);
    }
    if (d === "u") {
      if (this.#unicode && src[at + 2] === "{") return this.#char(src.indexOf("}", at) + 1 - at);
      HEX4.lastIndex = at + 2;
      if (!HEX4.test(src)) return this.#char(2);
      const unit = parseInt(src.slice(at + 2, at + 6), 16);
      // Unicode mode reads an escaped surrogate pair as one code point
      if (this.#unicode && unit >= 0xd800 && unit <= 0xdbff && src[at + 6] === "\\" && src[at + 7] === "u") {
        HEX4.lastIndex = at + 8;
        if (HEX4.test(src)) {
          const next = parseInt(src.slice(at + 8, at + 12), 16);
          if (next >= 0xdc00 && next <= 0xdfff) return this.#char(12);
        }
      }
      return this.#char(6);
    }
    if ((d === "p" || d === "P") && this.#unicode) return this.#char(src.indexOf("}", at) + 1 - at);
    const width = this.#unicode && (src.codePointAt(at + 1) ?? 0) > 0xffff ? 3 : 2;
    return this.#char(width);
  }

  /** The next `width` characters of the pattern are one character's set. */
  #char(width: number): Node {
    const source = this.#src.slice(this.#pos, this.#pos + width);
    this.#pos += width;
    let set = this.#setIndex.get(source);
    if (set === undefined) {
      let re: RegExp;
      try {
        re = new RegExp(`^(?:${source})$`, this.#flags);
      } catch {
        throw new Unsupported("an atom RegExp cannot read alone");
      }
      set = this.sets.push(new CharSet(re)) - 1;
      this.#setIndex.set(source, set);
    }
    return { t: "char", set };
  }
}

/** How many instructions `node` compiles to (Infinity past MAX_PROGRAM). */
function size(node: Node): number {
  let n: number;
  switch (node.t) {
    case "char":
    case "assert":
      return 1;
    case "cat":
      n = node.items.reduce((sum, item) => sum + size(item), 0);
      break;
    case "alt":
      n = node.items.reduce((sum, item) => sum + size(item) + 2, 0);
      break;
    case "rep": {
      const one = size(node.node);
      n = node.min * one + (node.max === Infinity ? one + 2 : (node.max - node.min) * (one + 1));
      break;
    }
  }
  return n > MAX_PROGRAM ? Infinity : n;
}

interface Program {
  op: Uint8Array;
  x: Int32Array;
  y: Int32Array;
  sets: CharSet[];
  unicode: boolean;
  /** Every match starts at the string's start (`^…`): no thread starts later. */
  anchored: boolean;
}

function compile(root: Node, sets: CharSet[], unicode: boolean): Program {
  const length = size(root) + 1;
  const op = new Uint8Array(length);
  const x = new Int32Array(length);
  const y = new Int32Array(length);
  let pc = 0;
  const emit = (code: number, a = 0, b = 0): number => {
    op[pc] = code;
    x[pc] = a;
    y[pc] = b;
    return pc++;
  };
  const gen = (node: Node): void => {
    switch (node.t) {
      case "char":
        emit(CHAR, node.set);
        return;
      case "assert":
        emit(ASSERT, node.kind);
        return;
      case "cat":
        for (const item of node.items) gen(item);
        return;
      case "alt": {
        const jumps: number[] = [];
        node.items.forEach((item, i) => {
          const last = i === node.items.length - 1;
          const split = last ? -1 : emit(SPLIT, pc + 1, 0);
          gen(item);
          if (!last) {
            jumps.push(emit(JMP, 0));
            y[split] = pc;
          }
        });
        for (const j of jumps) x[j] = pc;
        return;
      }
      case "rep": {
        for (let k = 0; k < node.min; k++) gen(node.node);
        if (node.max === Infinity) {
          const loop = emit(SPLIT, pc + 1, 0);
          gen(node.node);
          emit(JMP, loop);
          y[loop] = pc;
        } else {
          const splits: number[] = [];
          for (let k = node.min; k < node.max; k++) {
            splits.push(emit(SPLIT, pc + 1, 0));
            gen(node.node);
          }
          for (const s of splits) y[s] = pc;
        }
        return;
      }
    }
  };
  gen(root);
  emit(MATCH);
  const first = root.t === "cat" ? root.items[0] : root;
  return { op, x, y, sets, unicode, anchored: first?.t === "assert" && first.kind === BOL };
}

const isWord = (c: number): boolean => (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95;

/** Runs `prog` over `s` as a search (a match may start and end anywhere, as `RegExp.test`). */
function run(prog: Program, s: string): "match" | "no_match" | "over_budget" {
  const { op, x, y, sets, unicode } = prog;
  const n = s.length;
  const size = op.length;
  let current = new Int32Array(size);
  let next = new Int32Array(size);
  let count = 0;
  let nextCount = 0;
  const mark = new Int32Array(size).fill(-1);
  const stack = new Int32Array(size * 2 + 2);
  let steps = 0;
  /** Adds the thread at `start` and what it reaches without reading, at string index `at`; true on a match. */
  const add = (list: Int32Array, start: number, at: number, gen: number): boolean => {
    let top = 0;
    stack[top++] = start;
    while (top > 0) {
      const pc = stack[--top] as number;
      if (mark[pc] === gen) continue;
      mark[pc] = gen;
      steps++;
      switch (op[pc]) {
        case CHAR:
          list[nextCount++] = pc;
          break;
        case MATCH:
          return true;
        case JMP:
          stack[top++] = x[pc] as number;
          break;
        case SPLIT:
          stack[top++] = y[pc] as number;
          stack[top++] = x[pc] as number;
          break;
        case ASSERT: {
          const kind = x[pc];
          let holds: boolean;
          if (kind === BOL) holds = at === 0;
          else if (kind === EOL) holds = at === n;
          else {
            const boundary = (at > 0 && isWord(s.charCodeAt(at - 1))) !== (at < n && isWord(s.charCodeAt(at)));
            holds = kind === WORD_BOUNDARY ? boundary : !boundary;
          }
          if (holds) stack[top++] = pc + 1;
          break;
        }
      }
    }
    return false;
  };
  let gen = 0;
  for (let i = 0; ; ) {
    // the threads at i were added with generation `gen`; a match may also start here
    if (i === 0 || !prog.anchored) {
      nextCount = count;
      if (add(current, 0, i, gen)) return "match";
      count = nextCount;
    }
    if (i >= n || count === 0 && prog.anchored) return "no_match";
    if (steps > MAX_STEPS) return "over_budget";
    const c = unicode ? (s.codePointAt(i) as number) : s.charCodeAt(i);
    const width = c > 0xffff ? 2 : 1;
    gen++;
    nextCount = 0;
    for (let k = 0; k < count; k++) {
      const pc = current[k] as number;
      steps++;
      if ((sets[x[pc] as number] as CharSet).has(c, unicode) && add(next, pc + 1, i + width, gen)) return "match";
    }
    [current, next] = [next, current];
    count = nextCount;
    i += width;
  }
}

const cache = new Map<string, Program | null>();

/** The program of `pattern`, or null when it is not checked (JavaScript cannot read it, or it needs backtracking). */
function programOf(pattern: string): Program | null {
  const known = cache.get(pattern);
  if (known !== undefined) return known;
  let program: Program | null = null;
  // Unicode mode first, else as written (`\-` is refused in Unicode mode), as RegExp reads it
  for (const unicode of [true, false]) {
    try {
      new RegExp(pattern, unicode ? "u" : "");
    } catch {
      continue;
    }
    try {
      const parser = new Parser(pattern, unicode);
      const tree = parser.parse();
      if (size(tree) !== Infinity) program = compile(tree, parser.sets, unicode);
    } catch (e) {
      if (!(e instanceof Unsupported)) throw e;
    }
    break;
  }
  if (cache.size >= CACHE_SIZE) cache.clear();
  cache.set(pattern, program);
  return program;
}

/**
 * Whether `value` matches `pattern` (a search, as `new RegExp(pattern, "u").test(value)`), in
 * time linear in `value`'s length; `"unchecked"` for a pattern JavaScript cannot read or that
 * needs backtracking (a backreference, a lookaround) or is too large; `"over_budget"` when the
 * test would take more than MAX_STEPS steps.
 */
export function testPattern(pattern: string, value: string): PatternVerdict {
  const program = programOf(pattern);
  return program === null ? "unchecked" : run(program, value);
}
