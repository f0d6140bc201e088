/**
 * Just enough of a `document` to run the report's drawing code (src/report/html/draw.client.js) in Node, with
 * elements serialised as browsers serialise them (HTML fragment serialisation: in text & < > and no-break space
 * are escaped, in attribute values those and " too, as current Chromium does; attributes in the order first set).
 */
import { readFileSync } from 'node:fs';

const escText = (s: string): string =>
  s
    .replace(/&/g, '&amp;')
    .replace(/\u00a0/g, '&nbsp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;');
const escAttr = (s: string): string => escText(s).replace(/"/g, '&quot;');

class StubText {
  constructor(readonly data: string) {}
  get outerHTML(): string {
    return escText(this.data);
  }
  get textContent(): string {
    return this.data;
  }
}

export class StubElement {
  readonly tagName: string;
  private readonly attrs = new Map<string, string>();
  children: (StubElement | StubText)[] = [];

  constructor(tag: string) {
    this.tagName = tag;
  }
  get className(): string {
    return this.attrs.get('class') ?? '';
  }
  set className(v: string) {
    this.attrs.set('class', v);
  }
  get title(): string {
    return this.attrs.get('title') ?? '';
  }
  set title(v: string) {
    this.attrs.set('title', v);
  }
  setAttribute(name: string, value: string): void {
    this.attrs.set(name, String(value));
  }
  appendChild<T extends StubElement | StubText>(n: T): T {
    this.children.push(n);
    return n;
  }
  get textContent(): string {
    return this.children.map((c) => c.textContent).join('');
  }
  set textContent(v: string) {
    this.children = v === '' ? [] : [new StubText(v)];
  }
  get innerHTML(): string {
    return this.children.map((c) => c.outerHTML).join('');
  }
  get outerHTML(): string {
    const attrs = [...this.attrs].map(([k, v]) => ` ${k}="${escAttr(v)}"`).join('');
    return `<${this.tagName}${attrs}>${this.innerHTML}</${this.tagName}>`;
  }
}

export const stubDocument = {
  createElement: (tag: string): StubElement => new StubElement(tag),
  createTextNode: (data: string): StubText => new StubText(data),
};

/** What draw.client.js returns (textstressDraw), with the types the tests use. */
export interface Draw {
  segments(segs: unknown[], side: 0 | 1, types: { id: string; label: string }[]): StubElement;
  context(pieces: unknown[], side: 0 | 1, types: { id: string; label: string }[]): StubElement;
  answers(ex: unknown): StubElement;
  folds(pieces: unknown[]): boolean;
  plain(pieces: unknown[]): string;
}

/** The report's drawing code, run against the stand-in document. */
export function loadDraw(): Draw {
  const src = readFileSync(new URL('../../src/report/html/draw.client.js', import.meta.url), 'utf8');
  return new Function('document', `${src}\nreturn textstressDraw;`)(stubDocument) as Draw;
}
