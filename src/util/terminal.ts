/**
 * Text from data made safe to print on a terminal: control characters shown, not obeyed. A data row holding an
 * OSC sequence (ESC ] 0 ; title BEL) would retitle the user's terminal, one holding colour codes (ESC [ 31 m) would
 * recolour the lines after it, a carriage return would overwrite what came before, and a bidi override would show
 * the text in another order than the bytes the model read.
 */

/** The C0 controls and DEL as their Unicode control pictures (ESC → ␛, BEL → ␇), C1 and bidi controls as \uXXXX. */
function picture(c: string): string {
  const code = c.charCodeAt(0);
  if (code < 0x20) return String.fromCharCode(0x2400 + code);
  if (code === 0x7f) return '\u2421';
  return `\\u${code.toString(16).padStart(4, '0')}`;
}

// C0 controls, DEL, C1 controls (U+0080–U+009F), and the bidi embeddings, overrides and isolates.
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;
// The same but newline and tab: for whole blocks of output whose lines the program itself laid out.
// eslint-disable-next-line no-control-regex -- as above
const CONTROL_BUT_LAYOUT = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;

/**
 * `s` with every control character visible (ESC as ␛, BEL as ␇, CR as ␍, U+202E as \u202e); printable text is
 * unchanged, and applying it twice changes nothing more. `keepLayout` keeps newlines and tabs: for a whole block of
 * output rather than one field of data.
 */
export function terminalSafe(s: string, opts: { keepLayout?: boolean } = {}): string {
  return s.replace(opts.keepLayout ? CONTROL_BUT_LAYOUT : CONTROL, picture);
}

// What JSON.stringify leaves raw that a terminal obeys: DEL, the C1 controls and the bidi controls (it escapes C0).
const RAW_IN_JSON = /[\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;

/**
 * `value` as indented JSON and a newline, for printing: the same value when parsed, but no byte of it a terminal
 * obeys (JSON.stringify escapes the C0 controls; this also writes DEL, C1 and bidi controls as \uXXXX escapes).
 */
export function jsonForTerminal(value: unknown): string {
  return JSON.stringify(value, null, 2).replace(RAW_IN_JSON, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`) + '\n';
}
