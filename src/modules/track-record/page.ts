// The public track-record page: HTML rendered on the server in the page's language (?lang, the
// `lang` cookie its FR / EN switch sets, Accept-Language: src/lib/page-locale.ts) and one
// same-origin script, in the same language, that fetches /api/track-record and draws the tables,
// the calibration chart and the monthly series as inline SVG. The texts are the catalogue's
// (`pages.trackRecord`); the script is a file of its own so the CSP's `script-src 'self'` holds
// (inline styles are already allowed). Its fetch names the page's language, so the texts the API
// sends are in it too. The French page keeps its bytes, the switch aside.
import { DEFAULT_LOCALE, type Locale } from '../../lib/locale.js';
import { type Catalogue, catalogueFor } from '../../lib/messages.js';
import { attr, js, jsText, languageSwitch, pageHead, perLocale } from '../../lib/page-html.js';
import { returnsScript, returnsSection } from './page-returns.js';

/** The script's address: French at the address it always had, another language named in it. */
function scriptPath(locale: Locale): string {
  return locale === DEFAULT_LOCALE ? '/track-record/app.js' : `/track-record/app.js?lang=${locale}`;
}

/** The page's own style rules (`pageHead` adds the language switch's). */
const TRACK_RECORD_STYLE = `  *, *::before, *::after { box-sizing: border-box; }
  body { font-family: system-ui, sans-serif; margin: 0 auto; max-width: 1100px; padding: 1rem; color: #1d2330; line-height: 1.45; }
  h1 { font-size: 1.6rem; } h2 { font-size: 1.2rem; margin-top: 2rem; } h3 { font-size: 1rem; margin: 1.2rem 0 .4rem; }
  .scroll { overflow-x: auto; max-width: 100%; }
  /* A shadow on the side where more of a wide table hides (phones): the covers scroll with it. */
  .scroll { background:
    linear-gradient(to right, #fff 30%, rgba(255,255,255,0)) left / 40px 100% no-repeat local,
    linear-gradient(to left, #fff 30%, rgba(255,255,255,0)) right / 40px 100% no-repeat local,
    radial-gradient(farthest-side at 0 50%, rgba(0,0,0,.18), transparent) left / 12px 100% no-repeat scroll,
    radial-gradient(farthest-side at 100% 50%, rgba(0,0,0,.18), transparent) right / 12px 100% no-repeat scroll; }
  .scroll:focus-visible { outline: 2px solid #2b6cb0; outline-offset: 2px; }
  table { border-collapse: collapse; width: 100%; font-size: .9rem; }
  th, td { border-bottom: 1px solid #dde; padding: .3rem .5rem; text-align: right; }
  td { white-space: nowrap; } th { vertical-align: bottom; }
  th:first-child, td:first-child { text-align: left; }
  .note { color: #4a5060; font-size: .9rem; }
  .empty { color: #4a5060; font-style: italic; }
  .charts { display: flex; flex-wrap: wrap; gap: 1rem 2rem; align-items: flex-start; }
  .chart { flex: 1 1 300px; min-width: 0; max-width: 520px; margin: 0; }
  .beside { flex: 1 1 300px; min-width: 0; }
  .chart svg { display: block; width: 100%; height: auto; background: #fafbff; }
  .wide svg { display: block; width: 100%; height: auto; background: #fafbff; }
  .legend { list-style: none; padding: 0; margin: .5rem 0; display: flex; flex-wrap: wrap; gap: .3rem 1.2rem; font-size: .85rem; }
  .legend li { display: flex; align-items: center; gap: .4rem; }
  .swatch { display: inline-block; width: 14px; height: 14px; flex: none; }
  .swatch.ours { background: #2b6cb0; border-radius: 50%; }
  .swatch.market { background: #c05621; }
  .swatch.diagonal { height: 0; border-top: 2px dashed #778; }
  .swatch.bars { background: #c3d3ea; }
  .swatch.rate { background: #c05621; border-radius: 50%; }
  #settlement li { margin: .3rem 0; }
  @media (max-width: 480px) { body { padding: .75rem; } table { font-size: .8rem; } th, td { padding: .25rem .35rem; } }
`;

export const trackRecordPage = perLocale((locale) => {
  const t = catalogueFor(locale).pages.trackRecord;
  return `${pageHead(locale, t.title, TRACK_RECORD_STYLE)}<body>
${languageSwitch(locale)}<h1>${t.title}</h1>
<p class="note">${t.intro}</p>
<p id="status" role="status">${t.loading}</p>
<h2>${t.overall}</h2>
<div id="overall"></div>
<h2>${t.byType}</h2>
<div id="by-type"></div>
<h2>${t.byLeague}</h2>
<div id="by-league"></div>
<h2>${t.calibration}</h2>
<div class="charts">
  <figure class="chart" id="calibration"></figure>
  <div class="beside">
    <ul class="legend" aria-label="${attr(t.calibrationLegend)}">
      <li><span class="swatch ours" aria-hidden="true"></span>${t.legendOurs}</li>
      <li><span class="swatch market" aria-hidden="true"></span>${t.legendMarket}</li>
      <li><span class="swatch diagonal" aria-hidden="true"></span>${t.legendDiagonal}</li>
    </ul>
    <p class="note">${t.calibrationNote}</p>
    <div id="calibration-notes"></div>
    <div id="market-table"></div>
  </div>
</div>
<h2>${t.monthly}</h2>
<div id="monthly" class="wide"></div>
<p class="note" id="baseline"></p>
${returnsSection(locale)}<h2>${t.howWeSettle}</h2>
<div id="settlement">
<ul>
${t.settlement
  .map(
    (item) => `  <li>${item}</li>
`,
  )
  .join('')}</ul>
</div>
<script src="${scriptPath(locale)}" defer></script>
</body>
</html>
`;
});

/**
 * The script's charts and their tables: the calibration chart (ours and the bookmakers'), the
 * market's table, the monthly chart and table, and a chart's legend; a part of trackRecordScript.
 */
function chartsScript(t: Catalogue['pages']['trackRecord']): string {
  return `  // Stated (or implied) probability against the observed hit rate, 0-100 % on both axes, with
  // room for every tick label ("100 %") and the axis titles clear of the ticks. Each series is a
  // list of bins { key, x, y, count, title }: ours as dots, the bookmakers' as squares.
  function calibrationChart(ours, market) {
    var W = 400, H = 360, L = 72, R = 28, T = 16, B = 58;
    var sw = W - L - R, sh = H - T - B;
    var svg = svgEl('svg', { viewBox: '0 0 ' + W + ' ' + H, role: 'img', 'aria-label': ${js(t.calibrationChart)}, 'font-family': 'system-ui, sans-serif' });
    var x = function (v) { return L + v * sw; };
    var y = function (v) { return T + (1 - v) * sh; };
    [0, 0.2, 0.4, 0.6, 0.8, 1].forEach(function (t) {
      svg.appendChild(svgEl('line', { x1: x(t), y1: y(0), x2: x(t), y2: y(1), stroke: GRID }));
      svg.appendChild(svgEl('line', { x1: x(0), y1: y(t), x2: x(1), y2: y(t), stroke: GRID }));
      svg.appendChild(svgEl('text', { x: x(t), y: y(0) + 20, 'text-anchor': 'middle', 'font-size': 12, fill: INK }, pct0(t)));
      svg.appendChild(svgEl('text', { x: x(0) - 7, y: y(t) + 4, 'text-anchor': 'end', 'font-size': 12, fill: INK }, pct0(t)));
    });
    svg.appendChild(svgEl('line', { x1: x(0), y1: y(0), x2: x(1), y2: y(1), stroke: '#778', 'stroke-dasharray': '5 4' }));
    svg.appendChild(svgEl('line', { x1: x(0), y1: y(0), x2: x(1), y2: y(0), stroke: INK }));
    svg.appendChild(svgEl('line', { x1: x(0), y1: y(0), x2: x(0), y2: y(1), stroke: INK }));
    svg.appendChild(svgEl('text', { x: L + sw / 2, y: H - 10, 'text-anchor': 'middle', 'font-size': 13, fill: INK }, ${js(t.statedProbability)}));
    svg.appendChild(svgEl('text', { x: 0, y: 0, 'font-size': 13, fill: INK, 'text-anchor': 'middle', transform: 'translate(18 ' + (T + sh / 2) + ') rotate(-90)' }, ${js(t.observedHitRate)}));
    [[market, MARKET, 'square'], [ours, OURS, 'circle']].forEach(function (series) {
      var points = series[0], colour = series[1];
      if (points.length > 1) {
        svg.appendChild(svgEl('polyline', { points: points.map(function (p) { return x(p.x) + ',' + y(p.y); }).join(' '), fill: 'none', stroke: colour, 'stroke-width': 1.5, 'stroke-opacity': 0.6 }));
      }
      points.forEach(function (p) {
        var r = 3 + Math.min(6, Math.sqrt(p.count) / 2);
        var mark = series[2] === 'square'
          ? svgEl('rect', { x: x(p.x) - r, y: y(p.y) - r, width: 2 * r, height: 2 * r, fill: colour, 'fill-opacity': 0.8, 'data-market-bin': p.key })
          : svgEl('circle', { cx: x(p.x), cy: y(p.y), r: r, fill: colour, 'fill-opacity': 0.75, 'data-bin': p.key });
        mark.appendChild(svgEl('title', {}, p.title));
        svg.appendChild(mark);
      });
    });
    return svg;
  }
  function marketTable(bins) {
    var table = el('table', { 'data-table': 'market' });
    var head = el('tr');
    [${js(t.columns.favouriteProbability)}, ${js(t.columns.matches)}, ${js(t.columns.meanProbability)}, ${js(t.columns.favouriteHitRate)}].forEach(function (h) { head.appendChild(el('th', { scope: 'col' }, h)); });
    table.appendChild(head);
    bins.forEach(function (b) {
      var row = el('tr');
      var key = 'market:' + b.from;
      [['range', pct0(b.from) + ' – ' + pct0(b.to)], ['count', String(b.count)], ['mean_probability', pct(b.mean_probability)], ['hit_rate', pct(b.hit_rate)]].forEach(function (c) {
        row.appendChild(el('td', { 'data-cell': key + ':' + c[0] }, c[1]));
      });
      table.appendChild(row);
    });
    return scroller(${js(t.marketTable)}, table);
  }
  // Drawn at the width it is shown at (a phone's or a desktop's), so its labels keep their size.
  function monthlyChart(months, width) {
    var W = Math.max(300, Math.min(1100, Math.round(width || 720))), H = W < 600 ? 220 : 260, L = 52, R = 66, T = 14, B = 44;
    var sw = W - L - R, sh = H - T - B;
    var svg = svgEl('svg', { viewBox: '0 0 ' + W + ' ' + H, role: 'img', 'aria-label': ${js(t.monthlyChart)}, 'font-family': 'system-ui, sans-serif' });
    var max = Math.max.apply(null, months.map(function (m) { return m.settled; }).concat([1]));
    var top = Math.max(4, Math.ceil(max / 4) * 4);
    var step = sw / months.length;
    var yCount = function (v) { return T + (1 - v / top) * sh; };
    var yRate = function (v) { return T + (1 - v) * sh; };
    [0, 0.25, 0.5, 0.75, 1].forEach(function (t) {
      svg.appendChild(svgEl('line', { x1: L, y1: yRate(t), x2: L + sw, y2: yRate(t), stroke: GRID }));
      svg.appendChild(svgEl('text', { x: L - 6, y: yRate(t) + 4, 'text-anchor': 'end', 'font-size': 11, fill: INK }, String(Math.round(t * top))));
      svg.appendChild(svgEl('text', { x: L + sw + 6, y: yRate(t) + 4, 'font-size': 11, fill: INK }, pct0(t)));
    });
    svg.appendChild(svgEl('line', { x1: L, y1: T + sh, x2: L + sw, y2: T + sh, stroke: INK }));
    svg.appendChild(svgEl('text', { x: 0, y: 0, 'font-size': 11, fill: INK, 'text-anchor': 'middle', transform: 'translate(12 ' + (T + sh / 2) + ') rotate(-90)' }, ${js(t.settledAxis)}));
    svg.appendChild(svgEl('text', { x: 0, y: 0, 'font-size': 11, fill: INK, 'text-anchor': 'middle', transform: 'translate(' + (W - 16) + ' ' + (T + sh / 2) + ') rotate(90)' }, ${js(t.hitRateAxis)}));
    // One month label per 70 px at most, evenly spread, so they never run into each other.
    var every = Math.max(1, Math.ceil(months.length / Math.max(1, Math.floor(sw / 70))));
    var rate = [];
    months.forEach(function (m, i) {
      var h = (m.settled / top) * sh;
      var bar = svgEl('rect', { x: L + i * step + step * 0.15, y: yCount(m.settled), width: Math.max(2, step * 0.7), height: h, fill: '#c3d3ea', 'data-month': m.month });
      bar.appendChild(svgEl('title', {}, ${jsText(t.monthTitle, 'm.month', 'm.settled', 'pct(m.hit_rate)')}));
      svg.appendChild(bar);
      if (m.hit_rate !== null) rate.push([L + (i + 0.5) * step, yRate(m.hit_rate)]);
      if (i % every === 0) svg.appendChild(svgEl('text', { x: L + (i + 0.5) * step, y: T + sh + 16, 'text-anchor': 'middle', 'font-size': 11, fill: INK }, m.month));
    });
    if (rate.length > 1) svg.appendChild(svgEl('polyline', { points: rate.map(function (p) { return p.join(','); }).join(' '), fill: 'none', stroke: MARKET, 'stroke-width': 1.5 }));
    rate.forEach(function (p) { svg.appendChild(svgEl('circle', { cx: p[0], cy: p[1], r: 3.5, fill: MARKET })); });
    return svg;
  }
  function monthlyTable(months) {
    var table = el('table', { 'data-table': 'monthly' });
    var head = el('tr');
    [${js(t.columns.month)}, ${js(t.columns.settled)}, ${js(t.columns.won)}, ${js(t.columns.lost)}, ${js(t.columns.void)}, ${js(t.columns.hitRate)}, ${js(t.columns.meanConfidence)}].forEach(function (h) { head.appendChild(el('th', { scope: 'col' }, h)); });
    table.appendChild(head);
    months.forEach(function (m) {
      var row = el('tr');
      [['month', m.month], ['settled', String(m.settled)], ['won', String(m.won)], ['lost', String(m.lost)], ['void', String(m.void)], ['hit_rate', pct(m.hit_rate)], ['mean_confidence', pct(m.mean_confidence)]].forEach(function (c) {
        row.appendChild(el('td', { 'data-cell': 'monthly:' + m.month + ':' + c[0] }, c[1]));
      });
      table.appendChild(row);
    });
    return scroller(${js(t.monthlyTable)}, table);
  }
  function legend(items) {
    var list = el('ul', { 'class': 'legend' });
    items.forEach(function (item) {
      var li = el('li');
      li.appendChild(el('span', { 'class': 'swatch ' + item[0], 'aria-hidden': 'true' }));
      li.appendChild(document.createTextNode(item[1]));
      list.appendChild(li);
    });
    return list;
  }
`;
}

export const trackRecordScript = perLocale((locale) => {
  const t = catalogueFor(locale).pages.trackRecord;
  return `'use strict';
(function () {
  var WINDOWS = [${Object.entries(t.windows)
    .map(([key, label]) => `[${js(key)}, ${js(label)}]`)
    .join(', ')}];
  var TYPES = { ${Object.entries(t.types)
    .map(([slug, name]) => `${/^[a-z]\w*$/.test(slug) ? slug : js(slug)}: ${js(name)}`)
    .join(', ')} };
  var SVG = 'http://www.w3.org/2000/svg';
  var OURS = '#2b6cb0', MARKET = '#c05621', INK = '#333', GRID = '#e2e5ee';
  function pct(v) { return v === null ? '–' : (v * 100).toLocaleString(${js(t.numberLocale)}, { minimumFractionDigits: 1, maximumFractionDigits: 1 }) + ${js(t.percentSuffix)}; }
  function pct0(v) { return Math.round(v * 100) + ${js(t.percentSuffix)}; }
  function num(v, d) { return v.toLocaleString(${js(t.numberLocale)}, { minimumFractionDigits: d, maximumFractionDigits: d }); }
  function el(tag, attrs, text) {
    var node = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (k) { node.setAttribute(k, attrs[k]); });
    if (text !== undefined) node.textContent = text;
    return node;
  }
  function svgEl(tag, attrs, text) {
    var node = document.createElementNS(SVG, tag);
    Object.keys(attrs).forEach(function (k) { node.setAttribute(k, String(attrs[k])); });
    if (text !== undefined) node.textContent = text;
    return node;
  }
  function empty(text) { return el('p', { 'class': 'empty' }, text); }
  // A wide table scrolls in its own named, focusable region on a phone; the page never widens.
  function scroller(label, table) {
    var box = el('div', { 'class': 'scroll', role: 'region', 'aria-label': label, tabindex: '0' });
    box.appendChild(table);
    return box;
  }
  function figuresTable(key, label, windows, withScores) {
    var table = el('table', { 'data-table': key });
    var head = el('tr');
    [${js(t.columns.period)}, ${js(t.columns.settled)}, ${js(t.columns.won)}, ${js(t.columns.lost)}, ${js(t.columns.void)}, ${js(t.columns.hitRate)}, ${js(t.columns.meanConfidence)}].concat(withScores ? [${js(t.columns.rps)}, ${js(t.columns.baselineRps)}, ${js(t.columns.brier)}, ${js(t.columns.baselineBrier)}] : []).forEach(function (h) { head.appendChild(el('th', { scope: 'col' }, h)); });
    table.appendChild(head);
    WINDOWS.forEach(function (w) {
      var f = windows[w[0]];
      var row = el('tr');
      var cell = function (name, text) { row.appendChild(el('td', { 'data-cell': key + ':' + w[0] + ':' + name }, text)); };
      cell('label', w[1]);
      cell('settled', String(f.settled));
      cell('won', String(f.won));
      cell('lost', String(f.lost));
      cell('void', String(f.void));
      cell('hit_rate', pct(f.hit_rate));
      cell('mean_confidence', pct(f.mean_confidence));
      if (withScores) {
        var s = f.one_x_two;
        cell('rps', s ? num(s.rps, 4) : '–');
        cell('baseline_rps', s ? num(s.baseline_rps, 4) : '–');
        cell('brier', s ? num(s.brier, 4) : '–');
        cell('baseline_brier', s ? num(s.baseline_brier, 4) : '–');
      }
      table.appendChild(row);
    });
    return scroller(label, table);
  }
${chartsScript(t)}${returnsScript(locale)}  function render(record) {
    var overall = document.getElementById('overall');
    if (record.overall.all_time.settled === 0) {
      overall.appendChild(empty(${js(t.emptyOverall)}));
    }
    overall.appendChild(figuresTable('overall', ${js(t.overallTable)}, record.overall, true));
    var byType = document.getElementById('by-type');
    if (record.by_type.length === 0) {
      byType.appendChild(empty(${js(t.emptyByType)}));
    }
    record.by_type.forEach(function (t) {
      var name = TYPES[t.type] || t.type;
      byType.appendChild(el('h3', {}, name));
      byType.appendChild(figuresTable('type-' + t.type, ${jsText(t.byPeriod, 'name')}, t.windows, t.type === '1x2' || t.type === 'full-analysis'));
    });
    var byLeague = document.getElementById('by-league');
    if (record.by_league.length === 0) {
      byLeague.appendChild(empty(${js(t.emptyByLeague)}));
    }
    record.by_league.forEach(function (l) {
      var code = l.league ? l.league.code : 'none';
      var name = l.league ? l.league.name + ' (' + l.league.code + ')' : ${js(t.unknownMatch)};
      byLeague.appendChild(el('h3', {}, name));
      byLeague.appendChild(figuresTable('league-' + code, ${jsText(t.byPeriod, 'name')}, l.windows, true));
    });
    var market = record.market_calibration;
    document.getElementById('calibration').appendChild(calibrationChart(record.calibration.map(function (b) {
      return { key: b.from, x: b.mean_confidence, y: b.hit_rate, count: b.count, title: ${jsText(t.oursBin, "pct0(b.from) + '–' + pct0(b.to)", 'b.count', 'pct(b.mean_confidence)', 'pct(b.hit_rate)')} };
    }), market.bins.map(function (b) {
      return { key: b.from, x: b.mean_probability, y: b.hit_rate, count: b.count, title: ${jsText(t.marketBin, "pct0(b.from) + '–' + pct0(b.to)", 'b.count', 'pct(b.mean_probability)', 'pct(b.hit_rate)')} };
    })));
    var notes = document.getElementById('calibration-notes');
    if (record.calibration.length === 0) {
      notes.appendChild(el('p', { 'class': 'empty', 'data-empty': 'calibration' }, ${js(t.emptyCalibration)}));
    }
    if (market.bins.length === 0) {
      notes.appendChild(el('p', { 'class': 'empty', 'data-empty': 'market' }, ${jsText(t.emptyMarket, 'market.min_bin', 'market.matches')}));
    } else {
      document.getElementById('market-table').appendChild(marketTable(market.bins));
    }
    var monthly = document.getElementById('monthly');
    if (record.monthly.length === 0) {
      monthly.appendChild(empty(${js(t.emptyMonthly)}));
    } else {
      monthly.appendChild(monthlyChart(record.monthly, monthly.clientWidth));
      monthly.appendChild(legend([['bars', ${js(t.legendBars)}], ['rate', ${js(t.legendRate)}]]));
      monthly.appendChild(monthlyTable(record.monthly));
    }
    document.getElementById('baseline').textContent = ${jsText(t.baseline, 'record.baseline')};
    var status = document.getElementById('status');
    status.textContent = ${jsText(t.updated, `new Date(record.generated_at).toLocaleString(${js(t.numberLocale)})`)};
    status.setAttribute('data-ready', 'true');
  }
  fetch('/api/track-record', { headers: { accept: 'application/json', 'accept-language': ${js(locale)} } })
    .then(function (r) { if (!r.ok) throw new Error('HTTP ' + r.status); return r.json(); })
    .then(function (body) { render(body.data.track_record); renderReturns(body.data.returns); })
    .catch(function () { document.getElementById('status').textContent = ${js(t.unavailable)}; });
})();
`;
});
