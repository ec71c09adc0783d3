/* The fleet builder: counts per unit, the points, each variant's fleet rules as you go,
   and the fleet as a YAML roster for `wastools build --roster`. The rules mirror
   wastools/variants/fleet.py; a browser test checks that both give the same verdicts. */
"use strict";
(function () {
  var table = document.getElementById("units");
  var rows = Array.prototype.slice.call(table.tBodies[0].rows);
  var byId = {};
  rows.forEach(function (row) { byId[row.dataset.id] = row; });
  var limitInput = document.getElementById("points-limit");
  var nameInput = document.getElementById("roster-name");
  var variantInput = document.getElementById("deck-variant");
  var download = document.getElementById("download");

  function countOf(row) {
    var n = parseInt(row.querySelector("input.count").value, 10);
    return isFinite(n) && n > 0 ? Math.min(n, 99) : 0;
  }

  function fleet() {
    return rows.filter(function (row) { return countOf(row) > 0; }).map(function (row) {
      return { id: row.dataset.id, name: row.querySelector("th a").textContent, points: Number(row.dataset.points),
               nation: row.dataset.nation, type: row.dataset.type, count: countOf(row) };
    });
  }

  function limit() {
    var n = parseInt(limitInput.value, 10);
    return isFinite(n) && n > 0 ? n : 0;
  }

  /* Same arithmetic as check_fleet() in wastools/variants/fleet.py. */
  function checkFleet(variant, items, cap) {
    var total = 0, us = 0, subs = 0;
    items.forEach(function (u) {
      total += u.points * u.count;
      if (u.nation === "us") { us += u.points * u.count; }
      if (u.type === "submarine") { subs += u.points * u.count; }
    });
    var problems = [], notes = [], effective = cap;
    if (variant === "tabletop-cm") {
      if (total && us * 3 > total) {
        effective = Math.floor(cap * 9 / 10);
        notes.push("US units are " + us + " of " + total + " points (more than a third): limit capped at 90%, " + effective);
      }
      if (total > effective) { problems.push(total + " points is over the limit of " + effective); }
      var subCap = Math.floor(cap / 4);
      if (subs > subCap) { problems.push("submarines are " + subs + " points, over 25% of " + cap + " (" + subCap + ")"); }
    } else if (total > cap) {
      problems.push(total + " points is over the limit of " + cap);
    }
    return { points: total, effective: effective, problems: problems, notes: notes, legal: problems.length === 0 };
  }
  window.wasCheckFleet = checkFleet;

  function yamlString(text) {
    return JSON.stringify(text);  /* a JSON string is a valid YAML double-quoted scalar */
  }

  function roster(items) {
    var cards = 0, points = 0;
    items.forEach(function (u) { cards += u.count; points += u.count * u.points; });
    var lines = [
      "# A fleet roster from the wastools fleet builder: " + cards + " cards, " + points + " points.",
      "# Print its cards: wastools build --roster <this file>",
      "name: " + yamlString(nameInput.value.trim() || "My fleet"),
      "variant: " + variantInput.value,
      "points_limit: " + limit(),
      "units:"
    ];
    items.forEach(function (u) { lines.push("  - unit: " + u.id, "    count: " + u.count); });
    return lines.join("\n") + "\n";
  }

  function update() {
    var items = fleet();
    var cards = 0, points = 0;
    items.forEach(function (u) { cards += u.count; points += u.count * u.points; });
    document.getElementById("fleet-cards").textContent = String(cards);
    document.getElementById("fleet-points").textContent = String(points);
    var picked = document.getElementById("picked");
    picked.textContent = "";
    items.forEach(function (u) {
      var li = document.createElement("li");
      li.textContent = u.count + " \u00d7 " + u.name + " (" + u.count * u.points + " points)";
      picked.appendChild(li);
    });
    Array.prototype.forEach.call(document.querySelectorAll("#checks li"), function (li) {
      var verdict = li.querySelector(".verdict");
      if (!items.length) { verdict.textContent = "empty fleet"; li.className = ""; return; }
      var check = checkFleet(li.dataset.variant, items, limit());
      verdict.textContent = check.legal
        ? "legal: " + check.points + " of " + check.effective + (check.notes.length ? " (" + check.notes.join("; ") + ")" : "")
        : check.problems.join("; ");
      li.className = check.legal ? "ok" : "bad";
    });
    download.disabled = !items.length || !limit();
    window.wasState.set("fleet", items.map(function (u) { return u.id + ":" + u.count; }).join(","));
  }

  function restore() {
    var saved = window.wasState.get("fleet") || "";
    saved.split(",").forEach(function (part) {
      var bits = part.split(":");
      var row = byId[bits[0]];
      var n = parseInt(bits[1], 10);
      if (row && isFinite(n) && n > 0) { row.querySelector("input.count").value = String(Math.min(n, 99)); }
    });
  }

  table.addEventListener("input", update);
  [limitInput, nameInput, variantInput].forEach(function (el) { el.addEventListener("input", update); });
  document.getElementById("clear").addEventListener("click", function () {
    rows.forEach(function (row) { row.querySelector("input.count").value = "0"; });
    update();
  });
  download.addEventListener("click", function () {
    var blob = new Blob([roster(fleet())], { type: "application/x-yaml" });
    var a = document.createElement("a");
    a.href = URL.createObjectURL(blob);
    a.download = "roster.yaml";
    document.body.appendChild(a);
    a.click();
    window.setTimeout(function () { URL.revokeObjectURL(a.href); a.remove(); }, 1000);
  });
  restore();
  update();
})();
