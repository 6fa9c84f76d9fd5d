// fairy-pnp live preview: draws the server's snapshot and follows its events. No framework.
"use strict";

const $ = (sel, root = document) => root.querySelector(sel);
const tiles = new Map();          // tile id -> its button, reused across updates (keeps focus)
let state = null;
let opened = null;                // the tile whose card view is open

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
  $("#live-text").textContent = `live · version ${state.version} · ${new Date().toLocaleTimeString()}`;
  renderNav();
  renderProblems();
  renderGames();
  renderBuildGames();
  renderBuild(state.build);
  if (opened && tiles.has(opened.id)) showCard(findTile(opened.id), false);
}

function renderNav() {
  const nav = $("#games-nav");
  nav.replaceChildren(...state.games.map(g => {
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
    list.replaceChildren(el("li", {class: "ok", text: "No problems: every game loads and every rule holds."}));
    return;
  }
  list.replaceChildren(...problems.map(p => el("li", {class: p.severity, "data-file": p.file, "data-line": p.line},
    el("span", {class: "sev", text: p.severity}), el("code", {text: p.text}),
    p.game ? el("a", {href: `#game-${p.game}`, class: "go", "aria-label": `go to ${p.game}`, text: "↓"}) : null)));
}

function renderGames() {
  const main = $("#games");
  const seen = new Set();
  const sections = state.games.map(g => {
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
  main.replaceChildren(...sections);
}

function renderComponent(g, c, seen) {
  const faces = c.tiles.filter(t => t.side === "face").length;
  const backs = c.tiles.length - faces;
  const meta = [plural(c.cards, "card"), plural(faces, "different face"), plural(backs, "back"), c.size, c.detail]
    .filter(Boolean).join(" · ");
  const box = el("section", {class: "component", "data-key": c.key, "data-cards": c.cards, "data-kind": c.kind},
    el("h3", {text: c.name}), el("p", {class: "meta", text: meta}));
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
      el("span", {class: "copies"}), el("span", {class: "name"}), el("span", {class: "code"}));
    b.addEventListener("click", () => showCard(findTile(b.dataset.id), true));
    tiles.set(t.id, b);
  }
  b.dataset.id = t.id;
  b.dataset.side = t.side;
  b.dataset.picture = t.picture;
  b.classList.toggle("back", t.side === "back");
  b.classList.toggle("broken", !t.picture);
  const img = $("img", b);
  const src = t.picture ? `/picture/${t.picture}.png` : "";
  if (img.getAttribute("src") !== src) {
    if (src) img.setAttribute("src", src); else img.removeAttribute("src");
  }
  img.alt = t.side === "back" ? `back ${t.code}` : `${t.name} (${t.code})`;
  $(".copies", b).textContent = `×${t.copies}`;
  $(".name", b).textContent = t.name;
  $(".code", b).textContent = t.code + (t.set ? ` · set ${t.set}` : "");
  b.title = t.error || `${t.name} · ${t.code} · ${where(t)}`;
  b.setAttribute("aria-label", `${t.side === "back" ? "Back" : t.name}, ${t.code}, ${t.copies} ${t.side === "back" ? "cards" : "copies"}`);
  return b;
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
  if (t.error) facts.push(["Cannot draw", t.error]);
  $("#card-facts").replaceChildren(...facts.flatMap(([k, v]) => [el("dt", {text: k}), el("dd", {text: v})]));
  $("#card-fields tbody").replaceChildren(...Object.entries(t.fields).map(([k, v]) =>
    el("tr", {}, el("th", {scope: "row", text: k}), el("td", {text: typeof v === "string" ? v : JSON.stringify(v)}))));
  if (open && !dialog.open) {
    dialog.showModal();
    $("#card-close").focus();
  }
}

$("#card").addEventListener("close", () => {
  const b = opened && tiles.get(opened.id);
  opened = null;
  if (b) b.focus();
});
$("#card").addEventListener("click", e => { if (e.target === $("#card")) $("#card").close(); });

function renderBuildGames() {
  const box = $("#build-games");
  const have = new Set([...box.querySelectorAll("input")].map(i => i.value));
  const want = state.games.map(g => g.slug);
  if (have.size === want.length && want.every(s => have.has(s))) return;
  box.replaceChildren(el("legend", {text: "Games"}), ...state.games.map(g =>
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
    status.replaceChildren(el("strong", {text: "Build failed:"}), ...b.problems.map(p => el("code", {class: "err", text: p})));
  } else status.textContent = "";
  $("#build-files").replaceChildren(...(b.state === "done" ? b.files : []).map(f =>
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
  const r = await fetch("/api/build", {method: "POST", headers: {"Content-Type": "application/json"},
    body: JSON.stringify(body)});
  const answer = await r.json();
  if (!answer.ok) {
    $("#build").disabled = false;
    $("#build-status").replaceChildren(el("strong", {text: "Cannot build: "}), el("code", {class: "err", text: answer.error}));
  }
});

function connect() {
  const events = new EventSource("/events");
  events.addEventListener("open", () => { $("#live").classList.add("on"); load(); });
  events.addEventListener("state", () => load());
  events.addEventListener("build", e => { if (state) { state.build = JSON.parse(e.data); renderBuild(state.build); } });
  events.addEventListener("error", () => {
    $("#live").classList.remove("on");
    $("#live-text").textContent = "reconnecting…";
  });
}

load().then(connect);
