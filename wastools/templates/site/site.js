/* Unit filters and name search, kept in the address (#nation=uk&q=fletcher) so that a
   filtered view can be bookmarked or shared. The fleet builder's "only units I own" is
   kept in this browser (localStorage), not in the address: a shared link is not a
   collection. Plain JavaScript, no library. */
"use strict";
(function () {
  var KEYS = ["q", "nation", "side", "type", "set", "min", "max"];

  function readHash() {
    return new URLSearchParams(window.location.hash.replace(/^#/, ""));
  }

  function writeHash(params) {
    var text = params.toString();
    var target = text ? "#" + text : "#";
    if (window.location.hash !== target && !(target === "#" && window.location.hash === "")) {
      window.location.replace(target);
    }
  }

  /* Other scripts (the fleet builder) keep their own keys in the same address. */
  window.wasState = {
    get: function (key) { return readHash().get(key); },
    set: function (key, value) {
      var params = readHash();
      if (value) { params.set(key, value); } else { params.delete(key); }
      writeHash(params);
    },
    /* several keys at once, in the given order after any others (one change of address) */
    setAll: function (keys, values) {
      var params = readHash();
      keys.forEach(function (key) { params.delete(key); });
      values.forEach(function (value, key) { params.append(key, value); });
      var text = params.toString().replace(/%3A/g, ":").replace(/%2C/g, ",");
      var target = text ? "#" + text : "#";
      if (window.location.hash !== target && !(target === "#" && window.location.hash === "")) {
        window.location.replace(target);
      }
    }
  };

  var form = document.getElementById("filters");
  var table = document.getElementById("units");
  if (!form || !table) { return; }
  var rows = Array.prototype.slice.call(table.tBodies[0].rows);
  var count = document.getElementById("count");
  var empty = document.getElementById("empty");

  function field(key) { return form.elements.namedItem(key); }
  var ownedOnly = document.getElementById("f-owned");
  var OWNED_ONLY = "wastools.owned-only";

  function stored(key) {
    try { return window.localStorage.getItem(key); } catch (e) { return null; }  /* storage may be off */
  }

  function number(text) {
    if (text === null || text === "") { return null; }
    var n = Number(text);
    return isFinite(n) ? n : null;
  }

  function apply() {
    var q = field("q").value.trim().toLowerCase();
    var wanted = {};
    ["nation", "side", "type", "set"].forEach(function (key) { wanted[key] = field(key).value; });
    var low = number(field("min").value);
    var high = number(field("max").value);
    var shown = 0;
    rows.forEach(function (row) {
      var d = row.dataset;
      var points = Number(d.points);
      var keep = (!q || d.name.indexOf(q) !== -1) &&
        Object.keys(wanted).every(function (key) { return !wanted[key] || d[key] === wanted[key]; }) &&
        (low === null || points >= low) && (high === null || points <= high) &&
        (!ownedOnly || !ownedOnly.checked || d.owned === "yes");
      row.hidden = !keep;
      if (keep) { shown += 1; }
    });
    count.textContent = shown === rows.length ? rows.length + " units" : shown + " of " + rows.length + " units";
    empty.hidden = shown !== 0;
  }

  function save() {
    if (ownedOnly) {
      try { window.localStorage.setItem(OWNED_ONLY, ownedOnly.checked ? "yes" : "no"); } catch (e) { /* not kept */ }
    }
    var params = readHash();
    KEYS.forEach(function (key) {
      var value = field(key).value.trim();
      if (value) { params.set(key, value); } else { params.delete(key); }
    });
    writeHash(params);
  }

  function load() {
    var params = readHash();
    KEYS.forEach(function (key) {
      var el = field(key);
      var value = params.get(key) || "";
      if (el.tagName === "SELECT" && value && !Array.prototype.some.call(el.options, function (o) { return o.value === value; })) {
        value = "";  /* a shared link naming a value this site does not have */
      }
      el.value = value;
    });
    if (ownedOnly) { ownedOnly.checked = stored(OWNED_ONLY) === "yes"; }
    apply();
  }

  form.addEventListener("input", function () { apply(); save(); });
  form.addEventListener("change", function () { apply(); save(); });
  form.addEventListener("submit", function (event) { event.preventDefault(); });
  form.addEventListener("reset", function () {
    window.setTimeout(function () { apply(); save(); }, 0);
  });
  window.addEventListener("hashchange", load);
  window.wasFilters = { apply: apply };
  load();
})();
