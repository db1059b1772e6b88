/**
 * The page script that draws the topology: dagre lays the graph out (one
 * cluster per sub-topology), this script draws it as SVG. Topics are shared
 * nodes outside the clusters, so a repartition topic links the sub-topology
 * writing it to the one reading it; stores sit inside their sub-topology,
 * with their changelog topic. Defines `window.SluiceGraph.draw(svg, topology)`,
 * which returns the rate label of each node by name.
 * (Plain browser JavaScript, no template literals: it lives in a TS string.)
 */
export const PAGE_GRAPH_JS = `'use strict';
(function () {
  var SVG = 'http://www.w3.org/2000/svg';
  function el(name, attrs, parent) {
    var e = document.createElementNS(SVG, name);
    for (var k in attrs) e.setAttribute(k, String(attrs[k]));
    if (parent) parent.appendChild(e);
    return e;
  }
  function text(parent, x, y, value, cls) {
    var t = el('text', { x: x, y: y, 'text-anchor': 'middle', 'dominant-baseline': 'middle', class: cls || '' }, parent);
    t.textContent = value;
    return t;
  }
  function width(label, min) { return Math.max(min, label.length * 6.6 + 24); }

  function build(topology) {
    var g = new dagre.graphlib.Graph({ compound: true, multigraph: true });
    g.setGraph({ rankdir: 'LR', nodesep: 14, ranksep: 34, marginx: 12, marginy: 12 });
    g.setDefaultEdgeLabel(function () { return {}; });
    var repartition = new Set(topology.repartitionTopics || []);
    var changelogs = topology.changelogs || {};
    var edges = 0;
    function edge(from, to, cls) { g.setEdge(from, to, { cls: cls || '' }, 'e' + (edges++)); }
    function topic(name, kind) {
      var id = 't:' + name;
      if (!g.hasNode(id)) g.setNode(id, { kind: 'topic', sub: kind, label: name, width: width(name, 90), height: 26 });
      return id;
    }
    function store(name, cluster) {
      var id = 's:' + name;
      if (!g.hasNode(id)) {
        g.setNode(id, { kind: 'store', label: name, width: width(name, 90), height: 34 });
        g.setParent(id, cluster);
        if (changelogs[name]) edge(id, topic(changelogs[name], 'changelog'), 'changelog-edge');
      }
      return id;
    }
    function addNode(n, cluster) {
      var id = 'n:' + n.name;
      g.setNode(id, { kind: n.type, label: n.name, name: n.name, width: width(n.name, 110), height: 38 });
      g.setParent(id, cluster);
      if (n.type === 'source') {
        (n.topics || []).forEach(function (t) { edge(topic(t, repartition.has(t) ? 'repartition' : 'topic'), id); });
        if (n.topicPattern) edge(topic('/' + n.topicPattern + '/', 'topic'), id);
      }
      if (n.type === 'sink') {
        var t = n.topic === null || n.topic === undefined ? '(topic chosen per record)' : n.topic;
        edge(id, topic(t, repartition.has(t) ? 'repartition' : 'topic'));
      }
      (n.stores || []).forEach(function (s) { edge(id, store(s, cluster), 'store-edge'); });
    }
    (topology.subtopologies || []).forEach(function (sub) {
      var cluster = 'c:' + sub.id;
      g.setNode(cluster, { kind: 'cluster', label: 'Sub-topology ' + sub.id });
      sub.nodes.forEach(function (n) { addNode(n, cluster); });
      sub.nodes.forEach(function (n) { (n.successors || []).forEach(function (s) { edge('n:' + n.name, 'n:' + s); }); });
    });
    (topology.globalStores || []).forEach(function (gs) {
      var cluster = 'c:g' + gs.id;
      g.setNode(cluster, { kind: 'cluster', label: 'Global store ' + gs.id });
      addNode(gs.source, cluster);
      addNode(gs.processor, cluster);
      edge('n:' + gs.source.name, 'n:' + gs.processor.name);
    });
    dagre.layout(g);
    return g;
  }

  function drawNode(layer, n, labels) {
    var x = n.x - n.width / 2, y = n.y - n.height / 2;
    if (n.kind === 'store') {
      var gr = el('g', { class: 'node store', 'data-store': n.label }, layer);
      var r = 5;
      el('path', { d: 'M' + x + ',' + (y + r) + ' a' + n.width / 2 + ',' + r + ' 0 0,0 ' + n.width + ',0 a' + n.width / 2 + ',' + r + ' 0 0,0 -' + n.width + ',0 v' + (n.height - 2 * r) +
        ' a' + n.width / 2 + ',' + r + ' 0 0,0 ' + n.width + ',0 v-' + (n.height - 2 * r) }, gr);
      text(gr, n.x, n.y + 3, n.label);
      return;
    }
    if (n.kind === 'topic') {
      var gt = el('g', { class: 'node topic ' + n.sub, 'data-topic': n.label }, layer);
      el('rect', { x: x, y: y, width: n.width, height: n.height, rx: 13 }, gt);
      text(gt, n.x, n.y, n.label);
      labels.topics[n.label] = gt;
      return;
    }
    var gn = el('g', { class: 'node ' + n.kind, 'data-node': n.name, 'data-kind': n.kind }, layer);
    el('rect', { x: x, y: y, width: n.width, height: n.height, rx: 4 }, gn);
    text(gn, x + 8, y + 8, n.kind, 'kind').setAttribute('text-anchor', 'start');
    var rate = text(gn, x + n.width - 8, y + 8, '–', 'rate');
    rate.setAttribute('text-anchor', 'end');
    text(gn, n.x, n.y + 7, n.label);
    labels.nodes[n.name] = { group: gn, rate: rate };
  }

  function draw(svg, topology) {
    while (svg.firstChild) svg.removeChild(svg.firstChild);
    var g = build(topology);
    var size = g.graph();
    svg.setAttribute('width', Math.ceil(size.width));
    svg.setAttribute('height', Math.ceil(size.height));
    svg.setAttribute('viewBox', '0 0 ' + Math.ceil(size.width) + ' ' + Math.ceil(size.height));
    var defs = el('defs', {}, svg);
    var marker = el('marker', { id: 'arrow', viewBox: '0 0 10 10', refX: 9, refY: 5, markerWidth: 7, markerHeight: 7, orient: 'auto-start-reverse' }, defs);
    el('path', { d: 'M0,0 L10,5 L0,10 z', fill: '#98a1b3' }, marker);
    var clusters = el('g', {}, svg), edgeLayer = el('g', {}, svg), nodeLayer = el('g', {}, svg);
    var labels = { nodes: {}, topics: {} };
    g.nodes().forEach(function (id) {
      var n = g.node(id);
      if (n.kind !== 'cluster') return;
      var c = el('g', { class: 'cluster', 'data-cluster': n.label }, clusters);
      el('rect', { x: n.x - n.width / 2, y: n.y - n.height / 2, width: n.width, height: n.height, rx: 6 }, c);
      var t = text(c, n.x - n.width / 2 + 8, n.y - n.height / 2 + 9, n.label);
      t.setAttribute('text-anchor', 'start');
    });
    g.edges().forEach(function (e) {
      var data = g.edge(e);
      var d = data.points.map(function (p, i) { return (i ? 'L' : 'M') + p.x.toFixed(1) + ',' + p.y.toFixed(1); }).join(' ');
      el('path', { d: d, class: 'edge ' + (data.cls || ''), 'marker-end': 'url(#arrow)' }, edgeLayer);
    });
    g.nodes().forEach(function (id) {
      var n = g.node(id);
      if (n.kind !== 'cluster') drawNode(nodeLayer, n, labels);
    });
    return labels;
  }

  window.SluiceGraph = { draw: draw };
})();
`;
