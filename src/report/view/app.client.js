// textstress view's page: the runs list, a run's report in place, a comparison of two runs, one model's history.
// Plain DOM, data set with textContent only (run names and texts come from files); nothing loads from the network.
(() => {
  'use strict';
  const app = document.getElementById('app');
  const state = { runs: [], problems: [], compare: false, selected: new Set(), query: '', recipe: '', model: '', open: new Set() };

  const el = (tag, attrs = {}, ...kids) => {
    const e = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs)) {
      if (v === undefined || v === null || v === false) continue;
      if (k === 'class') e.className = v;
      else if (k.startsWith('on')) e.addEventListener(k.slice(2), v);
      else e.setAttribute(k, v === true ? '' : String(v));
    }
    for (const kid of kids.flat())
      if (kid !== null && kid !== undefined) e.append(kid instanceof Node ? kid : document.createTextNode(String(kid)));
    return e;
  };
  const pct = (x) => (x === null || x === undefined ? 'n/a' : `${(x * 100).toFixed(1)}%`);
  // Names and units come from the server (src/metrics/display.ts): a figure's label and its text in its unit.
  const LABELS = {
    clean_accuracy: 'clean accuracy',
    attacked_accuracy: 'accuracy under attack',
    clean_f1: 'clean F1',
    attacked_f1: 'F1 under attack',
    attack_success_rate: 'attack success rate',
    stability: 'stability',
  };
  const label = (name, m) => m?.label ?? LABELS[name] ?? name.replace(/_/g, ' ');
  const TOO_WIDE = 0.2;
  const WIDE_UNITS = new Set(['rate', 'points']);

  /** A figure with its interval and n; a share whose interval is wider than 20 points is marked as too few examples. */
  function figure(m) {
    const t = m.text ?? {
      value: pct(m.value),
      low: m.low === null ? null : (m.low * 100).toFixed(1),
      high: m.high === null ? null : (m.high * 100).toFixed(1),
    };
    const wrap = el('span', { class: 'fig' }, el('b', {}, t.value));
    if (t.low !== null && t.high !== null && t.low !== undefined && (m.low !== m.high || m.unit === 'rate')) {
      wrap.append(el('span', { class: 'iv' }, ` [${t.low}–${t.high}]${m.text ? '' : '%'}`));
      if (WIDE_UNITS.has(m.unit ?? 'rate') && m.high - m.low > TOO_WIDE)
        wrap.append(el('span', { class: 'few', title: 'the 95% interval is wider than 20 points' }, ` too few examples (n=${m.n})`));
      else if (m.n !== null) wrap.append(el('span', { class: 'n' }, ` n=${m.n}`));
    } else if (m.n !== null && m.n !== undefined && m.unit !== 'count' && m.unit !== 'index')
      wrap.append(el('span', { class: 'n' }, ` n=${m.n}`));
    return wrap;
  }

  /** A run's settings on one line: "k: 3 · target: max · max words: 512". */
  const settingsLine = (r) => (r.settings ?? []).map((x) => `${x.label}: ${x.value}`).join(' · ');

  /** A table of the page's look: header cells from `head`, the given body rows; `attrs` on the table element. */
  function table(head, rows, attrs = {}) {
    return el(
      'table',
      { class: 'runs', ...attrs },
      el(
        'thead',
        {},
        el(
          'tr',
          {},
          head.map((x) => el('th', {}, x)),
        ),
      ),
      el('tbody', {}, rows),
    );
  }

  async function getJson(url) {
    const res = await fetch(url, { headers: { accept: 'application/json' } });
    const body = await res.json();
    if (!res.ok) throw new Error(body.error ?? `HTTP ${res.status}`);
    return body;
  }

  function matches(r) {
    if (state.recipe && r.recipe !== state.recipe) return false;
    if (state.model && r.model !== state.model) return false;
    if (!state.query) return true;
    // Settings are searchable as shown ("max words: 512"), as key=value ("k=3") and as CLI words ("k 3").
    const settings = (r.settings ?? []).flatMap((x) => [
      `${x.label}: ${x.value}`,
      `${x.key}=${x.value}`,
      `${x.label.replace(/ /g, '-')}=${x.value}`,
    ]);
    const hay = [r.path, r.root, r.recipe, r.kind, r.model, r.data ?? '', r.date, ...settings].join(' ').toLowerCase();
    return state.query
      .toLowerCase()
      .split(/\s+/)
      .every((w) => hay.includes(w));
  }

  function options(values, current, all) {
    return [
      el('option', { value: '' }, all),
      ...[...new Set(values)].sort().map((v) => el('option', { value: v, selected: v === current }, v)),
    ];
  }

  function runRow(r, child) {
    const kids = state.runs.filter((x) => x.parent !== undefined && x.root === r.root && x.parent === r.path);
    const box = el('input', {
      type: 'checkbox',
      'aria-label': `select ${r.path}`,
      checked: state.selected.has(r.id),
      onchange: (e) => {
        if (e.target.checked) state.selected.add(r.id);
        else state.selected.delete(r.id);
        renderList();
      },
    });
    return el(
      'tr',
      { class: child ? 'child' : '', 'data-id': r.id },
      el('td', {}, box),
      el(
        'td',
        { class: 'name' },
        el('a', { href: `#/run/${encodeURIComponent(r.id)}` }, r.path === '.' ? r.root : r.path),
        r.complete ? '' : el('span', { class: 'few' }, ' unfinished'),
      ),
      el('td', {}, r.recipe),
      el(
        'td',
        {},
        el(
          'a',
          {
            href: `#/history/${encodeURIComponent(r.model)}/${encodeURIComponent(r.metrics[0]?.name ?? '')}`,
            title: 'this model over time',
          },
          r.model,
        ),
      ),
      el('td', {}, r.data ?? '—'),
      el('td', { class: 'settings', title: 'the recipe settings this run used' }, settingsLine(r) || '—'),
      el('td', { class: 'date' }, r.date.slice(0, 16).replace('T', ' ')),
      el('td', { class: 'num' }, r.n ?? '—'),
      el(
        'td',
        { class: 'metrics' },
        r.metrics.map((m) => el('div', {}, el('span', { class: 'mname' }, `${label(m.name, m)}: `), figure(m))),
      ),
      kids.length ? el('td', {}, el('span', { class: 'kids' }, `${kids.length} sub-runs below`)) : el('td', {}),
    );
  }

  function renderList() {
    const shown = state.runs.filter(matches);
    const top = shown.filter((r) => r.parent === undefined || !state.runs.some((p) => p.root === r.root && p.path === r.parent));
    const groups = new Map();
    for (const r of shown) {
      if (r.parent === undefined) continue;
      const key = `${r.root}\u0001${r.parent}`;
      if (!groups.has(key)) groups.set(key, []);
      groups.get(key).push(r);
    }
    const rows = [];
    const seen = new Set();
    for (const r of top) {
      if (r.parent !== undefined) {
        const key = `${r.root}\u0001${r.parent}`;
        if (seen.has(key)) continue;
        seen.add(key);
        const members = groups.get(key) ?? [];
        const open = state.open.has(key);
        rows.push(
          el(
            'tr',
            { class: 'group' },
            el(
              'td',
              {},
              el(
                'button',
                {
                  class: 'fold',
                  'aria-expanded': open,
                  onclick: () => (open ? state.open.delete(key) : state.open.add(key), renderList()),
                },
                open ? '▾' : '▸',
              ),
            ),
            el(
              'td',
              { colspan: 9 },
              el('b', {}, r.parent),
              ` — ${members.length} runs (${[...new Set(members.map((m) => m.recipe))].join(', ')})`,
            ),
          ),
        );
        if (open) for (const m of members) rows.push(runRow(m, true));
        continue;
      }
      rows.push(runRow(r, false));
    }
    const picked = [...state.selected];
    const compareBtn = el(
      'button',
      {
        id: 'compare',
        disabled: picked.length !== 2 || !state.compare,
        onclick: () => (location.hash = `#/compare/${encodeURIComponent(picked[0])}/${encodeURIComponent(picked[1])}`),
      },
      picked.length === 2 ? 'Compare the two selected runs' : 'Select two runs to compare',
    );
    app.replaceChildren(
      el(
        'div',
        { class: 'filters' },
        el('input', {
          id: 'search',
          type: 'search',
          placeholder: 'search runs (recipe, model, data, folder, date, settings such as k=3)',
          value: state.query,
          oninput: (e) => ((state.query = e.target.value), renderList(), document.getElementById('search').focus()),
        }),
        el(
          'select',
          { id: 'recipe', onchange: (e) => ((state.recipe = e.target.value), renderList()) },
          options(
            state.runs.map((r) => r.recipe),
            state.recipe,
            'every recipe',
          ),
        ),
        el(
          'select',
          { id: 'model', onchange: (e) => ((state.model = e.target.value), renderList()) },
          options(
            state.runs.map((r) => r.model),
            state.model,
            'every model',
          ),
        ),
        compareBtn,
      ),
      el('p', { class: 'count' }, `${shown.length} of ${state.runs.length} runs`),
      el(
        'div',
        { class: 'scroll' },
        table(['', 'run', 'recipe', 'model', 'data', 'settings', 'date (UTC)', 'n', 'headline figures (95% interval)', ''], rows),
      ),
      state.problems.length
        ? el(
            'details',
            { class: 'problems' },
            el('summary', {}, `${state.problems.length} folders could not be read`),
            el(
              'ul',
              {},
              state.problems.map((p) => el('li', {}, `${p.root}/${p.path}: ${p.reason}`)),
            ),
          )
        : '',
    );
    const search = document.getElementById('search');
    search.setSelectionRange(search.value.length, search.value.length);
  }

  function back() {
    return el('p', {}, el('a', { href: '#/' }, '← all runs'));
  }

  function renderRun(id) {
    const r = state.runs.find((x) => x.id === id);
    app.replaceChildren(
      back(),
      el('h2', {}, r ? `${r.recipe} · ${r.model} · ${r.path}` : id),
      el('iframe', { class: 'report', title: 'report', src: `/run?id=${encodeURIComponent(id)}` }),
    );
  }

  async function renderHistory(model, metric, live) {
    const mine = state.runs.filter((r) => r.model === model);
    const named = new Map(mine.flatMap((r) => r.metrics.map((m) => [m.name, m])));
    const pick = el(
      'select',
      { id: 'metric', onchange: (e) => (location.hash = `#/history/${encodeURIComponent(model)}/${encodeURIComponent(e.target.value)}`) },
      [...named.keys()].map((n) => el('option', { value: n, selected: n === metric }, label(n, named.get(n)))),
    );
    const chart = el('div', { class: 'chart', id: 'history-chart' }, 'Loading…');
    app.replaceChildren(back(), el('h2', {}, `${model} over time`), el('p', {}, 'figure: ', pick), chart);
    const h = await getJson(`/api/history?model=${encodeURIComponent(model)}&metric=${encodeURIComponent(metric)}`);
    if (!live()) return;
    chart.replaceChildren();
    if (!h.svg) {
      chart.textContent = 'No run of this model reports this figure.';
      return;
    }
    // The SVG is drawn by the server with vega from our own catalog (its text nodes are escaped by vega).
    chart.innerHTML = h.svg;
    chart.append(
      table(
        ['date (UTC)', 'recipe', 'run', 'settings that differ', label(metric, named.get(metric))],
        h.points.map((p) =>
          el(
            'tr',
            {},
            el('td', {}, p.date.slice(0, 16).replace('T', ' ')),
            el('td', {}, p.recipe),
            el('td', {}, el('a', { href: `#/run/${encodeURIComponent(p.id)}` }, p.path)),
            el('td', { class: 'settings' }, p.differs || '—'),
            el('td', {}, figure(p)),
          ),
        ),
      ),
    );
  }

  async function renderCompare(a, b, live) {
    app.replaceChildren(back(), el('p', {}, 'Comparing…'));
    const c = await getJson(`/api/compare?a=${encodeURIComponent(a)}&b=${encodeURIComponent(b)}`);
    // The user moved on while the comparison ran: its answer belongs to a view no longer shown.
    if (!live()) return;
    app.replaceChildren(back(), ...window.textstressCompareView(c, el, { figure, label, pct, table }));
  }

  // Which view is shown: an answer (or error) that comes back for an older one is dropped, not drawn over the newer.
  let shown = 0;
  async function route() {
    const parts = location.hash.replace(/^#\/?/, '').split('/').map(decodeURIComponent);
    const mine = ++shown;
    const live = () => mine === shown;
    try {
      if (parts[0] === 'run' && parts[1]) renderRun(parts[1]);
      else if (parts[0] === 'compare' && parts[1] && parts[2]) await renderCompare(parts[1], parts[2], live);
      else if (parts[0] === 'history' && parts[1]) await renderHistory(parts[1], parts[2] || 'attack_success_rate', live);
      else renderList();
    } catch (err) {
      if (!live()) return;
      app.replaceChildren(back(), el('p', { class: 'error', role: 'alert' }, String(err.message ?? err)));
    }
  }

  (async () => {
    try {
      const data = await getJson('/api/runs');
      Object.assign(state, { runs: data.runs, problems: data.problems, compare: data.compare });
      document.getElementById('roots').textContent = `runs under ${data.roots.join(', ')}`;
    } catch (err) {
      app.replaceChildren(el('p', { class: 'error', role: 'alert' }, `Cannot list the runs: ${err.message}`));
      return;
    }
    window.addEventListener('hashchange', route);
    await route();
  })();
})();
