// The track-record page's money section (issue 53, decision 0129): its HTML, and the part of the
// page's script that draws `data.returns`, the monthly return of our analyses and of the
// bookmakers' favourite with their 95 % intervals as inline SVG, and the table by market. Texts
// from the catalogue's `slipTexts.trackRecordMoney`, in the page's language.
import type { Locale } from '../../lib/locale.js';
import { catalogueFor } from '../../lib/messages.js';
import { js } from '../../lib/page-html.js';

export function returnsSection(locale: Locale): string {
  const m = catalogueFor(locale).slipTexts.trackRecordMoney;
  return `<h2>${m.title}</h2>
<p class="note">${m.intro}</p>
<div id="returns" class="wide"></div>
`;
}

/** Defines `renderReturns(returns)`, which the page's script calls with `data.returns`. */
export function returnsScript(locale: Locale): string {
  const m = catalogueFor(locale).slipTexts.trackRecordMoney;
  return `  var MONEY_MARKETS = ${JSON.stringify(m.markets)};
  function roiText(f) {
    if (f.roi === null) return '–';
    return pct(f.roi) + (f.roi_low === null ? '' : ' (' + pct(f.roi_low) + ' ; ' + pct(f.roi_high) + ')');
  }
  function returnsChart(months, width) {
    var W = Math.max(320, Math.min(width || 900, 1000)), H = 260, L = 56, R = 12, T = 12, B = 34;
    var sw = W - L - R, sh = H - T - B;
    var svg = svgEl('svg', { viewBox: '0 0 ' + W + ' ' + H, role: 'img', 'aria-label': ${js(m.chart)}, 'font-family': 'system-ui, sans-serif' });
    var values = [0];
    months.forEach(function (mo) { [mo.analyses, mo.favourite].forEach(function (f) { if (f.roi !== null) values.push(f.roi_low === null ? f.roi : f.roi_low, f.roi_high === null ? f.roi : f.roi_high); }); });
    var lo = Math.min.apply(null, values), hi = Math.max.apply(null, values);
    if (hi - lo < 0.2) { hi += 0.1; lo -= 0.1; }
    var y = function (v) { return T + (hi - v) / (hi - lo) * sh; };
    var step = sw / months.length;
    [lo, 0, hi].forEach(function (v) {
      svg.appendChild(svgEl('line', { x1: L, y1: y(v), x2: L + sw, y2: y(v), stroke: v === 0 ? INK : GRID, 'stroke-dasharray': v === 0 ? '5 4' : '' }));
      svg.appendChild(svgEl('text', { x: L - 6, y: y(v) + 4, 'text-anchor': 'end', 'font-size': 11, fill: INK }, pct0(v)));
    });
    months.forEach(function (mo, i) {
      [[mo.analyses, OURS, -0.15, 'ours'], [mo.favourite, MARKET, 0.15, 'favourite']].forEach(function (s) {
        var f = s[0];
        if (f.roi === null) return;
        var cx = L + (i + 0.5 + s[2]) * step;
        if (f.roi_low !== null) svg.appendChild(svgEl('line', { x1: cx, y1: y(f.roi_low), x2: cx, y2: y(f.roi_high), stroke: s[1], 'stroke-width': 2 }));
        var mark = svgEl('circle', { cx: cx, cy: y(f.roi), r: 4.5, fill: s[1], 'data-returns': mo.month + ':' + s[3] });
        mark.appendChild(svgEl('title', {}, mo.month + ' : ' + roiText(f) + ' – ' + f.bets));
        svg.appendChild(mark);
      });
      svg.appendChild(svgEl('text', { x: L + (i + 0.5) * step, y: H - 12, 'text-anchor': 'middle', 'font-size': 11, fill: INK }, mo.month));
    });
    return svg;
  }
  function returnsTable(markets) {
    var table = el('table', { 'data-table': 'returns' });
    var head = el('tr');
    [${js(m.market)}, ${js(m.bets)}, ${js(m.staked)}, ${js(m.returned)}, ${js(m.roi)}, ${js(m.favouriteRoi)}].forEach(function (h) { head.appendChild(el('th', { scope: 'col' }, h)); });
    table.appendChild(head);
    markets.forEach(function (mk) {
      var row = el('tr');
      [['market', MONEY_MARKETS[mk.market] || mk.market], ['bets', String(mk.analyses.bets)], ['staked', num(mk.analyses.staked, 0)], ['returned', num(mk.analyses.returned, 0)], ['roi', roiText(mk.analyses)], ['favourite', roiText(mk.favourite)]].forEach(function (c) {
        row.appendChild(el('td', { 'data-cell': 'returns:' + mk.market + ':' + c[0] }, c[1]));
      });
      table.appendChild(row);
    });
    return scroller(${js(m.table)}, table);
  }
  function renderReturns(returns) {
    var box = document.getElementById('returns');
    if (!returns) return;
    if (returns.all.analyses.bets === 0) box.appendChild(empty(${js(m.empty)}));
    else {
      box.appendChild(returnsChart(returns.months, box.clientWidth));
      box.appendChild(legend([['ours', ${js(m.legendOurs)}], ['market', ${js(m.legendFavourite)}]]));
    }
    box.appendChild(returnsTable(returns.markets));
  }
`;
}
