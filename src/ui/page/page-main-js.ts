/**
 * The page script: reads `/topology` once and draws it (./page-graph-js.ts),
 * then follows `/events`: each snapshot updates the node rates, the key
 * figures, the charts (kept in the page: the last 180 snapshots), the task
 * table, the restorations and the handler decisions. `window.sluiceUi` holds
 * what the browser test reads (snapshot count, last rates).
 * (Plain browser JavaScript, no template literals: it lives in a TS string.)
 */
export const PAGE_MAIN_JS = `'use strict';
(function () {
  var KEEP = 180;
  var state = { snapshots: 0, last: null, rates: {}, topology: null, labels: null, charts: {}, series: null, errors: [] };
  window.sluiceUi = state;
  function $(id) { return document.getElementById(id); }
  function fmt(n) {
    if (n === undefined || n === null || isNaN(n)) return '–';
    var a = Math.abs(n);
    if (a >= 1e6) return (n / 1e6).toFixed(a >= 1e7 ? 0 : 1) + 'M';
    if (a >= 1e4) return (n / 1e3).toFixed(a >= 1e5 ? 0 : 1) + 'k';
    return String(Math.round(n));
  }
  function esc(s) { return String(s).replace(/[&<>"]/g, function (c) { return { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' }[c]; }); }
  function cell(html, cls) { return '<td' + (cls ? ' class="' + cls + '"' : '') + '>' + html + '</td>'; }

  // ---- charts (uPlot), one row of data per snapshot ----
  var SERIES = {
    throughput: { title: 'Throughput (records/s)', lines: [['processed', '#2f7de1'], ['produced', '#1f9d74']] },
    lag: { title: 'Consumer lag (records) and restore remaining', lines: [['lag', '#d08a12'], ['restore remaining', '#8a5cf6']] },
    txn: { title: 'Commits and aborts (per s)', lines: [['commits', '#1f9d74'], ['aborts', '#c53030']] },
    loss: { title: 'Dropped, dead-lettered, skipped (total)', lines: [['dropped', '#c53030'], ['dead-lettered', '#d9480f'], ['skipped', '#6b7384']] },
  };
  function makeCharts() {
    state.series = {};
    Object.keys(SERIES).forEach(function (key) {
      var spec = SERIES[key];
      var host = $('chart-' + key);
      var data = [[]].concat(spec.lines.map(function () { return []; }));
      state.series[key] = data;
      var opts = {
        title: spec.title, width: Math.max(220, host.clientWidth || 320), height: 150,
        cursor: { drag: { x: false, y: false } }, legend: { show: true, live: false },
        scales: { x: { time: true }, y: { range: function (u, min, max) { return [0, Math.max(1, max * 1.1)]; } } },
        axes: [{ stroke: '#6b7384', grid: { stroke: '#eef0f4' } }, { stroke: '#6b7384', grid: { stroke: '#eef0f4' }, size: 46, values: function (u, v) { return v.map(fmt); } }],
        series: [{}].concat(spec.lines.map(function (l) { return { label: l[0], stroke: l[1], width: 1.6, points: { show: false }, value: function (u, v) { return fmt(v); } }; })),
      };
      state.charts[key] = new uPlot(opts, data, host);
    });
    window.addEventListener('resize', function () {
      Object.keys(state.charts).forEach(function (key) { state.charts[key].setSize({ width: Math.max(220, $('chart-' + key).clientWidth), height: 150 }); });
    });
  }
  function push(key, t, values) {
    var data = state.series[key];
    data[0].push(t);
    values.forEach(function (v, i) { data[i + 1].push(v); });
    if (data[0].length > KEEP) data.forEach(function (col) { col.shift(); });
    state.charts[key].setData(data);
  }

  // ---- one snapshot ----
  function perSecond(now, prev, pick, dt) { return prev ? Math.max(0, (pick(now) - pick(prev)) / dt) : 0; }
  function kpis(s, rate) {
    var t = s.totals;
    var items = [['records/s', rate], ['processed', t.recordsProcessed], ['produced', t.recordsProduced], ['lag', t.consumerLag],
      ['commits', t.commits], ['aborts', t.aborts], ['dropped', t.droppedRecords], ['dead-lettered', t.deadLettered]];
    $('kpis').innerHTML = items.map(function (i) { return '<div class="kpi" data-kpi="' + i[0] + '"><div class="v">' + fmt(i[1]) + '</div><div class="k">' + i[0] + '</div></div>'; }).join('');
  }
  function nodes(s, prev, dt) {
    if (!state.labels) return;
    Object.keys(state.labels.nodes).forEach(function (name) {
      var now = s.nodes[name] || 0, before = prev ? (prev.nodes[name] || 0) : now;
      var r = prev ? Math.max(0, (now - before) / dt) : 0;
      state.rates[name] = r;
      var label = state.labels.nodes[name];
      var a = s.asyncNodes && s.asyncNodes[name];
      label.rate.textContent = fmt(r) + '/s' + (a ? ' · ' + fmt(a.inFlight) + ' in flight · ' + fmt(Math.round(a.avgLatencyMs)) + ' ms' : '');
      if (a) label.group.setAttribute('title', 'async step: ' + a.inFlight + ' in flight, mean call ' + a.avgLatencyMs.toFixed(1) + ' ms, mean queue ' + a.avgQueueMs.toFixed(1) + ' ms, ' + a.failed + ' failed');
      label.group.setAttribute('data-rate', String(r));
      label.group.classList.toggle('hot', r > 0);
    });
    Object.keys(state.labels.topics).forEach(function (topic) {
      var g = state.labels.topics[topic];
      var lag = s.topicLag[topic];
      if (lag === undefined) lag = s.topicLag[s.applicationId + '-' + topic];
      var t = g.querySelector('text');
      t.textContent = topic + (lag ? '  · lag ' + fmt(lag) : '');
    });
  }
  function tasks(s) {
    $('tasks').tBodies[0].innerHTML = s.tasks.map(function (t) {
      var parts = t.partitions.map(function (p) { return esc(p.topic) + '-' + p.partition + ' <b>(' + fmt(p.lag) + ')</b>'; }).join('<br>');
      var st = t.owned ? (t.state || '?') : 'not owned';
      return '<tr data-task="' + esc(t.id) + '">' + cell('<b>' + esc(t.id) + '</b>') + cell(t.owned ? esc(s.instance) : '–') + cell('<span class="pill ' + esc(st) + '">' + esc(st) + '</span>') +
        cell(parts || '–') + cell(fmt(t.recordsProcessed)) + cell(fmt(t.commits) + ' / ' + fmt(t.aborts)) + cell(fmt(t.pendingOutputs)) + '</tr>';
    }).join('');
    var r = s.restore;
    $('restore').innerHTML = r.active.length === 0 ? 'no store restoring · ' + fmt(r.restoredRecords) + ' records restored since start'
      : r.active.map(function (a) {
        var pct = a.total > 0 ? Math.min(100, 100 * a.restored / a.total) : 100;
        return '<div><b>' + esc(a.store) + '</b> from ' + esc(a.topic) + '-' + a.partition + ': ' + fmt(a.restored) + ' / ' + fmt(a.total) + ' (' + pct.toFixed(0) + ' %)</div><div class="bar"><div style="width:' + pct + '%"></div></div>';
      }).join('') + '<div class="muted">' + fmt(r.rate) + ' records/s, ' + fmt(r.remainingRecords) + ' remaining</div>';
  }
  function decisions(s) {
    var rows = s.decisions.slice().reverse().map(function (d) {
      var at = new Date(d.at).toLocaleTimeString();
      var rec = d.topic ? esc(d.topic) + '-' + d.partition + '@' + d.offset : '(punctuation)';
      var err = '<b>' + esc(d.errorClass) + '</b>' + (d.errorCode ? ' <code>' + esc(d.errorCode) + '</code>' : '') + (d.errorKind ? ' <span class="muted">' + esc(d.errorKind) + '</span>' : '') +
        '<div class="muted" title="' + esc(d.message) + '">' + esc(d.message) + '</div>';
      var ans = esc(d.answer) + (d.deadLetters ? '<div class="muted">+' + d.deadLetters + ' dead letter' + (d.deadLetters > 1 ? 's' : '') + '</div>' : '');
      return '<tr class="decision">' + cell(at) + cell(esc(d.slot) + '<div class="muted">' + esc(d.handler) + '</div>') + cell(rec + '<div class="muted">' + esc(d.node) + ' · task ' + esc(d.taskId) + '</div>') +
        cell(err) + cell(ans, 'answer-' + esc(d.answer)) + '</tr>';
    });
    $('decisions').tBodies[0].innerHTML = rows.join('');
    $('no-decisions').style.display = rows.length ? 'none' : '';
    $('decision-count').textContent = rows.length ? 'the last ' + rows.length + ', newest first' : '';
  }
  function onSnapshot(s) {
    var prev = state.last;
    var dt = prev ? Math.max(0.001, (s.at - prev.at) / 1000) : 1;
    var t = s.totals;
    var rate = perSecond(s, prev, function (x) { return x.totals.recordsProcessed; }, dt);
    state.snapshots++;
    state.last = s;
    $('app-id').textContent = s.applicationId;
    $('instance').textContent = s.instance;
    $('updated').textContent = new Date(s.at).toLocaleTimeString();
    var pill = $('app-state');
    pill.textContent = s.state;
    pill.className = 'pill ' + s.state;
    kpis(s, rate);
    nodes(s, prev, dt);
    tasks(s);
    decisions(s);
    var at = s.at / 1000;
    push('throughput', at, [rate, perSecond(s, prev, function (x) { return x.totals.recordsProduced; }, dt)]);
    push('lag', at, [t.consumerLag, s.restore.remainingRecords]);
    push('txn', at, [perSecond(s, prev, function (x) { return x.totals.commits; }, dt), perSecond(s, prev, function (x) { return x.totals.aborts; }, dt)]);
    push('loss', at, [t.droppedRecords, t.deadLettered, t.recordsSkipped]);
    document.body.setAttribute('data-snapshots', String(state.snapshots));
  }

  function connect() {
    var source = new EventSource('/events');
    source.addEventListener('snapshot', function (e) {
      try { onSnapshot(JSON.parse(e.data)); } catch (err) { state.errors.push(String(err && err.stack || err)); }
    });
    source.addEventListener('failure', function (e) { state.errors.push(e.data); });
    source.onerror = function () { var pill = $('app-state'); pill.textContent = 'disconnected'; pill.className = 'pill disconnected'; };
  }

  makeCharts();
  fetch('/topology').then(function (r) { return r.json(); }).then(function (topology) {
    state.topology = topology;
    state.labels = window.SluiceGraph.draw($('graph-svg'), topology);
    document.body.setAttribute('data-graph', 'drawn');
    connect();
  }).catch(function (err) { state.errors.push(String(err && err.stack || err)); });
})();
`;
