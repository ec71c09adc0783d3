/* A fleet as data: read from an address or a roster file, checked against the units on
   this site, written back as an address, a roster or plain text. Nothing here looks a
   name up on a plain object: ids live in Maps, so "constructor" or "__proto__" is an
   unknown unit like any other. Every value that is dropped or changed says so in a
   notice; nothing throws on any input. Used by the fleet builder and the print view. */
"use strict";
(function () {
  var SAFE_ID = /^[a-z0-9][a-z0-9-]{0,99}$/;
  /* what a name may not hold, as wastools refuses it (safe_text.bad_name_character): control
     characters (tab and line ends too), invisible format characters (the bidirectional
     controls, zero-width characters, the soft hyphen...), lone surrogates, private-use
     characters, line and paragraph separators and noncharacters */
  var CONTROLS = /[\p{Cc}\p{Cf}\p{Cs}\p{Co}\p{Zl}\p{Zp}\p{Noncharacter_Code_Point}]/gu;
  var MAX_ADDRESS = 20000;  /* characters of an address read at all */
  var MAX_ENTRIES = 300;    /* unit entries read, as many as a roster may print */
  var MAX_ROSTER = 100000;  /* bytes of a roster file read */
  var NAME_MAX = 80;
  var LIMIT_MAX = 10000;   /* written "10,000" in the notices */
  var COUNT_MAX = 99;
  var DEFAULTS = { name: "My fleet", limit: 100 };
  var FLEET_KEYS = ["fleet", "c", "name", "limit", "deck", "paper", "backs"];
  var BACKS = ["long", "short"];  /* the print view's duplex backs: the edge the sheet flips on */
  var FILTER_KEYS = ["q", "nation", "side", "type", "set", "min", "max", "owned"];

  function own(map, key) { return map instanceof Map && map.has(key); }

  /* The compact fleet code (c=1.CODE:N.CODE...), which keeps a large fleet's QR code small:
     each unit is 4 characters of base 36 from a hash of its id (FNV-1a, 32 bits), so a code
     stays the same whatever units a site adds, and uses only what a QR code's alphanumeric
     mode holds (5.5 bits a character, not 8). "1" is the code's version. A code two units of
     a site share is never written (the link then holds the ids) and, read, is left out with
     a notice: a code can fail to open, never open the wrong unit. */
  var CODE_VERSION = "1";
  var B36 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ";
  var CODE_ITEM = /^([0-9A-Z]{4})(?::([0-9]{1,6}))?$/;
  function unitCode(id) {
    var h = 0x811c9dc5;
    for (var i = 0; i < id.length; i += 1) { h = Math.imul(h ^ id.charCodeAt(i), 0x01000193) >>> 0; }
    var n = h % 1679616, out = "";  /* 36 ** 4 */
    for (var k = 0; k < 4; k += 1) { out = B36.charAt(n % 36) + out; n = Math.floor(n / 36); }
    return out;
  }
  var codeTables = new WeakMap();
  function codeTable(units) {  /* code -> the ids of this site's units that have it */
    if (!codeTables.has(units)) {
      var table = new Map();
      units.forEach(function (u, id) { var c = unitCode(id); table.set(c, (table.get(c) || []).concat([id])); });
      codeTables.set(units, table);
    }
    return codeTables.get(units);
  }
  function compactParam(fleet, units) {
    var table = codeTable(units), parts = [CODE_VERSION], ok = true;
    fleet.forEach(function (n, id) {
      var c = unitCode(id);
      if ((table.get(c) || []).length !== 1) { ok = false; }
      parts.push(c + (n > 1 ? ":" + n : ""));
    });
    return ok ? parts.join(".") : null;
  }
  function readCode(value, units, entries, notices) {
    var parts = String(value).toUpperCase().split(".");
    if (parts[0] !== CODE_VERSION) {
      notices.push("the fleet code " + quoted(value) + " is not one this site reads (version " + CODE_VERSION + "): left out");
      return;
    }
    var table = codeTable(units);
    parts.slice(1).forEach(function (part) {
      if (!part) { return; }
      var m = CODE_ITEM.exec(part), ids = m ? table.get(m[1]) || [] : [];
      if (!m) { notices.push(quoted(part) + " is not a unit of a fleet code: left out"); return; }
      if (ids.length !== 1) {
        notices.push(quoted(part) + ": " + (ids.length ? "more than one unit on this site has the code " : "no unit on this site has the code ") +
                     m[1] + ", left out");
        return;
      }
      entries.push([ids[0], m[2] === undefined ? "1" : m[2], quoted(part)]);
    });
  }

  /* A piece of untrusted text as a notice quotes it: short, on one line, no controls. */
  function quoted(text) {
    var s = String(text).replace(CONTROLS, "\ufffd");
    return "\u201c" + (s.length > 40 ? s.slice(0, 40) + "\u2026" : s) + "\u201d";
  }

  /* The units on this site by id, from rows that carry data-* attributes or from plain objects. */
  function catalogue(list) {
    var map = new Map();
    list.forEach(function (u) {
      if (u && typeof u.id === "string" && SAFE_ID.test(u.id)) { map.set(u.id, u); }
    });
    return map;
  }

  function wholeNumber(text) {
    var s = String(text).trim();
    return /^[0-9]{1,6}$/.test(s) ? parseInt(s, 10) : NaN;
  }

  /* The one place values are checked: ``raw`` has strings (or undefined) as read from an
     address or a roster; ``where`` says where they came from for the notices. */
  function normalise(raw, units, decks, where) {
    var notices = [];
    var fleet = new Map();
    var entries = raw.entries || [];
    if (entries.length > MAX_ENTRIES) {
      notices.push(where + " lists " + entries.length + " units; only the first " + MAX_ENTRIES + " were read");
      entries = entries.slice(0, MAX_ENTRIES);
    }
    entries.forEach(function (entry) {
      var id = String(entry[0]).trim(), text = entry[1] === undefined ? "1" : String(entry[1]);
      var label = entry[2] || quoted(id + ":" + text);
      if (!SAFE_ID.test(id) || !own(units, id)) {
        notices.push(label + ": no unit " + quoted(id) + " on this site, left out");
        return;
      }
      var n = wholeNumber(text);
      if (!(n >= 1 && n <= COUNT_MAX)) {
        notices.push(label + ": a fleet holds 1 to " + COUNT_MAX + " of a unit, so " + quoted(text) + " was left out");
        return;
      }
      var sum = (fleet.get(id) || 0) + n;
      if (sum > COUNT_MAX) {
        notices.push(label + ": " + units.get(id).name + " is listed more than once; the counts add up to " + sum +
                     ", kept at " + COUNT_MAX);
        sum = COUNT_MAX;
      }
      fleet.set(id, sum);
    });
    var name = DEFAULTS.name;
    if (raw.name !== undefined) {
      var cleaned = String(raw.name).replace(CONTROLS, "").trim();
      if (cleaned !== String(raw.name).trim()) {
        notices.push("the fleet name had control, invisible or direction characters; they were taken out");
      }
      var letters = Array.from(cleaned);  /* characters, as wastools counts them, not UTF-16 halves */
      if (letters.length > NAME_MAX) {
        notices.push("the fleet name is longer than " + NAME_MAX + " characters; it was cut short");
        cleaned = letters.slice(0, NAME_MAX).join("").trim();
      }
      if (cleaned) { name = cleaned; } else { notices.push("the fleet name was empty; it is " + quoted(name) + " now"); }
    }
    var limit = DEFAULTS.limit;
    if (raw.limit !== undefined) {
      var l = wholeNumber(raw.limit);
      if (l >= 1 && l <= LIMIT_MAX) { limit = l; } else {
        notices.push("the points limit " + quoted(raw.limit) + " is not a whole number from 1 to 10,000" +
                     "; it is " + limit + " now");
      }
    }
    var deck = decks.length ? decks[0].name : "";
    var deckNames = new Map(decks.map(function (d) { return [d.name, d]; }));
    if (raw.deck !== undefined) {
      if (own(deckNames, String(raw.deck))) { deck = String(raw.deck); } else {
        notices.push("no deck " + quoted(raw.deck) + " on this site; showing the " +
                     (decks.length ? decks[0].title : "first") + " cards");
      }
    }
    var paper = "letter";
    if (raw.paper !== undefined) {
      if (raw.paper === "letter" || raw.paper === "a4") { paper = raw.paper; } else {
        notices.push("no paper " + quoted(raw.paper) + ": Letter or A4; printing on Letter");
      }
    }
    var backs = "";
    if (raw.backs !== undefined) {
      if (BACKS.indexOf(raw.backs) !== -1) { backs = raw.backs; } else {
        notices.push("no backs " + quoted(raw.backs) + ": long or short (the edge to flip on); printing no backs");
      }
    }
    return { fleet: fleet, name: name, limit: limit, deck: deck, paper: paper, backs: backs, notices: notices };
  }

  /* fleet.html#fleet=ID:N,ID:N&name=NAME&limit=N&deck=VARIANT (and paper= for the print view) */
  function parseAddress(hash, units, decks) {
    var notices = [];
    var text = String(hash || "").replace(/^#/, "");
    if (text.length > MAX_ADDRESS) {
      notices.push("the address is " + text.length + " characters long; only the first " + MAX_ADDRESS + " were read");
      text = text.slice(0, MAX_ADDRESS);
    }
    var params;
    try { params = new URLSearchParams(text); } catch (e) { params = new URLSearchParams(""); }
    var raw = { entries: [] };
    var seen = new Map();
    params.forEach(function (value, key) {
      if (FLEET_KEYS.indexOf(key) === -1) {
        if (FILTER_KEYS.indexOf(key) === -1) { notices.push(quoted(key) + " is not part of a fleet address: ignored"); }
        return;
      }
      if (seen.has(key)) { notices.push(quoted(key) + " is given more than once; the first was used"); return; }
      seen.set(key, true);
      if (key === "c") {
        readCode(value, units, raw.entries, notices);
      } else if (key === "fleet") {
        value.split(",").forEach(function (part) {
          if (!part.trim()) { return; }
          var bits = part.split(":");
          if (bits.length !== 2) {
            raw.entries.push([bits[0], bits.length > 2 ? bits.slice(1).join(":") : "1", quoted(part)]);
            return;
          }
          raw.entries.push([bits[0], bits[1], quoted(part)]);
        });
      } else {
        raw[key] = value;
      }
    });
    var state = normalise(raw, units, decks, "the address");
    state.notices = notices.concat(state.notices);
    return state;
  }

  function fleetParam(fleet) {
    var parts = [];
    fleet.forEach(function (n, id) { parts.push(id + ":" + n); });
    return parts.join(",");
  }

  /* The address of a state: only what differs from a new fleet, fleet first. */
  function formatAddress(state, decks, extra) {
    var params = new URLSearchParams();
    if (state.fleet.size) { params.set("fleet", fleetParam(state.fleet)); }
    if (state.name !== DEFAULTS.name) { params.set("name", state.name); }
    if (state.limit !== DEFAULTS.limit) { params.set("limit", String(state.limit)); }
    if (decks.length && state.deck !== decks[0].name) { params.set("deck", state.deck); }
    if (extra && state.paper && state.paper !== "letter") { params.set("paper", state.paper); }
    if (extra && state.backs) { params.set("backs", state.backs); }
    return params.toString().replace(/%3A/g, ":").replace(/%2C/g, ",");
  }

  /* The address with the fleet as its compact code (what links and QR codes hold); with the
     ids when a code of the fleet's is shared by two units of this site. */
  function compactAddress(state, decks, units) {
    var code = state.fleet.size ? compactParam(state.fleet, units) : null;
    if (code === null) { return formatAddress(state, decks); }
    var rest = formatAddress({ fleet: new Map(), name: state.name, limit: state.limit, deck: state.deck }, decks);
    return "c=" + code + (rest ? "&" + rest : "");
  }

  /* Same arithmetic as check_fleet() in wastools/variants/fleet.py; ``rule`` is the deck's own
     fleet rule, as the site data names it ("us-third": a fleet over a third US is capped). */
  function checkFleet(rule, items, cap) {
    var total = 0, us = 0, subs = 0;
    items.forEach(function (u) {
      total += u.points * u.count;
      if (u.nation === "us") { us += u.points * u.count; }
      if (u.type === "submarine") { subs += u.points * u.count; }
    });
    var problems = [], notes = [], effective = cap;
    if (rule === "us-third") {
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

  function verdict(check) {
    return check.legal
      ? "legal: " + check.points + " of " + check.effective + (check.notes.length ? " (" + check.notes.join("; ") + ")" : "")
      : check.problems.join("; ");
  }

  /* The fleet's units in the order they were picked, with what the checks and sheets need. */
  function items(state, units) {
    var out = [];
    state.fleet.forEach(function (n, id) {
      var u = units.get(id);
      if (u) {
        out.push({ id: id, name: u.name, points: Number(u.points), nation: u.nation, nationName: u.nationName,
                   type: u.type, typeLabel: u.typeLabel, count: n });
      }
    });
    return out;
  }

  function totals(list) {
    var cards = 0, points = 0;
    list.forEach(function (u) { cards += u.count; points += u.count * u.points; });
    return { cards: cards, points: points };
  }

  function yamlString(text) { return JSON.stringify(text); }  /* a JSON string is a valid YAML double-quoted scalar */

  function roster(state, units) {
    var list = items(state, units), t = totals(list);
    var lines = [
      "# A fleet roster from the wastools fleet builder: " + t.cards + " cards, " + t.points + " points.",
      "# Print its cards: wastools build --roster <this file>",
      "name: " + yamlString(state.name),
      "variant: " + state.deck,
      "points_limit: " + state.limit,
      "units:"
    ];
    list.forEach(function (u) { lines.push("  - unit: " + u.id, "    count: " + u.count); });
    return lines.join("\n") + "\n";
  }

  /* A file name from the fleet's name: lowercase letters, digits and hyphens. */
  function fileName(name, ext) {
    var stem = String(name).normalize("NFKD").replace(/[\u0300-\u036f]/g, "").toLowerCase()
      .replace(/[^a-z0-9]+/g, "-").replace(/^-+|-+$/g, "").slice(0, 60).replace(/-+$/, "");
    return (stem || "fleet") + ext;
  }

  /* The fleet's link: the builder's address holding the fleet, at ``base`` (the published
     site, the page's own folder on a web server, or "" for a link relative to the site). */
  function fleetLink(state, decks, base, units) {
    var address = units ? compactAddress(state, decks, units) : formatAddress(state, decks);
    return String(base || "") + "fleet.html" + (address ? "#" + address : "");
  }

  var FORMATS = ["text", "markdown", "bbcode"];
  var LINK_TEXT = "Open this fleet in the fleet builder";
  var RULES_HEAD = "Fleet rules:";

  /* Markdown that shows a name as itself: its punctuation is written escaped. */
  function mdEscape(text) { return String(text).replace(/[\\`*_[\]<>#|~]/g, "\\$&"); }
  function mdUnescape(text) { return String(text).replace(/\\([\\`*_[\]<>#|~])/g, "$1"); }

  function deckTitleOf(decks, name) {
    return (decks.filter(function (d) { return d.name === name; })[0] || { title: name }).title;
  }

  /* The fleet as text, in one of FORMATS: a head line (name, points of the limit, cards,
     deck), one line a unit ("3 x NAME (nation, type, points)"), every variant's verdict and the
     fleet's link. parseText reads any of the three back into the same fleet. */
  function fleetText(state, units, decks, format, link) {
    var list = items(state, units), t = totals(list);
    var md = format === "markdown", bb = format === "bbcode";
    var name = md ? mdEscape(state.name) : state.name;
    var head = " (" + t.points + " of " + state.limit + " points, " + t.cards + " card" + (t.cards === 1 ? "" : "s") + ", " +
               deckTitleOf(decks, state.deck) + " deck)";
    var lines = [(md ? "**" + name + "**" : bb ? "[b]" + name + "[/b]" : name) + head, ""];
    var item = md ? "- " : bb ? "[*]" : "";
    var unitLines = list.map(function (u) {
      return item + u.count + " x " + (md ? mdEscape(u.name) : u.name) + " (" + u.nationName + ", " + u.typeLabel + ", " +
             u.points + " points" + (u.count > 1 ? " each, " + u.count * u.points + " in all" : "") + ")";
    });
    var ruleLines = decks.map(function (d) {
      return (bb ? "[*]" : "- ") + d.title + ": " + (list.length ? verdict(checkFleet(d.rule, list, state.limit)) : "empty fleet");
    });
    if (bb) {
      lines = lines.concat(["[list]"], unitLines, ["[/list]", RULES_HEAD, "[list]"], ruleLines, ["[/list]"]);
    } else {
      lines = lines.concat(unitLines, ["", RULES_HEAD], ruleLines);
    }
    if (link) {
      lines.push("", md ? "[" + LINK_TEXT + "](" + link + ")" : bb ? "[url=" + link + "]" + LINK_TEXT + "[/url]" : "Link: " + link);
    }
    return lines.join("\n") + "\n";
  }

  /* Forum-ready plain text (the "text" format of fleetText). */
  function plainText(state, units, decks, link) { return fleetText(state, units, decks, "text", link); }

  /* The part of a pasted link that holds a fleet, or undefined when ``text`` is no fleet link. */
  function linkFleet(text) {
    var s = String(text).trim();
    var at = s.indexOf("#");
    if (at === -1 || !/(^|\/)fleet\.html$|(^|\/)print\.html$|^$/.test(s.slice(0, at).replace(/\?.*$/, ""))) { return undefined; }
    return s.slice(at);
  }

  /* The fleet in a text of fleetText's, in any of its formats (found from its head line's
     markup), as a person may have edited it: a line not understood is a notice that says
     which line. The units are found by name; where a name is shared, the fleet's link in the
     text says which unit it is. */
  function parseText(text, units, decks) {
    var notices = [];
    var s = String(text);
    if (s.length > MAX_ROSTER) {
      var none = normalise({ entries: [] }, units, decks, "the text");
      none.notices = ["the text is longer than a fleet (" + MAX_ROSTER + " characters): nothing was read"];
      return none;
    }
    var lines = s.replace(/\r\n?/g, "\n").split("\n");
    var md = lines.some(function (l) { return /^\s*\*\*/.test(l); });
    var names = new Map(), titles = new Map();
    var longest = 0;
    units.forEach(function (u, id) {
      var key = String(u.name).toLowerCase();
      names.set(key, (names.get(key) || []).concat([id]));
      longest = Math.max(longest, key.length);
    });
    decks.forEach(function (d) { titles.set(d.title, d.name); });
    var raw = { entries: [] }, link, headSeen = false, inRules = false, shared = [];
    lines.forEach(function (original, i) {
      var where = "line " + (i + 1);
      var line = original.trim();
      if (!line || line === "[list]" || line === "[/list]") { return; }
      var url = /^\[url=([^\]]*)\][^\]]*\[\/url\]$/.exec(line) || /^\[[^\]]*\]\(([^()\s]*)\)$/.exec(line) ||
                /^(?:Link:\s*)?(\S*fleet\.html#\S*)$/.exec(line);
      if (url) {
        var part = linkFleet(url[1]);
        if (part === undefined) { notices.push(where + ": " + quoted(url[1]) + " is not a fleet link: ignored"); }
        else if (link !== undefined) { notices.push(where + ": a second fleet link: ignored"); }
        else { link = part; }
        return;
      }
      line = line.replace(/^\[\*\]\s*/, "").replace(/^[-*]\s+/, "");
      if (line === RULES_HEAD) { inRules = true; return; }
      var bold = /^\[b\](.*)\[\/b\](.*)$/.exec(line) || /^\*\*(.*)\*\*(.*)$/.exec(line);
      if (bold) { line = bold[1] + bold[2]; }
      if (md) { line = mdUnescape(line); }
      var head = !headSeen ? /^(.+) \(\d+ of (\d+) points, \d+ cards?, (.+) deck\)$/.exec(line) : null;
      if (head) {
        headSeen = true;
        raw.name = head[1];
        raw.limit = head[2];
        raw.deck = titles.has(head[3]) ? titles.get(head[3]) : head[3];
        return;
      }
      var unit = /^(\d{1,6})\s*[x\u00d7]\s+(.+)$/.exec(line);
      if (unit && !inRules) {
        var rest = unit[2], ids;
        for (var cut = rest.length; cut > 0; cut = rest.lastIndexOf(" (", cut - 1)) {
          if (cut > longest) { continue; }  /* no unit's name is longer: a hostile line costs no more than a name */
          ids = names.get(rest.slice(0, cut).toLowerCase());
          if (ids) { break; }
        }
        if (!ids) { notices.push(where + ": no unit called " + quoted(rest) + " on this site, left out"); return; }
        if (ids.length > 1) { shared.push([ids, unit[1], where, rest]); return; }
        raw.entries.push([ids[0], unit[1], where]);
        return;
      }
      var rule = inRules ? /^(.+?): /.exec(line) : null;
      if (rule && titles.has(rule[1])) { return; }  /* a verdict: worked out again here, never read */
      notices.push(where + ": not understood: " + quoted(line));
    });
    var linked = link !== undefined ? parseAddress(link, units, decks) : null;
    shared.forEach(function (e) {
      var hits = linked ? e[0].filter(function (id) { return linked.fleet.has(id); }) : [];
      if (hits.length === 1) { raw.entries.push([hits[0], e[1], e[2]]); return; }
      notices.push(e[2] + ": more than one unit is called " + quoted(e[3]) + " and the text's link does not say which: left out");
    });
    if (!headSeen && !raw.entries.length && !shared.length && linked) {
      return linked;  /* a link alone, or a text whose lines were all lost: the link is the fleet */
    }
    raw.entries.sort(function (a, b) { return Number(a[2].slice(5)) - Number(b[2].slice(5)); });
    var state = normalise(raw, units, decks, "the text");
    if (linked && formatAddress(linked, decks) !== formatAddress(state, decks)) {
      notices.push("the text's link holds another fleet than its lines (edited after it was copied?): the lines were used");
    }
    state.notices = notices.concat(state.notices);
    return state;
  }

  /* Anything a player pastes or loads: a roster file, a fleet link, or a fleet's text. */
  function parsePasted(text, units, decks) {
    var s = String(text);
    if (/^units:/m.test(s) || /^#\s*A fleet roster/.test(s.trim())) { return parseRoster(s, units, decks); }
    var single = s.trim();
    if (!/\s/.test(single) && linkFleet(single) !== undefined) { return parseAddress(linkFleet(single), units, decks); }
    return parseText(s, units, decks);
  }

  function scalar(text) {
    var s = text.trim();
    if (s.charAt(0) === "\"") {
      try { var v = JSON.parse(s); return typeof v === "string" ? v : undefined; } catch (e) { return undefined; }
    }
    if (s.charAt(0) === "'") {
      return /^'(?:[^']|'')*'$/.test(s) ? s.slice(1, -1).replace(/''/g, "'") : undefined;
    }
    return s.replace(/\s+#.*$/, "");
  }

  /* A roster file as the fleet builder writes it (and as a person edits it): the block form
     of name, variant, points_limit and a list of unit / count. A line not understood is a
     notice, never an error. */
  function parseRoster(text, units, decks) {
    var notices = [];
    var s = String(text);
    if (s.length > MAX_ROSTER) {
      return { fleet: new Map(), notices: ["the file is larger than a roster (" + MAX_ROSTER + " bytes): nothing was read"] };
    }
    var raw = { entries: [] };
    var current = null;
    var inUnits = false;
    var fields = new Map([["name", "name"], ["variant", "deck"], ["points_limit", "limit"]]);
    s.replace(/\r\n?/g, "\n").split("\n").forEach(function (line, i) {
      var where = "line " + (i + 1);
      if (!line.trim() || /^\s*#/.test(line) || /^---\s*$/.test(line)) { return; }
      var top = /^([a-z_]+):\s*(.*)$/.exec(line);
      if (top) {
        inUnits = top[1] === "units";
        current = null;
        if (inUnits) {
          if (top[2].trim() && top[2].trim() !== "[]") { notices.push(where + ": write the units one a line, as the fleet builder does"); }
          return;
        }
        if (!fields.has(top[1])) { notices.push(where + ": " + quoted(top[1]) + " is not a roster field: ignored"); return; }
        var value = scalar(top[2]);
        if (value === undefined) { notices.push(where + ": " + quoted(top[2]) + " is not understood: ignored"); return; }
        raw[fields.get(top[1])] = value;
        return;
      }
      var item = inUnits ? /^\s+(-\s+)?(unit|count):\s*(.*)$/.exec(line) : null;
      if (!item) { notices.push(where + ": not understood: " + quoted(line.trim())); return; }
      var v = scalar(item[3]);
      if (item[1]) {
        current = [undefined, undefined, where];
        raw.entries.push(current);
      }
      if (!current || v === undefined) { notices.push(where + ": not understood: " + quoted(line.trim())); return; }
      current[item[2] === "unit" ? 0 : 1] = v;
    });
    raw.entries = raw.entries.filter(function (e) {
      if (e[0] === undefined) { notices.push(e[2] + ": a unit without an id, left out"); return false; }
      return true;
    });
    var state = normalise(raw, units, decks, "the roster");
    state.notices = notices.concat(state.notices);
    return state;
  }

  /* The fleet as a Tabletop Simulator saved object (the shape wastools/site/tts.py writes):
     a custom deck of exactly the fleet's cards in the deck ``deck``, each as many times as its
     count. Each unit is its own 1 x 1 card sheet, the image the site publishes for every deck
     at base + "tts/<deck>/units/<id>.jpg", the back at "tts/<deck>/back.jpg"; one card alone
     is a card, not a deck. */
  function tabletop(state, units, decks, deck, base) {
    var list = items(state, units), t = totals(list);
    var title = (decks.filter(function (d) { return d.name === deck; })[0] || { title: deck }).title;
    var folder = base + "tts/" + encodeURIComponent(deck) + "/";
    var custom = {}, cards = [];
    function transform() {  /* face down, as a deck is laid on the table */
      return { posX: 0, posY: 1, posZ: 0, rotX: 0, rotY: 180, rotZ: 180, scaleX: 1, scaleY: 1, scaleZ: 1 };
    }
    list.forEach(function (u, i) {
      var sheet = String(i + 1);
      custom[sheet] = { FaceURL: folder + "units/" + encodeURIComponent(u.id) + ".jpg", BackURL: folder + "back.jpg",
                        NumWidth: 1, NumHeight: 1, BackIsHidden: true, UniqueBack: false, Type: 0 };
      for (var n = 0; n < u.count; n++) {
        var own = {};
        own[sheet] = custom[sheet];
        cards.push({ Name: "Card", Nickname: u.name, Description: u.points + " points, " + title + " card",
                     CardID: (i + 1) * 100, Transform: transform(), CustomDeck: own });
      }
    });
    var description = t.cards + " cards, " + t.points + " points; " + title + " cards, made by wastools";
    var object = cards.length === 1 ? Object.assign({}, cards[0], { Description: description }) : {
      Name: "DeckCustom", Nickname: state.name, Description: description, Transform: transform(),
      DeckIDs: cards.map(function (c) { return c.CardID; }), CustomDeck: custom, ContainedObjects: cards
    };
    return { SaveName: state.name, ObjectStates: [object] };
  }

  /* Every image a saved object names (faces and backs), each once. */
  function tabletopImages(saved) {
    var seen = {};
    saved.ObjectStates.forEach(function (object) {
      [object].concat(object.ContainedObjects || []).forEach(function (o) {
        Object.keys(o.CustomDeck || {}).forEach(function (k) {
          seen[o.CustomDeck[k].FaceURL] = true;
          seen[o.CustomDeck[k].BackURL] = true;
        });
      });
    });
    return Object.keys(seen);
  }

  /* A QR code of ``text`` as an SVG element (drawn with the vendored qrcode.js, when the page
     loaded it): dark modules on white with a quiet zone of 4. Null without qrcode.js, or when
     the text is too long for a code. */
  /* ``text`` in the segments a QR code holds it in most compactly: runs of 16 or more of
     the alphanumeric mode's characters (a fleet code) in that mode, the rest as bytes. */
  function qrSegments(text) {
    var out = [], re = /[0-9A-Z.:-]{16,}/g, at = 0, m;
    while ((m = re.exec(text)) !== null) {
      if (m.index > at) { out.push([text.slice(at, m.index), "Byte"]); }
      out.push([m[0], "Alphanumeric"]);
      at = m.index + m[0].length;
    }
    if (at < text.length || !out.length) { out.push([text.slice(at), "Byte"]); }
    return out;
  }

  /* ``size`` is the code's width ("160", "90pt"); with ``module`` (in the same unit) it grows
     so that no module is narrower than that, which keeps a large fleet's code readable. */
  function qrSvg(text, size, label, module) {
    if (typeof window.qrcode !== "function") { return null; }
    var qr;
    try {
      qr = window.qrcode(0, "M");
      qrSegments(String(text)).forEach(function (seg) { qr.addData(seg[0], seg[1]); });
      qr.make();
    } catch (e) {
      return null;
    }
    var NS = "http://www.w3.org/2000/svg";
    var n = qr.getModuleCount(), quiet = 4, all = n + 2 * quiet, path = "";
    if (module) {
      var unit = String(size).replace(/^[0-9.]+/, "");
      size = Math.max(parseFloat(size), Math.ceil(all * module)) + unit;
    }
    for (var r = 0; r < n; r += 1) {
      for (var c = 0; c < n; c += 1) {
        if (qr.isDark(r, c)) { path += "M" + (c + quiet) + " " + (r + quiet) + "h1v1h-1z"; }
      }
    }
    var svg = document.createElementNS(NS, "svg");
    [["viewBox", "0 0 " + all + " " + all], ["width", size], ["height", size], ["class", "qr"], ["role", "img"],
     ["aria-label", label], ["shape-rendering", "crispEdges"]].forEach(function (a) { svg.setAttribute(a[0], a[1]); });
    var ground = document.createElementNS(NS, "rect");
    ground.setAttribute("width", String(all));
    ground.setAttribute("height", String(all));
    ground.setAttribute("fill", "#fff");
    var dots = document.createElementNS(NS, "path");
    dots.setAttribute("d", path);
    dots.setAttribute("fill", "#000");
    svg.appendChild(ground);
    svg.appendChild(dots);
    return svg;
  }

  /* Where a fleet's link points from this page: the published site (``site``, [site] address),
     else this page's folder on a web server; from a file, "" (a link relative to the site,
     which names no folder of this computer and which the builder's Paste a fleet opens). */
  function linkBase(site) {
    if (site) { return String(site).replace(/\/*$/, "/"); }
    return /^https?:$/.test(window.location.protocol) ? new URL(".", window.location.href).href : "";
  }

  window.wasFleet = {
    SAFE_ID: SAFE_ID, COUNT_MAX: COUNT_MAX, LIMIT_MAX: LIMIT_MAX, NAME_MAX: NAME_MAX, DEFAULTS: DEFAULTS,
    catalogue: catalogue, normalise: normalise, parseAddress: parseAddress, formatAddress: formatAddress,
    checkFleet: checkFleet, verdict: verdict, items: items, totals: totals, roster: roster, fileName: fileName,
    plainText: plainText, parseRoster: parseRoster, quoted: quoted, tabletop: tabletop, tabletopImages: tabletopImages,
    fleetLink: fleetLink, unitCode: unitCode, compactAddress: compactAddress, linkBase: linkBase, qrSvg: qrSvg, fleetText: fleetText, FORMATS: FORMATS, parseText: parseText, parsePasted: parsePasted
  };
  window.wasCheckFleet = checkFleet;
})();
