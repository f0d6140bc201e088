// The report's only script: the example browser (filters, paging). It builds every node with
// createElement/textContent, so dataset text is never parsed as HTML.
(function () {
  'use strict';
  var island = document.getElementById('report-data');
  if (!island) return;
  var data = JSON.parse(island.textContent || '{}');
  var PAGE = 20;
  var STATUS = ['attack succeeded', 'attack failed', 'skipped'];
  var $ = function (id) { return document.getElementById(id); };
  var el = function (tag, cls, text) {
    var n = document.createElement(tag);
    if (cls) n.className = cls;
    if (text !== undefined && text !== null) n.textContent = String(text);
    return n;
  };
  var state = { family: '', type: '', status: '', run: '', q: '', page: 0 };

  function option(select, value, label) {
    var o = el('option', null, label);
    o.value = value;
    select.appendChild(o);
  }
  data.families.forEach(function (f, i) { option($('eb-family'), String(i), f.title); });
  data.types.forEach(function (t, i) { option($('eb-type'), String(i), t.label + '  [' + t.id + ']'); });
  data.runs.forEach(function (r, i) { option($('eb-run'), String(i), r.label); });

  function matches(ex) {
    if (state.family !== '' && data.runs[ex.r].family !== Number(state.family)) return false;
    if (state.run !== '' && ex.r !== Number(state.run)) return false;
    if (state.status !== '' && ex.s !== Number(state.status)) return false;
    if (state.type !== '' && ex.t.indexOf(Number(state.type)) < 0) return false;
    if (state.q) {
      var hay = ex.id + ' ' + ex.g + ' ' + ex.x.map(function (s) { return typeof s === 'string' ? s : s[0] + ' ' + s[1]; }).join('');
      if (hay.toLowerCase().indexOf(state.q) < 0) return false;
    }
    return true;
  }

  function text(segs, side) {
    var p = el('p', 'txt');
    segs.forEach(function (s) {
      if (typeof s === 'string') { p.appendChild(document.createTextNode(s)); return; }
      var t = data.types[s[2]] || { id: 'edit', label: 'edit' };
      var word = side === 0 ? s[0] : s[1];
      var m = el(side === 0 ? 'del' : 'mark', 'e c' + (s[2] % 8));
      m.title = t.id + ': “' + s[0] + '” → “' + s[1] + '”';
      if (word === '') { m.className += ' gap'; m.textContent = side === 0 ? '‸' : '∅'; }
      else m.textContent = word;
      if (side === 1) m.appendChild(el('span', 'et', t.label));
      p.appendChild(m);
    });
    return p;
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
    rows.appendChild(text(ex.x, 0));
    rows.appendChild(el('span', 'lbl', 'perturbed'));
    rows.appendChild(text(ex.x, 1));
    a.appendChild(rows);
    if (ex.why) a.appendChild(el('div', 'why', 'skipped: ' + ex.why));
    return a;
  }

  function render() {
    var hits = data.examples.filter(matches);
    var pages = Math.max(1, Math.ceil(hits.length / PAGE));
    if (state.page >= pages) state.page = pages - 1;
    var list = $('eb-list');
    list.textContent = '';
    hits.slice(state.page * PAGE, state.page * PAGE + PAGE).forEach(function (ex) { list.appendChild(card(ex)); });
    if (!hits.length) list.appendChild(el('p', 'empty', 'No example matches these filters.'));
    var from = hits.length ? state.page * PAGE + 1 : 0;
    var to = Math.min(hits.length, (state.page + 1) * PAGE);
    $('eb-count').textContent = from + '–' + to + ' of ' + hits.length + ' matching' +
      (data.examples.length < data.total ? ' (the browser holds a sample of ' + data.examples.length + ' of ' + data.total + ' examples)' : '');
    $('eb-page').textContent = 'page ' + (state.page + 1) + ' / ' + pages;
    $('eb-prev').disabled = state.page === 0;
    $('eb-next').disabled = state.page >= pages - 1;
  }

  [['eb-family', 'family'], ['eb-type', 'type'], ['eb-status', 'status'], ['eb-run', 'run']].forEach(function (p) {
    $(p[0]).addEventListener('change', function (e) { state[p[1]] = e.target.value; state.page = 0; render(); });
  });
  $('eb-search').addEventListener('input', function (e) { state.q = e.target.value.trim().toLowerCase(); state.page = 0; render(); });
  $('eb-prev').addEventListener('click', function () { state.page--; render(); });
  $('eb-next').addEventListener('click', function () { state.page++; render(); });
  render();
  document.documentElement.setAttribute('data-browser', 'ready');
})();
