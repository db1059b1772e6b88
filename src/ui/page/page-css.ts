/** The page's style sheet. */
export const PAGE_CSS = `
:root { --bg: #f6f7f9; --panel: #fff; --ink: #1d2330; --muted: #6b7384; --line: #d9dde5;
  --source: #2f7de1; --processor: #4b5567; --sink: #1f9d74; --topic: #fff4d6; --topic-line: #d9a520;
  --store: #efe6ff; --store-line: #8a5cf6; --changelog: #fde8e8; --changelog-line: #d35454; --bad: #c53030; --ok: #1f9d74; }
* { box-sizing: border-box; }
body { margin: 0; font: 13px/1.4 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; background: var(--bg); color: var(--ink); }
header { display: flex; justify-content: space-between; align-items: center; padding: 10px 18px; background: #1d2330; color: #fff; }
header h1 { margin: 0; font-size: 17px; font-weight: 600; }
header .brand { color: #7cc4ff; }
header .muted { color: #aab2c2; margin-left: 14px; }
header b { color: #fff; font-weight: 600; }
.pill { display: inline-block; padding: 1px 9px; border-radius: 10px; background: #59627a; color: #fff; font-weight: 600; font-size: 12px; }
.pill.RUNNING { background: var(--ok); } .pill.REBALANCING, .pill.RESTORING { background: #d08a12; }
.pill.ERROR, .pill.PENDING_ERROR, .pill.FAILED, .pill.disconnected { background: var(--bad); }
.kpis { display: grid; grid-template-columns: repeat(8, 1fr); gap: 10px; padding: 12px 18px 0; }
.kpi { background: var(--panel); border: 1px solid var(--line); border-radius: 6px; padding: 8px 10px; }
.kpi .v { font-size: 19px; font-weight: 650; font-variant-numeric: tabular-nums; }
.kpi .k { color: var(--muted); font-size: 11px; text-transform: uppercase; letter-spacing: .04em; }
main { display: grid; grid-template-columns: minmax(0, 1fr) minmax(0, 1fr); gap: 12px; padding: 12px 18px 18px; }
.wide { grid-column: 1 / -1; }
.charts { display: grid; grid-template-columns: repeat(4, minmax(0, 1fr)); gap: 10px; }
.scroll { max-height: 360px; overflow: auto; }
h2.gap { margin-top: 14px; }
.legend { float: right; font-size: 11px; font-weight: 400; text-transform: none; letter-spacing: 0; color: var(--muted); }
.lg { display: inline-block; width: 10px; height: 10px; border-radius: 2px; margin: 0 3px 0 10px; vertical-align: -1px; border: 1px solid; }
.lg.source { background: #e8f1fd; border-color: var(--source); } .lg.processor { background: #f1f3f6; border-color: var(--processor); } .lg.sink { background: #e5f6f0; border-color: var(--sink); }
.lg.topic { background: var(--topic); border-color: var(--topic-line); border-radius: 5px; } .lg.repartition { background: #ffe9c7; border-color: #e08a00; border-radius: 5px; }
.lg.store { background: var(--store); border-color: var(--store-line); } .lg.changelog { background: var(--changelog); border-color: var(--changelog-line); border-radius: 5px; }
.panel { background: var(--panel); border: 1px solid var(--line); border-radius: 6px; padding: 10px 12px; min-width: 0; }
.panel h2 { font-size: 13px; margin: 0 0 8px; text-transform: uppercase; letter-spacing: .05em; color: #3a4253; }
.panel h2 + * { margin-top: 0; }
.muted { color: var(--muted); } .small { font-size: 11px; text-transform: none; letter-spacing: 0; font-weight: 400; }
#graph { overflow: auto; max-height: 720px; }
#graph svg { margin: 0 auto; max-width: 100%; height: auto; }
#graph svg { display: block; }
.cluster rect { fill: #f3f5f9; stroke: #c9cfdb; stroke-dasharray: 4 3; }
.cluster text { fill: var(--muted); font-size: 11px; font-weight: 600; }
.edge { fill: none; stroke: #98a1b3; stroke-width: 1.3; } .edge.store-edge { stroke: var(--store-line); stroke-dasharray: 3 3; }
.edge.changelog-edge { stroke: var(--changelog-line); stroke-dasharray: 5 3; }
.node rect, .node path { stroke-width: 1.4; }
.node.source rect { fill: #e8f1fd; stroke: var(--source); } .node.processor rect { fill: #f1f3f6; stroke: var(--processor); }
.node.sink rect { fill: #e5f6f0; stroke: var(--sink); } .node.topic rect { fill: var(--topic); stroke: var(--topic-line); }
.node.topic.repartition rect { fill: #ffe9c7; stroke: #e08a00; } .node.topic.changelog rect { fill: var(--changelog); stroke: var(--changelog-line); }
.node.store path { fill: var(--store); stroke: var(--store-line); }
.node text { font-size: 11px; fill: var(--ink); } .node text.kind { font-size: 9px; fill: var(--muted); text-transform: uppercase; letter-spacing: .05em; }
.node text.rate { font-size: 11px; font-weight: 650; fill: #2f7de1; font-variant-numeric: tabular-nums; }
.node.hot text.rate { fill: #d9480f; }
.chart { margin-bottom: 6px; }
.uplot { font-family: inherit; } .u-title { font-size: 12px !important; font-weight: 600 !important; text-align: left !important; }
table { width: 100%; border-collapse: collapse; font-variant-numeric: tabular-nums; }
th { text-align: left; color: var(--muted); font-weight: 600; font-size: 10px; text-transform: uppercase; border-bottom: 1px solid var(--line); padding: 3px 5px; }
td { border-bottom: 1px solid #eef0f4; padding: 3px 5px; vertical-align: top; font-size: 12px; }
td.answer-CONTINUE { color: var(--ok); font-weight: 650; } td.answer-FAIL, td.answer-THREW { color: var(--bad); font-weight: 650; }
.bar { height: 6px; background: #e6e9ef; border-radius: 3px; overflow: hidden; margin: 3px 0 8px; }
.bar > div { height: 100%; background: #8a5cf6; }
code { font-size: 11px; }
@media (max-width: 1100px) { main { grid-template-columns: 1fr; } .kpis, .charts { grid-template-columns: repeat(2, minmax(0, 1fr)); } }
#decisions { table-layout: fixed; } #decisions th:nth-child(1) { width: 11%; } #decisions th:nth-child(2) { width: 18%; } #decisions th:nth-child(3) { width: 20%; } #decisions th:nth-child(5) { width: 17%; }
#decisions td { overflow: hidden; } td { white-space: nowrap; }
td .muted { font-size: 11px; white-space: nowrap; overflow: hidden; text-overflow: ellipsis; }
`;
