// The public track-record page: static French HTML and one same-origin script that fetches
// /api/track-record and draws the tables, the calibration chart and the monthly series as inline
// SVG. Kept as strings so the build ships them with the code (no asset copy step), and the script
// is a file of its own so the CSP's `script-src 'self'` holds (inline styles are already allowed).

export const TRACK_RECORD_PAGE = `<!doctype html>
<html lang="fr">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Bilan de nos pronostics</title>
<link rel="icon" href="data:,">
<style>
  body { font-family: system-ui, sans-serif; margin: 0 auto; max-width: 960px; padding: 1rem; color: #1d2330; }
  h1 { font-size: 1.6rem; } h2 { font-size: 1.2rem; margin-top: 2rem; }
  table { border-collapse: collapse; width: 100%; font-size: .9rem; }
  th, td { border-bottom: 1px solid #dde; padding: .3rem .5rem; text-align: right; }
  th:first-child, td:first-child { text-align: left; }
  .note { color: #556; font-size: .85rem; }
  svg { max-width: 100%; height: auto; background: #fafbff; }
</style>
</head>
<body>
<h1>Bilan de nos pronostics</h1>
<p class="note">Chaque analyse vendue est réglée sur le score final, sans exception ni sélection.
Les analyses annulées (match non joué ou introuvable sous 7 jours) sont comptées à part et
n’entrent pas dans le taux de réussite.</p>
<p id="status">Chargement…</p>
<h2>Ensemble</h2>
<div id="overall"></div>
<h2>Par type de pronostic</h2>
<div id="by-type"></div>
<h2>Par championnat</h2>
<div id="by-league"></div>
<h2>Calibration : confiance annoncée et réussite observée</h2>
<div id="calibration"></div>
<h2>Évolution mensuelle</h2>
<div id="monthly"></div>
<p class="note" id="baseline"></p>
<script src="/track-record/app.js" defer></script>
</body>
</html>
`;

export const TRACK_RECORD_SCRIPT = String.raw`'use strict';
(function () {
  var WINDOWS = [['last_30_days', '30 jours'], ['last_90_days', '90 jours'], ['last_365_days', '365 jours'], ['all_time', 'Depuis le début']];
  var TYPES = { '1x2': '1X2', 'double-chance': 'Double chance', btts: 'Les deux équipes marquent', 'over-under-2-5': 'Plus/moins de 2,5 buts', 'exact-score': 'Score exact', 'full-analysis': 'Analyse complète' };
  var SVG = 'http://www.w3.org/2000/svg';
  function pct(v) { return v === null ? '–' : (v * 100).toLocaleString('fr-FR', { minimumFractionDigits: 1, maximumFractionDigits: 1 }) + ' %'; }
  function num(v, d) { return v.toLocaleString('fr-FR', { minimumFractionDigits: d, maximumFractionDigits: d }); }
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
  function figuresTable(key, windows, withScores) {
    var table = el('table', { 'data-table': key });
    var head = el('tr');
    ['Période', 'Réglées', 'Gagnées', 'Perdues', 'Annulées', 'Réussite', 'Confiance moyenne'].concat(withScores ? ['RPS', 'RPS référence', 'Brier', 'Brier référence'] : []).forEach(function (h) { head.appendChild(el('th', {}, h)); });
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
    return table;
  }
  function calibrationChart(bins) {
    var size = 320, pad = 40, span = size - 2 * pad;
    var svg = svgEl('svg', { viewBox: '0 0 ' + size + ' ' + size, width: size, height: size, role: 'img', 'aria-label': 'Calibration' });
    var x = function (v) { return pad + v * span; };
    var y = function (v) { return size - pad - v * span; };
    svg.appendChild(svgEl('line', { x1: x(0), y1: y(0), x2: x(1), y2: y(1), stroke: '#99a', 'stroke-dasharray': '4 4' }));
    svg.appendChild(svgEl('line', { x1: x(0), y1: y(0), x2: x(1), y2: y(0), stroke: '#333' }));
    svg.appendChild(svgEl('line', { x1: x(0), y1: y(0), x2: x(0), y2: y(1), stroke: '#333' }));
    svg.appendChild(svgEl('text', { x: size / 2, y: size - 8, 'text-anchor': 'middle', 'font-size': 11 }, 'Confiance annoncée'));
    svg.appendChild(svgEl('text', { x: 12, y: size / 2, 'font-size': 11, transform: 'rotate(-90 12 ' + size / 2 + ')', 'text-anchor': 'middle' }, 'Réussite observée'));
    [0, 0.5, 1].forEach(function (t) {
      svg.appendChild(svgEl('text', { x: x(t), y: y(0) + 14, 'text-anchor': 'middle', 'font-size': 10 }, pct(t)));
      svg.appendChild(svgEl('text', { x: x(0) - 4, y: y(t) + 3, 'text-anchor': 'end', 'font-size': 10 }, pct(t)));
    });
    bins.forEach(function (b) {
      var point = svgEl('circle', { cx: x(b.mean_confidence), cy: y(b.hit_rate), r: 3 + Math.min(8, Math.sqrt(b.count)), fill: '#2b6cb0', 'fill-opacity': 0.7, 'data-bin': b.from });
      point.appendChild(svgEl('title', {}, pct(b.from) + '–' + pct(b.to) + ' : ' + b.count + ' analyses, réussite ' + pct(b.hit_rate)));
      svg.appendChild(point);
    });
    return svg;
  }
  function monthlyChart(months) {
    var width = 640, height = 220, pad = 36;
    var svg = svgEl('svg', { viewBox: '0 0 ' + width + ' ' + height, width: width, height: height, role: 'img', 'aria-label': 'Évolution mensuelle' });
    if (months.length === 0) return svg;
    var max = Math.max.apply(null, months.map(function (m) { return m.settled; }).concat([1]));
    var step = (width - 2 * pad) / months.length;
    months.forEach(function (m, i) {
      var h = (m.settled / max) * (height - 2 * pad);
      svg.appendChild(svgEl('rect', { x: pad + i * step + 2, y: height - pad - h, width: Math.max(2, step - 4), height: h, fill: '#c3d3ea', 'data-month': m.month }));
      if (m.hit_rate !== null) svg.appendChild(svgEl('circle', { cx: pad + (i + 0.5) * step, cy: height - pad - m.hit_rate * (height - 2 * pad), r: 3, fill: '#c05621' }));
      svg.appendChild(svgEl('text', { x: pad + (i + 0.5) * step, y: height - pad + 14, 'text-anchor': 'middle', 'font-size': 10 }, m.month));
    });
    return svg;
  }
  function monthlyTable(months) {
    var table = el('table', { 'data-table': 'monthly' });
    var head = el('tr');
    ['Mois', 'Réglées', 'Gagnées', 'Perdues', 'Annulées', 'Réussite', 'Confiance moyenne'].forEach(function (h) { head.appendChild(el('th', {}, h)); });
    table.appendChild(head);
    months.forEach(function (m) {
      var row = el('tr');
      [['month', m.month], ['settled', String(m.settled)], ['won', String(m.won)], ['lost', String(m.lost)], ['void', String(m.void)], ['hit_rate', pct(m.hit_rate)], ['mean_confidence', pct(m.mean_confidence)]].forEach(function (c) {
        row.appendChild(el('td', { 'data-cell': 'monthly:' + m.month + ':' + c[0] }, c[1]));
      });
      table.appendChild(row);
    });
    return table;
  }
  function render(record) {
    document.getElementById('overall').appendChild(figuresTable('overall', record.overall, true));
    var byType = document.getElementById('by-type');
    record.by_type.forEach(function (t) {
      byType.appendChild(el('h3', {}, TYPES[t.type] || t.type));
      byType.appendChild(figuresTable('type-' + t.type, t.windows, t.type === '1x2' || t.type === 'full-analysis'));
    });
    var byLeague = document.getElementById('by-league');
    record.by_league.forEach(function (l) {
      var code = l.league ? l.league.code : 'none';
      byLeague.appendChild(el('h3', {}, l.league ? l.league.name + ' (' + l.league.code + ')' : 'Match non retrouvé'));
      byLeague.appendChild(figuresTable('league-' + code, l.windows, true));
    });
    document.getElementById('calibration').appendChild(calibrationChart(record.calibration));
    var monthly = document.getElementById('monthly');
    monthly.appendChild(monthlyChart(record.monthly));
    monthly.appendChild(monthlyTable(record.monthly));
    document.getElementById('baseline').textContent = 'Référence naïve du RPS et du score de Brier : ' + record.baseline + '.';
    var status = document.getElementById('status');
    status.textContent = 'Mis à jour le ' + new Date(record.generated_at).toLocaleString('fr-FR') + '.';
    status.setAttribute('data-ready', 'true');
  }
  fetch('/api/track-record', { headers: { accept: 'application/json' } })
    .then(function (r) { if (!r.ok) throw new Error('HTTP ' + r.status); return r.json(); })
    .then(function (body) { render(body.data.track_record); })
    .catch(function () { document.getElementById('status').textContent = 'Le bilan est indisponible pour le moment.'; });
})();
`;
