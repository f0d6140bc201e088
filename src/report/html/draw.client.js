// Drawing for the example browser (browser.client.js, which runs after this): edits, and QA answer spans over a
// context (pieces from qa-spans.ts). Every node is built with createElement/textContent, so dataset text is never
// parsed as HTML. test/report/draw.test.ts runs these functions on a stand-in document and checks their HTML.
var textstressDraw = (function () {
  'use strict';
  var GOLD = 1;
  var PRED = 2;
  // Also the tooltip of each span: the styles differ in line (solid underline, dashed overline), not colour alone.
  var SPAN_NAMES = ['', 'gold answer', 'model’s answer', 'gold answer and model’s answer'];

  function el(tag, cls, text) {
    var n = document.createElement(tag);
    if (cls) n.className = cls;
    if (text !== undefined && text !== null) n.textContent = String(text);
    return n;
  }

  /** An edit as one side reads it: struck out before (del), labelled with its type after (mark). */
  function editMark(before, after, t, side, types, fill) {
    var type = types[t] || { id: 'edit', label: 'edit' };
    var m = el(side === 0 ? 'del' : 'mark', 'e c' + (t % 8));
    m.title = type.id + ': “' + before + '” → “' + after + '”';
    if ((side === 0 ? before : after) === '') {
      m.className += ' gap';
      m.textContent = side === 0 ? '‸' : '∅';
    } else fill(m);
    if (side === 1) m.appendChild(el('span', 'et', type.label));
    return m;
  }

  /** A text's segments (highlight.ts) as one side reads them (0 original, 1 perturbed). */
  function segments(segs, side, types) {
    var p = el('p', 'txt');
    segs.forEach(function (s) {
      if (typeof s === 'string') p.appendChild(document.createTextNode(s));
      else
        p.appendChild(
          editMark(s[0], s[1], s[2], side, types, function (m) {
            m.textContent = s[side];
          }),
        );
    });
    return p;
  }

  /** Text under the spans `bits`; returns its span (null for plain text), so the next run can extend it. */
  function run(parent, text, bits, prev) {
    if (!bits) {
      parent.appendChild(document.createTextNode(text));
      return null;
    }
    // Pieces are split where the other side's spans start or end: one side draws same-span neighbours as one span.
    if (prev && prev.bits === bits) {
      prev.node.textContent += text;
      return prev;
    }
    var s = el('span', 'qa' + (bits & GOLD ? ' g' : '') + (bits & PRED ? ' p' : ''), text);
    s.title = SPAN_NAMES[bits & 3];
    parent.appendChild(s);
    return { bits: bits, node: s };
  }

  function joined(runs) {
    return runs
      .map(function (r) {
        return r[0];
      })
      .join('');
  }

  function pieces(parent, list, side, types) {
    var prev = null;
    list.forEach(function (x) {
      var last = prev;
      prev = null;
      if (typeof x === 'string') parent.appendChild(document.createTextNode(x));
      else if (Array.isArray(x)) prev = run(parent, x[0], x[side + 1], last);
      else if (x.f) {
        var ell = el('span', 'ell', ' … ');
        ell.setAttribute('aria-hidden', 'true');
        parent.appendChild(ell);
        var f = el('span', 'fold');
        pieces(f, x.f, side, types);
        parent.appendChild(f);
      } else if (x.cut !== undefined) parent.appendChild(el('span', 'cut', ' [' + x.cut + ' characters not kept in this report] '));
      else {
        var own = side === 0 ? x.b : x.a;
        parent.appendChild(
          editMark(joined(x.b), joined(x.a), x.t, side, types, function (m) {
            own.forEach(function (r) {
              run(m, r[0], r[1], null);
            });
          }),
        );
      }
    });
  }

  /** One side of a QA context (0 before the attack, 1 after) with its answer spans and edits. */
  function context(list, side, types) {
    var p = el('p', 'txt ctx');
    pieces(p, list, side, types);
    return p;
  }

  /** The context pieces hold folded text. */
  function folds(list) {
    return list.some(function (x) {
      return x !== null && typeof x === 'object' && !Array.isArray(x) && x.f !== undefined;
    });
  }

  /** The before-side text of context pieces (folded parts too), for the free-text search. */
  function plain(list) {
    return list
      .map(function (x) {
        if (typeof x === 'string') return x;
        if (Array.isArray(x)) return x[0];
        if (x.f) return plain(x.f);
        return x.b ? joined(x.b) : '';
      })
      .join('');
  }

  function score(em, f1) {
    return 'EM ' + (em === null ? 'n/a' : String(em)) + ' · F1 ' + (f1 === null ? 'n/a' : f1.toFixed(2));
  }

  function answer(text, cls) {
    return text === '' ? el('i', 'none', 'no answer') : el('span', cls, text);
  }

  /** Gold answers, and the model's answer with EM/F1 before → after, in the spans' own styles (a legend in place). */
  function answers(ex) {
    var d = el('div', 'pred');
    d.appendChild(el('span', 'k', ex.q.ga.length > 1 ? 'gold answers' : 'gold answer'));
    ex.q.ga.forEach(function (g) {
      d.appendChild(el('span', 'qa g', g));
    });
    d.appendChild(el('span', 'k', 'model before'));
    d.appendChild(answer(ex.b[0], 'qa p'));
    d.appendChild(el('span', 'score', score(ex.q.m[0], ex.q.m[1])));
    d.appendChild(el('span', 'arrow', '→'));
    d.appendChild(el('span', 'k', 'after'));
    d.appendChild(answer(ex.a[0], 'qa p' + (ex.a[0] !== ex.b[0] ? ' flip' : '')));
    d.appendChild(el('span', 'score', score(ex.q.m[2], ex.q.m[3])));
    return d;
  }

  return { el: el, segments: segments, context: context, folds: folds, plain: plain, answers: answers };
})();
