/// The explorer page's fixed parts: its styles, its markup and its script. The script looks up
/// what the engine computed (`ExplorerGraph`, embedded as JSON) and walks it; the log check is
/// `check-trace`'s search (`TraceCheck`, `TraceChecker`) over the same graph.
enum ExplorerScript {
    static let style = """
        :root { --accent: #0a84ff; --ink: #1d1d1f; --muted: #6e6e73; --line: #d2d2d7; --panel: #f5f5f7; }
        * { box-sizing: border-box; }
        html, body { height: 100%; }
        body { display: flex; flex-direction: column; margin: 0; font: 14px/1.4 -apple-system, "Helvetica Neue", Helvetica, Arial, "Noto Sans CJK SC", sans-serif; color: var(--ink); }
        header { display: flex; align-items: center; gap: 12px; padding: 10px 16px; border-bottom: 1px solid var(--line); }
        header h1 { font-size: 18px; margin: 0; flex: 1; }
        .locales button[aria-pressed="true"] { background: var(--ink); color: white; }
        #lifespec-explorer { display: flex; flex-direction: column; flex: 1; min-height: 0; }
        #lifespec-main { display: grid; grid-template-columns: minmax(0, 1fr) 400px; flex: 1; min-height: 0; }
        #lifespec-left { display: flex; flex-direction: column; min-height: 0; border-right: 1px solid var(--line); }
        #lifespec-view { position: relative; flex: 1; min-height: 0; }
        #lifespec-log-pane { flex: 0 0 30%; display: flex; flex-direction: column; min-height: 0; border-top: 1px solid var(--line); padding: 0 14px 8px; }
        #lifespec-log-pane h2 { margin-top: 8px; }
        #lifespec-drawing { overflow: auto; height: 100%; padding: 8px; }
        #lifespec-drawing.fit { overflow: hidden; }
        #lifespec-drawing.fit svg { width: 100%; height: 100%; }
        #lifespec-fit { position: absolute; top: 8px; right: 16px; z-index: 1; }
        #lifespec-panel { overflow: auto; padding: 0 14px 24px; }
        h2 { font-size: 13px; text-transform: uppercase; letter-spacing: .04em; color: var(--muted); margin: 16px 0 6px; }
        .hint { color: var(--muted); font-size: 12px; margin: 0 0 6px; }
        h3 { font-size: 12px; margin: 6px 0 3px; font-weight: 600; }
        details.raised { margin: 0 0 4px; }
        details.raised summary { font-size: 12px; color: var(--muted); cursor: pointer; margin: 0 0 4px; }
        button { font: inherit; font-size: 12.5px; padding: 3px 8px; border: 1px solid var(--line); border-radius: 6px; background: white; color: var(--ink); cursor: pointer; margin: 0 4px 4px 0; }
        button:hover:not(:disabled) { border-color: var(--accent); }
        button:disabled { color: #b0b0b5; background: var(--panel); cursor: default; }
        #lifespec-events button:not(:disabled) { border-color: var(--accent); color: var(--accent); }
        #lifespec-now { font-weight: 600; }
        #lifespec-flags { margin: 0; padding-left: 18px; }
        #lifespec-flags .on { color: #248a3d; font-weight: 600; }
        #lifespec-sent { margin: 0; padding: 0; list-style: none; display: flex; flex-wrap: wrap; gap: 4px; }
        #lifespec-sent li { background: var(--panel); border-radius: 4px; padding: 1px 6px; font-size: 12px; }
        #lifespec-log { margin: 0; padding-left: 34px; flex: 1; min-height: 0; background: var(--panel); border-radius: 6px; padding-top: 4px; padding-bottom: 4px; overflow: auto; font-size: 12.5px; }
        #lifespec-log li.first { border-top: 1px solid var(--line); margin-top: 4px; padding-top: 2px; }
        #lifespec-log .event { display: block; color: var(--muted); font-size: 11px; }
        #lifespec-log code { font: 12px ui-monospace, Menlo, monospace; }
        #lifespec-log .kind { color: var(--muted); }
        #lifespec-log .receiver { color: var(--muted); }
        .scenario { display: flex; flex-wrap: wrap; align-items: baseline; gap: 2px 4px; margin-bottom: 6px; }
        .scenario span { flex: 1 1 100%; }
        .scenario.loaded span { font-weight: 600; }
        #lifespec-trace-input { width: 100%; height: 110px; font: 12px ui-monospace, Menlo, monospace; }
        #lifespec-trace-result { white-space: pre-wrap; font-size: 12.5px; padding: 6px; border-radius: 6px; }
        #lifespec-trace-result[data-conforms="true"] { background: #e3f5e8; }
        #lifespec-trace-result[data-conforms="false"] { background: #fde8e7; }
        #lifespec-trace-result .line { font: 12px ui-monospace, Menlo, monospace; background: #fbc7c3; display: block; margin-top: 4px; padding: 2px 4px; }
        .notice { background: #fff4d6; padding: 8px 16px; margin: 0; }
        #lifespec-drawing .lifespec-active > path, #lifespec-drawing .lifespec-active > polygon, #lifespec-drawing .lifespec-active > ellipse { stroke: var(--accent); stroke-width: 3px; }
        #lifespec-drawing g.node.lifespec-active > path, #lifespec-drawing g.node.lifespec-active > polygon { fill: #d6e9ff; }
        #lifespec-drawing g.cluster.lifespec-active > path, #lifespec-drawing g.cluster.lifespec-active > polygon { fill: #eef5ff; }

        """

    /// The panel; `ExplorerPage` writes the header (with the locale switch) before it and fills
    /// nothing in: the script writes every word in the chosen language.
    static let body = """
        <p id="lifespec-incomplete" class="notice" hidden></p>
        <div id="lifespec-main">
        <div id="lifespec-left">
        <div id="lifespec-view"><button id="lifespec-fit" type="button"></button><div id="lifespec-drawing"></div></div>
        <div id="lifespec-log-pane">
        <h2 data-text="log"></h2>
        <ol id="lifespec-log"></ol>
        </div>
        </div>
        <div id="lifespec-panel">
        <h2 data-text="now"></h2>
        <p id="lifespec-now"></p>
        <h2 data-text="events"></h2>
        <p class="hint" data-text="eventsHint"></p>
        <div id="lifespec-events"></div>
        <div><button id="lifespec-back" type="button" data-text="back"></button><button id="lifespec-reset" type="button" data-text="reset"></button></div>
        <h2 data-text="sent"></h2>
        <ol id="lifespec-sent"></ol>
        <h2 data-text="flags"></h2>
        <ul id="lifespec-flags"></ul>
        <h2 data-text="scenarios"></h2>
        <div id="lifespec-scenarios"></div>
        <h2 data-text="check"></h2>
        <p class="hint" data-text="checkHint"></p>
        <textarea id="lifespec-trace-input" spellcheck="false"></textarea>
        <div><button id="lifespec-check-trace" type="button" data-text="checkButton"></button></div>
        <div id="lifespec-trace-result"></div>
        </div>
        </div>

        """

    static let script = """
        (function () {
          'use strict';
          var D = JSON.parse(document.getElementById('lifespec-data').textContent);
          var root = document.getElementById('lifespec-explorer');
          var byId = function (id) { return document.getElementById(id); };
          var nodes = D.nodes, events = D.events, observations = D.observations, sequences = D.sequences;
          var E = events.length;
          var vocabulary = new Map(Object.entries(D.vocabulary));
          var locale = D.locale;
          var decoded = [];

          // A node's edges, one per event: null where the engine refuses it, else [next node, sequence]
          // (embedded as event, next node, sequence for the events taken only).
          // Undefined for a node the page does not embed (the budget ran out).
          function edgesOf(n) {
            if (decoded[n] !== undefined) return decoded[n];
            var raw = nodes[n][2];
            if (raw === null) { decoded[n] = undefined; return undefined; }
            var out = [];
            for (var e = 0; e < E; e++) out.push(null);
            for (var k = 0; k < raw.length; k += 3) out[raw[k]] = [raw[k + 1], raw[k + 2]];
            decoded[n] = out;
            return out;
          }
          function t(key) { return D.texts[locale][key]; }
          function fill(text, values) {
            return text.replace(/\\{(\\w+)\\}/g, function (m, key) { return values[key] !== undefined ? String(values[key]) : m; });
          }
          function local(texts) { return texts[locale]; }

          // The session: where it started (the machine's start or a scenario's), the node now, the
          // events sent, the log, and the way back.
          var S;
          // Which parts' folded events the reader opened, kept across renders and resets.
          var openRaised = {};
          function begin(scenario) {
            var start = scenario < 0 ? D.start : [D.scenarios[scenario][2], D.scenarios[scenario][3]];
            S = { scenario: scenario, node: start[0], sent: [], stack: [], log: [] };
            sequences[start[1]].forEach(function (o) { S.log.push([o, -1]); });
          }
          function send(e) {
            var edges = edgesOf(S.node);
            if (!edges || !edges[e]) return false;
            S.stack.push([S.node, S.log.length]);
            S.node = edges[e][0];
            sequences[edges[e][1]].forEach(function (o) { S.log.push([o, e]); });
            S.sent.push(e);
            return true;
          }
          function back() {
            var top = S.stack.pop();
            if (!top) return;
            S.node = top[0];
            S.log.length = top[1];
            S.sent.pop();
          }

          function eventIndex(id) {
            for (var e = 0; e < E; e++) if (events[e][0] === id) return e;
            return -1;
          }
          function writeHash() {
            var parts = [];
            if (S.scenario >= 0) parts.push('scenario=' + encodeURIComponent(D.scenarios[S.scenario][0]));
            parts.push('events=' + S.sent.map(function (e) { return encodeURIComponent(events[e][0]); }).join(','));
            var hash = '#' + parts.join('&');
            if (location.hash === hash) return;
            try { history.replaceState(null, '', hash); } catch (error) { location.replace(hash); }
          }
          function readHash() {
            var scenario = -1, sent = [], wanted = null;
            location.hash.replace(/^#/, '').split('&').forEach(function (part) {
              var at = part.indexOf('=');
              if (at < 0) return;
              var key = part.slice(0, at), value = decodeURIComponent(part.slice(at + 1));
              if (key === 'scenario') {
                for (var i = 0; i < D.scenarios.length; i++) if (D.scenarios[i][0] === value) scenario = i;
              } else if (key === 'locale' && D.texts[value]) {
                wanted = value;
              } else if (key === 'events' && value !== '') {
                sent = value.split(',');
              }
            });
            begin(scenario);
            for (var i = 0; i < sent.length; i++) {
              var e = eventIndex(sent[i]);
              if (e < 0 || !send(e)) break;
            }
            if (wanted !== null && wanted !== locale) {
              locale = wanted;
              texts();
              drawing();
            }
          }

          function element(tag, attributes, text) {
            var made = document.createElement(tag);
            for (var key in attributes) made.setAttribute(key, attributes[key]);
            if (text !== undefined) made.textContent = text;
            return made;
          }
          function stateTitle(s) {
            var part = D.states[s][3];
            return (part >= 0 ? D.parts[part][0] + ': ' : '') + local(D.states[s][2]);
          }

          function drawing() {
            var host = byId('lifespec-drawing');
            var templates = document.querySelectorAll('template.lifespec-drawing');
            var chosen = null;
            templates.forEach(function (template) {
              if (template.getAttribute('data-drawing-locale') === locale) chosen = template;
            });
            if (!chosen && templates.length) chosen = templates[0];
            host.textContent = '';
            if (chosen) host.appendChild(chosen.content.cloneNode(true));
            else host.appendChild(element('p', { 'class': 'hint' }, t('noDrawing')));
          }
          function highlight(active) {
            var host = byId('lifespec-drawing');
            host.querySelectorAll('.lifespec-active').forEach(function (g) { g.classList.remove('lifespec-active'); });
            active.forEach(function (s) {
              var g = host.querySelector('[id="state-' + D.states[s][0].replace(/["\\\\]/g, '\\\\$&') + '"]');
              if (g) g.classList.add('lifespec-active');
            });
          }

          // The drawing at its size (the detail), or fitted to the window (the overview); at its size
          // the active states are scrolled into view.
          function reveal() {
            var host = byId('lifespec-drawing');
            var active = host.querySelectorAll('g.node.lifespec-active');
            if (!active.length || host.classList.contains('fit')) return;
            var box = active[active.length - 1].getBoundingClientRect(), frame = host.getBoundingClientRect();
            if (box.left < frame.left || box.right > frame.right || box.top < frame.top || box.bottom > frame.bottom) {
              host.scrollLeft += box.left - frame.left - (frame.width - box.width) / 2;
              host.scrollTop += box.top - frame.top - (frame.height - box.height) / 2;
            }
          }

          function render() {
            var node = nodes[S.node], active = node[0], edges = edgesOf(S.node);
            root.setAttribute('data-configuration', active.map(function (s) { return D.states[s][0]; }).join(' '));
            root.setAttribute('data-embedded', String(edges !== undefined));
            highlight(active);
            reveal();
            byId('lifespec-now').textContent = active.filter(function (s) { return D.states[s][1]; })
              .map(stateTitle).join(' · ');
            // The events by part (a system's own first), each part under its title; the events
            // the system's own transitions raise (event[4]) folded under their own heading.
            var buttons = byId('lifespec-events');
            buttons.textContent = '';
            for (var part = -1; part < D.parts.length; part++) {
              var group = element('div', { 'class': 'group' });
              if (part >= 0) group.appendChild(element('h3', {}, local(D.parts[part][1])));
              var raised = element('details', { 'class': 'raised', 'data-part': String(part) });
              raised.appendChild(element('summary', {}, t('raisedEvents')));
              raised.appendChild(element('p', { 'class': 'hint' }, t('raisedHint')));
              raised.open = openRaised[part] === true;
              raised.addEventListener('toggle', function (details, part) {
                return function () { openRaised[part] = details.open; };
              }(raised, part));
              events.forEach(function (event, e) {
                if (!event[2] || event[3] !== part) return;
                var button = element('button', { type: 'button', 'data-event': event[0], title: event[0] }, local(event[1]));
                button.disabled = !edges || !edges[e];
                if (!edges) button.title = t('unexplored');
                button.addEventListener('click', function () { if (send(e)) update(); });
                (event[4] ? raised : group).appendChild(button);
              });
              if (raised.querySelector('button')) group.appendChild(raised);
              if (group.querySelector('button')) buttons.appendChild(group);
            }
            byId('lifespec-back').disabled = S.stack.length === 0;
            var sent = byId('lifespec-sent');
            sent.textContent = '';
            sent.appendChild(element('li', {}, S.scenario >= 0 ? local(D.scenarios[S.scenario][1]) : t('start')));
            S.sent.forEach(function (e) { sent.appendChild(element('li', { 'data-event': events[e][0] }, local(events[e][1]))); });
            var flags = byId('lifespec-flags');
            flags.textContent = '';
            D.flags.forEach(function (flag, f) {
              var on = node[1].charAt(f) === '1';
              var item = element('li', { 'data-flag': flag[0], 'data-value': String(on) });
              item.appendChild(document.createTextNode(local(flag[1]) + ' = '));
              item.appendChild(element('span', { 'class': on ? 'on' : 'off' }, String(on)));
              flags.appendChild(item);
            });
            if (!D.flags.length) flags.appendChild(element('li', {}, t('none')));
            var log = byId('lifespec-log');
            log.textContent = '';
            S.log.forEach(function (entry, position) {
              var o = observations[entry[0]];
              var item = element('li', { 'data-name': o[2], 'data-kind': o[0] === 'c' ? 'callback' : 'notification' });
              var first = position === 0 || isNewStep(position);
              if (first) {
                item.className = 'first';
                item.appendChild(element('span', { 'class': 'event' }, entry[1] < 0 ? t('start') : local(events[entry[1]][1])));
              }
              item.appendChild(element('span', { 'class': 'kind' }, (o[0] === 'c' ? t('callback') : t('notification')) + ' '));
              item.appendChild(element('code', {}, o[2]));
              item.appendChild(element('span', { 'class': 'receiver' }, ' — ' + local(o[3])));
              log.appendChild(item);
            });
            log.scrollTop = log.scrollHeight;
            var list = byId('lifespec-scenarios');
            list.textContent = '';
            D.scenarios.forEach(function (scenario, i) {
              var row = element('div', { 'class': 'scenario' + (S.scenario === i ? ' loaded' : ''), 'data-scenario': scenario[0] });
              row.appendChild(element('span', {}, local(scenario[1])));
              var load = element('button', { type: 'button', 'data-scenario-load': scenario[0] }, t('load'));
              load.addEventListener('click', function () { begin(i); update(); });
              var onTrack = S.scenario === i && S.sent.length < scenario[4].length &&
                S.sent.every(function (e, k) { return scenario[4][k] === e; });
              var step = element('button', { type: 'button', 'data-scenario-step': scenario[0] }, t('step'));
              step.disabled = !onTrack;
              step.addEventListener('click', function () { send(scenario[4][S.sent.length]); update(); });
              var all = element('button', { type: 'button', 'data-scenario-run': scenario[0] }, t('all'));
              all.addEventListener('click', function () {
                if (!(S.scenario === i && S.sent.every(function (e, k) { return scenario[4][k] === e; }))) begin(i);
                while (S.sent.length < scenario[4].length && send(scenario[4][S.sent.length])) {}
                update();
              });
              row.appendChild(load); row.appendChild(step); row.appendChild(all);
              list.appendChild(row);
            });
          }
          // Steps start where the stack says an event was sent: the log length before each event.
          function isNewStep(position) {
            for (var i = 0; i < S.stack.length; i++) if (S.stack[i][1] === position) return true;
            return false;
          }
          function update() { render(); writeHash(); }

          function texts() {
            document.documentElement.lang = t('language');
            document.title = t('title');
            byId('lifespec-title').textContent = t('title');
            document.querySelectorAll('[data-text]').forEach(function (item) { item.textContent = t(item.getAttribute('data-text')); });
            document.querySelectorAll('button[data-locale]').forEach(function (button) {
              button.setAttribute('aria-pressed', String(button.getAttribute('data-locale') === locale));
            });
            byId('lifespec-fit').textContent = t(byId('lifespec-drawing').classList.contains('fit') ? 'actualSize' : 'fit');
            byId('lifespec-trace-input').placeholder = '12:00:01.100 application(_:didFinishLaunchingWithOptions:)';
            var notice = byId('lifespec-incomplete');
            notice.hidden = D.complete;
            notice.textContent = fill(t(D.reachableComplete ? 'checkOff' : 'incomplete'), { n: D.configurationCount });
            byId('lifespec-check-trace').disabled = !D.complete;
          }
          function switchTo(next) {
            if (!D.texts[next]) return;
            locale = next;
            texts();
            drawing();
            render();
            if (lastCheck) showCheck(lastCheck);
          }

          // The log check: `check-trace`'s search over the embedded graph. Without --observe the log
          // is judged on the groups of names in it (each receiver's callbacks, the notifications:
          // an observation's group is o[4]): one checker per possible set of groups, a name of a
          // group rules out the sets without it, the smallest set holding every group seen decides.
          function nameOn(line) {
            function space(c) { return c === ' ' || c === '\\t' || c === '\\r'; }
            var i = 0, n = line.length, token = null;
            for (;;) {
              while (i < n && space(line[i])) i++;
              if (i >= n || line[i] === '#') return token ? line.slice(token[0], token[1]) : null;
              var start = i;
              while (i < n && !space(line[i]) && line[i] !== '#') i++;
              token = [start, i];
              var c = line[start];
              if (!(c === '[' || c === '+' || (c >= '0' && c <= '9'))) break;
            }
            var end = token[1];
            while (i < n && line[i] !== '#') { if (!space(line[i])) end = i + 1; i++; }
            return line.slice(token[0], end);
          }
          function Checker(kinds) {
            this.kinds = kinds; this.projected = []; this.count = 0; this.report = null;
            var first = [], seen = new Set(), self = this;
            D.traceStarts.forEach(function (n) { self.add(first, seen, self.between(n)); });
            this.close(first, seen);
            this.frontier = first;
          }
          Checker.prototype.between = function (n) { return { n: n, q: null, p: 0, k: 'b' + n }; };
          Checker.prototype.project = function (s) {
            var p = this.projected[s];
            if (!p) {
              p = [];
              for (var i = 0; i < sequences[s].length; i++) {
                if (this.kinds.indexOf(observations[sequences[s][i]][4]) >= 0) p.push(sequences[s][i]);
              }
              this.projected[s] = p;
            }
            return p;
          };
          Checker.prototype.add = function (list, seen, h) { if (!seen.has(h.k)) { seen.add(h.k); list.push(h); } };
          Checker.prototype.close = function (list, seen) {
            for (var i = 0; i < list.length; i++) {
              var h = list[i];
              if (h.q) continue;
              var edges = edgesOf(h.n);
              if (!edges) continue;
              for (var e = 0; e < E; e++) {
                if (edges[e] && this.project(edges[e][1]).length === 0) this.add(list, seen, this.between(edges[e][0]));
              }
            }
          };
          Checker.prototype.feed = function (symbols) {
            var next = [], seen = new Set(), self = this;
            this.frontier.forEach(function (h) {
              if (h.q) {
                if (symbols.indexOf(h.q[h.p]) < 0) return;
                self.add(next, seen, h.p + 1 >= h.q.length ? self.between(h.n) : { n: h.n, q: h.q, p: h.p + 1, m: h.m, k: h.m + ',' + (h.p + 1) });
                return;
              }
              var edges = edgesOf(h.n);
              if (!edges) return;
              for (var e = 0; e < E; e++) {
                if (!edges[e]) continue;
                var q = self.project(edges[e][1]);
                if (q.length === 0 || symbols.indexOf(q[0]) < 0) continue;
                var m = 'm' + h.n + ',' + e;
                self.add(next, seen, q.length === 1 ? self.between(edges[e][0]) : { n: edges[e][0], q: q, p: 1, m: m, k: m + ',1' });
              }
            });
            if (!next.length) return false;
            this.count += 1;
            this.close(next, seen);
            this.frontier = next;
            return true;
          };
          Checker.prototype.possible = function () {
            var names = new Set();
            this.frontier.forEach(function (h) {
              names.add(nodes[h.n][0].filter(function (s) { return D.states[s][1]; }).map(function (s) { return D.states[s][0]; }).join('+'));
            });
            return Array.from(names).sort();
          };
          Checker.prototype.allowed = function () {
            var found = new Set(), self = this;
            this.frontier.forEach(function (h) {
              if (h.q) { found.add(h.q[h.p]); return; }
              var edges = edgesOf(h.n);
              if (!edges) return;
              for (var e = 0; e < E; e++) {
                if (!edges[e]) continue;
                var q = self.project(edges[e][1]);
                if (q.length) found.add(q[0]);
              }
            });
            function description(o) { return (observations[o][0] === 'n' ? 'notify: ' : '') + observations[o][1]; }
            return Array.from(found).sort(function (a, b) {
              var x = description(a), y = description(b);
              return x < y ? -1 : x > y ? 1 : 0;
            });
          };

          function checkTrace(text) {
            var present = [];
            observations.forEach(function (o) { if (present.indexOf(o[4]) < 0) present.push(o[4]); });
            present.sort(function (a, b) { return a - b; });
            // Every non-empty set of groups, the whole first, as check-trace orders them.
            var sets = [];
            for (var bits = (1 << present.length) - 1; bits > 0; bits--) {
              sets.push(present.filter(function (g, i) { return (bits & (1 << i)) !== 0; }));
            }
            var candidates = sets.map(function (kinds) { return new Checker(kinds); });
            var seen = [];
            var lines = text.split(/\\r\\n|\\r|\\n/);
            for (var l = 0; l < lines.length; l++) {
              var name = nameOn(lines[l]);
              if (name === null) continue;
              var meanings = vocabulary.get(name);
              if (!meanings) return { conforms: false, line: l + 1, name: name, unknown: true };
              var groups = [];
              meanings.forEach(function (o) { if (groups.indexOf(observations[o][4]) < 0) groups.push(observations[o][4]); });
              if (groups.length === 1 && seen.indexOf(groups[0]) < 0) {
                seen.push(groups[0]);
                candidates = candidates.filter(function (c) { return c.kinds.indexOf(groups[0]) >= 0; });
              } else if (groups.length > 1) {
                candidates = candidates.filter(function (c) {
                  return groups.some(function (g) { return c.kinds.indexOf(g) >= 0; });
                });
              }
              candidates.forEach(function (c) {
                if (c.report) return;
                var symbols = meanings.filter(function (o) { return c.kinds.indexOf(observations[o][4]) >= 0; });
                // A failed feed leaves the frontier as it was: what the app could be in, and do, before.
                if (!symbols.length || !c.feed(symbols)) {
                  c.report = { conforms: false, line: l + 1, name: name, possible: c.possible(), allowed: c.allowed() };
                }
              });
              if (candidates.length === 1 && candidates[0].report) return candidates[0].report;
            }
            var covering = candidates.filter(function (c) {
              return seen.every(function (g) { return c.kinds.indexOf(g) >= 0; });
            });
            var decisive = null;
            covering.forEach(function (c) {
              if (decisive === null) decisive = c;
              else if (seen.length === 0) { if (c.kinds.length > decisive.kinds.length) decisive = c; }
              else if (c.kinds.length < decisive.kinds.length ||
                       (c.kinds.length === decisive.kinds.length && decisive.report && !c.report)) decisive = c;
            });
            decisive = decisive || candidates[0];
            if (decisive.report) return decisive.report;
            return { conforms: true, count: decisive.count };
          }

          var lastCheck = null;
          function showCheck(outcome) {
            var result = byId('lifespec-trace-result');
            result.textContent = '';
            result.setAttribute('data-conforms', String(outcome.conforms));
            if (outcome.conforms) {
              result.removeAttribute('data-line');
              result.textContent = fill(t('conforms'), { n: outcome.count });
              return;
            }
            result.setAttribute('data-line', String(outcome.line));
            result.appendChild(document.createTextNode(fill(t(outcome.unknown ? 'unknownName' : 'deviation'), { line: outcome.line, name: outcome.name })));
            if (!outcome.unknown) {
              var allowed = outcome.allowed.map(function (o) { return observations[o][2]; });
              // A full-width colon (Chinese) needs no space after it.
              var gap = function (text) { return /：$/.test(text) ? text : text + ' '; };
              result.appendChild(document.createTextNode('\\n' + gap(t('couldBe')) + outcome.possible.join(', ') +
                '\\n' + gap(t('allowed')) + (allowed.length ? allowed.join(', ') : t('nothingAllowed'))));
            }
            var input = byId('lifespec-trace-input');
            var line = input.value.split(/\\r\\n|\\r|\\n/)[outcome.line - 1];
            result.appendChild(element('span', { 'class': 'line' }, outcome.line + ': ' + line));
          }
          function check() {
            if (!D.complete) return;
            var input = byId('lifespec-trace-input');
            lastCheck = checkTrace(input.value);
            showCheck(lastCheck);
            if (!lastCheck.conforms) {
              var starts = input.value.split(/(\\r\\n|\\r|\\n)/), offset = 0;
              for (var i = 0; i < 2 * (lastCheck.line - 1) && i < starts.length; i++) offset += starts[i].length;
              var length = (starts[2 * (lastCheck.line - 1)] || '').length;
              try { input.setSelectionRange(offset, offset + length); } catch (error) {}
            }
          }

          document.querySelectorAll('button[data-locale]').forEach(function (button) {
            button.addEventListener('click', function () { switchTo(button.getAttribute('data-locale')); });
          });
          byId('lifespec-reset').addEventListener('click', function () { begin(-1); update(); });
          byId('lifespec-back').addEventListener('click', function () { back(); update(); });
          byId('lifespec-check-trace').addEventListener('click', check);
          byId('lifespec-fit').addEventListener('click', function () {
            var fitted = byId('lifespec-drawing').classList.toggle('fit');
            byId('lifespec-fit').textContent = t(fitted ? 'actualSize' : 'fit');
            reveal();
          });
          window.addEventListener('hashchange', function () { readHash(); render(); });
          texts();
          drawing();
          readHash();
          render();
          root.setAttribute('data-ready', 'true');
        })();

        """
}
