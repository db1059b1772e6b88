/** The page's HTML (no build step: plain markup loading the files of ../assets.ts). */
export const PAGE_HTML = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>sluice live</title>
<link rel="stylesheet" href="/lib/uPlot.min.css">
<link rel="stylesheet" href="/ui.css">
</head>
<body>
<header>
  <h1><span class="brand">sluice</span> <span id="app-id">…</span></h1>
  <div class="status">
    <span id="app-state" class="pill">connecting</span>
    <span class="muted">instance <b id="instance">…</b></span>
    <span class="muted">updated <b id="updated">never</b></span>
  </div>
</header>
<section class="kpis" id="kpis"></section>
<main>
  <section class="panel graph-panel wide">
    <h2>Topology <span class="muted small">records/s per node, lag per source topic</span>
      <span class="legend"><i class="lg source"></i>source <i class="lg processor"></i>processor <i class="lg sink"></i>sink <i class="lg topic"></i>topic <i class="lg repartition"></i>repartition <i class="lg store"></i>store <i class="lg changelog"></i>changelog</span></h2>
    <div id="graph"><svg id="graph-svg" role="img" aria-label="topology graph"></svg></div>
  </section>
  <section class="panel charts wide">
    <div class="chart" id="chart-throughput"></div>
    <div class="chart" id="chart-lag"></div>
    <div class="chart" id="chart-txn"></div>
    <div class="chart" id="chart-loss"></div>
  </section>
  <section class="panel">
    <h2>Tasks <span class="muted small">owner, state, partitions and lag</span></h2>
    <div class="scroll"><table id="tasks"><thead><tr><th>task</th><th>owner</th><th>state</th><th>partitions (lag)</th><th>processed</th><th>commits / aborts</th><th>unacked</th></tr></thead><tbody></tbody></table></div>
    <h2 class="gap">Restoration</h2>
    <div id="restore" class="muted">no store restoring</div>
  </section>
  <section class="panel">
    <h2>Last handler decisions <span class="muted small" id="decision-count"></span></h2>
    <div class="scroll"><table id="decisions"><thead><tr><th>time</th><th>handler</th><th>record</th><th>error</th><th>answer</th></tr></thead><tbody></tbody></table></div>
    <div id="no-decisions" class="muted">no handler was asked yet</div>
  </section>
</main>
<script src="/lib/dagre.min.js"></script>
<script src="/lib/uPlot.iife.min.js"></script>
<script src="/ui-graph.js"></script>
<script src="/ui.js"></script>
</body>
</html>
`;
