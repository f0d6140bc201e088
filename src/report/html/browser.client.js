// The report's script, after draw.client.js (textstressDraw): the example browser (filters, paging). It builds
// every node with createElement/textContent, so dataset text is never parsed as HTML.
(function () {
  'use strict';
  var island = document.getElementById('report-data');
  if (!island) return;
  var data = JSON.parse(island.textContent || '{}');
  var D = textstressDraw;
  var PAGE = 20;
  var STATUS = ['attack succeeded', 'attack failed', 'skipped'];
  var $ = function (id) {
    return document.getElementById(id);
  };
  var el = D.el;
  var state = { family: '', type: '', status: '', run: '', q: '', page: 0 };

  function option(select, value, label) {
    var o = el('option', null, label);
    o.value = value;
    select.appendChild(o);
  }
  data.families.forEach(function (f, i) {
    option($('eb-family'), String(i), f.title);
  });
  data.types.forEach(function (t, i) {
    option($('eb-type'), String(i), t.label + '  [' + t.id + ']');
  });
  data.runs.forEach(function (r, i) {
    option($('eb-run'), String(i), r.label);
  });

  function matches(ex) {
    if (state.family !== '' && data.runs[ex.r].family !== Number(state.family)) return false;
    if (state.run !== '' && ex.r !== Number(state.run)) return false;
    if (state.status !== '' && ex.s !== Number(state.status)) return false;
    if (state.type !== '' && ex.t.indexOf(Number(state.type)) < 0) return false;
    if (state.q) {
      var hay =
        ex.id +
        ' ' +
        ex.g +
        ' ' +
        ex.x
          .map(function (s) {
            return typeof s === 'string' ? s : s[0] + ' ' + s[1];
          })
          .join('') +
        (ex.q ? ' ' + ex.b[0] + ' ' + ex.a[0] + ' ' + D.plain(ex.q.c) : '');
      if (hay.toLowerCase().indexOf(state.q) < 0) return false;
    }
    return true;
  }

  // Classifiers and taggers: gold, prediction before → after, and the edited field's text before and after.
  function textBody(a, ex) {
    var pr = el('div', 'pred');
    pr.appendChild(el('span', 'k', 'gold'));
    pr.appendChild(el('b', 'gold', ex.g));
    pr.appendChild(el('span', 'k', 'before'));
    pr.appendChild(el('b', null, ex.b[0]));
    pr.appendChild(el('span', 'score', ex.b[1].toFixed(3)));
    pr.appendChild(el('span', 'arrow', '→'));
    pr.appendChild(el('span', 'k', 'after'));
    pr.appendChild(el('b', ex.a[0] !== ex.b[0] ? 'flip' : null, ex.a[0]));
    pr.appendChild(el('span', 'score', ex.a[1].toFixed(3)));
    if (ex.f) pr.appendChild(el('span', 'field', 'field: ' + ex.f));
    a.appendChild(pr);
    var rows = el('div', 'texts');
    rows.appendChild(el('span', 'lbl', 'original'));
    rows.appendChild(D.segments(ex.x, 0, data.types));
    rows.appendChild(el('span', 'lbl', 'perturbed'));
    rows.appendChild(D.segments(ex.x, 1, data.types));
    a.appendChild(rows);
    if (ex.tg) a.appendChild(tagTable(ex.tg));
  }

  // Taggers: one column per token; rows for the words, gold tags and the predicted tags before and after the edit.
  // A predicted tag that differs from gold is marked wrong; one the edit changed is marked changed.
  function tagTable(tg) {
    var wrap = el('div', 'scroll tags');
    var table = el('table', 'tags');
    var rows = [
      ['token', tg.w, null],
      ['after edit', tg.pw, null],
      ['gold', tg.g, null],
      ['predicted before', tg.b, 'b'],
      ['predicted after', tg.a, 'a'],
    ];
    rows.forEach(function (row) {
      var tr = el('tr');
      tr.appendChild(el('th', null, row[0]));
      row[1].forEach(function (v, i) {
        var cls = [];
        if (row[2] && v !== tg.g[i]) cls.push('wrong');
        if (row[2] === 'a' && v !== tg.b[i]) cls.push('changed');
        if (row[0] === 'after edit' && v !== tg.w[i]) cls.push('changed');
        tr.appendChild(el('td', cls.join(' ') || null, v));
      });
      table.appendChild(tr);
    });
    wrap.appendChild(table);
    if (tg.from > 0) wrap.appendChild(el('div', 'notes', 'tokens from ' + (tg.from + 1)));
    return wrap;
  }

  // QA: the question (before/after when it was edited) and the context before/after with the answer spans.
  function qaBody(a, ex) {
    a.appendChild(D.answers(ex));
    var rows = el('div', 'texts');
    var edited = ex.x.some(function (s) {
      return typeof s !== 'string';
    });
    rows.appendChild(el('span', 'lbl', edited ? 'question before' : 'question'));
    rows.appendChild(D.segments(ex.x, 0, data.types));
    if (edited) {
      rows.appendChild(el('span', 'lbl', 'question after'));
      rows.appendChild(D.segments(ex.x, 1, data.types));
    }
    if (ex.q.c.length) {
      rows.appendChild(el('span', 'lbl', 'context before'));
      rows.appendChild(D.context(ex.q.c, 0, data.types));
      rows.appendChild(el('span', 'lbl', 'context after'));
      rows.appendChild(D.context(ex.q.c, 1, data.types));
    }
    a.appendChild(rows);
    if (ex.q.n) a.appendChild(el('div', 'why', ex.q.n));
    if (D.folds(ex.q.c)) {
      var more = el('button', 'more', 'show the whole context');
      more.type = 'button';
      more.setAttribute('aria-expanded', 'false');
      more.addEventListener('click', function () {
        var open = a.classList.toggle('open');
        more.setAttribute('aria-expanded', String(open));
        more.textContent = open ? 'show less' : 'show the whole context';
      });
      a.appendChild(more);
    }
  }

  function card(ex) {
    var run = data.runs[ex.r];
    var a = el('article', 'ex st' + ex.s);
    a.setAttribute('data-status', String(ex.s));
    var h = el('header');
    h.appendChild(el('span', 'chip', data.families[run.family].title));
    h.appendChild(el('span', 'run', run.label));
    h.appendChild(el('span', 'id', ex.id));
    h.appendChild(el('span', 'badge b' + ex.s, ex.k || STATUS[ex.s]));
    a.appendChild(h);
    if (ex.q) qaBody(a, ex);
    else textBody(a, ex);
    if (ex.why) a.appendChild(el('div', 'why', 'skipped: ' + ex.why));
    return a;
  }

  function render() {
    var hits = data.examples.filter(matches);
    var pages = Math.max(1, Math.ceil(hits.length / PAGE));
    if (state.page >= pages) state.page = pages - 1;
    var list = $('eb-list');
    list.textContent = '';
    hits.slice(state.page * PAGE, state.page * PAGE + PAGE).forEach(function (ex) {
      list.appendChild(card(ex));
    });
    if (!hits.length) list.appendChild(el('p', 'empty', 'No example matches these filters.'));
    var from = hits.length ? state.page * PAGE + 1 : 0;
    var to = Math.min(hits.length, (state.page + 1) * PAGE);
    $('eb-count').textContent =
      from +
      '–' +
      to +
      ' of ' +
      hits.length +
      ' matching' +
      (data.examples.length < data.total
        ? ' (the browser holds a sample of ' + data.examples.length + ' of ' + data.total + ' examples)'
        : '');
    $('eb-page').textContent = 'page ' + (state.page + 1) + ' / ' + pages;
    $('eb-prev').disabled = state.page === 0;
    $('eb-next').disabled = state.page >= pages - 1;
  }

  [
    ['eb-family', 'family'],
    ['eb-type', 'type'],
    ['eb-status', 'status'],
    ['eb-run', 'run'],
  ].forEach(function (p) {
    $(p[0]).addEventListener('change', function (e) {
      state[p[1]] = e.target.value;
      state.page = 0;
      render();
    });
  });
  $('eb-search').addEventListener('input', function (e) {
    state.q = e.target.value.trim().toLowerCase();
    state.page = 0;
    render();
  });
  $('eb-prev').addEventListener('click', function () {
    state.page--;
    render();
  });
  $('eb-next').addEventListener('click', function () {
    state.page++;
    render();
  });
  render();
  document.documentElement.setAttribute('data-browser', 'ready');
})();
