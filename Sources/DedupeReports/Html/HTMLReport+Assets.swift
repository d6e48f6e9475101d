extension HTMLReport {
    /// The page's policy: nothing may be fetched (no script, style, font, image or connection
    /// from anywhere); only the page's own inline style and script run.
    static let contentSecurityPolicy =
        "default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'"

    static let style = """
    :root { --ink: #1d1d1f; --muted: #5f6368; --rule: #d9d9de; --band: #f6f6f8; --wanted: #1f6fd1; --dup: #d2461e; --unknown: #8a8a8a; }
    * { box-sizing: border-box; }
    body { margin: 0; font: 15px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: var(--ink); background: #fff; }
    .layout { display: grid; grid-template-columns: 15rem minmax(0, 1fr); gap: 2rem; max-width: 96rem; margin: 0 auto; padding: 1rem 1.5rem 4rem; }
    nav.toc { position: sticky; top: 0; align-self: start; max-height: 100vh; overflow-y: auto; font-size: 0.9rem; padding-top: 1rem; }
    nav.toc ol { padding-left: 1.8rem; margin: 0.3rem 0; }
    main { min-width: 0; }
    h1 { font-size: 1.8rem; margin: 0.6rem 0; }
    h2 { font-size: 1.35rem; margin-top: 2.4rem; border-bottom: 1px solid var(--rule); padding-bottom: 0.2rem; }
    h3 { font-size: 1.1rem; margin-top: 1.6rem; }
    code { font: 0.85em/1.4 ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; background: var(--band); padding: 0 0.2em; border-radius: 3px; }
    pre { background: var(--band); padding: 0.8rem; overflow-x: auto; border-radius: 4px; }
    pre code { background: none; padding: 0; }
    blockquote { margin: 1rem 0; padding: 0.4rem 1rem; border-left: 4px solid var(--rule); color: var(--muted); }
    blockquote.callout.warning { border-color: var(--dup); color: var(--ink); background: #fff4f0; }
    .table-wrap { overflow-x: auto; margin: 0.8rem 0; }
    table.data { border-collapse: collapse; font-size: 0.85rem; }
    table.data th, table.data td { border-bottom: 1px solid var(--rule); padding: 0.25rem 0.5rem; text-align: left; vertical-align: top; }
    table.data th { background: var(--band); position: sticky; top: 0; }
    table.data td code { overflow-wrap: break-word; }
    table.data td:has(> code) { min-width: 12rem; }
    table.data .num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
    table.data tbody tr:hover { background: #fafaf2; }
    .js table.data th { cursor: pointer; user-select: none; }
    .js table.data th[aria-sort="ascending"]::after { content: " \\25B2"; font-size: 0.7em; }
    .js table.data th[aria-sort="descending"]::after { content: " \\25BC"; font-size: 0.7em; }
    .filter-note { font-size: 0.8rem; color: var(--muted); margin: -0.4rem 0 0.8rem; }
    form.filters { position: sticky; top: 0; z-index: 2; background: #fff; border-bottom: 1px solid var(--rule); padding: 0.5rem 0; display: flex; flex-wrap: wrap; gap: 1rem; align-items: center; font-size: 0.9rem; }
    form.filters[hidden], .js-only[hidden] { display: none; }
    figure.chart { margin: 1rem 0; }
    figure.chart svg { max-width: 100%; height: auto; border: 1px solid var(--rule); }
    figure.chart figcaption { font-size: 0.85rem; color: var(--muted); }
    svg.strip { display: block; }
    .diff-controls { display: flex; flex-wrap: wrap; gap: 0.8rem; align-items: center; margin: 0.6rem 0; }
    .diff-controls select { max-width: 100%; }
    #diff-timeline svg { width: 100%; height: auto; border: 1px solid var(--rule); }
    .legend span { margin-right: 1rem; font-size: 0.85rem; }
    .swatch { display: inline-block; width: 0.8em; height: 0.8em; margin-right: 0.3em; vertical-align: middle; }
    .wanted { color: var(--wanted); } .dup { color: var(--dup); } .unknown { color: var(--unknown); }
    .note { color: var(--muted); font-size: 0.9rem; }
    .cut { color: var(--dup); font-weight: 600; }
    @media (max-width: 60rem) { .layout { grid-template-columns: minmax(0, 1fr); } nav.toc { position: static; max-height: none; } }
    @media print {
      body { font-size: 10pt; }
      .layout { display: block; padding: 0; max-width: none; }
      nav.toc, form.filters, .diff-controls, .filter-note { display: none !important; }
      .table-wrap { overflow: visible; }
      table.data { font-size: 7.5pt; }
      table.data th { position: static; }
      tr, figure, pre { break-inside: avoid; }
      h2, h3 { break-after: avoid; }
      a { color: inherit; text-decoration: none; }
    }
    """

    /// Sorting, filtering and the diff view. The page is complete without it (every table is in
    /// the HTML); with `#selftest` in the address it checks itself and writes `#selftest-result`,
    /// which the browser check reads.
    static let script = #"""
    (function () {
      'use strict';
      var doc = document;
      var problems = [];
      window.addEventListener('error', function (event) { problems.push('script error: ' + event.message); });
      doc.addEventListener('securitypolicyviolation', function (event) { problems.push('blocked: ' + event.blockedURI); });
      doc.documentElement.classList.add('js');

      function text(element) { return element ? (element.textContent || '').trim() : ''; }
      var units = { 'ns': 1, 'µs': 1e3, 'us': 1e3, 'ms': 1e6, 's': 1e9, 'B': 1, 'KiB': 1024, 'MiB': 1048576, 'GiB': 1073741824 };
      function isMissing(value) { return value === '' || value === '—' || value === '-' || value === 'none'; }
      function numeric(value) {
        var match = /^([-+]?\d[\d,]*(?:\.\d+)?(?:e[-+]?\d+)?|[-+]?\.\d+)\s*(ns|µs|us|ms|s|B|KiB|MiB|GiB)?(?![A-Za-z])/.exec(value);
        if (!match) { return null; }
        var number = parseFloat(match[1].replace(/,/g, ''));
        return isNaN(number) ? null : number * (match[2] ? units[match[2]] : 1);
      }
      function tokens(value) { return value.split(/[\s`\/+,();:|]+/).filter(function (token) { return token !== ''; }); }
      function headerIndex(table, name) {
        var cells = table.tHead ? table.tHead.rows[0].cells : [];
        for (var i = 0; i < cells.length; i++) { if (text(cells[i]).toLowerCase() === name) { return i; } }
        return -1;
      }

      // Sorting: a click on a header sorts by that column, numbers by value (units read), text
      // alphabetically, blanks last; a second click reverses.
      function sortTable(table, column, direction) {
        var body = table.tBodies[0];
        var keys = Array.prototype.map.call(body.rows, function (row, index) {
          return { row: row, index: index, text: text(row.cells[column]) };
        });
        var allNumeric = keys.every(function (key) { return isMissing(key.text) || numeric(key.text) !== null; });
        keys.forEach(function (key) {
          key.value = isMissing(key.text) ? null : allNumeric ? numeric(key.text) : key.text.toLowerCase();
        });
        keys.sort(function (a, b) {
          if (a.value === null || b.value === null) { return a.value === b.value ? a.index - b.index : a.value === null ? 1 : -1; }
          var order = allNumeric ? a.value - b.value : a.value < b.value ? -1 : a.value > b.value ? 1 : 0;
          return order * direction || a.index - b.index;
        });
        keys.forEach(function (key) { body.appendChild(key.row); });
        Array.prototype.forEach.call(table.tHead.rows[0].cells, function (cell, index) {
          if (index === column) { cell.setAttribute('aria-sort', direction > 0 ? 'ascending' : 'descending'); } else { cell.removeAttribute('aria-sort'); }
        });
      }
      var tables = Array.prototype.slice.call(doc.querySelectorAll('table.data'));
      tables.forEach(function (table) {
        if (!table.tHead || !table.tBodies.length) { return; }
        Array.prototype.forEach.call(table.tHead.rows[0].cells, function (cell, column) {
          cell.tabIndex = 0;
          cell.title = 'Sort by this column';
          function activate() { sortTable(table, column, cell.getAttribute('aria-sort') === 'ascending' ? -1 : 1); }
          cell.addEventListener('click', activate);
          cell.addEventListener('keydown', function (event) { if (event.key === 'Enter' || event.key === ' ') { event.preventDefault(); activate(); } });
        });
      });

      // Filtering: a table is filtered on a dimension only when it shows that dimension (a
      // workload id, a mode, a Layer or Guarantee column); its other rows stay.
      var form = doc.querySelector('form.filters');
      var layerModes = { window: ['window-alone', 'fingerprint-only'], consumed: ['consumed-alone', 'envelope-only'], pipeline: ['two-layer', 'two-layer-guarded'] };
      var allModes = [].concat(layerModes.window, layerModes.consumed, layerModes.pipeline);
      function applyFilters() {
        var workload = form.elements.workload.value, layer = form.elements.layer.value, guarantee = form.elements.guarantee.value;
        var workloads = Array.prototype.map.call(form.elements.workload.options, function (option) { return option.value; }).filter(Boolean);
        tables.forEach(function (table) {
          if (table.closest('#decision-diff')) { return; }
          var rows = Array.prototype.slice.call(table.tBodies[0].rows);
          var rowTokens = rows.map(function (row) {
            return Array.prototype.reduce.call(row.cells, function (found, cell) { return found.concat(tokens(text(cell))); }, []);
          });
          function mentions(list) { return rowTokens.some(function (found) { return found.some(function (token) { return list.indexOf(token) >= 0; }); }); }
          var layerColumn = headerIndex(table, 'layer'), guaranteeColumn = headerIndex(table, 'guarantee');
          var byWorkload = workload !== '' && mentions(workloads);
          var byLayer = layer !== '' && (layerColumn >= 0 || mentions(allModes));
          var byGuarantee = guarantee !== '' && guaranteeColumn >= 0;
          var shown = 0;
          rows.forEach(function (row, index) {
            var keep = true;
            if (byWorkload) { keep = rowTokens[index].indexOf(workload) >= 0; }
            if (keep && byLayer) {
              keep = layerColumn >= 0 ? (layer === 'pipeline' ? false : text(row.cells[layerColumn]) === layer)
                : layerModes[layer].some(function (mode) { return rowTokens[index].indexOf(mode) >= 0; });
            }
            if (keep && byGuarantee) { keep = tokens(text(row.cells[guaranteeColumn])).indexOf(guarantee) >= 0; }
            row.hidden = !keep;
            if (keep) { shown++; }
          });
          var wrap = table.parentNode;
          var note = wrap.nextElementSibling && wrap.nextElementSibling.classList.contains('filter-note') ? wrap.nextElementSibling : null;
          if (byWorkload || byLayer || byGuarantee) {
            if (!note) { note = doc.createElement('p'); note.className = 'filter-note'; wrap.parentNode.insertBefore(note, wrap.nextSibling); }
            note.textContent = shown + ' of ' + rows.length + ' rows match the filters.';
          } else if (note) {
            note.parentNode.removeChild(note);
          }
        });
      }
      if (form) {
        form.hidden = false;
        form.addEventListener('change', applyFilters);
        form.addEventListener('reset', function () { setTimeout(applyFilters, 0); });
      }

      // The decision diff view.
      var diff = doc.getElementById('decision-diff');
      var dataElement = doc.getElementById('decision-data');
      var data = dataElement ? JSON.parse(dataElement.textContent) : null;
      var letters = { N: 'navigated', W: 'window', C: 'consumed', G: 'guard', L: 'loading-guard', S: 'skipped', '.': '—' };
      var truthNames = { n: 'wanted', d: 'duplicate', u: 'unlabelled' };
      var truthClasses = { n: 'wanted', d: 'dup', u: 'unknown' };
      var svgNS = 'http://www.w3.org/2000/svg';
      function differ(a, b) { return a !== '.' && b !== '.' && (a === 'N') !== (b === 'N'); }
      function pairIndex(i, j, count) { return i * count - i * (i + 1) / 2 + (j - i - 1); }
      function svgElement(name, attributes) {
        var element = doc.createElementNS(svgNS, name);
        Object.keys(attributes).forEach(function (key) { element.setAttribute(key, attributes[key]); });
        return element;
      }
      function renderDiff() {
        var controls = diff.querySelector('.diff-controls');
        var workload = data.workloads[+controls.querySelector('[name=diff-workload]').value];
        var a = +controls.querySelector('[name=diff-a]').value, b = +controls.querySelector('[name=diff-b]').value;
        var timeline = doc.getElementById('diff-timeline');
        var body = diff.querySelector('table tbody');
        var note = doc.getElementById('diff-note');
        while (timeline.firstChild) { timeline.removeChild(timeline.firstChild); }
        while (body.firstChild) { body.removeChild(body.firstChild); }
        var heads = diff.querySelectorAll('table thead th');
        heads[4].textContent = 'A: ' + data.cases[a];
        heads[5].textContent = 'B: ' + data.cases[b];
        if (a === b) { note.textContent = 'Pick two different cases.'; return; }
        var rows = workload.rows.filter(function (row) { return differ(row[4][a], row[4][b]); });
        var total = workload.pairTotals[a < b ? pairIndex(a, b, data.cases.length) : pairIndex(b, a, data.cases.length)];
        var width = 960, height = 130, left = 30, right = 930, axis = 65;
        var svg = svgElement('svg', { viewBox: '0 0 ' + width + ' ' + height, role: 'img', 'aria-label': 'Events where the two cases differ' });
        svg.appendChild(svgElement('line', { x1: left, x2: right, y1: axis, y2: axis, stroke: '#999' }));
        var labelA = svgElement('text', { x: 4, y: 16, 'font-size': 11 }); labelA.textContent = 'A navigates, B does not'; svg.appendChild(labelA);
        var labelB = svgElement('text', { x: 4, y: height - 6, 'font-size': 11 }); labelB.textContent = 'B navigates, A does not'; svg.appendChild(labelB);
        var end = svgElement('text', { x: right, y: axis + 14, 'font-size': 11, 'text-anchor': 'end' });
        end.textContent = (workload.durationMilliseconds / 1000).toFixed(1) + ' s'; svg.appendChild(end);
        var duration = Math.max(workload.durationMilliseconds, 1);
        if (workload.cut && workload.rows.length) {
          var from = left + (right - left) * workload.rows[workload.rows.length - 1][1] / duration;
          svg.appendChild(svgElement('rect', { x: from.toFixed(1), y: 22, width: (right - from).toFixed(1), height: height - 44, fill: '#ececec' }));
          var past = svgElement('text', { x: ((from + right) / 2).toFixed(1), y: axis - 6, 'font-size': 11, 'text-anchor': 'middle', fill: '#5f6368' });
          past.textContent = 'not kept (cut)'; svg.appendChild(past);
        }
        rows.forEach(function (row) {
          var x = left + (right - left) * row[1] / duration;
          var aNavigates = row[4][a] === 'N';
          var cause = aNavigates ? row[4][b] : row[4][a];
          var mark = svgElement('rect', {
            'class': 'mark ' + truthClasses[row[3]], x: (x - 1).toFixed(1), y: aNavigates ? 24 : axis + 2,
            width: 2, height: axis - 26, fill: 'currentColor'
          });
          var title = svgElement('title', {});
          title.textContent = 'event ' + row[0] + ' at ' + row[1] + ' ms: ' + (row[2] === 'e' ? 'emit' : 'payload') + ', ' + truthNames[row[3]] +
            '; A ' + letters[row[4][a]] + ', B ' + letters[row[4][b]] + ' (cause: ' + letters[cause] + ')';
          mark.appendChild(title);
          svg.appendChild(mark);
          if (rows.length <= 80) {
            var letter = svgElement('text', { x: x.toFixed(1), y: aNavigates ? 20 : height - 18, 'font-size': 9, 'text-anchor': 'middle', 'class': truthClasses[row[3]], fill: 'currentColor' });
            letter.textContent = cause; svg.appendChild(letter);
          }
          var tr = doc.createElement('tr');
          [row[0], row[1], row[2] === 'e' ? 'emit' : 'payload', truthNames[row[3]], letters[row[4][a]], letters[row[4][b]]].forEach(function (value, index) {
            var td = doc.createElement('td');
            td.textContent = value;
            if (index < 2) { td.className = 'num'; }
            if (index === 3) { td.className = truthClasses[row[3]]; }
            tr.appendChild(td);
          });
          body.appendChild(tr);
        });
        timeline.appendChild(svg);
        var message = rows.length + ' of ' + total + ' event(s) where the two differ' + (rows.length ? ' are marked.' : '.');
        note.textContent = message;
        if (rows.length < total) {
          var cut = doc.createElement('span');
          cut.className = 'cut';
          cut.textContent = ' Cut: the page keeps the first ' + data.bound + ' events per workload where any two sampled cases differ (the shaded span is past them); --decisions FILE.csv writes them all.';
          note.appendChild(cut);
        }
      }
      if (diff && data) {
        diff.querySelector('.diff-controls').hidden = false;
        diff.querySelector('.diff-controls').addEventListener('change', renderDiff);
        renderDiff();
      }

      // The self-test the browser check runs (`report.html#selftest`).
      if (location.hash === '#selftest') {
        var checks = [];
        function check(name, ok, detail) { checks.push((ok ? 'ok ' : 'FAIL ') + name + (detail ? ': ' + detail : '')); }
        var charts = doc.querySelectorAll('figure.chart svg');
        check('tables', tables.length >= 3, tables.length + ' tables');
        check('charts', charts.length >= 3, charts.length + ' charts');
        var drawn = Array.prototype.filter.call(charts, function (chart) { var box = chart.getBoundingClientRect(); return box.width > 50 && box.height > 50; });
        check('charts drawn', drawn.length === charts.length, drawn.length + ' of ' + charts.length + ' have a size');
        var sorted = false, detail = 'no table with a numeric column out of order';
        tables.some(function (table) {
          if (table.closest('#decision-diff') || table.tBodies[0].rows.length < 3) { return false; }
          var cells = table.tHead.rows[0].cells;
          for (var column = 0; column < cells.length; column++) {
            var values = Array.prototype.map.call(table.tBodies[0].rows, function (row) { return numeric(text(row.cells[column])); });
            if (values.some(function (value) { return value === null; })) { continue; }
            var ascending = values.slice().sort(function (x, y) { return x - y; });
            if (ascending.join() === values.join()) { continue; }
            var before = Array.prototype.map.call(table.tBodies[0].rows, function (row) { return row; });
            cells[column].click();
            var after = Array.prototype.map.call(table.tBodies[0].rows, function (row) { return numeric(text(row.cells[column])); });
            var moved = Array.prototype.some.call(table.tBodies[0].rows, function (row, index) { return row !== before[index]; });
            sorted = moved && after.join() === ascending.join();
            cells[column].click();
            var descending = Array.prototype.map.call(table.tBodies[0].rows, function (row) { return numeric(text(row.cells[column])); });
            sorted = sorted && descending.join() === ascending.slice().reverse().join();
            detail = 'column "' + text(cells[column]) + '" of a table of ' + values.length + ' rows';
            return true;
          }
          return false;
        });
        check('sorting reorders rows', sorted, detail);
        if (form) {
          var select = form.elements.workload;
          var before = doc.querySelectorAll('table.data tbody tr:not([hidden])').length;
          select.value = select.options.length > 1 ? select.options[1].value : '';
          applyFilters();
          var after = doc.querySelectorAll('table.data tbody tr:not([hidden])').length;
          check('filtering hides rows', after < before, before + ' rows, ' + after + ' after filtering by ' + select.value);
          select.value = '';
          applyFilters();
        }
        if (diff) {
          var expected = +diff.getAttribute('data-expected-marks');
          var marks = diff.querySelectorAll('#diff-timeline .mark').length;
          if (data) {
            check('diff view', expected > 0 && marks === expected, marks + ' marks, ' + expected + ' expected for the seeded pair');
          } else {
            check('diff view', false, 'no decisions data');
          }
        }
        check('no script errors or blocked loads', problems.length === 0, problems.join('; '));
        var result = doc.createElement('pre');
        result.id = 'selftest-result';
        result.textContent = (checks.every(function (line) { return line.indexOf('ok ') === 0; }) ? 'PASS' : 'FAIL') + '\n' + checks.join('\n');
        doc.body.appendChild(result);
      }
    })();
    """#
}
