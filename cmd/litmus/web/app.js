// The page of litmus serve: every answer comes from the command line's own
// check --json, explain and fences, run in-process by the server.
"use strict";

const EXAMPLES = {
  MP: `C MP
{}

P0(int *x, int *y)
{
	WRITE_ONCE(*x, 1);
	WRITE_ONCE(*y, 1);
}

P1(int *x, int *y)
{
	int r0;
	int r1;

	r0 = READ_ONCE(*y);
	r1 = READ_ONCE(*x);
}

exists (1:r0=1 /\\ 1:r1=0)
`,
  "MP+release+acquire": `C MP+release+acquire
(* Message passing: the flag is published with release and read with acquire. *)
{}

P0(int *x, int *y)
{
	WRITE_ONCE(*x, 1);
	smp_store_release(y, 1);
}

P1(int *x, int *y)
{
	int r0;
	int r1;

	r0 = smp_load_acquire(y);
	r1 = READ_ONCE(*x);
}

exists (1:r0=1 /\\ 1:r1=0)
`,
  SB: `C SB
{}

P0(int *x, int *y)
{
	int r0;

	WRITE_ONCE(*x, 1);
	r0 = READ_ONCE(*y);
}

P1(int *x, int *y)
{
	int r0;

	WRITE_ONCE(*y, 1);
	r0 = READ_ONCE(*x);
}

exists (0:r0=0 /\\ 1:r0=0)
`,
};

const MODELS = ["sc", "tso", "pso", "lkmm", "arm64", "arm64-llsc", "riscv", "power"];
const $ = (id) => document.getElementById(id);
const params = new URLSearchParams(location.search);

let steps = [], at = 0;

function setup() {
  for (const name of Object.keys(EXAMPLES)) {
    const o = document.createElement("option");
    o.value = o.textContent = name;
    $("example").append(o);
  }
  const chosen = (params.get("models") || "tso,lkmm,arm64").split(",");
  for (const m of MODELS) {
    const l = document.createElement("label");
    l.innerHTML = `<input type="checkbox" value="${m}"${chosen.includes(m) ? " checked" : ""}> ${m}`;
    $("models").append(l);
  }
  $("example").value = params.get("example") || "MP";
  $("source").value = EXAMPLES[$("example").value] || EXAMPLES.MP;
  $("example").onchange = () => { $("source").value = EXAMPLES[$("example").value]; };
  $("file").onchange = async (e) => { const f = e.target.files[0]; if (f) $("source").value = await f.text(); };
  $("check").onclick = check;
  $("fencesBtn").onclick = () => fences(false);
  $("suggestBtn").onclick = () => fences(true);
  $("first").onclick = () => show(0);
  $("prev").onclick = () => show(at - 1);
  $("next").onclick = () => show(at + 1);
  $("last").onclick = () => show(steps.length);
  document.addEventListener("keydown", (e) => {
    if (e.target.tagName === "TEXTAREA") return;
    if (e.key === "ArrowRight") show(at + 1);
    if (e.key === "ArrowLeft") show(at - 1);
  });
  if (params.get("autorun")) check().then(() => params.get("explain") && explain(params.get("explain")));
}

function models() {
  return [...document.querySelectorAll("#models input:checked")].map((i) => i.value);
}

async function post(path, body) {
  const r = await fetch(path, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
  if (!r.ok) throw new Error(await r.text());
  return r.json();
}

function status(msg, error) {
  $("status").textContent = msg;
  $("status").className = error ? "error" : "";
}

async function check() {
  status("checking…");
  const tbody = $("verdicts").querySelector("tbody");
  tbody.innerHTML = "";
  let resp;
  try {
    resp = await post("/api/check", { source: $("source").value, models: models() });
  } catch (e) { status(String(e), true); return; }
  const states = new Set();
  for (const rec of resp.records || []) {
    const tr = document.createElement("tr");
    tr.dataset.model = rec.model;
    const verdict = rec.error ? "error" : rec.observation;
    const ok = rec.ok === false ? "bad" : "";
    tr.innerHTML = `<td>${esc(rec.model)}</td><td class="verdict ${esc(verdict)} ${ok}">${esc(verdict)}</td>` +
      `<td>${esc(rec.expected || "")}</td><td>${(rec.states || []).length}</td>` +
      `<td>${rec.positive ?? ""} / ${rec.negative ?? ""}</td><td><button>explain</button></td>`;
    tr.querySelector("button").onclick = () => explain(rec.model);
    tbody.append(tr);
    for (const s of rec.states || []) states.add(s);
  }
  const sel = $("state");
  sel.innerHTML = '<option value="">the condition</option>';
  for (const s of [...states].sort()) {
    const o = document.createElement("option");
    o.value = s.replace(/;\s*$/, "").split(/;\s*/).join(" /\\ ");
    o.textContent = s;
    sel.append(o);
  }
  status(resp.stderr ? resp.stderr : `checked under ${(resp.records || []).length} models`, resp.code === 2);
}

async function explain(model) {
  status(`explaining under ${model}…`);
  let resp;
  try {
    resp = await post("/api/explain", { source: $("source").value, models: [model], state: $("state").value });
  } catch (e) { status(String(e), true); return; }
  $("explain").hidden = false;
  $("explainTitle").textContent = `Under ${model}`;
  $("explainText").textContent = resp.text;
  $("graph").innerHTML = resp.svg || (resp.dot ? `<pre>${esc(resp.dot)}</pre><p>${esc(resp.svg_error || "")}</p>` : "");
  steps = resp.steps || [];
  $("stepper").hidden = steps.length === 0;
  const ol = $("steps");
  ol.innerHTML = "";
  for (const s of steps) {
    const li = document.createElement("li");
    li.textContent = s.kind === "drain" ? `P${s.thread}  drain  ${s.note}` : `P${s.thread}  line ${s.line}  ${s.text}${s.note ? "   -- " + s.note : ""}`;
    ol.append(li);
  }
  show(steps.length);
  status(`explained under ${model}`);
}

function show(k) {
  at = Math.max(0, Math.min(k, steps.length));
  $("stepNo").textContent = `step ${at} of ${steps.length}`;
  [...$("steps").children].forEach((li, i) => { li.className = i < at - 1 ? "done" : i === at - 1 ? "now" : "todo"; });
  const s = at > 0 ? steps[at - 1] : { memory: {}, buffers: {} };
  const mem = Object.entries(s.memory).map(([k, v]) => `${k}=${v}`).join("  ") || "(initial values)";
  const bufs = Object.entries(s.buffers).filter(([, b]) => b && b.length).map(([t, b]) => `P${t} [${b.join(", ")}]`).join("  ") || "all empty";
  $("machine").textContent = `memory:  ${mem}\nbuffers: ${bufs}`;
}

async function fences(suggest) {
  status(suggest ? "suggesting…" : "fences…");
  try {
    const resp = await post("/api/fences", { source: $("source").value, models: models(), suggest });
    $("fences").hidden = false;
    $("fences").textContent = resp.text;
    status("fences done");
  } catch (e) { status(String(e), true); }
}

function esc(s) {
  return String(s).replace(/[&<>"]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[c]);
}

setup();
