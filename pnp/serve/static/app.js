// fairy-pnp live preview: draws the server's snapshot and follows its events. No framework.
"use strict";

const $ = (sel, root = document) => root.querySelector(sel);
const tiles = new Map();          // tile id -> its button, reused across updates (keeps focus)
const lastGood = new Map();       // tile id -> the last picture that showed (kept when a new one fails)
const failures = new Map();       // tile id -> {want, why}: the picture that could not be drawn, and why
const TOKEN = document.querySelector("meta[name=pnp-token]").content;   // this run's: changes need it
let state = null;
let opened = null;                // the tile whose card view is open
let editing = null;               // the card form's data from /api/card
let editorTicket = 0;             // bumped when the form closes: a late answer for an older form is dropped
let language = "";                // the language switch: "" shows each game in its first language

// The games as the language switch shows them: each in the chosen language when it is written in it,
// else in its first.
function shownGames() {
  return state.games.filter(g => {
    const all = g.languages || [];
    if (all.length < 2) return true;
    return g.language === (all.includes(language) ? language : all[0]);
  });
}

function renderLanguages() {
  const select = $("#language");
  const codes = [...new Set(state.games.flatMap(g => g.languages || []))];
  $("#language-switch").hidden = codes.length < 2;
  const have = [...select.options].map(o => o.value).join(" ");
  const want = ["", ...codes].join(" ");
  if (have !== want) {
    select.replaceChildren(el("option", {value: "", text: "each game's first"}),
      ...codes.map(c => el("option", {value: c, text: c})));
    select.value = codes.includes(language) ? language : "";
  }
}

async function post(url, body) {
  const r = await fetch(url, {method: "POST", headers: {"Content-Type": "application/json", "X-PNP-Token": TOKEN},
    body: JSON.stringify(body)});
  let answer;
  try { answer = await r.json(); } catch (e) { answer = {ok: false, error: `${r.status} ${r.statusText}`}; }
  answer.status = r.status;
  return answer;
}

function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === null || v === undefined || v === false) continue;
    if (k === "text") node.textContent = v;
    else if (k === "class") node.className = v;
    else node.setAttribute(k, v === true ? "" : v);
  }
  for (const c of children) if (c) node.append(c);
  return node;
}

const plural = (n, word) => `${n} ${word}${n === 1 ? "" : "s"}`;
const where = t => `${t.file}:${t.line}`;

async function load() {
  const r = await fetch("/api/state", {cache: "no-store"});
  const next = await r.json();
  if (state && next.version < state.version) return;   // an older answer that arrived late
  state = next;
  render();
}

function render() {
  $("#project").textContent = `${state.project_name} · PDFs to ${state.output_name}`;
  $("#project").title = `${state.project} → ${state.output}`;
  $("#live").dataset.version = state.version;
  $("#live-text").textContent = state.reading ? "reading the project…"
    : `live · version ${state.version} · ${new Date().toLocaleTimeString()}`;
  renderLanguages();
  renderNav();
  renderProblems();
  renderGames();
  renderPrintOptions();
  renderBuildGames();
  renderAccessGames();
  renderVariants();
  renderBuild(state.build);
  if (opened && tiles.has(opened.id)) showCard(findTile(opened.id), false);
}

function renderNav() {
  const nav = $("#games-nav");
  nav.replaceChildren(...shownGames().map(g => {
    const errors = g.problems.filter(p => p.severity === "error").length;
    return el("a", {href: `#game-${g.slug}`, class: errors ? "bad" : ""},
      `${g.name}`, errors ? el("span", {class: "badge", text: String(errors)}) : null);
  }));
}

function renderProblems() {
  const list = $("#problem-list");
  const problems = state.problems;
  $("#problems-title").textContent = problems.length ? `Problems (${problems.length})` : "Problems";
  if (!problems.length) {
    list.replaceChildren(el("li", {class: state.reading ? "muted" : "ok", text: state.reading
      ? "Reading the games: their problems follow." : "No problems: every game loads and every rule holds."}));
    return;
  }
  list.replaceChildren(...problems.map(p => el("li", {class: p.severity, "data-file": p.file, "data-line": p.line},
    el("span", {class: "sev", text: p.severity}), el("code", {text: p.text}),
    p.game ? el("a", {href: `#game-${p.game}`, class: "go", "aria-label": `go to ${p.game}`, text: "↓"}) : null)));
}

function renderGames() {
  const main = $("#games");
  const seen = new Set();
  const sections = shownGames().map(g => {
    const head = el("header", {},
      el("h2", {text: `${g.name}`}, el("span", {class: "tag", text: g.tag})),
      el("p", {class: "muted", text: [g.file, g.players].filter(Boolean).join(" · ")}));
    if (g.stale) head.append(el("p", {class: "stale", role: "note",
      text: "This file does not load right now; the pictures below are from its last good version."}));
    const comps = g.components.filter(c => c.tiles.length).map(c => renderComponent(g, c, seen));
    const others = g.components.filter(c => !c.tiles.length);
    const more = others.length ? el("ul", {class: "others", "aria-label": "Other components"}, ...others.map(c =>
      el("li", {"data-key": c.key, "data-kind": c.kind}, el("strong", {text: c.name}),
        ` ${[c.kind, c.size || c.detail].filter(Boolean).join(" · ")}`))) : null;
    return el("section", {class: "game" + (g.stale ? " is-stale" : ""), id: `game-${g.slug}`, "data-slug": g.slug,
      "aria-label": g.name}, head, ...comps, more);
  });
  for (const id of [...tiles.keys()]) if (!seen.has(id)) tiles.delete(id);
  if (state.reading) sections.push(el("p", {class: "muted reading", role: "status", text: "Reading the next game…"}));
  main.replaceChildren(...sections);
}

function renderComponent(g, c, seen) {
  const faces = c.tiles.filter(t => t.side === "face").length;
  const backs = c.tiles.length - faces;
  const meta = [plural(c.cards, "card"), plural(faces, "different face"), plural(backs, "back"), c.size, c.detail]
    .filter(Boolean).join(" · ");
  const add = el("button", {type: "button", class: "add", "aria-label": `Add a card to ${c.name}`, text: "+ Add card"});
  add.addEventListener("click", () => openEditor({game: g.slug, component: c.key, card: ""}, `New card in ${c.name}`));
  const box = el("section", {class: "component", "data-key": c.key, "data-cards": c.cards, "data-kind": c.kind},
    el("h3", {text: c.name}, g.stale ? null : add), el("p", {class: "meta", text: meta}));
  const grid = el("div", {class: "sheet"});
  for (const t of c.tiles) {
    seen.add(t.id);
    grid.append(tileButton(t));
  }
  box.append(grid);
  return box;
}

function tileButton(t) {
  let b = tiles.get(t.id);
  if (!b) {
    b = el("button", {type: "button", class: "tile"},
      el("span", {class: "pic"}, el("img", {alt: "", loading: "lazy", decoding: "async"})),
      el("span", {class: "warn", hidden: true, text: "⚠ cannot draw"}),
      el("span", {class: "since", hidden: true}),
      el("span", {class: "copies"}), el("span", {class: "name"}), el("span", {class: "code"}),
      el("span", {class: "said", hidden: true}));
    b.addEventListener("click", () => showCard(findTile(b.dataset.id), true));
    const img = $("img", b);
    img.addEventListener("load", () => {
      if (img.getAttribute("src") === b.dataset.want) lastGood.set(b.dataset.id, b.dataset.want);
    });
    img.addEventListener("error", async () => {
      const src = img.getAttribute("src");
      if (!src || src !== b.dataset.want) return;
      const r = await fetch(src).catch(() => null);
      const why = r ? (await r.text()).trim() : "the server did not answer";
      failures.set(b.dataset.id, {want: src, why});
      const t = findTile(b.dataset.id);
      if (t) tileButton(t);
    });
    tiles.set(t.id, b);
  }
  b.dataset.id = t.id;
  b.dataset.side = t.side;
  b.dataset.picture = t.picture;
  b.classList.toggle("back", t.side === "back");
  const img = $("img", b);
  const want = t.picture ? `/picture/${t.picture}.png` : "";
  const known = failures.get(t.id);
  const why = t.error || (known && known.want === want ? known.why : "");
  const good = lastGood.get(t.id) || (t.fallback ? `/picture/${t.fallback}.png` : "");
  const src = why ? good : want;   // a card that cannot be drawn keeps its last good picture, marked
  b.dataset.want = want;
  b.classList.toggle("broken", !src);
  failed(b, why);
  if (img.getAttribute("src") !== src) {
    if (src) img.setAttribute("src", src); else img.removeAttribute("src");
  }
  img.alt = t.side === "back" ? `back ${t.code}` : `${t.name} (${t.code})`;
  $(".copies", b).textContent = `×${t.copies}`;
  const since = $(".since", b);   // changed or new since the last tagged print: what a reprint would hold
  since.hidden = !t.since;
  since.textContent = t.since === "new" ? "★ new" : "✎ changed";
  b.classList.toggle("since-print", Boolean(t.since));
  $(".name", b).textContent = t.name;
  $(".code", b).textContent = t.code + (t.set ? ` · set ${t.set}` : "");
  const said = $(".said", b);   // what players said in the latest playtest round (pnp serve --playtest)
  const heard = t.feedback;
  said.hidden = !heard;
  said.textContent = heard ? `💬 ${heard.round}: ${heard.line}` + heard.texts.map(x => `\n“${x}”`).join("") : "";
  if (!t.error) b.title = `${t.name} · ${t.code} · ${where(t)}` + (heard ? `\n${heard.round}: ${heard.line}` : "");
  b.setAttribute("aria-label", `${t.side === "back" ? "Back" : t.name}, ${t.code}, ${t.copies} ${t.side === "back" ? "cards" : "copies"}`);
  return b;
}

function failed(b, why) {
  b.classList.toggle("failed", Boolean(why));
  const warn = $(".warn", b);
  warn.hidden = !why;
  b.dataset.error = why || "";
  if (why) b.title = `${why}\n(the picture shown is the card's last good one)`;
}

function findTile(id) {
  for (const g of state.games) for (const c of g.components) for (const t of c.tiles) if (t.id === id) return t;
  return null;
}

function showCard(t, open) {
  if (!t) return;
  const dialog = $("#card");
  opened = t;
  const full = t.picture ? `/picture/${t.picture}.png?size=full` : "";
  if ($("#card-full").getAttribute("src") !== full) $("#card-full").setAttribute("src", full);
  $("#card-full").alt = `${t.name} at 300 dpi`;
  $("#card-full-link").href = full || "#";
  $("#card-title").textContent = t.side === "back" ? `Back: ${t.code}` : t.name;
  const facts = [["Collation code", t.code], ["Copies", String(t.copies)], ["Defined at", where(t)]];
  if (t.set) facts.push(["Set", `${t.set}${t.mark && t.mark !== String(t.set) ? ` (${t.mark})` : ""}`]);
  const why = t.error || (tiles.get(t.id) && tiles.get(t.id).dataset.error);
  if (why) facts.push(["Cannot draw", why]);
  $("#card-facts").replaceChildren(...facts.flatMap(([k, v]) => [el("dt", {text: k}), el("dd", {text: v})]));
  $("#card-fields tbody").replaceChildren(...Object.entries(t.fields).map(([k, v]) =>
    el("tr", {}, el("th", {scope: "row", text: k}), el("td", {text: typeof v === "string" ? v : JSON.stringify(v)}))));
  if (open) closeEditor();
  if (!editing) {
    $("#card-fields").hidden = false;
    $("#edit-open").hidden = !(t.side === "face" && t.card);
  }
  if (open && !dialog.open) {
    dialog.showModal();
    $("#card-close").focus();
  }
}

// ---- the card editor: a form of the card's fields, saved into the file it is written in ----

function closeEditor() {
  editing = null;
  editorTicket++;
  $("#card-edit").hidden = true;
  $("#edit-copy").hidden = true;
  $("#edit-status").replaceChildren();
}

async function openEditor(ref, title) {
  const ticket = ++editorTicket;
  const r = await fetch(`/api/card?game=${encodeURIComponent(ref.game)}&component=${encodeURIComponent(ref.component)}` +
    `&card=${encodeURIComponent(ref.card)}`, {cache: "no-store"});
  const data = await r.json();
  if (ticket !== editorTicket) return;   // another card was opened meanwhile
  const dialog = $("#card");
  if (!dialog.open) {
    opened = null;
    $("#card-full").removeAttribute("src");
    $("#card-full").alt = "";
    $("#card-facts").replaceChildren();
    $("#card-edit-help").textContent = "";
    dialog.showModal();
  }
  if (title) $("#card-title").textContent = title;
  $("#card-fields").hidden = true;
  $("#edit-open").hidden = true;
  if (!data.ok && data.error) {
    $("#card-edit").hidden = true;
    $("#edit-copy").hidden = true;
    $("#edit-status").replaceChildren(el("strong", {class: "err", text: data.error}));
    return;
  }
  editing = data;
  drawForm(data);
}

function drawForm(data) {
  const form = $("#card-edit");
  const adding = !data.card;
  $("#card-edit-help").textContent = `Saved into ${data.file}` + (data.kind === "yaml" ? "" : " (its row)") +
    "; nothing else in the file changes.";
  const rows = [];
  const keyBox = el("input", {name: "key", id: "edit-key", value: adding ? "" : data.card, readonly: !adding,
    required: true, pattern: "[A-Za-z0-9_.-]+", autocomplete: "off"});
  rows.push(el("label", {for: "edit-key"}, el("span", {text: "key"}), keyBox));
  for (const f of data.fields) {
    const id = `edit-${f.name}`;
    const value = data.values[f.name] || "";
    let input;
    if (f.choices) {
      input = el("select", {name: f.name, id}, ...(f.required ? [] : [el("option", {value: "", text: "(none)"})]),
        ...f.choices.map(c => el("option", {value: String(c), text: String(c), selected: String(c) === value})));
    } else if (f.type === "bool") {
      input = el("select", {name: f.name, id}, ...(f.required ? [] : [el("option", {value: "", text: "(none)"})]),
        ...["true", "false"].map(c => el("option", {value: c, text: c, selected: c === value})));
    } else if (f.type === "text") {
      input = el("textarea", {name: f.name, id, rows: 4});
      input.value = value;
    } else {
      input = el("input", {name: f.name, id, value, type: f.type === "int" || f.type === "float" ? "number" : "text",
        step: f.type === "float" ? "any" : null, required: f.required, list: f.picture ? "art-files" : null,
        autocomplete: "off"});
    }
    rows.push(el("label", {for: id, title: f.doc || ""}, el("span", {text: f.name + (f.required ? "" : " (optional)")}),
      input));
  }
  $("#art-files").replaceChildren(...data.art.map(a => el("option", {value: a})));
  $("#edit-fields").replaceChildren(...rows);
  $("#edit-save").textContent = adding ? "Add card" : "Save";
  $("#edit-copy").hidden = adding;
  $("#edit-undo").hidden = !data.undo;
  $("#edit-undo").textContent = data.undo ? `Undo last save (${data.undo})` : "Undo last save";
  form.hidden = false;
}

function formValues() {
  const values = {};
  for (const input of $("#edit-fields").querySelectorAll("input, select, textarea")) values[input.name] = input.value;
  return values;
}

function editResult(answer) {
  const box = $("#edit-status");
  if (answer.ok) {
    box.replaceChildren(el("span", {class: "ok",
      text: answer.saved ? `Saved: ${answer.saved} in ${answer.file}.` : `Undone: ${answer.undone} in ${answer.file}.`}));
    return;
  }
  box.replaceChildren(el("strong", {class: "err", text: answer.error}),
    ...(answer.problems || []).map(p => el("code", {class: "err", text: p})));
}

async function saveEdit(action) {
  if (!editing) return;
  const ticket = editorTicket;
  const values = formValues();
  if (action === "change") delete values.key;
  if (action === "duplicate") {
    values.key = $("#edit-copy-key").value.trim();
    values.name = $("#edit-copy-name").value.trim() || `${values.name} (copy)`;
  }
  const answer = await post("/api/edit", {game: editing.game, component: editing.component, card: editing.card,
    digest: editing.digest, action, values});
  if (ticket !== editorTicket) return;   // the form was closed while saving
  editResult(answer);
  if (answer.ok) {
    const card = action === "change" ? editing.card : answer.card;
    const ref = {game: editing.game, component: editing.component, card};
    const msg = $("#edit-status").cloneNode(true);
    await openEditor(ref);
    $("#edit-status").replaceWith(msg);
  } else if (answer.reload) {
    const msg = $("#edit-status").cloneNode(true);
    await openEditor({game: editing.game, component: editing.component, card: editing.card});
    $("#edit-status").replaceWith(msg);
  }
}

async function undoEdit() {
  const answer = await post("/api/undo", {});
  editResult(answer);
  if (answer.ok && editing && editing.card) {
    const msg = $("#edit-status").cloneNode(true);
    await openEditor({game: editing.game, component: editing.component, card: editing.card});
    $("#edit-status").replaceWith(msg);
  }
}

$("#edit-open").addEventListener("click", () => {
  if (opened) openEditor({game: opened.id.split("/")[0], component: opened.component, card: opened.card});
});
$("#card-edit").addEventListener("submit", e => { e.preventDefault(); saveEdit(editing && editing.card ? "change" : "add"); });
$("#edit-copy-save").addEventListener("click", () => saveEdit("duplicate"));
$("#edit-undo").addEventListener("click", undoEdit);

$("#card").addEventListener("close", () => {
  const b = opened && tiles.get(opened.id);
  opened = null;
  closeEditor();
  if (b) b.focus();
});
$("#card").addEventListener("click", e => { if (e.target === $("#card")) $("#card").close(); });
$("#language").addEventListener("change", e => { language = e.target.value; render(); });
// The access panel: a button per game runs the access check (tens of seconds) and lists what it finds.
function renderAccessGames() {
  const box = $("#access-games");
  const slugs = [...new Set(state.games.map(g => g.slug.split("/")[0]))];
  if ([...box.children].map(b => b.value).join(" ") === slugs.join(" ")) return;
  box.replaceChildren(...slugs.map(slug => {
    const b = el("button", {type: "button", value: slug, text: `Check ${slug}`});
    b.addEventListener("click", () => checkAccess(slug));
    return b;
  }));
}

async function checkAccess(slug) {
  const status = $("#access-status");
  status.textContent = `Checking ${slug}…`;
  $("#access-list").replaceChildren();
  const r = await fetch(`/api/access?game=${encodeURIComponent(slug)}`, {cache: "no-store"}).catch(() => null);
  const answer = r ? await r.json().catch(() => null) : null;
  if (!answer || !answer.ok) {
    status.textContent = `Cannot check ${slug}: ${answer ? answer.error : "no answer"}`;
    return;
  }
  status.textContent = answer.findings.length ? `${slug}: ${plural(answer.findings.length, "problem")}` : `${slug}: every card reads`;
  $("#access-list").replaceChildren(...answer.findings.map(f =>
    el("li", {}, el("strong", {text: `${f.check}: `}), el("code", {text: f.text}))));
}

// The stack view: choosing a stacked variant shows its simulation against its base (asked until done).
function renderVariants() {
  const box = $("#stack-variant");
  const names = state.variants || [];
  const have = [...box.options].slice(1).map(o => o.value);
  if (have.join(" ") === names.join(" ")) return;
  box.replaceChildren(el("option", {value: "", text: "(choose)"}), ...names.map(n => el("option", {value: n, text: n})));
  $("#stack-table").hidden = true;
}

let comparing = "";
async function compareVariant(name) {
  comparing = name;
  const status = $("#stack-status");
  $("#stack-table").hidden = true;
  if (!name) { status.textContent = ""; return; }
  status.textContent = `Playing ${name} and its base…`;
  for (;;) {
    const r = await fetch(`/api/compare?variant=${encodeURIComponent(name)}`, {cache: "no-store"}).catch(() => null);
    const answer = r ? await r.json().catch(() => null) : null;
    if (comparing !== name) return;  // another variant was chosen meanwhile
    if (!answer || !answer.ok) { status.textContent = `No comparison for ${name}: ${answer ? answer.error : "no answer"}`; return; }
    if (answer.status === "done") { showComparison(answer); return; }
    await new Promise(done => setTimeout(done, 500));
  }
}

function showComparison(a) {
  const marked = a.comparison.filter(r => r.significant).length;
  $("#stack-status").textContent = `${a.variant} against ${a.base} (${a.way}), ${a.players} players, ${a.games} games each, `
    + `seed ${a.seed}: ${plural(marked, "significant difference")} (* p < 0.05). Same as: ${a.command}`;
  const fmt = x => Math.abs(x) < 1 && x !== 0 ? x.toFixed(3) : x.toFixed(2);
  $("#stack-table tbody").replaceChildren(...a.comparison.map(r => el("tr", {class: r.significant ? "significant" : ""},
    el("th", {scope: "row", text: r.figure + (r.significant ? " *" : "")}), el("td", {text: fmt(r.this)}),
    el("td", {text: fmt(r.base)}), el("td", {text: (r.difference > 0 ? "+" : "") + fmt(r.difference)}),
    el("td", {text: r.p.toFixed(4)}))));
  $("#stack-table").hidden = false;
}
$("#stack-variant").addEventListener("change", e => compareVariant(e.target.value));

// The colour-vision switch: every card picture through the chosen simulation's SVG filter (the page's own).
$("#vision").addEventListener("change", e => { document.body.dataset.vision = e.target.value; });

// The print settings: a field for every print option pnp declares (`pnp build --help` has the same).
function optionField(o) {
  const label = o.name[0].toUpperCase() + o.name.slice(1).replaceAll("_", " ");
  const blank = o.kind === "count" ? "game's default" : "default";
  let field;
  if (o.kind === "flag") {
    return el("label", {class: "check", title: o.help}, el("input", {type: "checkbox", name: o.name, value: "true"}), ` ${label}`);
  } else if (o.kind === "choice") {
    field = el("select", {name: o.name}, o.default === null ? el("option", {value: "", text: blank}) : null,
      ...o.choices.map(c => el("option", {value: c, text: c, selected: c === o.default})));
  } else if (o.kind === "number" || o.kind === "count") {
    field = el("input", {name: o.name, type: "number", min: o.kind === "count" ? 1 : o.low, max: o.high,
      step: "any", value: o.default, placeholder: o.default === null ? blank : null});
  } else {
    field = el("input", {name: o.name, value: o.default, placeholder: o.default === null ? blank : null});
  }
  return el("label", {title: o.help}, `${label} `, field);
}

function renderPrintOptions() {
  const box = $("#print-options");
  if (!box.childElementCount) box.replaceChildren(...state.print_options.map(optionField));
}

function renderBuildGames() {
  const box = $("#build-games");
  const have = new Set([...box.querySelectorAll("input")].map(i => i.value));
  const want = shownGames().map(g => g.slug);
  if (have.size === want.length && want.every(s => have.has(s))) return;
  box.replaceChildren(el("legend", {text: "Games"}), ...shownGames().map(g =>
    el("label", {class: "check"}, el("input", {type: "checkbox", name: "games", value: g.slug, checked: true}), ` ${g.name}`)));
}

function renderBuild(b) {
  if (!b) return;
  const status = $("#build-status");
  const bar = $("#build-progress");
  $("#build").disabled = b.state === "running";
  status.dataset.state = b.state;
  bar.hidden = b.state !== "running";
  if (b.state === "running") {
    bar.max = Math.max(1, b.total);
    bar.value = b.done;
    status.textContent = b.total ? `Building… ${b.done} of ${b.total} sheets` : "Building…";
  } else if (b.state === "done") {
    status.replaceChildren(`Wrote ${plural(b.files.length, "PDF")} in ${b.seconds} s, as `,
      el("code", {class: "cmd", text: b.command}), " would.");
  } else if (b.state === "failed") {
    status.replaceChildren(el("strong", {text: "Build failed:"}), ...b.problems.map(p => el("code", {class: "err", text: p})),
      b.earlier.length ? el("span", {class: "muted", text: "The PDFs of the last good build are untouched:"}) : null);
  } else status.textContent = "";
  const files = b.state === "done" ? b.files : b.earlier;
  $("#build-files").replaceChildren(...files.map(f =>
    el("li", {}, el("a", {href: `/output/${f.path}`, target: "_blank", rel: "noopener", text: f.path}),
      el("span", {class: "muted", text: ` ${plural(f.pages, "page")}`}))));
}

$("#build-form").addEventListener("submit", async e => {
  e.preventDefault();
  const data = new FormData(e.target);
  const body = Object.fromEntries([...data.entries()].filter(([k]) => k !== "games"));
  body.games = data.getAll("games");
  if (body.games.length === state.games.length) body.games = [];
  $("#build").disabled = true;
  const answer = await post("/api/build", body);
  if (!answer.ok) {
    $("#build").disabled = false;
    $("#build-status").replaceChildren(el("strong", {text: "Cannot build: "}), el("code", {class: "err", text: answer.error}));
  }
});

function connect() {
  const events = new EventSource("/events");
  events.addEventListener("open", () => { $("#live").classList.add("on"); load(); });
  events.addEventListener("state", () => load());
  events.addEventListener("feedback", () => load());
  events.addEventListener("build", e => { if (state) { state.build = JSON.parse(e.data); renderBuild(state.build); } });
  events.addEventListener("error", () => {
    $("#live").classList.remove("on");
    $("#live-text").textContent = "reconnecting…";
  });
}

load().then(connect);
