/* The odds of an attack, worked out in the browser from the variant's dice rule.
   The same convolution as wastools/content/odds.py (tests/browser/test_odds_browser.py holds
   the two together): every way the dice can fall, never a simulation. Data comes from
   assets/odds-data.js (window.wasOddsData); every name in it is put in as text. */
(function () {
  "use strict";
  var SIXTH = 1 / 6;

  function dieValues(faces, pips) {
    var out = [];
    for (var f = 1; f <= 6; f++) { out.push(f - pips >= 1 ? faces[f - 1 - pips] : 0); }
    return out;
  }

  function add(dist, key, p) { dist[key] = (dist[key] || 0) + p; }

  function pool(values, dice) {
    var dist = { 0: 1 };
    for (var i = 0; i < dice; i++) {
      var step = {};
      Object.keys(dist).forEach(function (t) {
        values.forEach(function (v) { add(step, Number(t) + v, dist[t] * SIXTH); });
      });
      dist = step;
    }
    return dist;
  }

  /* (sum, best die) of the luck die's companions, keyed "sum,best". */
  function poolWithBest(values, dice) {
    var dist = { "0,0": 1 };
    for (var i = 0; i < dice; i++) {
      var step = {};
      Object.keys(dist).forEach(function (key) {
        var parts = key.split(","), total = Number(parts[0]), best = Number(parts[1]);
        values.forEach(function (v) { add(step, (total + v) + "," + Math.max(best, v), dist[key] * SIXTH); });
      });
      dist = step;
    }
    return dist;
  }

  function capped(dist, cap) {
    var out = {};
    Object.keys(dist).forEach(function (t) { add(out, Math.min(Number(t), cap), dist[t]); });
    return out;
  }

  /* What the luck die adds after a lucky 6: rolled again, 1 nothing, 2-5 their values, 6 more. */
  function rerolls(values, six, cap) {
    var last = [0].concat(values.slice(1, 5)), out = {};
    if (six <= 0) {
      last.forEach(function (v) { add(out, Math.min(v, cap), 1 / 5); });
      return out;
    }
    var reach = 0, weight = 1;
    while (reach < cap) {
      last.forEach(function (v) { add(out, Math.min(reach + v, cap), weight * SIXTH); });
      reach += six;
      weight *= SIXTH;
    }
    add(out, cap, weight);
    return out;
  }

  function luckPool(values, faces, dice, cap) {
    var others = poolWithBest(values, dice - 1), plain = capped(pool(values, dice - 1), cap), out = {};
    Object.keys(others).forEach(function (key) {
      var parts = key.split(",");
      add(out, Math.min(Number(parts[0]) - Number(parts[1]), cap), others[key] * SIXTH);
    });
    for (var face = 2; face <= 5; face++) {
      Object.keys(plain).forEach(function (t) { add(out, Math.min(Number(t) + values[face - 1], cap), plain[t] * SIXTH); });
    }
    var six = faces[5], after = rerolls(values, six, cap);
    Object.keys(plain).forEach(function (t) {
      Object.keys(after).forEach(function (e) {
        add(out, Math.min(Number(t) + six + Number(e), cap), plain[t] * after[e] * SIXTH);
      });
    });
    return out;
  }

  var GUNS = ["main", "secondary", "tertiary"];

  /* The variant's firing arc [name, label, share, pips] where it applies to this kind (guns). */
  function arcOf(rule, kind, name) {
    if (GUNS.indexOf(kind) < 0) { return null; }
    return (rule.arcs || []).filter(function (a) { return a[0] === name; })[0] || null;
  }

  function arcDice(rule, kind, dice, arc) {
    var a = arcOf(rule, kind, arc);
    if (!a || a[2] === "all") { return dice; }
    return a[2] === "up" ? Math.ceil(dice / 2) : Math.floor(dice / 2);
  }

  function pips(rule, kind, band, crippled, arc) {
    var off = 0, a = arcOf(rule, kind, arc);
    rule.penalties.forEach(function (p) { if (p[0] === kind && p[1] === band) { off += p[2]; } });
    off += a ? a[3] : 0;
    return off + (crippled && kind !== "torpedo" ? rule.crippled_pips : 0);
  }

  function faces(rule, kind) { return kind === "torpedo" ? rule.torpedo : rule.gunnery; }

  function cap(kind, target) {
    return kind === "torpedo" ? Math.max(1, target.hull || 1) : Math.max(0, target.armor, target.vital);
  }

  function totals(rule, kind, band, dice, target, crippled, luck, arc) {
    var f = faces(rule, kind), values = dieValues(f, pips(rule, kind, band, crippled, arc)), c = cap(kind, target);
    if (luck && rule.luck && dice >= 1) { return luckPool(values, f, dice, c); }
    return capped(pool(values, dice), c);
  }

  /* Points of hull lost (a sinking counts every point left); an aircraft: 1 aborted, 2 destroyed. */
  function hullDamage(dist, kind, target) {
    var out = {}, hull = target.hull === null ? 1 : target.hull;
    Object.keys(dist).forEach(function (key) {
      var t = Number(key), lost;
      if (kind === "torpedo") { lost = target.hull === null ? (t >= 1 ? 2 : 0) : Math.min(t, hull); }
      else if (t >= target.vital) { lost = target.hull === null ? 2 : hull; }
      else if (t >= target.armor) { lost = 1; }
      else { lost = 0; }
      add(out, lost, dist[key]);
    });
    return out;
  }

  /* Attacks of one phase land together: hull damage adds up; an aircraft takes the worst. */
  function together(parts, target) {
    if (target.hull === null) {
      var none = 1, alive = 1;
      parts.forEach(function (d) { none *= d[0] || 0; alive *= 1 - (d[2] || 0); });
      return { damaged: 1 - none, sunk: 1 - alive, expected: null };
    }
    var sum = { 0: 1 };
    parts.forEach(function (d) {
      var step = {};
      Object.keys(sum).forEach(function (a) {
        Object.keys(d).forEach(function (b) { add(step, Math.min(Number(a) + Number(b), target.hull), sum[a] * d[b]); });
      });
      sum = step;
    });
    var expected = 0;
    Object.keys(sum).forEach(function (k) { expected += Number(k) * sum[k]; });
    return { damaged: 1 - (sum[0] || 0), sunk: sum[target.hull] || 0, expected: expected };
  }

  /* The dice an attack rolls at this target (a Swordfish takes one antiair die fewer on the hex grid). */
  function diceAt(target, kind, dice) {
    (target.fewer || []).forEach(function (f) { if (f[0] === kind) { dice -= f[1]; } });
    return Math.max(0, dice);
  }

  function odds(rule, kind, band, dice, target, crippled, luck, arc) {
    var d = diceAt(target, kind, arcDice(rule, kind, dice, arc));
    return together([hullDamage(totals(rule, kind, band, d, target, crippled, luck, arc), kind, target)], target);
  }

  window.wasOdds = { odds: odds, diceAt: diceAt, arcDice: arcDice, totals: totals, hullDamage: hullDamage, together: together };

  /* --- pages ---------------------------------------------------------------------------- */

  var DATA = window.wasOddsData;
  if (!DATA || typeof document === "undefined") { return; }
  var UNITS = DATA.units.map(function (u, i) {
    return { index: i, id: u[0], name: u[1], type: u[2], typeLabel: u[3], side: u[4], cls: u[5] };
  });
  var BY_ID = {};
  UNITS.forEach(function (u) { BY_ID[u.id] = u; });
  var FIRES_AT = { anti_air: "aircraft", asw: "submarine" };
  var WHY_NOT = { aircraft: "fires only at aircraft", submarine: "fires only at submarines", ship: "fires only at surface ships" };

  function el(id) { return document.getElementById(id); }

  function make(tag, text, cls) {
    var node = document.createElement(tag);
    if (text !== undefined && text !== null) { node.textContent = text; }
    if (cls) { node.className = cls; }
    return node;
  }

  function percent(p) {
    if (p <= 0) { return "0%"; }
    if (p >= 1) { return "100%"; }
    if (p < 0.001) { return "under 0.1%"; }
    if (p > 0.999) { return "over 99.9%"; }
    return (Math.round(p * 1000) / 10).toFixed(1) + "%";
  }

  /* The target's defense in a variant: crippled (1 hull left) and squadrons aboard as chosen. */
  function defense(variant, unit, crippled, aboard) {
    var d = variant.defense[unit.index];
    var t = { armor: d[0], vital: d[1], hull: d[2], noTorpedo: d[5] === 1, fewer: d[7] || [] };
    if (crippled && d[3] !== null) { t = { armor: d[3], vital: d[4], hull: 1, noTorpedo: t.noTorpedo, fewer: t.fewer }; }
    if (d[6] && aboard > 0) { t.vital = Math.min(t.vital, d[6][Math.min(aboard, d[6].length - 1)]); }
    return t;
  }

  function fires(kind, unit, target) {
    var cls = FIRES_AT[kind] || "ship";
    if (unit.cls !== cls) { return WHY_NOT[cls]; }
    if (kind === "torpedo" && target.noTorpedo) { return "cannot be torpedoed in these rules"; }
    return "";
  }

  function fillTargets(select, chosen) {
    var groups = {};
    UNITS.forEach(function (u) {
      if (!groups[u.typeLabel]) { groups[u.typeLabel] = make("optgroup"); groups[u.typeLabel].label = u.typeLabel; }
      var option = make("option", u.name);
      option.value = u.id;
      groups[u.typeLabel].appendChild(option);
    });
    Object.keys(groups).sort().forEach(function (k) { select.appendChild(groups[k]); });
    select.value = chosen;
  }

  /* A sensible first target: an enemy of the same type the first attack can fire at, else any it can. */
  function defaultTarget(unit, attacks) {
    var cls = attacks.length ? (FIRES_AT[attacks[0][0]] || "ship") : "ship";
    var fit = UNITS.filter(function (u) { return u.cls === cls && u.id !== unit.id; });
    var enemy = fit.filter(function (u) { return u.side !== unit.side; });
    var pick = enemy.filter(function (u) { return u.type === unit.type; })[0] || enemy[0] || fit[0] || UNITS[0];
    return pick.id;
  }

  function luckControls(variant) {
    var field = el("odds-luck-field");
    field.hidden = !variant.dice.luck;
    return variant.dice.luck && el("odds-luck").checked;
  }

  /* The guns' firing arc, in a variant whose guns have arcs ("" elsewhere). */
  function arcControl(variant) {
    var arcs = variant.dice.arcs || [], select = el("odds-arc"), field = el("odds-arc-field");
    field.hidden = !arcs.length;
    var was = select.value;
    select.textContent = "";
    arcs.forEach(function (a) { var o = make("option", a[1]); o.value = a[0]; select.appendChild(o); });
    if (!arcs.length) { return ""; }
    select.value = arcs.some(function (a) { return a[0] === was; }) ? was : arcs[0][0];
    return select.value;
  }

  function aboardControl(variant, target) {
    var d = variant.defense[target.index][6], select = el("odds-aboard"), field = el("odds-aboard-field");
    field.hidden = !d;
    if (!d) { return 0; }
    var was = Number(select.value) || 0;
    select.textContent = "";
    for (var n = 0; n < d.length; n++) { var o = make("option", String(n)); o.value = String(n); select.appendChild(o); }
    select.value = String(Math.min(was, d.length - 1));
    return Number(select.value);
  }

  function cell(tr, text, cls) { tr.appendChild(make("td", text, cls)); }

  function readings(variant) {
    var list = el("odds-readings");
    list.textContent = "";
    variant.dice.readings.forEach(function (r) { list.appendChild(make("li", r)); });
  }

  function renderUnit(section) {
    var unit = BY_ID[section.getAttribute("data-unit")];
    var variant = DATA.variants[el("odds-variant").value];
    var target = BY_ID[el("odds-target").value];
    if (!unit || !variant || !target) { return; }
    var luck = luckControls(variant), aboard = aboardControl(variant, target), arc = arcControl(variant);
    var def = defense(variant, target, el("odds-crippled").checked, aboard);
    var hurtAttacks = variant.crippled_attacks[unit.index];
    el("odds-self-field").hidden = !hurtAttacks;
    var hurt = !!hurtAttacks && el("odds-self").checked;
    var body = el("odds-rows");
    body.textContent = "";
    (hurt ? hurtAttacks : variant.attacks[unit.index]).forEach(function (attack) {
      var kind = attack[0], label = DATA.labels[kind] || kind, why = fires(kind, target, def);
      if (why) {
        var tr = make("tr");
        tr.appendChild(make("th", label)).scope = "row";
        var td = make("td", label + " " + why + ".", "src");
        td.colSpan = 4;
        tr.appendChild(td);
        body.appendChild(tr);
        return;
      }
      attack[1].forEach(function (band) {
        var row = make("tr"), reach = variant.words[band[2]], cond = band[3] >= 0 ? variant.words[band[3]] : "";
        row.appendChild(make("th", label)).scope = "row";
        cell(row, cond ? reach + " (" + cond + ")" : reach);
        cell(row, String(diceAt(def, kind, arcDice(variant.dice, kind, band[1], arc))), "num");
        var o = odds(variant.dice, kind, band[0], band[1], def, hurt, luck, arc);
        cell(row, percent(o.damaged), "num");
        cell(row, percent(o.sunk), "num");
        body.appendChild(row);
      });
    });
    el("odds-target-name").textContent = target.name;
    readings(variant);
  }

  /* Each unit of the fleet fires its best attack at that card range (most likely to sink, then to damage). */
  function best(variant, unit, band, target, luck, arc) {
    var top = null;
    variant.attacks[unit.index].forEach(function (attack) {
      if (fires(attack[0], target.unit, target.def)) { return; }
      attack[1].forEach(function (b) {
        if (b[0] !== band || !b[1]) { return; }
        var dice = diceAt(target.def, attack[0], arcDice(variant.dice, attack[0], b[1], arc));
        var counted = totals(variant.dice, attack[0], b[0], dice, target.def, false, luck, arc);
        var dist = hullDamage(counted, attack[0], target.def);
        var o = together([dist], target.def);
        if (!top || o.sunk > top.odds.sunk || (o.sunk === top.odds.sunk && o.damaged > top.odds.damaged)) {
          top = { kind: attack[0], band: b, dice: dice, odds: o, dist: dist };
        }
      });
    });
    return top;
  }

  function fleetCounts() {
    var out = [];
    document.querySelectorAll("#units tbody tr[data-id]").forEach(function (tr) {
      var n = Number((tr.querySelector("input.count") || {}).value) || 0;
      if (n > 0 && BY_ID[tr.getAttribute("data-id")]) { out.push({ unit: BY_ID[tr.getAttribute("data-id")], count: n }); }
    });
    return out;
  }

  function renderFleet() {
    var variant = DATA.variants[(el("deck-variant") || {}).value] || DATA.variants[Object.keys(DATA.variants)[0]];
    var target = BY_ID[el("odds-target").value];
    if (!variant || !target) { return; }
    var luck = luckControls(variant), aboard = aboardControl(variant, target), arc = arcControl(variant);
    var t = { unit: target, def: defense(variant, target, el("odds-crippled").checked, aboard) };
    var band = Number(el("odds-band").value) || 0, body = el("odds-rows"), parts = [];
    body.textContent = "";
    var fleet = fleetCounts();
    fleet.forEach(function (item) {
      var row = make("tr"), top = best(variant, item.unit, band, t, luck, arc);
      row.appendChild(make("th", item.count + " \u00d7 " + item.unit.name)).scope = "row";
      if (!top) {
        var td = make("td", "no attack that reaches it at this card range", "src");
        td.colSpan = 4;
        row.appendChild(td);
      } else {
        cell(row, (DATA.labels[top.kind] || top.kind) + ", " + variant.words[top.band[2]]);
        cell(row, String(top.dice), "num");
        cell(row, percent(top.odds.damaged), "num");
        cell(row, percent(top.odds.sunk), "num");
        for (var i = 0; i < item.count; i++) { parts.push(top.dist); }
      }
      body.appendChild(row);
    });
    var all = together(parts, t.def);
    el("odds-all-damaged").textContent = parts.length ? percent(all.damaged) : "\u2013";
    el("odds-all-sunk").textContent = parts.length ? percent(all.sunk) : "\u2013";
    el("odds-empty").hidden = fleet.length > 0;
    el("odds-target-name").textContent = target.name;
    el("odds-variant-name").textContent = variant.title;
    readings(variant);
  }

  function start() {
    var section = el("odds");
    if (!section) { return; }
    var unitPage = section.hasAttribute("data-unit");
    var render = unitPage ? function () { renderUnit(section); } : renderFleet;
    var unit = BY_ID[section.getAttribute("data-unit")];
    var variant = DATA.variants[(el("odds-variant") || el("deck-variant") || {}).value];
    var first = unit && variant ? defaultTarget(unit, variant.attacks[unit.index]) : (UNITS.filter(function (u) { return u.type === "battleship"; })[0] || UNITS[0]).id;
    fillTargets(el("odds-target"), first);
    section.addEventListener("change", render);
    section.addEventListener("input", render);
    if (!unitPage) {
      /* the fleet builder changes its table and list: follow them without touching its code */
      var picked = el("picked");
      if (picked && window.MutationObserver) { new MutationObserver(render).observe(picked, { childList: true, subtree: true }); }
      var deck = el("deck-variant");
      if (deck) { deck.addEventListener("change", render); deck.addEventListener("input", render); }
    }
    section.hidden = false;
    render();
  }

  if (document.readyState === "loading") { document.addEventListener("DOMContentLoaded", start); } else { start(); }
})();
