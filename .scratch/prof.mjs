import { readFileSync, readdirSync } from "node:fs";
const dir = "/tmp/prof"; const f = readdirSync(dir).filter((x) => x.endsWith(".cpuprofile")).sort().pop();
const p = JSON.parse(readFileSync(`${dir}/${f}`, "utf8"));
const self = new Map(); const byId = new Map(p.nodes.map((n) => [n.id, n]));
const dt = p.timeDeltas; const counts = new Map();
p.samples.forEach((id, i) => counts.set(id, (counts.get(id) ?? 0) + (dt[i] ?? 0)));
const parent = new Map(); for (const n of p.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
const total = [...counts.values()].reduce((a, b) => a + b, 0);
for (const [id, t] of counts) { const n = byId.get(id); const k = `${n.callFrame.functionName || "(anon)"} ${n.callFrame.url.split("/").slice(-2).join("/")}:${n.callFrame.lineNumber}`; self.set(k, (self.get(k) ?? 0) + t); }
console.log("total ms", (total / 1000).toFixed(0));
for (const [k, t] of [...self].sort((a, b) => b[1] - a[1]).slice(0, 25)) console.log((t / 1000).toFixed(0).padStart(7), k);
// inclusive by file
const incl = new Map();
for (const [id, t] of counts) { const seen = new Set(); let cur = id; while (cur !== undefined) { const n = byId.get(cur); const file = n.callFrame.url.replace(/.*work.main./, ""); const key = `${n.callFrame.functionName} ${file}`; if (!seen.has(key)) { incl.set(key, (incl.get(key) ?? 0) + t); seen.add(key); } cur = parent.get(cur); } }
console.log("--- inclusive");
for (const [k, t] of [...incl].filter(([k]) => /(store|server|demo|engine|db|jobs|garden)\//.test(k)).sort((a, b) => b[1] - a[1]).slice(0, 30)) console.log((t / 1000).toFixed(0).padStart(7), k);
