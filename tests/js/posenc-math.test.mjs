// Unit tests of docs/javascripts/posenc-math.js against posenc (Python).
//
//   node --test tests/js/*.test.mjs   (from the repository root; also run by tests/browser/test_widgets.py)
//
// The reference numbers are computed by posenc itself: this file runs the
// Python below once (the project's .venv/bin/python, or $POSENC_PYTHON) and
// compares every JavaScript result with it. No number is typed in by hand.
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";

import * as pm from "../../docs/javascripts/posenc-math.js";
import zh from "../../docs/javascripts/widgets/strings/zh.js";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..", "..");

const REFERENCE = String.raw`
import json, sys
import numpy as np
from posenc import attention as at, configs, relative, rope, scaling, sinusoidal

def arr(x):
    return [float(v) for v in np.asarray(x, dtype=np.float64).ravel()]

out = {"sin": {}, "rope": {}, "scaling": {}, "models": [], "for_model": {}, "attention": {}}
S = out["sin"]
S["positions"] = [0, 3, 1024, 100000, 999999999]
S["cases"] = [[16, 10000.0], [512, 10000.0], [8, 500.0], [2, 1.5]]
S["omega"] = [arr(sinusoidal.angular_frequencies(d, b)) for d, b in S["cases"]]
S["periods"] = [arr(sinusoidal.periods(d, b)) for d, b in S["cases"]]
S["encode"] = [[arr(sinusoidal.encode(p, d, b)) for p in S["positions"]] for d, b in S["cases"]]
S["hands"] = [[arr(sinusoidal.hand_angles(p, d, b)) for p in S["positions"]] for d, b in S["cases"]]
S["dot_pairs"] = [[0, 0], [3, 13], [100000, 100010], [1024, 7], [999999000, 999999199]]
S["dot"] = [sinusoidal.dot(a, b, 16) for a, b in S["dot_pairs"]]
S["ks"] = [0, 1, 10, 200, -5, 100000]
S["closed"] = [sinusoidal.dot_closed_form(k, 16) for k in S["ks"]]
S["matrix10"] = sinusoidal.dot_matrix(np.arange(6) + 10, 16).tolist()

R = out["rope"]
R["cases"] = [[128, 1e6, 1.0], [256, 1e7, 0.25], [128, 1e4, 0.5], [64, 150000.0, 1.0], [10, 10000.0, 1.0]]
R["inv"] = [arr(rope.inverse_frequencies(h, b, f)) for h, b, f in R["cases"]]
R["not_turning"] = [[rope.pairs_not_completing_turn(rope.inverse_frequencies(h, b, f), L) for L in (4096, 32768)] for h, b, f in R["cases"]]
x = np.linspace(-1.0, 1.0, 10)
inv = rope.inverse_frequencies(8, 10000.0)  # 8 of the 10 dims turn; the last two pass through
R["x"] = arr(x)
R["rot_inv"] = arr(inv)
R["rot_positions"] = [0, 5, 100000]
R["rotated"] = {c: [arr(rope.rotate(x[None, :], [m], inv, c)[0]) for m in R["rot_positions"]] for c in rope.CONVENTIONS}

C = out["scaling"]
C["linear"] = arr(scaling.linear(128, 1e6, 4.0)[0])
C["ntk_base"] = scaling.ntk_aware_base(10000.0, 4.0, 128)
C["ntk"] = arr(scaling.ntk_aware(128, 10000.0, 4.0)[0])
C["dynamic"] = {str(n): arr(scaling.dynamic_ntk(128, 10000.0, 4.0, 4096, n)[0]) for n in (1000, 4096, 8192, 16384)}
C["yarn_cases"] = [
    dict(head_dim=128, base=1e6, factor=4.0, original_context=32768),
    dict(head_dim=64, base=10000.0, factor=40.0, original_context=4096, beta_fast=32, beta_slow=1, mscale=1.0, mscale_all_dim=1.0),
    dict(head_dim=64, base=150000.0, factor=32.0, original_context=4096, beta_fast=32.0, beta_slow=1.0, truncate=False),
    dict(head_dim=64, base=50000.0, factor=32.0, original_context=4096, beta_fast=1.0, beta_slow=1.0),
    dict(head_dim=256, base=1e7, factor=2.5, original_context=262144, rotary_fraction=0.25),
    dict(head_dim=128, base=1e6, factor=4.0, original_context=32768, attention_factor=1.5),
]
C["yarn"] = []
for kw in C["yarn_cases"]:
    inv, att = scaling.yarn(**kw)
    dim = rope.rotary_dim(kw["head_dim"], kw.get("rotary_fraction", 1.0))
    low, high = scaling.yarn_correction_range(dim, kw["base"], kw["original_context"], kw.get("beta_fast", 32.0), kw.get("beta_slow", 1.0), kw.get("truncate", True))
    C["yarn"].append({"inv": arr(inv), "att": att, "low": low, "high": high})
C["mscale"] = [scaling.yarn_mscale(s) for s in (1.0, 4.0, 8.0, 40.0)]
C["llama3"] = arr(scaling.llama3(128, 500000.0, 8.0, 1.0, 4.0, 8192)[0])
phi = configs.load("phi35_mini")["scaling"]
C["longrope"] = {str(n): arr(scaling.longrope(96, 10000.0, phi["short_factor"], phi["long_factor"], 4096, 131072, seq_len=n)[0])
                 for n in (4096, 4097)}
C["longrope_att"] = [scaling.longrope_attention_factor(s, 4096) for s in (1.0, 32.0)]
# overshoot per pair (NaN -> None in JSON) and the count of pairs that overshoot, for each method on Qwen3-8B
q = configs.load("qwen3_8b")
q_methods = scaling.methods_for(q)
q_L, q_s = q["scaling"]["original_max_position_embeddings"], q["scaling"]["factor"]
C["overshoot"] = {k: {"ratio": [None if np.isnan(v) else float(v) for v in scaling.angle_overshoot(q_methods["none"], q_methods[k], q_L, q_s)],
                      "beyond": scaling.pairs_beyond_trained_angles(q_methods["none"], q_methods[k], q_L, q_s),
                      "inv": arr(q_methods[k])}
                  for k in q_methods}
C["overshoot_base"] = {"inv": arr(q_methods["none"]), "L": q_L, "s": q_s}
# the widget's methods on each RoPE model at its own factor (4 without one): posenc.scaling.methods_for
C["methods"] = {}
for key in configs.keys():
    cfg = configs.load(key)
    if cfg.position != "rope":
        continue
    own = (cfg.get("scaling") or {}).get("factor")
    C["methods"][key] = {"factor": own or 4.0, **{k: arr(v) for k, v in scaling.methods_for(cfg, None if own else 4.0).items()}}

for key in configs.keys():
    m = configs.load(key)
    if m.position != "rope":
        continue
    out["models"].append({"key": key, "name": m.name, **{f: v.value for f, v in m.fields.items()}})
    inv, att = scaling.for_model(m)
    out["for_model"][key] = {"inv": arr(inv), "att": att}

A = out["attention"]
head = at.make_head(8, 7)
xa = at.sentence_input("小明打了小王", 8, 7, positions=True)
res = at.attend(xa, head)
A.update(w_q=head.w_q.tolist(), w_k=head.w_k.tolist(), w_v=head.w_v.tolist(), x=xa.tolist(), out=res.out.tolist(), weights=res.weights.tolist())

def mulberry32(seed, n):
    a, vals = seed & 0xFFFFFFFF, []
    imul = lambda x, y: (x * y) & 0xFFFFFFFF
    for _ in range(n):
        a = (a + 0x6D2B79F5) & 0xFFFFFFFF
        t = imul(a ^ (a >> 15), a | 1)
        t ^= (t + imul(t ^ (t >> 7), t | 61)) & 0xFFFFFFFF
        vals.append(((t ^ (t >> 14)) & 0xFFFFFFFF) / 4294967296)
    return vals
out["mulberry32"] = {"7": mulberry32(7, 5), "123456789": mulberry32(123456789, 5)}

L = out["relative"] = {}
L["heads"] = list(range(1, 70)) + [80, 96, 112, 128, 200, 256, 1000, 1024]
L["slopes"] = {str(n): arr(relative.alibi_slopes(n)) for n in L["heads"]}
L["distances"] = [0, 1, 2.5, 7, 100, 4096, 1e6]
L["weight"] = {str(n): [[float(relative.alibi_weight_ratio(m, r)) for r in L["distances"]] for m in relative.alibi_slopes(n)] for n in (8, 12, 112)}
L["bias"] = {str(n): [[float(-m * r) for r in L["distances"]] for m in relative.alibi_slopes(n)] for n in (8, 12, 112)}
L["reach"] = {str(n): [[relative.alibi_reach(m, f) for f in (1.5, 10.0, 1000.0)] for m in relative.alibi_slopes(n)] for n in (8, 12, 112)}
# T5's own (32, 128), edge cases, and settings where a float64 logarithm would put some distances in
# another bucket than the reference's float32 one (causal 9/128 at r = 8, 16, 64; 10/160; 19/288; 46/164; 51/169)
L["t5_pairs"] = [[32, 128], [2, 2], [3, 7], [7, 3], [8, 9], [12, 50], [64, 256], [320, 2000], [128, 10000], [33, 1000], [1000, 10000],
                 [9, 128], [10, 160], [19, 288], [46, 164], [51, 169]]
rel = np.arange(-10000, 10001)
L["t5"], L["t5_edges"], L["t5_errors"] = {}, {}, []
for nb, md in L["t5_pairs"]:
    for bi in (True, False):
        key = f"{nb},{md},{int(bi)}"
        try:
            L["t5"][key] = relative.t5_bucket(rel, bi, nb, md).tolist()
            L["t5_edges"][key] = [list(e) for e in relative.t5_bucket_edges(bi, nb, md)]
        except ValueError:
            L["t5_errors"].append(key)
from posenc import examples as ex, learned, naive
N = out["naive"] = {}
N["rms"] = [1.0, ex.PROJECT_EMBED_STD, 0.37, 1e-6, 250.0]
N["positions"] = [1, 2, 3, 37, 1023, 1024, 100000, 999999999]
N["ratio"] = [[naive.raw_index_content_ratio(p, r) for p in N["positions"]] for r in N["rms"]]
N["ratios"] = [naive.raw_index_content_ratios(N["positions"], r).tolist() for r in N["rms"]]
N["refused"] = []
for p, r in ((0, 1.0), (-1, 1.0), (3, 0.0), (3, -1.0)):
    try:
        naive.raw_index_content_ratio(p, r)
    except ValueError:
        N["refused"].append([p, r])
T = out["learned"] = {}
T["models"] = {}
for key in ("gpt2", "bert_base"):
    cfg = configs.load(key)
    T["models"][key] = {"rows": cfg["context"], "width": cfg["hidden"], "params": learned.table_parameters(cfg)}
T["positions"] = [0, 1, 511, 512, 1023, 1024, 1025, 100000, 999999999]
T["has_row"] = {key: [learned.has_row(configs.load(key), p) for p in T["positions"]] for key in T["models"]}
from posenc.quantities.lesson1 import tiny
out["tiny"] = {"values": [float(np.finfo(np.float64).eps), 1.1102230246251565e-16, 0.0, -3.3e-15, 4.4e-12, 9.96e-16, 1e-300,
                         1.5e-47, 2.5e-98, 3e-8, 6.02e23]}
out["tiny"]["text"] = [tiny(v) for v in out["tiny"]["values"]]
from posenc import quantities as q
_shares = ("naive_ratio_unit", "naive_ratio_init", "l2_ratio_unit_at_max", "l2_ratio_init_at_max", "l2_ratio_unit_p1")
out["percent"] = {"values": [float(q.value(k)) for k in _shares], "text": [q.text(k, "zh") for k in _shares]}
from posenc.formatting import format_value
# exact binary ties (Python rounds them to even), decimals that look like ties but lie above or below one in binary
# (0.05 is a little above, 2.675 a little below), and ordinary values
_fixed = [[0.03125, 4], [0.0625, 3], [2.5, 0], [0.5, 0], [1.5, 0], [-0.125, 2], [0.375, 2], [1234.5, 0],
          [0.05, 1], [-0.05, 1], [0.15, 1], [0.65, 1], [1.15, 1], [2.675, 2], [0.045, 2], [1.005, 2], [0.98999, 3], [-0.0001, 2]]
out["fixed"] = {"cases": _fixed, "text": [format_value(v, f",.{d}f") for v, d in _fixed]}
# the same in scientific notation: one decimal (lesson 1's rounding sizes) and three (2^-7)
_sci = [1.25e-16, 9.95e-16, 1.35e-16, 9.96e-16, -1.8e-15, 1.15, 1234.5, 0.0078125]
out["sci"] = {"values": _sci, "python": [[f"{v:.1e}", f"{v:.3e}"] for v in _sci], "tiny": [tiny(v) for v in _sci]}
json.dump(out, sys.stdout)
`;

function python() {
  if (process.env.POSENC_PYTHON) return process.env.POSENC_PYTHON;
  const venv = join(ROOT, ".venv", "bin", "python");
  return existsSync(venv) ? venv : "python3";
}

// POSENC_JS_REFERENCE=<file> keeps posenc's numbers in that file and reads them from there on later runs
// (mutation testing runs this file hundreds of times against the same posenc); without it, Python runs each time.
function computeReference() {
  try {
    return execFileSync(python(), ["-c", REFERENCE], { cwd: ROOT, env: { ...process.env, PYTHONPATH: ROOT }, maxBuffer: 64 << 20, encoding: "utf8" });
  } catch (err) {
    throw new Error(`could not compute posenc's reference numbers with ${python()} (set POSENC_PYTHON to the project's Python): ${err.message}`);
  }
}
const cached = process.env.POSENC_JS_REFERENCE;
let text;
if (cached && existsSync(cached)) text = readFileSync(cached, "utf8");
else {
  text = computeReference();
  if (cached) writeFileSync(cached, text);
}
const ref = JSON.parse(text);

/** Every entry of `got` within rel·|want| + abs of `want`, with a message naming the entry. */
function close(got, want, what, { rel = 1e-12, abs = 1e-12 } = {}) {
  const g = Array.from(got);
  const w = Array.from(want);
  assert.equal(g.length, w.length, `${what}: length ${g.length} vs ${w.length}`);
  g.forEach((v, i) => {
    assert.ok(Number.isFinite(v), `${what}[${i}] is not finite: ${v}`);
    assert.ok(Math.abs(v - w[i]) <= abs + rel * Math.abs(w[i]), `${what}[${i}]: JS ${v} vs posenc ${w[i]}`);
  });
}

test("sinusoidal frequencies, periods, encodings and hand angles match posenc.sinusoidal", () => {
  ref.sin.cases.forEach(([d, base], c) => {
    close(pm.angularFrequencies(d, base), ref.sin.omega[c], `omega d=${d} base=${base}`);
    close(pm.periods(d, base), ref.sin.periods[c], `periods d=${d}`);
    ref.sin.positions.forEach((p, j) => {
      // ω_i = base^(−2i/d) may differ by one ulp between V8's and C's pow; p·ω multiplies that by p
      const abs = 1e-12 + p * 1e-15;
      close(pm.encode(p, d, base), ref.sin.encode[c][j], `PE(${p}) d=${d}`, { abs });
      close(pm.handAngles(p, d, base), ref.sin.hands[c][j], `hands(${p}) d=${d}`, { abs });
    });
  });
});

test("every sinusoidal component stays in [−1, 1], including position 10⁹", () => {
  for (const p of ref.sin.positions) for (const v of pm.encode(p, 16)) assert.ok(v >= -1 && v <= 1);
});

test("dot products, closed form and the shifted matrix match posenc", () => {
  close(ref.sin.dot_pairs.map(([a, b]) => pm.dot(a, b, 16)), ref.sin.dot, "dot", { abs: 1e-6 });
  close(ref.sin.ks.map((k) => pm.dotClosedForm(k, 16)), ref.sin.closed, "closed form", { abs: 1e-10 });
  close(pm.dotMatrix([10, 11, 12, 13, 14, 15], 16).flat(), ref.sin.matrix10.flat(), "dot matrix from 10", { abs: 1e-11 });
  const before = pm.dotMatrix([0, 1, 2, 3, 4, 5], 16);
  const after = pm.dotMatrix([10, 11, 12, 13, 14, 15], 16);
  assert.ok(pm.maxAbsDiff(before, after) < 1e-12, "shifting the sentence changes the matrix by rounding only");
});

test("RoPE inverse frequencies, partial RoPE and pairs not turning match posenc.rope", () => {
  ref.rope.cases.forEach(([h, b, f], c) => {
    const inv = pm.inverseFrequencies(h, b, f);
    close(inv, ref.rope.inv[c], `inv_freq ${h}/${b}/${f}`);
    assert.deepEqual([4096, 32768].map((L) => pm.pairsNotCompletingTurn(inv, L)), ref.rope.not_turning[c]);
  });
  assert.throws(() => pm.rotaryDim(10, 0.5), /偶数/); // 5 dims: odd
});

test("RoPE rotation matches posenc.rope.rotate in both conventions", () => {
  for (const conv of ["interleaved", "half"]) {
    ref.rope.rot_positions.forEach((m, j) => {
      close(pm.rotate(ref.rope.x, m, ref.rope.rot_inv, conv), ref.rope.rotated[conv][j], `rotate ${conv} m=${m}`, { abs: 1e-10 });
    });
  }
});

test("PI, NTK-aware, dynamic NTK and Llama 3 frequencies match posenc.scaling", () => {
  close(pm.linear(128, 1e6, 4).invFreq, ref.scaling.linear, "linear");
  close([pm.ntkAwareBase(10000, 4, 128)], [ref.scaling.ntk_base], "ntk base");
  close(pm.ntkAware(128, 10000, 4).invFreq, ref.scaling.ntk, "ntk");
  for (const [n, want] of Object.entries(ref.scaling.dynamic)) close(pm.dynamicNtk(128, 10000, 4, 4096, Number(n)).invFreq, want, `dynamic ℓ=${n}`);
  close(pm.llama3(128, 500000, 8, 1, 4, 8192).invFreq, ref.scaling.llama3, "llama3");
  close([1, 4, 8, 40].map((s) => pm.yarnMscale(s)), ref.scaling.mscale, "yarn mscale");
});

test("LongRoPE: the short list up to the original context, the long one past it, and √(1 + ln s / ln L)", () => {
  const phi = ref.models.find((m) => m.key === "phi35_mini").scaling;
  for (const [n, want] of Object.entries(ref.scaling.longrope)) {
    const got = pm.longrope(96, 10000, phi.short_factor, phi.long_factor, 4096, { maxPositionEmbeddings: 131072, seqLen: Number(n) });
    close(got.invFreq, want, `longrope seq_len=${n}`);
  }
  close([1, 32].map((s) => pm.longropeAttentionFactor(s, 4096)), ref.scaling.longrope_att, "longrope attention factor");
  assert.throws(() => pm.longrope(96, 10000, [1, 2], phi.long_factor, 4096, { factor: 32 }), /short_factor/);
});

test("YaRN: correction range (truncate or not), ramp, frequencies and attention factor match posenc.scaling.yarn", () => {
  ref.scaling.yarn_cases.forEach((kw, c) => {
    const want = ref.scaling.yarn[c];
    const got = pm.yarn(kw.head_dim, kw.base, kw.factor, kw.original_context, {
      betaFast: kw.beta_fast ?? 32,
      betaSlow: kw.beta_slow ?? 1,
      truncate: kw.truncate ?? true,
      mscale: kw.mscale ?? null,
      mscaleAllDim: kw.mscale_all_dim ?? null,
      attentionFactor: kw.attention_factor ?? null,
      rotaryFraction: kw.rotary_fraction ?? 1,
    });
    close(got.invFreq, want.inv, `yarn case ${c}`);
    close([got.attentionFactor, got.low, got.high], [want.att, want.low, want.high], `yarn case ${c} (attention, low, high)`);
  });
});

test("angle overshoot per pair and the count of pairs that overshoot match posenc.scaling (Qwen3-8B, each method)", () => {
  const { inv, L, s } = ref.scaling.overshoot_base;
  for (const [method, want] of Object.entries(ref.scaling.overshoot)) {
    const got = pm.angleOvershoot(inv, want.inv, L, s);
    assert.equal(got.length, want.ratio.length, `${method}: one ratio per pair`);
    want.ratio.forEach((r, j) => {
      if (r === null) assert.ok(Number.isNaN(got[j]), `${method} pair ${j} turns within L: NaN, got ${got[j]}`);
      else close([got[j]], [r], `${method} overshoot pair ${j}`);
    });
    assert.equal(pm.pairsBeyondTrainedAngles(inv, want.inv, L, s), want.beyond, `${method}: pairs beyond`);
  }
  assert.ok(Object.values(ref.scaling.overshoot).some((w) => w.beyond > 0), "some method overshoots (else the count is untested)");
  assert.throws(() => pm.angleOvershoot(inv, inv.slice(1), L, s), /omega 和 scaled/);
  assert.throws(() => pm.angleOvershoot(inv, inv, 0, s), /original_context/);
  assert.throws(() => pm.angleOvershoot(inv, inv, L, 0.5), /factor/);
});

test("scaleModel with the widget's methods (PI, NTK-aware, YaRN) equals posenc.scaling.methods_for on every RoPE model", () => {
  const models = Object.fromEntries(ref.models.map((m) => [m.key, m]));
  let compared = 0;
  for (const [key, want] of Object.entries(ref.scaling.methods)) {
    const m = models[key];
    assert.ok(m, `${key} is among the models`);
    for (const method of ["none", "linear", "ntk", "yarn"]) {
      close(pm.scaleModel(m, method, want.factor).invFreq, want[method], `${key} ${method} ×${want.factor}`);
      compared++;
    }
  }
  assert.ok(compared >= 20, `compared ${compared}`);
});

test("scaleModel(model, 'model') equals posenc.scaling.for_model for every RoPE model in models.yaml", () => {
  assert.ok(ref.models.length >= 5, "models.yaml has RoPE models");
  for (const m of ref.models) {
    const got = pm.scaleModel(m, "model", 1);
    close(got.invFreq, ref.for_model[m.key].inv, `for_model ${m.key}`);
    close([got.attentionFactor], [ref.for_model[m.key].att], `attention factor ${m.key}`);
  }
});

test("single-head attention matches posenc.attention.attend on the same weights and inputs", () => {
  const { w_q, w_k, w_v, x, out, weights } = ref.attention;
  const res = pm.attention(x, w_q, w_k, w_v);
  close(res.out.map((r) => Array.from(r)).flat(), out.flat(), "attention out");
  close(res.weights.flat(), weights.flat(), "attention weights");
});

test("mulberry32 gives the documented sequence", () => {
  for (const [seed, want] of Object.entries(ref.mulberry32)) {
    const r = pm.mulberry32(Number(seed));
    close(want.map(() => r()), want, `mulberry32(${seed})`, { rel: 0, abs: 0 });
  }
});

test("ALiBi slopes equal posenc.relative.alibi_slopes bit for bit, powers of two and not (BLOOM's 112 heads)", () => {
  for (const n of ref.relative.heads) close(pm.alibiSlopes(n), ref.relative.slopes[String(n)], `slopes n=${n}`, { rel: 0, abs: 0 });
  assert.throws(() => pm.alibiSlopes(0), /n_heads/);
  assert.throws(() => pm.alibiSlopes(2.5), /n_heads/);
});

test("ALiBi bias −m·r, weight factor exp(−m·r) and reach ln(f)/m match posenc.relative", () => {
  const R = ref.relative;
  for (const n of ["8", "12", "112"]) {
    const slopes = pm.alibiSlopes(Number(n));
    slopes.forEach((m, h) => {
      close(R.distances.map((r) => pm.alibiBias(m, r)), R.bias[n][h], `bias n=${n} h=${h}`, { rel: 0, abs: 0 });
      // exp may differ by an ulp between V8 and the C library
      close(R.distances.map((r) => pm.alibiWeightRatio(m, r)), R.weight[n][h], `weight n=${n} h=${h}`, { rel: 4e-16, abs: 0 });
      close([1.5, 10, 1000].map((f) => pm.alibiReach(m, f)), R.reach[n][h], `reach n=${n} h=${h}`, { rel: 0, abs: 0 });
    });
  }
  assert.equal(Object.is(pm.alibiBias(0.5, 0), 0), true, "distance 0 gives +0, not −0");
  assert.throws(() => pm.alibiWeightRatio(0.5, -1), /distance/);
  assert.throws(() => pm.alibiReach(0.5, 1), /大于 1/);
  assert.throws(() => pm.alibiReach(0, 10), /slope/);
});

test("T5 buckets equal posenc.relative.t5_bucket for every relative position −10,000 … 10,000, both directions", () => {
  const R = ref.relative;
  let compared = 0;
  for (const [nb, md] of R.t5_pairs) {
    for (const bi of [true, false]) {
      const key = `${nb},${md},${Number(bi)}`;
      if (R.t5_errors.includes(key)) {
        assert.throws(() => pm.t5Args(nb, md, bi), /num_buckets|max_distance/, `${key} must be refused like posenc refuses it`);
        continue;
      }
      const want = R.t5[key];
      for (let i = 0; i < want.length; i++) {
        const got = pm.t5Bucket(i - 10000, bi, nb, md);
        if (got !== want[i]) assert.fail(`t5 bucket(${i - 10000}) with ${key}: JS ${got} vs posenc ${want[i]}`);
      }
      assert.deepEqual(pm.t5BucketEdges(bi, nb, md), R.t5_edges[key], `edges ${key}`);
      compared += 1;
    }
  }
  assert.ok(compared >= 15 && R.t5_errors.length >= 2, `compared ${compared} settings, refused ${R.t5_errors}`);
});

test("T5 bucket arguments are refused as posenc refuses them, with the argument named", () => {
  assert.throws(() => pm.t5Args(1, 128, true), /num_buckets/);
  assert.throws(() => pm.t5Args(3, 128, true), /精确桶/); // one bucket per direction: no exact one
  assert.throws(() => pm.t5Args(32, 8, true), /max_distance = 8.*max_exact = 8/);
  assert.throws(() => pm.t5Args(32, 16, false), /max_exact = 16/);
  assert.throws(() => pm.t5Args(32.5, 128, true), /num_buckets/);
  assert.throws(() => pm.t5Args(32, 128, "yes"), /bidirectional/);
  assert.throws(() => pm.t5Bucket(1.5, true, 32, 128), /整数/);
});

test("parseInput: clear Chinese messages for empty, non-numeric, negative, too large, odd d, base ≤ 1", () => {
  const bad = [
    ["", { label: "位置 p", kind: "position" }, /请填写位置 p/],
    ["   ", { label: "位置 p", kind: "position" }, /请填写/],
    ["", { label: "base", kind: "base" }, /^请填写 base。$/],
    ["", { label: "num_buckets", kind: "int", min: 2 }, /^请填写 num_buckets。$/],
    ["abc", { label: "位置 p", kind: "position" }, /要填数字/],
    ["0x10", { label: "位置 p", kind: "position" }, /要填数字/],
    ["Infinity", { label: "位置 p", kind: "position" }, /要填数字/],
    ["NaN", { label: "位置 p", kind: "position" }, /要填数字/],
    ["-3", { label: "位置 p", kind: "position" }, /不能是负数/],
    ["1e10", { label: "位置 p", kind: "position" }, /不能超过 1,000,000,000/],
    ["1000000001", { label: "位置 p", kind: "position" }, /不能超过/],
    ["2.5", { label: "位置 p", kind: "position" }, /整数/],
    ["15", { label: "维度 d", kind: "dim" }, /正偶数.*试试 16/],
    ["0", { label: "维度 d", kind: "dim" }, /最小是 2|正偶数/],
    ["1", { label: "base", kind: "base" }, /大于 1/],
    ["0.5", { label: "base", kind: "base" }, /大于 1/],
    ["0.5", { label: "s", kind: "factor" }, /不小于 1/],
    ["80", { label: "维度 d", kind: "dim", max: 64 }, /最大是 64/],
  ];
  for (const [text, spec, re] of bad) {
    const r = pm.parseInput(text, spec, zh);
    assert.equal(r.ok, false, `${JSON.stringify(text)} should be rejected`);
    assert.match(r.message, re, `${JSON.stringify(text)} → ${r.message}`);
    assert.doesNotMatch(r.message.replace(`「${text.trim()}」`, ""), /NaN|Infinity|undefined/);
    // Chinese and Latin letters or digits are set apart by a space (the reader's own text in 「」 aside)
    assert.doesNotMatch(r.message.replace(/「[^」]*」/g, "「」"), /[\u3400-\u9fff][A-Za-z0-9]|[A-Za-z0-9][\u3400-\u9fff]/, r.message);
  }
  const good = [
    ["100,000", { kind: "position" }, 100000],
    ["１０２４", { kind: "position" }, 1024],
    [" 3 ", { kind: "position" }, 3],
    ["1e9", { kind: "position" }, 1e9],
    ["16", { kind: "dim" }, 16],
    ["10000", { kind: "base" }, 10000],
    ["1.5", { kind: "base" }, 1.5],
    ["4", { kind: "factor" }, 4],
  ];
  for (const [text, spec, want] of good) assert.deepEqual(pm.parseInput(text, spec, zh), { ok: true, value: want });
});

test("formatting never shows NaN or Infinity and uses the typographic minus", () => {
  assert.equal(pm.formatNumber(-0.98999, 3), "−0.990");
  assert.equal(pm.formatNumber(19869.17, 0), "19,869");
  assert.equal(pm.formatNumber(-0.0001, 2), "0.00");
  assert.equal(pm.formatNumber(NaN), "—");
  assert.equal(pm.formatNumber(Infinity), "—");
  assert.equal(pm.formatSci(1.776e-15, 1), "1.8e−15");
  assert.equal(pm.formatSci(0), "0");
  assert.equal(pm.fullPrecision(0.1 + 0.2), "0.30000000000000004");
  assert.equal(pm.fullPrecision(NaN), "");
});

test("numbers round as the prose's Python rounds them: the exact binary value, an exact tie to even", () => {
  ref.fixed.cases.forEach(([v, digits], k) => assert.equal(pm.formatNumber(v, digits), ref.fixed.text[k], `formatNumber(${v}, ${digits})`));
  // Python's "1.2e-16" and "1.2e+03" are the widgets' "1.2e−16" and "1.2e3"
  const sci = (text) => { const [m, e] = text.split("e"); return `${m.replace("-", "\u2212")}e${String(Number(e)).replace("-", "\u2212")}`; };
  ref.sci.values.forEach((v, k) => {
    assert.equal(pm.formatSci(v, 1), sci(ref.sci.python[k][0]), `formatSci(${v}, 1)`);
    assert.equal(pm.formatSci(v, 3), sci(ref.sci.python[k][1]), `formatSci(${v}, 3)`);
    assert.equal(pm.formatTiny(v), ref.sci.tiny[k], `formatTiny(${v})`);
  });
});

test("formatPercent prints lesson 2's shares as posenc's prose does (2.7%, 0.054%, two figures, never 5.4e−2%)", () => {
  ref.percent.values.forEach((v, k) => assert.equal(pm.formatPercent(v), ref.percent.text[k], `formatPercent(${v})`));
  assert.equal(pm.formatPercent(0.000999), "0.10%");
  assert.equal(pm.formatPercent(0), "0%");
  assert.equal(pm.formatPercent(NaN), "—");
});

test("formatTiny prints a rounding-sized number as posenc's prose does (2.2×10⁻¹⁶, the machine epsilon)", () => {
  ref.tiny.values.forEach((v, k) => assert.equal(pm.formatTiny(v), ref.tiny.text[k], `formatTiny(${v})`));
  assert.equal(pm.formatTiny(Number.EPSILON), ref.tiny.text[0], "Number.EPSILON is float64's machine epsilon");
  assert.equal(pm.formatTiny(NaN), "—");
  assert.equal(pm.formatTiny(-Infinity), "—");
});

test("functions reject bad arguments instead of returning NaN", () => {
  assert.throws(() => pm.angularFrequencies(15), /偶数/);
  assert.throws(() => pm.angularFrequencies(16, 1), /大于 1/);
  assert.throws(() => pm.encode(-1, 16), /非负整数/);
  assert.throws(() => pm.encode(2.5, 16), /非负整数/);
  assert.throws(() => pm.linear(128, 1e6, 0.5), /不小于 1/);
  assert.throws(() => pm.yarnCorrectionRange(128, 1e6, 32768, 1, 32), /beta_fast/);
});

test("lesson 2's raw index: content RMS / p equals posenc.naive for every (p, σ), and p = 0 is refused as posenc refuses it", () => {
  const N = ref.naive;
  N.rms.forEach((r, i) => {
    close(N.positions.map((p) => pm.rawIndexContentRatio(p, r)), N.ratio[i], `ratio σ=${r}`, { rel: 0, abs: 0 });
    close(pm.rawIndexContentRatios(N.positions, r), N.ratios[i], `ratios σ=${r}`, { rel: 0, abs: 0 });
  });
  assert.equal(N.refused.length, 4, "posenc refuses p = 0, p < 0 and σ ≤ 0");
  for (const [p, r] of N.refused) assert.throws(() => pm.rawIndexContentRatio(p, r), /p|content_rms/);
  assert.throws(() => pm.rawIndexContentRatio(0, 1), /位置 0/);
  assert.throws(() => pm.rawIndexContentRatio(2.5, 1), /非负整数/);
});

test("lesson 2's position table: which positions have a row and its size equal posenc.learned for GPT-2 and BERT", () => {
  const T = ref.learned;
  for (const [key, m] of Object.entries(T.models)) {
    assert.deepEqual(T.positions.map((p) => pm.hasRow(m.rows, p)), T.has_row[key], `has_row ${key}`);
    assert.equal(pm.tableParameters(m.rows, m.width), m.params, `table_parameters ${key}`);
  }
  assert.ok(T.has_row.gpt2.includes(true) && T.has_row.gpt2.includes(false));
  assert.throws(() => pm.hasRow(0, 3), /rows/);
  assert.throws(() => pm.hasRow(1024, -1), /非负整数/);
  assert.throws(() => pm.tableParameters(1024, 0), /width/);
});
