// textstress view: draws a comparison (compare.json, the same object `textstress compare` writes) as DOM nodes.
// Every dataset string is set with textContent; edits are found by a word diff of the original and attacked texts.
window.textstressCompareView = function (c, el, h) {
  'use strict';
  var pct = function (x) {
    return x === null || x === undefined ? 'n/a' : (x * 100).toFixed(1) + '%';
  };
  var signed = function (x) {
    return x === null || x === undefined ? 'n/a' : (x >= 0 ? '+' : '−') + Math.abs(x * 100).toFixed(1) + ' pts';
  };
  var pval = function (p) {
    return p === null || p === undefined ? '—' : p < 0.001 ? p.toExponential(1) : p.toFixed(3);
  };
  var iv = function (i, fmt) {
    return i.low === null ? fmt(i.value) : fmt(i.value) + ' [' + fmt(i.low) + ' – ' + fmt(i.high) + ']';
  };

  // Word-level LCS diff: the words of `b` not in the common subsequence are marked as edits.
  function diffWords(a, b) {
    var x = a.split(/(\s+)/);
    var y = b.split(/(\s+)/);
    if (x.length * y.length > 250000) return [{ t: b, e: false }];
    var n = x.length;
    var m = y.length;
    var L = [];
    for (var i = 0; i <= n; i++) L.push(new Uint16Array(m + 1));
    for (i = n - 1; i >= 0; i--)
      for (var j = m - 1; j >= 0; j--) L[i][j] = x[i] === y[j] ? L[i + 1][j + 1] + 1 : Math.max(L[i + 1][j], L[i][j + 1]);
    var out = [];
    i = 0;
    j = 0;
    while (j < m) {
      if (i < n && x[i] === y[j]) {
        out.push({ t: y[j], e: false });
        i++;
        j++;
      } else if (i < n && L[i + 1][j] >= L[i][j + 1]) i++;
      else {
        out.push({ t: y[j], e: /\S/.test(y[j]) });
        j++;
      }
    }
    return out;
  }
  var text = function (v) {
    return Array.isArray(v) ? v.join(' ') : String(v === undefined || v === null ? '' : v);
  };
  function fieldsOf(view) {
    return Object.keys(view.original);
  }
  function highlighted(before, after) {
    var p = el('div', {});
    diffWords(before, after).forEach(function (s) {
      p.append(s.e ? el('ins', { title: 'edited' }, s.t) : document.createTextNode(s.t));
    });
    return p;
  }

  function exampleCard(x) {
    var a = x.a;
    var b = x.b;
    var any = a || b;
    var card = el('article', { class: 'cmp-ex' }, el('h4', {}, x.id));
    if (!any) return card;
    fieldsOf(any).forEach(function (f) {
      card.append(el('div', { class: 'mname' }, f + ' (original)'), el('div', {}, text(any.original[f])));
    });
    card.append(el('div', { class: 'mname' }, 'gold: ' + JSON.stringify(any.gold)));
    var side = function (label, v) {
      if (!v) return el('div', {}, el('b', {}, label), ' n/a');
      var box = el(
        'div',
        {},
        el('b', {}, label + ' (' + v.status + ')'),
        el('div', { class: 'mname' }, 'answer: ' + v.clean_answer + ' → ' + v.attacked_answer),
      );
      fieldsOf(v).forEach(function (f) {
        if (text(v.perturbed[f]) !== text(v.original[f])) box.append(highlighted(text(v.original[f]), text(v.perturbed[f])));
      });
      return box;
    };
    card.append(el('div', { class: 'pair' }, side('A', a), side('B', b)));
    return card;
  }

  var run = function (label, r) {
    return el(
      'li',
      {},
      el('b', {}, label + ': '),
      r.dir + ' — ' + r.recipe + ' on ' + r.model + ', data ' + r.dataset + ', seed ' + r.seed + ', ' + r.n + ' examples',
    );
  };
  var rows = c.metrics.map(function (m) {
    var verdict = m.regression ? 'B significantly worse' : m.improvement ? 'B significantly better' : 'no significant difference';
    return el(
      'tr',
      { 'data-metric': m.metric },
      el('td', {}, m.label || h.label(m.metric)),
      el('td', {}, iv(m.a, pct), el('span', { class: 'n' }, ' n=' + m.a.n)),
      el('td', {}, iv(m.b, pct), el('span', { class: 'n' }, ' n=' + m.b.n)),
      el('td', {}, iv(m.diff, signed)),
      el(
        'td',
        {},
        m.test === 'mcnemar'
          ? 'exact McNemar' + (m.counts ? ' (' + m.counts.onlyA + ' / ' + m.counts.onlyB + ')' : '')
          : 'paired bootstrap',
      ),
      el('td', { class: 'p' }, pval(m.p)),
      el('td', { class: 'p-holm' }, pval(m.p_holm)),
      el('td', { class: m.regression ? 'sig-worse' : m.improvement ? 'sig-better' : '' }, verdict),
    );
  });
  // The query-budget view (attack runs): both curves (the server's SVG) and the paired difference per budget.
  function budgetSection(q) {
    if (!q) return [];
    var num = function (i) {
      return i.value === null
        ? 'n/a'
        : i.value.toFixed(1) + (i.low === null ? '' : ' [' + i.low.toFixed(1) + ' – ' + i.high.toFixed(1) + ']');
    };
    var chart = el('div', { class: 'chart', id: 'cmp-budget-chart' });
    // Drawn by the server with vega from the comparison's numbers (vega escapes its text nodes), as the history chart.
    if (c.query_budget_svg) chart.innerHTML = c.query_budget_svg;
    var brows = q.budgets.map(function (r) {
      return el(
        'tr',
        { 'data-budget': String(r.budget) },
        el('td', {}, '≤ ' + r.budget),
        el('td', {}, iv(r.a, pct), el('span', { class: 'n' }, ' n=' + r.a.n)),
        el('td', {}, iv(r.b, pct), el('span', { class: 'n' }, ' n=' + r.b.n)),
        el('td', {}, iv(r.diff, signed)),
        el('td', {}, 'exact McNemar (' + r.counts.onlyA + ' / ' + r.counts.onlyB + ')'),
        el('td', { class: 'p' }, pval(r.p)),
        el('td', { class: 'p-holm' }, pval(r.p_holm)),
      );
    });
    var qs = q.queries_per_success;
    return [
      el('h3', {}, 'Attack success by query budget'),
      el(
        'p',
        { class: 'count' },
        'Share of attacked examples broken within at most that many queries per example (distinct model inputs, the clean one ' +
          'included); Δ over the examples both runs attacked, Holm over the budgets of this table.',
      ),
      chart,
      el('div', { class: 'scroll' }, h.table(['budget', 'A', 'B', 'Δ (B − A)', 'test', 'p', 'p (Holm)'], brows, { id: 'cmp-budget' })),
      el(
        'p',
        { id: 'cmp-qps' },
        'Queries per successful attack: A ' +
          num(qs.a) +
          ' (n=' +
          qs.a.n +
          '), B ' +
          num(qs.b) +
          ' (n=' +
          qs.b.n +
          '); B − A on the ' +
          qs.diff.n +
          ' examples both runs broke: ' +
          num(qs.diff) +
          ', paired bootstrap p = ' +
          pval(qs.p) +
          '.',
      ),
    ];
  }
  var joined =
    c.joined.mode === 'same'
      ? 'both runs hold the same ' + c.joined.n + ' examples'
      : 'compared on the ' + c.joined.n + ' examples both hold';
  // What tells the two runs apart (recipe, model, data, seed, settings): issue 34, two runs must not read alike.
  var differ = c.differ || [];
  var differs = differ.length
    ? h.table(
        ['what differs', 'A', 'B'],
        differ.map(function (d) {
          return el('tr', { 'data-key': d.key }, el('td', {}, d.label), el('td', {}, d.a), el('td', {}, d.b));
        }),
        { id: 'cmp-differ' },
      )
    : el('p', { id: 'cmp-differ', class: 'count' }, 'Same recipe, model, data, seed and settings.');
  return [
    el('h2', {}, 'A against B'),
    el('ul', {}, run('A', c.a), run('B', c.b)),
    differs,
    el(
      'p',
      { class: 'count' },
      'Joined per example: ' +
        joined +
        '. 95% intervals; paired tests with Holm’s correction over the metrics tested, α = ' +
        c.alpha +
        '; Δ = B − A; seed ' +
        c.seed +
        '.',
    ),
    el('p', {}, el('b', { id: 'cmp-verdict' }, c.regression ? 'Significant regression in B.' : 'No significant regression in B.')),
    el(
      'div',
      { class: 'scroll' },
      h.table(['metric', 'A', 'B', 'Δ (B − A)', 'test', 'p', 'p (Holm)', 'verdict'], rows, { id: 'cmp-metrics' }),
    ),
  ].concat(budgetSection(c.query_budget), [
    el('h3', {}, 'Newly broke: right under attack in A, wrong in B (' + c.newly_broke_n + ')'),
    el('div', { id: 'cmp-broke' }, c.newly_broke.map(exampleCard)),
    el('h3', {}, 'Newly held: wrong under attack in A, right in B (' + c.newly_held_n + ')'),
    el('div', { id: 'cmp-held' }, c.newly_held.map(exampleCard)),
  ]);
};
