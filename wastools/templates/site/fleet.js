/* The fleet builder: counts per unit, the points, each variant's fleet rules as you go,
   the whole fleet in the address, a print view, plain text, and the fleet as a YAML roster
   for `wastools build --roster` (and back). The rules mirror wastools/variants/fleet.py;
   a browser test checks that both give the same verdicts. Reading an address or a roster
   is wasFleet's (fleet-core.js): the values here have been checked there. */
"use strict";
(function () {
  var F = window.wasFleet;
  var table = document.getElementById("units");
  var rows = Array.prototype.slice.call(table.tBodies[0].rows);
  var byId = new Map();
  var units = F.catalogue(rows.map(function (row) {
    var d = row.dataset;
    byId.set(d.id, row);
    return { id: d.id, name: row.querySelector("th a").textContent, points: Number(d.points), nation: d.nation,
             nationName: d.nationName, type: d.type, typeLabel: d.typeLabel };
  }));
  var limitInput = document.getElementById("points-limit");
  var nameInput = document.getElementById("roster-name");
  var variantInput = document.getElementById("deck-variant");
  var decks = Array.prototype.map.call(variantInput.options, function (o) { return { name: o.value, title: o.textContent, rule: o.dataset.rule || "" }; });
  var download = document.getElementById("download");
  var tabletopButton = document.getElementById("tabletop");
  var copyButtons = Array.prototype.slice.call(document.querySelectorAll("button.copy"));
  var shareBox = document.getElementById("share");
  var printLink = document.getElementById("print");
  var textBox = document.getElementById("fleet-text");
  var notices = document.getElementById("notices");
  var noticeList = document.getElementById("notice-list");
  var order = [];  /* unit ids in the order they were picked: the address keeps it */
  var OWNED = "wastools.owned";
  var written = null;  /* the address this page wrote last: any other is a fleet to open */

  /* The card preview: the chosen deck's card of the unit last tapped, added or taken away,
     from cards/<id>.js, loaded as a script (as the print view loads it, so that it works from
     file:// too). The card is the decks' own HTML, made and escaped by the build. */
  var faces = new Map(), asked = new Set(), tried = new Set(), previewId = null;
  window.wasCards = {
    add: function (id, byDeck) {
      if (!asked.has(id) || !byDeck || typeof byDeck !== "object") { return; }
      var m = new Map();
      decks.forEach(function (d) {
        if (Object.prototype.hasOwnProperty.call(byDeck, d.name) && typeof byDeck[d.name] === "string") {
          m.set(d.name, byDeck[d.name]);
        }
      });
      faces.set(id, m);
    }
  };

  function preview(id) {
    if (!units.has(id)) { return; }  /* a checked id: it names the script to load */
    previewId = id;
    if (!asked.has(id)) {
      asked.add(id);
      var script = document.createElement("script");
      script.src = "cards/" + id + ".js";
      script.onload = script.onerror = function () {
        tried.add(id);
        if (previewId === id) { drawPreview(); }
      };
      document.head.appendChild(script);
    }
    drawPreview();
  }

  function drawPreview() {
    if (previewId === null) { return; }
    var id = previewId, box = document.getElementById("preview-card"), caption = document.getElementById("preview-caption");
    var face = faces.has(id) ? faces.get(id).get(variantInput.value) : undefined;
    document.getElementById("card-preview").hidden = false;
    document.getElementById("preview-hint").hidden = true;
    box.innerHTML = face === undefined ? "" : face;
    var name = document.createElement("bdi");
    name.textContent = units.get(id).name;
    caption.textContent = "";
    caption.appendChild(name);
    var title = variantInput.options[variantInput.selectedIndex].textContent;
    caption.appendChild(document.createTextNode(face !== undefined ? ", the " + title + " card" :
      tried.has(id) ? ": its card could not be loaded" : ": loading its card\u2026"));
  }

  function show(list) {
    noticeList.textContent = "";
    list.forEach(function (text) {
      var li = document.createElement("li");
      var b = document.createElement("bdi");
      b.textContent = text;
      li.appendChild(b);
      noticeList.appendChild(li);
    });
    notices.hidden = list.length === 0;
  }

  function noticeTexts() {
    return Array.prototype.map.call(noticeList.querySelectorAll("li"), function (li) { return li.textContent; });
  }

  function inputOf(row) { return row.querySelector("input.count"); }

  /* A count typed into the table: 0 to 99; anything else is put right, with a notice. */
  function countOf(row, report) {
    var input = inputOf(row);
    var text = input.value.trim();
    if (text === "") { return 0; }
    var n = Number(text);
    if (!isFinite(n) || n < 0 || Math.floor(n) !== n || n > F.COUNT_MAX) {
      var fixed = isFinite(n) && n > F.COUNT_MAX ? F.COUNT_MAX : 0;
      if (report) {
        report.push(units.get(row.dataset.id).name + ": a fleet holds 0 to " + F.COUNT_MAX + " of a unit, so " +
                    F.quoted(text) + " is now " + fixed);
        input.value = String(fixed);
      }
      return fixed;
    }
    return n;
  }

  function limitOf(report) {
    var text = limitInput.value.trim();
    var n = Number(text);
    if (text === "" || !isFinite(n) || Math.floor(n) !== n || n < 1 || n > F.LIMIT_MAX) {
      if (report) { report.push("the points limit must be a whole number from 1 to 10,000; " + F.quoted(text) + " is not one"); }
      return 0;
    }
    return n;
  }

  /* The builder's state as wasFleet describes one. */
  function state(report) {
    var fleet = new Map();
    rows.forEach(function (row) {
      if (countOf(row, report) > 0 && order.indexOf(row.dataset.id) === -1) { order.push(row.dataset.id); }
    });
    order = order.filter(function (id) { return countOf(byId.get(id), null) > 0; });
    order.forEach(function (id) { fleet.set(id, countOf(byId.get(id), null)); });
    return { fleet: fleet, name: nameInput.value.trim() || F.DEFAULTS.name, limit: limitOf(report),
             deck: variantInput.value };
  }

  function button(text, label, data) {
    var b = document.createElement("button");
    b.type = "button";
    b.className = "step";
    b.textContent = text;
    b.setAttribute("aria-label", label);
    Object.keys(data).forEach(function (k) { b.dataset[k] = data[k]; });
    return b;
  }

  function pickedItem(u) {
    var li = document.createElement("li");
    li.dataset.id = u.id;
    var name = document.createElement("bdi");  /* a name cannot turn the text after it round */
    name.textContent = u.name;
    var text = document.createElement("span");
    text.appendChild(document.createTextNode(u.count + " \u00d7 "));
    text.appendChild(name);
    text.appendChild(document.createTextNode(" (" + u.count * u.points + " points)"));
    li.appendChild(text);
    var tools = document.createElement("span");
    tools.className = "tools";
    tools.appendChild(button("\u2212", "One fewer " + u.name, { step: "-1" }));
    tools.appendChild(button("+", "One more " + u.name, { step: "1" }));
    tools.appendChild(button("Remove", "Remove " + u.name + " from the fleet", { step: "remove" }));
    li.appendChild(tools);
    return li;
  }

  /* +, - and Remove, in the units' table and in the fleet's list: a count stays within 0 to 99. */
  function step(id, how) {
    var row = byId.get(id);
    if (!row) { return; }
    var now = countOf(row, null);
    var next = how === "remove" ? 0 : Math.max(0, Math.min(F.COUNT_MAX, now + (how === "1" ? 1 : -1)));
    inputOf(row).value = String(next);
    update(null);
  }

  function pointsLeft(t, limit) {
    var left = document.getElementById("points-left");
    if (!limit) { left.textContent = "no points limit set"; left.className = "left bad"; return; }
    var n = limit - t.points;
    left.textContent = n >= 0 ? n + " point" + (n === 1 ? "" : "s") + " left of " + limit
      : -n + " point" + (n === -1 ? "" : "s") + " over the limit of " + limit;
    left.className = n >= 0 ? "left" : "left bad";
  }

  function update(report) {
    var s = state(report);
    var list = F.items(s, units), t = F.totals(list);
    document.getElementById("fleet-cards").textContent = String(t.cards);
    document.getElementById("fleet-points").textContent = String(t.points);
    pointsLeft(t, s.limit);
    var picked = document.getElementById("picked");
    picked.textContent = "";
    list.forEach(function (u) { picked.appendChild(pickedItem(u)); });
    Array.prototype.forEach.call(document.querySelectorAll("#checks li"), function (li) {
      var verdict = li.querySelector(".verdict");
      if (!list.length) { verdict.textContent = "empty fleet"; li.className = ""; return; }
      if (!s.limit) { verdict.textContent = "no points limit set"; li.className = "bad"; return; }
      var check = F.checkFleet(li.dataset.rule || "", list, s.limit);
      verdict.textContent = F.verdict(check);
      li.className = check.legal ? "ok" : "bad";
    });
    var ready = list.length > 0 && s.limit > 0;
    download.disabled = !ready;
    if (tabletopButton) { tabletopButton.disabled = !ready; }
    copyButtons.forEach(function (b) { b.disabled = !ready; });
    var kept = { fleet: s.fleet, name: s.name, limit: s.limit || F.DEFAULTS.limit, deck: s.deck };
    var address = F.formatAddress(kept, decks);
    printLink.href = "print.html" + (address ? "#" + address : "");
    printLink.setAttribute("aria-disabled", ready ? "false" : "true");
    var values = new Map();
    new URLSearchParams(address).forEach(function (value, key) { values.set(key, value); });
    window.wasState.setAll(["fleet", "name", "limit", "deck", "paper"], values);
    share(kept, ready);
    document.getElementById("save-fleet").disabled = !ready;
    written = window.location.hash;
    if (report && report.length) { show(report); }
    return s;
  }

  /* The fleet's link, its Copy link button and, where the link opens from another device, a
     QR code of it on the screen. */
  var sharedLink = null;
  function share(s, ready) {
    var link = F.fleetLink(s, decks, linkBase(), units);
    var field = document.getElementById("fleet-link");
    field.value = link;
    document.getElementById("copy-link").disabled = !ready;
    if (link === sharedLink) { return; }
    sharedLink = link;
    var box = document.getElementById("fleet-qr");
    box.textContent = "";
    var absolute = /^https?:/.test(link);
    document.getElementById("link-local").hidden = absolute;
    var code = absolute && ready ? F.qrSvg(link, "160", "QR code of this fleet's link", 3) : null;
    if (code) { box.appendChild(code); }
    box.hidden = !code;
  }

  /* Put a checked state (from the address or a roster) into the form. */
  function apply(s) {
    rows.forEach(function (row) { inputOf(row).value = "0"; });
    order = [];
    s.fleet.forEach(function (n, id) { inputOf(byId.get(id)).value = String(n); order.push(id); });
    nameInput.value = s.name;
    limitInput.value = String(s.limit);
    variantInput.value = s.deck;
  }

  function restore() {
    var s = F.parseAddress(window.location.hash, units, decks);
    apply(s);
    show(s.notices);
    update(null);
    if (s.fleet.size && (previewId === null || !s.fleet.has(previewId))) { preview(s.fleet.keys().next().value); }
  }

  /* The units I own: a list of ids kept in this browser, read as data like any input. */
  function loadOwned() {
    var ids = [];
    try { ids = JSON.parse(window.localStorage.getItem(OWNED) || "[]"); } catch (e) { ids = []; }
    var owned = new Set(Array.isArray(ids) ? ids.filter(function (id) { return typeof id === "string" && units.has(id); }) : []);
    rows.forEach(function (row) {
      var mine = owned.has(row.dataset.id);
      row.querySelector("input.owned").checked = mine;
      row.dataset.owned = mine ? "yes" : "no";
    });
  }

  function saveOwned() {
    var ids = rows.filter(function (row) { return row.querySelector("input.owned").checked; })
      .map(function (row) { return row.dataset.id; });
    rows.forEach(function (row) { row.dataset.owned = row.querySelector("input.owned").checked ? "yes" : "no"; });
    try { window.localStorage.setItem(OWNED, JSON.stringify(ids)); } catch (e) { /* storage off: kept for this visit */ }
    if (window.wasFilters) { window.wasFilters.apply(); }
  }

  /* Fleets saved in this browser: a list of fleet addresses (localStorage, wastools.fleets),
     read as data like any address: each is parsed by wasFleet against this site's units, and
     an entry that is not a fleet address is dropped with a notice. */
  var SAVED = "wastools.fleets";
  var SAVED_MAX = 50;
  function loadSaved(report) {
    var list = [];
    try { list = JSON.parse(window.localStorage.getItem(SAVED) || "[]"); } catch (e) { list = null; }
    if (!Array.isArray(list)) {
      if (report) { report.push("the fleets saved in this browser could not be read: none are shown"); }
      return [];
    }
    var read = readFleets(list);
    if (read.bad && report) { report.push(read.bad + " of the fleets saved in this browser could not be read and are not shown"); }
    return read.good;
  }

  /* A list of fleet addresses (from this browser or an exported file) as checked fleets: an
     entry that is not a string, holds no unit of this site or repeats a name is counted bad. */
  function readFleets(list) {
    var good = [], bad = 0, names = new Set();
    list.slice(0, SAVED_MAX).forEach(function (entry) {
      if (typeof entry !== "string" || entry.length > 20000) { bad += 1; return; }
      var s = F.parseAddress(entry, units, decks);
      if (!s.fleet.size || names.has(s.name)) { bad += 1; return; }
      names.add(s.name);
      good.push({ address: F.formatAddress(s, decks), state: s });
    });
    return { good: good, bad: bad + Math.max(0, list.length - SAVED_MAX) };
  }

  /* The saved fleets as a file (to keep or move to another browser) and back: a JSON object
     whose "fleets" is the list of addresses; an imported fleet replaces a saved one of its name. */
  var EXPORT_KIND = "wastools saved fleets";
  function exportSaved() {
    var list = loadSaved(null);
    var text = JSON.stringify({ kind: EXPORT_KIND, version: 1, fleets: list.map(function (f) { return f.address; }) }, null, 2);
    save("saved-fleets.json", "application/json", text + "\n");
    document.getElementById("copied").textContent = "Exported " + list.length + " saved fleet" + (list.length === 1 ? "" : "s") + ".";
  }

  function importSaved(text) {
    var data = null;
    try { data = JSON.parse(text); } catch (e) { data = null; }
    var entries = data && !Array.isArray(data) && typeof data === "object" && data.kind === EXPORT_KIND ? data.fleets : data;
    if (!Array.isArray(entries)) { show(["that file is not a list of saved fleets: nothing was imported"]); return; }
    var read = readFleets(entries), names = new Set(read.good.map(function (f) { return f.state.name; }));
    var kept = loadSaved(null).filter(function (f) { return !names.has(f.state.name); });
    var list = read.good.concat(kept).slice(0, SAVED_MAX);
    var stored = storeSaved(list);
    showSaved(list);
    var said = [];
    if (read.bad) { said.push(read.bad + " of the file's fleets could not be read and were left out"); }
    if (!stored) { said.push("this browser does not let the page keep anything: the fleets are shown for this visit only"); }
    show(said);
    document.getElementById("copied").textContent = "Imported " + read.good.length + " fleet" + (read.good.length === 1 ? "" : "s") + ".";
  }

  function storeSaved(list) {
    try {
      window.localStorage.setItem(SAVED, JSON.stringify(list.map(function (f) { return f.address; })));
      return true;
    } catch (e) { return false; }
  }

  function showSaved(list) {
    var ul = document.getElementById("saved");
    ul.textContent = "";
    list.forEach(function (f, i) {
      var li = document.createElement("li");
      var open = document.createElement("a");
      open.href = "fleet.html#" + f.address;
      var name = document.createElement("bdi");
      name.textContent = f.state.name;
      open.appendChild(name);
      var t = F.totals(F.items(f.state, units));
      li.appendChild(open);
      li.appendChild(document.createTextNode(" (" + t.cards + " cards, " + t.points + " points) "));
      var drop = button("Delete", "Delete the saved fleet " + f.state.name, { saved: String(i) });
      li.appendChild(drop);
      ul.appendChild(li);
    });
    document.getElementById("saved-none").hidden = list.length > 0;
    document.getElementById("export-saved").disabled = list.length === 0;
  }

  document.getElementById("save-fleet").addEventListener("click", function () {
    var s = update(null);
    var list = loadSaved(null).filter(function (f) { return f.state.name !== s.name; });
    list.unshift({ address: F.formatAddress(s, decks), state: s });
    list = list.slice(0, SAVED_MAX);
    var kept = storeSaved(list);
    showSaved(list);
    document.getElementById("copied").textContent = kept
      ? "Saved in this browser as " + F.quoted(s.name) + "."
      : "This browser does not let the page keep anything: the fleet was not saved.";
  });
  document.getElementById("saved").addEventListener("click", function (event) {
    var b = event.target.closest("button.step");
    if (!b) { return; }
    var list = loadSaved(null);
    list.splice(Number(b.dataset.saved), 1);
    storeSaved(list);
    showSaved(list);
  });

  document.getElementById("export-saved").addEventListener("click", exportSaved);
  document.getElementById("import-saved").addEventListener("change", function (event) {
    readFile(event.target, importSaved);
  });

  /* A file picked in ``input``, read as text (its first 200,000 characters) into ``then``. */
  function readFile(input, then) {
    var file = input.files && input.files[0];
    if (!file) { return; }
    var reader = new FileReader();
    reader.onload = function () {
      then(String(reader.result));
      input.value = "";
    };
    reader.onerror = function () { show(["the file could not be read"]); };
    reader.readAsText(file.slice(0, 200000));
  }

  function save(name, type, text) {
    var blob = new Blob([text], { type: type });
    var a = document.createElement("a");
    a.href = URL.createObjectURL(blob);
    a.download = name;
    document.body.appendChild(a);
    a.click();
    window.setTimeout(function () { URL.revokeObjectURL(a.href); a.remove(); }, 1000);
  }

  table.addEventListener("input", function (event) {
    if (event.target.classList.contains("owned")) { saveOwned(); return; }
    update(null);
  });
  /* A tap on a unit's row adds one of it (a tap on its name opens its page; on a control,
     the control's own): the card preview shows it. */
  table.addEventListener("click", function (event) {
    var row = event.target.closest("tbody tr");
    if (!row || !byId.has(row.dataset.id)) { return; }
    var b = event.target.closest("button.step");
    if (b) { step(row.dataset.id, b.dataset.step); } else if (event.target.closest("a, input, label, td.stepper, td.own")) { return; } else {
      step(row.dataset.id, "1");
    }
    preview(row.dataset.id);
  });
  table.addEventListener("focusin", function (event) {
    if (event.target.classList.contains("count")) { preview(event.target.closest("tr").dataset.id); }
  });
  document.getElementById("picked").addEventListener("click", function (event) {
    var li = event.target.closest("li");
    if (!li) { return; }
    var b = event.target.closest("button.step");
    if (b) { step(li.dataset.id, b.dataset.step); }
    preview(li.dataset.id);
  });
  table.addEventListener("change", function (event) {
    if (event.target.classList.contains("count")) { update([]); }
  });
  [nameInput, variantInput].forEach(function (el) { el.addEventListener("input", function () { update(null); }); });
  variantInput.addEventListener("change", drawPreview);
  limitInput.addEventListener("input", function () { update(null); });
  limitInput.addEventListener("change", function () { update([]); });
  document.getElementById("notices-close").addEventListener("click", function () { show([]); });
  document.getElementById("clear").addEventListener("click", function () {
    rows.forEach(function (row) { inputOf(row).value = "0"; });
    update(null);
  });
  printLink.addEventListener("click", function (event) {
    if (printLink.getAttribute("aria-disabled") === "true") { event.preventDefault(); }
  });
  download.addEventListener("click", function () {
    var s = update(null);
    save(F.fileName(s.name, ".yaml"), "application/x-yaml", F.roster(s, units));
  });
  /* Where the game finds the card images: the published site ([site] address), else this
     page's own folder on a web server that has them (wastools serve draws them when asked
     for). A copy opened as a file, or hosted without them, cannot give the game its cards. */
  var NO_IMAGES = "This copy of the site has no card images for Tabletop Simulator: run wastools serve and " +
    "press the button there, or Download roster and run wastools build --roster FILE --tts.";
  function tabletopSave(s, saved, note) {
    save(F.fileName(s.name, ".json"), "application/json", JSON.stringify(saved, null, 2) + "\n");
    document.getElementById("copied").textContent = note;
  }
  function imagesAnswer(urls) {  /* true when every image answers (serve draws the missing ones) */
    return Promise.all(urls.map(function (u) {
      return window.fetch(u, { cache: "no-store" }).then(function (r) { return r.ok; }, function () { return false; });
    })).then(function (answers) { return answers.every(Boolean); });
  }
  if (tabletopButton) {
    tabletopButton.addEventListener("click", function () {
      var s = update(null), site = tabletopButton.dataset.site, said = document.getElementById("copied");
      var base = site ? site.replace(/\/*$/, "/") : new URL(".", window.location.href).href;
      var saved = F.tabletop(s, units, decks, s.deck, base);  /* the deck chosen above */
      if (site) { tabletopSave(s, saved, "Saved: put the file in Tabletop Simulator's Saved Objects folder."); return; }
      if (!/^https?:$/.test(window.location.protocol)) { said.textContent = NO_IMAGES; return; }
      var urls = F.tabletopImages(saved);
      tabletopButton.disabled = true;
      said.textContent = "Drawing " + urls.length + " card images\u2026";
      imagesAnswer(urls).then(function (whole) {
        update(null);
        if (!whole) { said.textContent = NO_IMAGES; return; }
        tabletopSave(s, saved, "Saved. Its card images come from wastools serve on this computer (" +
          window.location.host + "): the game loads them while serve runs, and keeps them after.");
      });
    });
  }
  function linkBase() { return F.linkBase(shareBox.dataset.site); }

  function copyOut(text, what) {
    textBox.value = text;
    textBox.hidden = false;
    var said = document.getElementById("copied");
    var done = function () { said.textContent = "Copied " + what + ": paste it into a post or a message."; };
    var select = function () {
      textBox.focus();
      textBox.select();
      said.textContent = "Select the text below and copy it.";
    };
    if (navigator.clipboard && window.isSecureContext) {
      navigator.clipboard.writeText(text).then(done, select);
    } else {
      select();
    }
  }

  copyButtons.forEach(function (button) {
    button.addEventListener("click", function () {
      var s = update(null);
      copyOut(F.fleetText(s, units, decks, button.dataset.format, F.fleetLink(s, decks, linkBase(), units)), button.dataset.what);
    });
  });

  document.getElementById("copy-link").addEventListener("click", function () {
    copyOut(document.getElementById("fleet-link").value, "the link");
  });

  /* A fleet from outside (a pasted text, link or roster, or a loaded file), read as data. */
  function open(text) {
    var s = F.parsePasted(text, units, decks);
    if (s.fleet.size === 0) {
      show(s.notices.concat(["no unit of it is on this site: the fleet was left as it was"]));
      return false;
    }
    apply(s);
    show(s.notices);
    update(null);
    preview(s.fleet.keys().next().value);
    return true;
  }

  document.getElementById("paste-open").addEventListener("click", function () {
    var box = document.getElementById("paste-text");
    if (open(box.value.slice(0, 200000))) { box.value = ""; }
  });
  document.getElementById("load-roster").addEventListener("change", function (event) { readFile(event.target, open); });
  window.wasFleetPage = { units: units, decks: decks };  /* what this page checks fleets against */
  window.addEventListener("hashchange", function () {
    if (window.location.hash !== written) { restore(); }  /* a fleet link opened on this page */
  });
  loadOwned();
  var savedNotices = [];
  showSaved(loadSaved(savedNotices));
  if (window.wasFilters) { window.wasFilters.apply(); }
  restore();
  if (savedNotices.length) { show(savedNotices.concat(noticeTexts())); }
})();
