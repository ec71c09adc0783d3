/* The print view: the fleet in the address (read by wasFleet, as the builder reads it):
   first the fleet sheet (units, points, every variant's verdict and a QR code of the
   fleet's link), then its cards for the chosen deck on sheets laid out exactly like the PDF
   decks (the geometry comes from the decks' own layouts, in points). Cards come from cards/<id>.js, loaded as scripts for the fleet's
   units only, so that this works from file:// as well as from a web server. */
"use strict";
(function () {
  var F = window.wasFleet;
  var data = JSON.parse(document.getElementById("print-data").textContent);
  var units = F.catalogue(data.units);
  var decks = data.decks;
  var papers = new Map(Object.keys(data.papers).map(function (k) { return [k, data.papers[k]]; }));
  var SVG = "http://www.w3.org/2000/svg";
  var MAX_CARDS = 300;      /* as many as `wastools build --roster` prints */
  var ROWS_PER_SHEET = 30;  /* units listed on a fleet sheet after the first */
  var FIRST_ROWS = 12;      /* units listed on the first, under the verdicts and the QR code */
  var QR_MODULE = 1.5;      /* points: the narrowest module printed, 3 pixels at 150 dpi */
  var MARGIN = 54;          /* the fleet sheet's margin, 0.75 in, clear of its check bars */
  var faces = new Map();    /* unit id -> Map(deck -> card HTML) */
  var wanted = new Set();
  var sheets = document.getElementById("sheets");
  var deckInput = document.getElementById("print-deck");
  var paperInput = document.getElementById("print-paper");
  var backsInput = document.getElementById("print-backs");
  var backs = new Map(Object.keys(data.backs || {}).map(function (k) { return [k, String(data.backs[k])]; }));
  var printNow = document.getElementById("print-now");
  var status = document.getElementById("print-status");
  var state = null;
  var notices = [];

  window.wasCards = {
    add: function (id, byDeck) {
      if (!wanted.has(id) || !byDeck || typeof byDeck !== "object") { return; }
      var m = new Map();
      decks.forEach(function (d) {
        if (Object.prototype.hasOwnProperty.call(byDeck, d.name) && typeof byDeck[d.name] === "string") {
          m.set(d.name, byDeck[d.name]);
        }
      });
      faces.set(id, m);
    }
  };

  function showNotices() {
    var list = document.getElementById("notice-list");
    list.textContent = "";
    notices.forEach(function (text) {
      var li = document.createElement("li");
      var b = document.createElement("bdi");
      b.textContent = text;
      li.appendChild(b);
      list.appendChild(li);
    });
    document.getElementById("notices").hidden = notices.length === 0;
  }

  /* Each unit's card script, once; a script that does not load is a notice, not a stop. */
  function loadCards(ids, done) {
    var left = 0;
    ids.forEach(function (id) {
      if (faces.has(id) || !F.SAFE_ID.test(id) || !units.has(id)) { return; }
      wanted.add(id);
      left += 1;
      var script = document.createElement("script");
      script.src = "cards/" + id + ".js";
      var finish = function () {
        left -= 1;
        if (!faces.has(id)) { notices.push("the cards of " + units.get(id).name + " could not be loaded"); }
        if (left === 0) { done(); }
      };
      script.onload = finish;
      script.onerror = finish;
      document.head.appendChild(script);
    });
    if (left === 0) { done(); }
  }

  function el(name, attrs, text) {
    var node = name.indexOf("svg:") === 0 ? document.createElementNS(SVG, name.slice(4)) : document.createElement(name);
    Object.keys(attrs || {}).forEach(function (k) { node.setAttribute(k, String(attrs[k])); });
    if (text !== undefined) { node.textContent = text; }
    return node;
  }

  function line(g, x1, y1, x2, y2, width) {
    g.appendChild(el("svg:line", { x1: x1, y1: y1, x2: x2, y2: y2, "stroke-width": width }));
  }

  /* Crop marks (card sheets only), check bars, the note and the sheet's label, as the decks draw them. */
  function marks(geo, label, crops) {
    var svg = el("svg:svg", { viewBox: "0 0 " + geo.width + " " + geo.height, width: geo.width + "pt",
                              height: geo.height + "pt", "class": "marks", "aria-hidden": "true" });
    if (crops) { geo.crops.forEach(function (c) { line(svg, c[0], c[1], c[2], c[3], geo.lineWidth); }); }
    geo.bars.forEach(function (bar) {
      var p = bar.line, t = geo.tick;
      line(svg, p[0], p[1], p[2], p[3], 0.6);
      [[p[0], p[1]], [p[2], p[3]]].forEach(function (end) {
        if (bar.vertical) { line(svg, end[0] - t, end[1], end[0] + t, end[1], 0.6); } else {
          line(svg, end[0], end[1] - t, end[0], end[1] + t, 0.6);
        }
      });
      var text = el("svg:text", { "font-size": geo.labelSize, "class": "bar-label" }, bar.label);
      if (bar.vertical) {
        text.setAttribute("transform", "translate(" + bar.text[0] + " " + bar.text[1] + ") rotate(-90)");
        text.setAttribute("text-anchor", "middle");
      } else {
        text.setAttribute("x", bar.text[0]);
        text.setAttribute("y", bar.text[1]);
      }
      svg.appendChild(text);
    });
    svg.appendChild(el("svg:text", { x: geo.note[1], y: geo.note[2], "font-size": geo.labelSize }, geo.note[0]));
    var tag = el("svg:text", { "font-size": geo.labelSize, "class": "sheet-label",
                               transform: "translate(" + geo.label[0] + " " + geo.label[1] + ") rotate(-90)" }, label);
    svg.appendChild(tag);
    return svg;
  }

  function page(geo, kind) {
    var div = el("div", { "class": "sheet " + kind });
    div.style.width = geo.width + "pt";
    div.style.height = geo.height + "pt";
    return div;
  }

  function deckTitle(name) {
    var d = decks.filter(function (x) { return x.name === name; })[0];
    return d ? d.title : name;
  }

  function cardSheets(geo, list, title) {
    var dealt = [];
    list.forEach(function (u) {
      var face = faces.has(u.id) ? faces.get(u.id).get(state.deck) : undefined;
      for (var i = 0; i < u.count && face !== undefined; i += 1) { dealt.push(face); }
    });
    if (dealt.length > MAX_CARDS) {
      notices.push("a print holds at most " + MAX_CARDS + " cards; the first " + MAX_CARDS + " of " + dealt.length + " are here");
      dealt = dealt.slice(0, MAX_CARDS);
    }
    var per = geo.slots.length, total = Math.max(1, Math.ceil(dealt.length / per)), out = [];
    for (var s = 0; s * per < dealt.length; s += 1) {
      var sheet = page(geo, "cards");
      sheet.appendChild(marks(geo, title + " - sheet " + (s + 1) + " of " + total, true));
      dealt.slice(s * per, (s + 1) * per).forEach(function (html, i) {
        var slot = el("div", { "class": "slot" });
        slot.style.left = geo.slots[i][0] + "pt";
        slot.style.top = geo.slots[i][1] + "pt";
        slot.innerHTML = html;  /* the decks' own card, made by the build (escaped there) */
        sheet.appendChild(slot);
      });
      out.push(sheet);
      if (state.backs && backs.has(state.deck)) {
        out.push(backSheet(geo, dealt.slice(s * per, (s + 1) * per).length, title + " - backs of sheet " + (s + 1) + " of " + total));
      }
    }
    return out;
  }

  /* The backs of a sheet of ``count`` cards, for the reverse of that sheet: each back where the
     flip brings it behind its own front (mirrored left to right when the sheet turns about its
     sides, top to bottom when about its top and bottom), as the PDF decks place them. */
  function backSheet(geo, count, label) {
    var sheet = page(geo, "cards backs");
    var portrait = geo.height >= geo.width, leftRight = (state.backs === "long") === portrait;
    sheet.appendChild(marks(geo, label + ", flip on the " + state.backs + " edge", false));
    for (var i = 0; i < count; i += 1) {
      var x = geo.slots[i][0], y = geo.slots[i][1];
      var slot = el("div", { "class": "slot" });
      slot.style.left = (leftRight ? geo.width - x - geo.card[0] : x) + "pt";
      slot.style.top = (leftRight ? y : geo.height - y - geo.card[1]) + "pt";
      slot.innerHTML = backs.get(state.deck);  /* the deck's own back, made by the build */
      sheet.appendChild(slot);
    }
    return sheet;
  }

  function cell(tr, tag, text, cls) {
    var c = el(tag, cls ? { "class": cls } : {});
    if (text instanceof Node) { c.appendChild(text); } else { c.textContent = String(text); }
    tr.appendChild(c);
    return c;
  }

  function bdi(text) { return el("bdi", {}, text); }

  function qrCode(link) {
    if (typeof window.qrcode !== "function") { return null; }
    return F.qrSvg(link, "90pt", "QR code of this fleet's link", QR_MODULE) ||
      el("p", { "class": "qr-none" }, "This fleet's link is too long for a QR code: share it from the fleet builder.");
  }

  function fleetRows(list) {
    var table = el("table", { "class": "fleet-table" });
    var head = el("tr");
    ["Unit", "Nation", "Type", "Count", "Points"].forEach(function (h, i) { cell(head, "th", h, i > 2 ? "num" : ""); });
    table.appendChild(head);
    list.forEach(function (u) {
      var tr = el("tr");
      cell(tr, "td", bdi(u.name));
      cell(tr, "td", u.nationName);
      cell(tr, "td", u.typeLabel);
      cell(tr, "td", u.count, "num");
      cell(tr, "td", u.count * u.points, "num");
      table.appendChild(tr);
    });
    return table;
  }

  function verdicts(list) {
    var table = el("table", { "class": "fleet-table verdicts" });
    var head = el("tr");
    cell(head, "th", "Variant");
    cell(head, "th", "Fleet rules");
    table.appendChild(head);
    decks.forEach(function (d) {
      var check = F.checkFleet(d.rule, list, state.limit);
      var tr = el("tr", d.name === state.deck ? { "class": "chosen" } : {});
      cell(tr, "td", d.title + (d.name === state.deck ? " (these cards)" : ""));
      cell(tr, "td", F.verdict(check), check.legal ? "ok" : "bad");
      table.appendChild(tr);
    });
    return table;
  }

  /* The fleet on its sheets, first of the print: the first holds the verdicts and the QR
     code of the fleet's link above its first units, the others the rest of the units. */
  function fleetSheets(geo, list, title) {
    var t = F.totals(list), out = [];
    var chunks = [list.slice(0, FIRST_ROWS)];
    for (var i = FIRST_ROWS; i < list.length; i += ROWS_PER_SHEET) { chunks.push(list.slice(i, i + ROWS_PER_SHEET)); }
    chunks.forEach(function (chunk, n) {
      var sheet = page(geo, "fleet");
      sheet.appendChild(marks(geo, title + " - fleet sheet " + (n + 1) + " of " + chunks.length, false));
      var body = el("div", { "class": "fleet-body" });
      body.style.left = body.style.top = body.style.right = body.style.bottom = MARGIN + "pt";
      var h = el("h2");
      h.appendChild(bdi(state.name));
      if (n > 0) { h.appendChild(document.createTextNode(" (continued)")); }
      body.appendChild(h);
      body.appendChild(el("p", { "class": "meta" }, "Fleet roster \u00b7 " + deckTitle(state.deck) + " cards \u00b7 limit " +
                          state.limit + " points \u00b7 " + t.cards + " cards, " + t.points + " points"));
      if (n === 0) { fleetHead(body, list); }
      if (chunk.length) { body.appendChild(fleetRows(chunk)); }
      if (n === chunks.length - 1 && chunks.length > 1) {
        body.appendChild(el("p", { "class": "note" }, list.length + " units in all."));
      }
      sheet.appendChild(body);
      out.push(sheet);
    });
    return out;
  }

  /* The first fleet sheet's verdicts, QR code and link: the published site's link, or the web
     server's this page came from; from a file, the link relative to the site, which the fleet
     builder's Paste a fleet opens. */
  function fleetHead(body, list) {
    body.appendChild(el("h3", {}, "Is it legal?"));
    body.appendChild(verdicts(list));
    var link = F.fleetLink(state, decks, F.linkBase(data.site), units);
    var box = el("div", { "class": "qr-box" });
    var code = /^https?:/.test(link) ? qrCode(link) : null;
    if (code) { box.appendChild(code); }
    box.appendChild(el("p", { "class": "qr-link" }, (code ? "Open this fleet: " : "Paste into the fleet builder to open this fleet: ") + link));
    body.appendChild(box);
    body.appendChild(el("p", { "class": "note" }, "The card sheets hold exactly these cards, each as many times as " +
      "its count, 2.5 \u00d7 3.5 in: print at 100 % and check the bars."));
    body.appendChild(el("h3", {}, "Units"));
  }

  function render() {
    var geo = papers.get(state.paper) || papers.get("letter");
    document.getElementById("page-size").textContent = "@page { size: " + geo.size + "; margin: 0; }";
    var list = F.items(state, units);
    var title = state.name + ": " + deckTitle(state.deck) + " cards (" + geo.name + ")";
    sheets.textContent = "";
    var cardPages = list.length ? cardSheets(geo, list, title) : [];
    var fleetPages = fleetSheets(geo, list, state.name + " (" + geo.name + ")");
    fleetPages.concat(cardPages).forEach(function (s) { sheets.appendChild(s); });
    var t = F.totals(list), fronts = cardPages.filter(function (p) { return !p.classList.contains("backs"); }).length;
    status.textContent = list.length
      ? "The fleet sheet, then " + t.cards + " cards on " + fronts + " sheet" + (fronts === 1 ? "" : "s") +
        " of " + geo.name + (state.backs ? ", each front followed by its backs (print both sides, flipping on the " +
        state.backs + " edge)" : "") + "."
      : "This fleet is empty: pick units in the fleet builder first.";
    showNotices();
    printNow.disabled = false;
    document.body.dataset.ready = "yes";
  }

  function address() { return F.formatAddress(state, decks); }

  function refresh() {
    document.body.dataset.ready = "no";
    printNow.disabled = true;
    var text = F.formatAddress(state, decks, true);
    if (window.location.hash.replace(/^#/, "") !== text) { window.location.replace("#" + text); }
    document.getElementById("back").href = "fleet.html" + (address() ? "#" + address() : "");
    var ids = [];
    state.fleet.forEach(function (n, id) { ids.push(id); });
    loadCards(ids, render);
  }

  function open() {
    state = F.parseAddress(window.location.hash, units, decks);
    notices = state.notices.slice();
    deckInput.value = state.deck;
    paperInput.value = state.paper;
    backsInput.value = state.backs;
    refresh();
  }

  deckInput.addEventListener("change", function () { state.deck = deckInput.value; notices = []; refresh(); });
  paperInput.addEventListener("change", function () { state.paper = paperInput.value; notices = []; refresh(); });
  backsInput.addEventListener("change", function () { state.backs = backsInput.value; notices = []; refresh(); });
  printNow.addEventListener("click", function () { window.print(); });
  window.addEventListener("hashchange", function () {
    if (window.location.hash.replace(/^#/, "") !== F.formatAddress(state, decks, true)) { open(); }
  });
  open();
})();
