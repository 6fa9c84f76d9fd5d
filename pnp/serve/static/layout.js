// fairy-pnp layout editor: the open card's elements as outlines over its picture (GET /api/layout),
// moved, resized and nudged in mm, each drop saved as numbers into the design's file (POST /api/layout).
// Uses app.js's globals ($, el, post, opened). No framework.
"use strict";

const SVG = "http://www.w3.org/2000/svg";
const SNAP_PX = 6;                 // an edge within this many screen pixels of a target snaps to it
const lay = {on: false, data: null, picture: "", tile: "", chosen: null, digest: "", undo: [], redo: [], busy: false, queued: null};

function svg(tag, attrs) {
  const node = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  return node;
}

const round2 = v => Math.round(v * 100) / 100;
const item = id => lay.data && lay.data.elements.find(e => e.id === id);
const sameRef = (a, b) => JSON.stringify(a) === JSON.stringify(b);

let layoutTicket = 0;               // bumped by each request for outlines: a late answer for an older one is dropped

async function layoutOpen() {
  if (!opened || !opened.picture) return;
  const ticket = ++layoutTicket, tile = opened.id;
  const r = await fetch(`/api/layout?tile=${encodeURIComponent(tile)}`, {cache: "no-store"});
  const answer = await r.json();
  if (ticket !== layoutTicket || !opened || opened.id !== tile) return;
  if (!r.ok) { layoutSay(answer.error || `${r.status}`, true); return; }
  lay.on = true;
  lay.data = answer;
  lay.picture = opened.picture;
  lay.tile = opened.id;
  lay.digest = answer.digest;
  if (lay.chosen !== null && !item(lay.chosen)) lay.chosen = null;
  $("#layout-edit").hidden = false;
  $("#layout-open").hidden = true;
  $("#layout-overlay").hidden = false;
  layoutDraw();
}

function layoutClose() {
  layoutTicket++;
  lay.on = false;
  lay.data = null;
  lay.chosen = null;
  $("#layout-edit").hidden = true;
  $("#layout-open").hidden = false;
  $("#layout-overlay").hidden = true;
}

function layoutSay(text, bad) {
  const status = $("#layout-status");
  status.textContent = text;
  status.className = bad ? "err" : "muted";
}

// The guides, then one outline per element; the chosen one with four corner handles.
function layoutDraw() {
  const d = lay.data, t = d.trim, overlay = $("#layout-overlay");
  overlay.setAttribute("viewBox", `0 0 ${t.w} ${t.h}`);
  overlay.setAttribute("preserveAspectRatio", "none");
  const nodes = [];
  for (const [name, f] of Object.entries(d.frames))
    nodes.push(svg("rect", {x: f[0], y: f[1], width: f[2], height: f[3],
      class: `guide ${["trim", "bleed", "safe"].includes(name) ? name : "frame"}`, "data-frame": name}));
  if (d.code) nodes.push(svg("rect", {x: d.code[0], y: d.code[1], width: d.code[2], height: d.code[3], class: "guide code"}));
  const safe = d.frames.safe;
  const crossing = [];
  for (const e of d.elements) {
    const [x, y, w, h] = e.box;
    const crosses = e.movable && e.frame !== "bleed" && (x < safe[0] - 0.01 || y < safe[1] - 0.01 || x + w > safe[0] + safe[2] + 0.01 || y + h > safe[1] + safe[3] + 0.01);
    if (crosses) crossing.push(e);
    const r = svg("rect", {x, y, width: Math.max(w, 0.3), height: Math.max(h, 0.3), "data-id": e.id,
      class: `box${e.movable ? "" : " fixed"}${e.id === lay.chosen ? " chosen" : ""}${crosses ? " crosses" : ""}`});
    r.append(svg("title", {}));
    r.firstChild.textContent = `${e.name || e.type}${e.movable ? "" : " (placed by a template: change it in the file)"}`;
    nodes.push(r);
  }
  const chosen = item(lay.chosen);
  if (chosen && chosen.sizable) {
    const [x, y, w, h] = chosen.box, s = Math.max(t.w, t.h) / 90;
    for (const [cx, cy, corner] of [[x, y, "tl"], [x + w, y, "tr"], [x, y + h, "bl"], [x + w, y + h, "br"]])
      nodes.push(svg("rect", {x: cx - s / 2, y: cy - s / 2, width: s, height: s, class: "handle", "data-corner": corner}));
  }
  overlay.replaceChildren(...nodes);
  layoutFields();
  const warn = $("#layout-warning");
  warn.hidden = !crossing.length;
  warn.textContent = crossing.length ? `Crosses the safe zone: ${crossing.map(e => e.name || `${e.type} ${e.id}`).join(", ")}` : "";
  $("#layout-undo").disabled = !lay.undo.length;
  $("#layout-redo").disabled = !lay.redo.length;
}

function layoutFields() {
  const e = item(lay.chosen);
  $("#layout-which").textContent = e ? `${e.name || e.type} (${e.ref ? ("index" in e.ref ? `element ${e.ref.index}` : `${e.ref.name}, written as an override`) : "fixed"})` : "Choose an element.";
  ["x", "y", "w", "h"].forEach((k, i) => {
    const input = $(`#layout-${k}`);
    input.disabled = !e || !(i < 2 ? e.movable : e.sizable);
    if (document.activeElement !== input) input.value = e ? round2(e.box[i]) : "";
  });
}

// Snapping: the box's left, centre and right (top, middle, bottom) against the other elements' and the
// safe and trim frames' edges and centres, within SNAP_PX screen pixels; only along an axis the
// pointer moved on (a sideways drag keeps its height).
function snap(e, box, scale, edges, moved) {
  const out = box.slice();
  const targets = [[], []];
  for (const o of lay.data.elements) if (o.id !== e.id) for (let a = 0; a < 2; a++)
    targets[a].push(o.box[a], o.box[a] + o.box[a + 2] / 2, o.box[a] + o.box[a + 2]);
  for (const name of ["safe", "trim"]) { const f = lay.data.frames[name]; for (let a = 0; a < 2; a++) targets[a].push(f[a], f[a] + f[a + 2] / 2, f[a] + f[a + 2]); }
  for (let a = 0; a < 2; a++) {
    if (!moved[a]) continue;
    let best = null;
    for (const [k, at] of edges(a, out)) for (const t of targets[a]) {
      const d = t - at;
      if (Math.abs(d) * scale <= SNAP_PX && (best === null || Math.abs(d) < Math.abs(best[0]))) best = [d, k];
    }
    if (best) {
      if (best[1] === "move") out[a] += best[0];
      else if (best[1] === "far") out[a + 2] += best[0];
      else { out[a] += best[0]; out[a + 2] -= best[0]; }
    }
  }
  return out;
}

const moveEdges = (a, b) => [["move", b[a]], ["move", b[a] + b[a + 2] / 2], ["move", b[a] + b[a + 2]]];

function pointerStart(ev) {
  const target = ev.target;
  const corner = target.dataset && target.dataset.corner;
  const id = corner ? lay.chosen : Number(target.dataset && target.dataset.id);
  if (!corner && !(target.classList && target.classList.contains("box"))) { lay.chosen = null; layoutDraw(); return; }
  lay.chosen = id;
  const e = item(id);
  layoutDraw();
  if (!e || !(corner ? e.sizable : e.movable)) return;
  ev.preventDefault();
  const overlay = $("#layout-overlay");
  const scale = overlay.getBoundingClientRect().width / lay.data.trim.w;   // screen px per mm
  const start = e.box.slice(), x0 = ev.clientX, y0 = ev.clientY;
  overlay.setPointerCapture(ev.pointerId);
  const move = mv => {
    const dx = (mv.clientX - x0) / scale, dy = (mv.clientY - y0) / scale;
    const moved = [mv.clientX !== x0, mv.clientY !== y0];
    let box;
    if (!corner) box = snap(e, [start[0] + dx, start[1] + dy, start[2], start[3]], scale, moveEdges, moved);
    else {
      box = start.slice();
      if (corner[1] === "l") { box[0] += dx; box[2] -= dx; } else box[2] += dx;
      if (corner[0] === "t") { box[1] += dy; box[3] -= dy; } else box[3] += dy;
      box = snap(e, box, scale, (a, b) => [[(a ? corner[0] === "t" : corner[1] === "l") ? "near" : "far",
        (a ? corner[0] === "t" : corner[1] === "l") ? b[a] : b[a] + b[a + 2]]], moved);
      box[2] = Math.max(box[2], 0.5); box[3] = Math.max(box[3], 0.5);
    }
    e.box = box;
    layoutDraw();
  };
  const up = () => {
    overlay.removeEventListener("pointermove", move);
    overlay.removeEventListener("pointerup", up);
    overlay.removeEventListener("pointercancel", up);
    if (e.box.some((v, i) => Math.abs(v - start[i]) > 0.005)) change(e, start, e.box.slice());
  };
  overlay.addEventListener("pointermove", move);
  overlay.addEventListener("pointerup", up);
  overlay.addEventListener("pointercancel", up);
}

// A change: remembered for undo, shown at once, saved (one save at a time; the latest box wins).
function change(e, before, after, fromHistory) {
  if (!fromHistory) { lay.undo.push({ref: e.ref, before, after}); lay.redo = []; }
  e.box = after.slice();
  layoutDraw();
  lay.queued = {ref: e.ref, box: after.slice()};
  saveQueued();
}

async function saveQueued() {
  if (lay.busy || !lay.queued) return;
  lay.busy = true;
  const next = lay.queued;
  lay.queued = null;
  layoutSay("saving…");
  const answer = await post("/api/layout", {tile: lay.tile, digest: lay.digest, changes: [next]});
  lay.busy = false;
  if (answer.ok) {
    lay.digest = answer.digest;
    layoutSay(`saved in ${answer.file}`);
  } else {
    layoutSay(answer.error + (answer.problems || []).map(p => `\n${p}`).join(""), true);
    if (answer.reload) { lay.undo = []; lay.redo = []; lay.queued = null; layoutOpen(); return; }
  }
  saveQueued();
}

function history(from, to, key) {
  const step = from.pop();
  if (!step) return;
  to.push(step);
  const e = lay.data.elements.find(x => sameRef(x.ref, step.ref));
  if (e) change(e, e.box.slice(), step[key], true);
}

document.addEventListener("keydown", ev => {
  if (!lay.on || !$("#card").open || ev.target.tagName === "INPUT") return;
  const e = item(lay.chosen);
  const steps = {ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1]}[ev.key];
  if ((ev.ctrlKey || ev.metaKey) && ev.key.toLowerCase() === "z") {
    ev.preventDefault();
    if (ev.shiftKey) history(lay.redo, lay.undo, "after"); else history(lay.undo, lay.redo, "before");
    return;
  }
  if (!steps || !e || !e.movable) return;
  ev.preventDefault();
  const by = ev.altKey || ev.shiftKey ? 0.1 : 0.5;
  const before = e.box.slice();
  change(e, before, [before[0] + steps[0] * by, before[1] + steps[1] * by, before[2], before[3]]);
});

["x", "y", "w", "h"].forEach((k, i) => $(`#layout-${k}`).addEventListener("change", ev => {
  const e = item(lay.chosen), v = Number(ev.target.value);
  if (!e || !Number.isFinite(v)) return;
  const before = e.box.slice(), after = before.slice();
  after[i] = v;
  change(e, before, after);
}));

$("#layout-overlay").addEventListener("pointerdown", pointerStart);
$("#layout-open").addEventListener("click", layoutOpen);
$("#layout-close").addEventListener("click", layoutClose);
$("#layout-undo").addEventListener("click", () => history(lay.undo, lay.redo, "before"));
$("#layout-redo").addEventListener("click", () => history(lay.redo, lay.undo, "after"));
$("#layout-edit").addEventListener("submit", ev => ev.preventDefault());
$("#card").addEventListener("close", layoutClose);

// The page redraws the card after each save; the outlines follow the new picture (not mid-drag).
setInterval(() => {
  if (lay.on && opened && opened.picture && opened.picture !== lay.picture && !lay.busy && !lay.queued) layoutOpen();
}, 250);
