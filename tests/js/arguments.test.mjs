// The formulas' contract at their edges: every bad argument is refused with a message that names the
// argument and what it got (posenc-math/_check.js, as posenc/_check.py), every good one at the boundary is
// taken, and what a reader sees is formatted and parsed as documented (posenc-math/format.js).
//
//   node --test tests/js/          (from the repository root)
//
// No reference numbers here: the values are the definitions' own (ω_0 = 1, a boundary, an identity).
import assert from "node:assert/strict";
import { test } from "node:test";

import * as check from "../../docs/javascripts/posenc-math/_check.js";
import * as pm from "../../docs/javascripts/posenc-math.js";
import en from "../../docs/javascripts/widgets/strings/en.js";
import zh from "../../docs/javascripts/widgets/strings/zh.js";

/** fn() throws an Error whose message names `name` first and says what it got. */
function refuses(fn, name, got, what) {
  assert.throws(fn, (err) => {
    assert.ok(err instanceof Error, `${what}: not an Error`);
    assert.ok(err.message.startsWith(`${name} `), `${what}: message does not start with ${name}: ${err.message}`);
    assert.ok(err.message.endsWith(`收到 ${got}`), `${what}: message does not say what it got (${got}): ${err.message}`);
    return true;
  }, what);
}

test("argument checks refuse each bad value at the boundary, naming the argument, and return a good one", () => {
  const cases = [
    [check.evenDim, "d", [0, -2, 3, 2.5, "4", NaN], [2, 64], /要是正偶数/],
    [check.checkBase, "base", [1, 0.5, -3, Infinity, NaN, "10"], [1.0000001, 10000], /大于 1 的有限数/],
    [check.position, "p", [-1, 1.5, "3", NaN], [0, 1e9], /非负整数位置/],
    [check.positive, "x", [0, -1, Infinity, NaN, "1"], [1e-300, 2], /正的有限数/],
    [check.factorArg, "factor", [0.999, 0, Infinity, NaN, "2"], [1, 40], /不小于 1 的有限数/],
    [check.context, "L", [0, -3, 1.5, "8"], [1, 32768], /正整数（token 数）/],
    [check.nonNegative, "r", [-0.1, -Infinity, Infinity, NaN, "0"], [0, 0.5], /不小于 0 的有限数/],
  ];
  for (const [fn, name, bad, good, phrase] of cases) {
    for (const x of bad) {
      refuses(() => fn(name, x), name, x, `${fn.name}(${JSON.stringify(x)})`);
      assert.throws(() => fn(name, x), phrase);
    }
    for (const x of good) assert.equal(fn(name, x), x, `${fn.name}(${x}) returns its value`);
  }
  refuses(() => check.count("n", 0), "n", 0, "count below the default minimum 1");
  assert.throws(() => check.count("n", 0), /不小于 1 的整数/);
  refuses(() => check.count("n", 2, 3), "n", 2, "count below its minimum");
  assert.throws(() => check.count("n", 2, 3), /不小于 3 的整数/);
  refuses(() => check.count("n", 2.5), "n", 2.5, "count not an integer");
  assert.equal(check.count("n", 1), 1);
  assert.equal(check.count("n", 3, 3), 3);
});

test("formatNumber, formatSci, formatInt, fullPrecision: separators, typographic minus, no negative zero, never NaN", () => {
  assert.equal(pm.formatNumber(-1234.5, 1), "−1,234.5");
  assert.equal(pm.formatNumber(1234567.891, 2), "1,234,567.89");
  assert.equal(pm.formatNumber(-0.0004, 3), "0.000");
  assert.equal(pm.formatNumber(-0.4, 0), "0");
  assert.equal(pm.formatNumber(0.5), "0.500", "three decimals by default");
  assert.equal(pm.formatNumber("3", 1), "—");
  assert.equal(pm.formatNumber(-Infinity), "—");
  assert.equal(pm.formatSci(-1.5e-7, 2), "−1.50e−7");
  assert.equal(pm.formatSci(12345, 1), "1.2e4");
  assert.equal(pm.formatSci(2.5e-3), "2.5e−3", "one decimal by default");
  assert.equal(pm.formatSci(Infinity), "—");
  assert.equal(pm.formatSci("1e-3"), "—");
  assert.equal(pm.formatInt(-1000000), "−1,000,000");
  assert.equal(pm.formatInt(-0.4), "0");
  assert.equal(pm.fullPrecision(-Infinity), "");
  assert.equal(pm.fullPrecision(-2.5e-17), "-2.5e-17");
  assert.equal(pm.MAX_INPUT, 1e9);
});

test("a value computed two ways prints the same: ALiBi's slope 2^−7 for 8 heads (head 7) and for 112 (head 56)", () => {
  const exact = pm.alibiSlopes(8)[6]; // 2^(−8·7/8), exact
  const bloom = pm.alibiSlopes(112)[55]; // 2^(−8·56/64) as the authors' start·start^h computes it: a few ulps below
  assert.equal(exact, 2 ** -7);
  assert.ok(bloom !== exact && Math.abs(bloom - exact) < 1e-15, `${bloom}`);
  for (const m of [bloom, exact]) {
    // 2^−7 = 0.0078125 is an exact tie at these widths: to even, as Python prints it for the prose ("7.812e-03", "0.007812")
    assert.equal(pm.formatSci(m, 3), "7.812e\u22123");
    assert.equal(pm.formatNumber(m, 6), "0.007812"); // the width at which the two once differed
  }
  assert.equal(pm.formatInt(123456789012345), "123,456,789,012,345", "an exact integer keeps every digit");
});

test("parseInput: full-width digits, signs and separators are read, kinds and limits refused with their message", () => {
  const ok = (text, spec, want) => assert.deepEqual(pm.parseInput(text, spec, zh), { ok: true, value: want }, JSON.stringify(text));
  ok("１２３", { kind: "position" }, 123);
  ok("1。5", { kind: "real" }, 1.5);
  ok("1．25", { kind: "real" }, 1.25);
  ok("＋5", { kind: "int" }, 5);
  ok("−2.5", { kind: "real" }, -2.5);
  ok("1_000", { kind: "position" }, 1000);
  ok("1，000", { kind: "position" }, 1000);
  ok(".5", { kind: "real" }, 0.5);
  ok(".25", { kind: "real" }, 0.25);
  ok("12.5", { kind: "real" }, 12.5);
  ok("0", { kind: "position" }, 0);
  ok("1", { kind: "position" }, 1);
  ok("5.", { kind: "real" }, 5);
  ok("1e-3", { kind: "real" }, 0.001);
  ok("2", { kind: "dim" }, 2);
  ok("1.0001", { kind: "base" }, 1.0001);
  ok("1", { kind: "factor" }, 1);
  ok("6", { kind: "int", min: 6, max: 6 }, 6);
  ok("-1000000000", { kind: "real" }, -1e9);
  const no = (text, spec, re, strings = zh) => {
    const r = pm.parseInput(text, spec, strings);
    assert.equal(r.ok, false, `${JSON.stringify(text)} should be refused`);
    assert.match(r.message, re, `${JSON.stringify(text)} → ${r.message}`);
  };
  no("－3", { label: "位置 p", kind: "position" }, /不能是负数：位置从 0 开始数/);
  no("-3", { label: "x", kind: "real", min: 0 }, /^x 不能是负数，收到 -3。$/);
  no("5＋", { label: "x" }, /要填数字/);
  no(undefined, { label: "x" }, /^请填写 x。$/);
  no(null, { label: "x" }, /^请填写 x。$/);
  no("-1", { label: "x", kind: "real", min: 0 }, /不能是负数/);
  no("5", { label: "x", kind: "int", min: 6 }, /最小是 6/);
  no("0.4", { label: "x", kind: "real", min: 0.5 }, /最小是 0\.50/);
  no("3", { label: "x", kind: "real", max: 2.5 }, /最大是 2\.50/);
  no("7", { label: "x", kind: "int", max: 6 }, /最大是 6/);
  no("1.5", { label: "n", kind: "int" }, /整数/);
  no("1.5", { label: "d", kind: "dim" }, /整数/);
  no("-1000000001", { label: "x", kind: "real" }, /不能超过/);
  no("1e", { label: "x" }, /要填数字/);
  no("1.2.3", { label: "x" }, /要填数字/);
  no("", {}, new RegExp(`^请填写${zh.input_label}`), zh);
  // the English table: the label starts a sentence with a capital
  no("abc", { label: "extension factor s", kind: "factor" }, /^Extension factor s must be a number/, en);
  no("", { label: "extension factor s", kind: "factor" }, /^Enter extension factor s\.$/, en);
  assert.throws(() => pm.parseInput("1", { kind: "real" }), /needs a string table/);
  assert.throws(() => pm.parseInput("1", { kind: "real" }, { input_label: 3 }), /needs a string table/);
});

test("parseInput's messages: the label set apart from Chinese by a space, capitalised in English, the reader's text quoted", () => {
  const msg = (text, spec, strings = zh) => pm.parseInput(text, spec, strings).message;
  assert.equal(msg("x", { label: "base" }), "base 要填数字，「x」不是数字。", "a Latin label ends in a space before Chinese");
  assert.equal(msg("x", { label: "位置 (p)" }), "位置 (p) 要填数字，「x」不是数字。", "so does one ending in a bracket");
  assert.equal(msg("x", { label: "位置" }), "位置要填数字，「x」不是数字。", "a Chinese label does not");
  assert.equal(msg("x", { label: "第 i 对" }), "第 i 对要填数字，「x」不是数字。", "nor one with a Latin letter inside that ends in Chinese");
  assert.equal(msg("", { label: "位置" }), "请填写位置。");
  assert.equal(msg("", { label: "d" }), "请填写 d。");
  assert.equal(msg(" 1e999 ", { label: "x" }), "x 要填数字，「1e999」不是数字。", "a number too large for a double, trimmed");
  assert.equal(msg("-5", { label: "n", kind: "int", min: 0 }), "n 不能是负数，收到 -5。");
  assert.equal(msg("7", { label: "d", kind: "dim" }), "d 要是正偶数（sin、cos 成对出现），收到 7；试试 8。");
  assert.equal(msg("1,001", { label: "d", kind: "dim" }), "d 要是正偶数（sin、cos 成对出现），收到 1,001；试试 1,002。");
  assert.equal(msg("x", { label: "extension factor s" }, en), "Extension factor s must be a number; “x” is not one.");
  assert.equal(msg("x", {}, en), "This value must be a number; “x” is not one.", "the table's own label when none is given");
  assert.equal(msg("0", { label: "d", kind: "dim", min: 4 }), "d 最小是 4，收到 0。", "a dimension's own minimum above 2");
});

test("formatNumber keeps a small negative number's sign; only a rounded-away zero loses it", () => {
  assert.equal(pm.formatNumber(-0.001, 3), "−0.001");
  assert.equal(pm.formatNumber(-0.0006, 3), "−0.001");
  assert.equal(pm.formatNumber(-0.00049, 3), "0.000");
  assert.equal(pm.formatNumber(-10.04, 1), "−10.0");
  assert.equal(pm.formatNumber(-100, 0), "−100");
});

test("each formula names the argument it refuses (the name the reader's caller passed, not a blank)", () => {
  refuses(() => pm.angularFrequencies(15), "d", 15, "odd d");
  refuses(() => pm.angularFrequencies(16, 1), "base", 1, "base 1");
  refuses(() => pm.encode(-1, 16), "p", -1, "negative p");
  refuses(() => pm.inverseFrequencies(128, 0.5), "base", 0.5, "RoPE base 0.5");
  refuses(() => pm.hasRow(0, 1), "rows", 0, "a table of no rows");
  refuses(() => pm.hasRow(1024, -1), "p", -1, "negative p");
  refuses(() => pm.tableParameters(1024, 0), "width", 0, "a table of no width");
  assert.equal(pm.hasRow(1024, 1023), true);
  assert.equal(pm.hasRow(1024, 1024), false);
  assert.equal(pm.tableParameters(1024, 768), 786432);
});

test("RoPE: a head whose rotary part rounds down to 0 dims is refused; a pair whose period is exactly L turns within L", () => {
  assert.throws(() => pm.rotaryDim(1, 0.5), /= 0 维，RoPE 要正偶数维/);
  assert.throws(() => pm.rotaryDim(3, 0.5), /= 1 维/);
  // λ = 2π / (2π/4) = 4 exactly: it completes its turn within 4 tokens (#{λ > L}, as posenc counts)
  assert.equal(pm.wavelengths([Math.PI / 2])[0], 4);
  assert.equal(pm.pairsNotCompletingTurn([Math.PI / 2], 4), 0);
  assert.equal(pm.pairsNotCompletingTurn([Math.PI / 2], 3), 1);
});

test("fillText fills named fields, keeps unknown ones, and refuses a missing text", () => {
  assert.equal(pm.fillText("{a} and {b}", { a: 1 }), "1 and {b}");
  assert.equal(pm.fillText("{a}{a}", { a: "x" }), "xx");
  assert.equal(pm.fillText("plain"), "plain");
  assert.throws(() => pm.fillText(undefined, {}), /no such text/);
});

test("sinusoidal: the base defaults to Vaswani's 10,000; angles stay in [0, 2π); the closed form needs an integer k", () => {
  assert.equal(pm.DEFAULT_BASE, 10000);
  assert.deepEqual(pm.angularFrequencies(4), Float64Array.from([1, 0.01]));
  assert.deepEqual(pm.periods(4), Float64Array.from([2 * Math.PI, 200 * Math.PI]));
  assert.deepEqual(pm.encode(0, 4), Float64Array.from([0, 1, 0, 1]));
  assert.deepEqual(pm.handAngles(0, 4), Float64Array.from([0, 0]));
  assert.equal(pm.dot(5, 5, 4), 2, "PE(p)·PE(p) = d/2");
  assert.equal(pm.dotClosedForm(0, 4), 2);
  assert.deepEqual(pm.dotMatrix([3], 4), [[2]]);
  for (const p of [7, 1e6, 999999999]) {
    for (const a of pm.handAngles(p, 64)) assert.ok(a >= 0 && a < 2 * Math.PI, `angle ${a} at p = ${p}`);
  }
  assert.equal(pm.handAngles(7, 2)[0], 7 - 2 * Math.PI, "p·ω reduced by whole turns (ω_0 = 1)");
  assert.throws(() => pm.dotClosedForm(1.5, 16), /k 要是整数距离，收到 1.5/);
  assert.throws(() => pm.handAngles(-1, 16), /p 要是非负整数位置/);
  assert.equal(pm.vdot([1, 2, 3], [4, 5, 6]), 32);
  assert.equal(pm.maxAbsDiff([[1, 2], [3, 4]], [[1, 2.5], [2, 4]]), 1);
  assert.equal(pm.maxAbsDiff([[-1]], [[1]]), 2);
  assert.equal(pm.maxAbsDiff([[0]], [[0]]), 0);
});

test("rope: rotary dims, wavelengths and rotation refuse bad arguments by name", () => {
  assert.equal(pm.rotaryDim(128), 128);
  assert.equal(pm.rotaryDim(128, 0.25), 32);
  assert.equal(pm.rotaryDim(2, 1), 2);
  refuses(() => pm.rotaryDim(0), "head_dim", 0, "head_dim 0");
  refuses(() => pm.rotaryDim(2.5), "head_dim", 2.5, "head_dim 2.5");
  refuses(() => pm.rotaryDim(128, 0), "rotary_fraction", 0, "fraction 0");
  refuses(() => pm.rotaryDim(128, 1.5), "rotary_fraction", 1.5, "fraction 1.5");
  assert.throws(() => pm.rotaryDim(10, 0.5), /= 5 维，RoPE 要正偶数维/);
  assert.throws(() => pm.rotaryDim(1), /= 1 维/);
  assert.deepEqual(pm.wavelengths([1]), Float64Array.from([2 * Math.PI]));
  refuses(() => pm.wavelengths([1, 0]), "inv_freq", 0, "a zero frequency");
  assert.equal(pm.pairsNotCompletingTurn([1, 0.001], 6), 2, "λ = 2π > 6");
  assert.equal(pm.pairsNotCompletingTurn([1, 0.001], 7), 1);
  assert.equal(pm.pairsNotCompletingTurn([1], 7), 0);
  refuses(() => pm.pairsNotCompletingTurn([1], 0), "context", 0, "context 0");
  assert.deepEqual(pm.rotatePair([1, 0], Math.PI / 2).map((v) => Math.round(v * 1e12) / 1e12), [0, 1], "counter-clockwise");
  assert.throws(() => pm.rotate([1, 0], 0, [1], "other"), /convention 只能是 interleaved 或 half，收到 other/);
  assert.throws(() => pm.rotate([1, 0], 0, [1, 1]), /inv_freq 有 2 对，但向量只有 2 维/);
  refuses(() => pm.rotate([1, 0], -1, [1]), "m", -1, "negative position");
  assert.deepEqual(pm.rotate([1, 2, 3], 0, [1]), Float64Array.from([1, 2, 3]), "position 0 turns nothing; the extra dim passes through");
  const half = pm.rotate([1, 0, 0, 0], 1, [1, 0.5], "half");
  assert.ok(Math.abs(half[2] - Math.sin(1)) < 1e-15 && Math.abs(half[0] - Math.cos(1)) < 1e-15, "half: pair 0 is dims 0 and d/2");
});

test("scaling: each method refuses bad arguments and keeps its documented identities", () => {
  assert.throws(() => pm.ntkAwareBase(10000, 4, 2), /NTK-aware 需要 dim ≥ 4，收到 2/);
  assert.equal(pm.ntkAwareBase(10000, 1, 4), 10000, "s = 1 leaves the base");
  assert.equal(pm.ntkAwareBase(100, 4, 4), 100 * 4 ** 2);
  refuses(() => pm.ntkAwareBase(1, 4, 8), "base", 1, "base 1");
  refuses(() => pm.ntkAwareBase(100, 4, 7), "dim", 7, "odd dim");
  assert.equal(pm.yarnMscale(1), 1);
  assert.equal(pm.yarnMscale(Math.E), 1.1);
  assert.equal(pm.yarnMscale(Math.E, 2), 1.2);
  refuses(() => pm.yarnMscale(2, 0), "mscale", 0, "mscale 0");
  assert.equal(pm.yarnAttentionFactor(Math.E), 1.1);
  assert.equal(pm.yarnAttentionFactor(Math.E, 2), 1.1, "mscale alone does not change the default");
  assert.equal(pm.yarnAttentionFactor(Math.E, 2, 2), 1);
  assert.equal(pm.yarnAttentionFactor(Math.E, 2, 1), 1.2 / 1.1);
  refuses(() => pm.yarnAttentionFactor(2, -1), "mscale", -1, "mscale −1");
  refuses(() => pm.yarnAttentionFactor(2, null, 0), "mscale_all_dim", 0, "mscale_all_dim 0");
  assert.equal(pm.yarnCorrectionDim(1, 2, Math.E, Math.round(2 * Math.PI * Math.E)) > 0, true);
  refuses(() => pm.yarnCorrectionDim(0, 8, 10000, 4096), "rotations", 0, "rotations 0");
  assert.deepEqual(pm.yarnCorrectionRange(8, 10000, 4096, 1e9, 1e-9), [0, 7], "clamped to [0, dim − 1]");
  assert.deepEqual(Array.from(pm.yarnRamp(1, 3, 5)), [0, 0, 0.5, 1, 1]);
  assert.deepEqual(Array.from(pm.yarnRamp(2, 2, 4)), [0, 0, 0, 1], "a zero-width ramp is a step just past it");
  assert.throws(() => pm.yarnRamp(0, 1, 0), /n_pairs 要是正整数，收到 0/);
  assert.throws(() => pm.yarnRamp(0, 1, 2.5), /n_pairs 要是正整数，收到 2.5/);
  assert.throws(() => pm.llama3(128, 500000, 8, 4, 4, 8192), /high_freq_factor 要大于 low_freq_factor，收到 4 和 4/);
  assert.equal(pm.longropeAttentionFactor(1, 4096), 1);
  assert.equal(pm.longropeAttentionFactor(Math.E, Math.E ** 2 > 7 ? 8 : 7) > 1, true);
  assert.throws(() => pm.longrope(4, 10000, [1, 1], [1, -1], 4096, { factor: 2 }), /long_factor 要是 2 个正数/);
  assert.throws(() => pm.longrope(4, 10000, [1], [1, 1], 4096, { factor: 2 }), /short_factor 要是 2 个正数/);
  const lr = pm.longrope(4, 10000, [1, 2], [4, 8], 4096, { factor: 2 });
  assert.deepEqual(Array.from(lr.invFreq), [1, 0.01 / 2], "the short list when no seq_len is given");
  const lrLong = pm.longrope(4, 10000, [1, 2], [4, 8], 4096, { factor: 2, seqLen: 4097 });
  assert.deepEqual(Array.from(lrLong.invFreq), [0.25, 0.01 / 8], "the long list past the original context");
  assert.equal(pm.longrope(4, 10000, [1, 2], [4, 8], 4096, { maxPositionEmbeddings: 8192 }).attentionFactor, pm.longropeAttentionFactor(2, 4096));
  const model = { head_dim: 4, rope_theta: 10000, context: 4096 };
  assert.deepEqual(Array.from(pm.scaleModel(model, "none", 1).invFreq), [1, 0.01]);
  assert.deepEqual(Array.from(pm.scaleModel(model, "model", 1).invFreq), [1, 0.01], "a model without scaling keeps its frequencies");
  assert.deepEqual(Array.from(pm.scaleModel(model, "linear", 2).invFreq), [0.5, 0.005]);
  assert.throws(() => pm.scaleModel(model, "cubic", 2), /未知的方法 cubic/);
  assert.throws(() => pm.scaleModel({ ...model, scaling: { rope_type: "magic" } }, "model", 1), /还没实现 rope_type magic/);
});

test("relative: ALiBi and T5 refuse bad arguments by name", () => {
  assert.throws(() => pm.alibiReach(0.5, 1), /factor 要大于 1（权重缩小的倍数），收到 1/);
  refuses(() => pm.alibiReach(0.5, -2), "factor", -2, "a negative factor");
  refuses(() => pm.alibiReach(0, 10), "slope", 0, "slope 0");
  refuses(() => pm.alibiBias(0, 1), "slope", 0, "bias, slope 0");
  refuses(() => pm.alibiBias(0.5, -1), "distance", -1, "bias, negative distance");
  refuses(() => pm.alibiWeightRatio(-1, 1), "slope", -1, "weight, negative slope");
  refuses(() => pm.alibiWeightRatio(0.5, NaN), "distance", NaN, "weight, distance NaN");
  refuses(() => pm.alibiSlopes(0), "n_heads", 0, "no heads");
  assert.equal(pm.alibiReach(1, Math.E), 1);
  assert.equal(pm.alibiBias(0.5, 4), -2);
  assert.equal(pm.alibiWeightRatio(1, 0), 1);
  assert.throws(() => pm.t5Args(32, 128, "yes"), /bidirectional 只能是 true（编码器）或 false（解码器），收到 yes/);
  assert.throws(() => pm.t5Args(3, 128, true), /num_buckets = 3 时每个方向一个精确桶也没有/);
  assert.throws(() => pm.t5Args(2, 128, true), /num_buckets = 2 时每个方向一个精确桶也没有/);
  refuses(() => pm.t5Args(1, 128, false), "num_buckets", 1, "one bucket");
  refuses(() => pm.t5Args(32, 0, false), "max_distance", 0, "max_distance 0");
  assert.deepEqual(pm.t5Args(32, 128, true), { numBuckets: 32, maxDistance: 128, oneSide: 16, maxExact: 8 });
  assert.deepEqual(pm.t5Args(5, 3, false), { numBuckets: 5, maxDistance: 3, oneSide: 5, maxExact: 2 });
  assert.throws(() => pm.t5Args(32, 8, true), /max_distance = 8 要大于精确区的长度 max_exact = 8（每个方向桶数的一半）/);
  assert.throws(() => pm.t5Args(32, 16, false), /max_distance = 16 要大于精确区的长度 max_exact = 16（桶数的一半）/);
  assert.throws(() => pm.t5Bucket(1.5, true, 32, 128), /相对位置 j − i 要是整数，收到 1.5/);
  assert.throws(() => pm.rawIndexContentRatio(0, 1), /p 至少是 1/);
});

test("attention's parts: softmax never overflows, Box–Muller from a known draw, std scales, matmul and distance by hand", () => {
  assert.deepEqual(pm.softmax([1000, 1000]), [0.5, 0.5], "shifted by the maximum: exp(1000) would overflow");
  assert.deepEqual(pm.softmax([-1000, 0, 1000]).map((v) => Math.round(v * 1e12) / 1e12), [0, 0, 1]);
  assert.ok(Math.abs(pm.softmax([0, Math.log(3)])[1] - 0.75) < 1e-15);
  const draws = (...xs) => () => xs.shift();
  assert.ok(Math.abs(pm.gaussian(draws(1 - Math.exp(-0.5), 0)) - 1) < 1e-15, "u = e^(−1/2), v = 0 gives 1");
  assert.ok(Math.abs(pm.gaussian(draws(1 - Math.exp(-2), 0.5)) + 2) < 1e-15, "u = e^(−2), v = 1/2 gives −2");
  assert.ok(Math.abs(pm.gaussian(draws(1 - Math.exp(-2), 1 / 6)) - 1) < 1e-15, "v = 1/6: 2·cos(π/3) = 1");
  const one = pm.randomMatrix(pm.mulberry32(7), 2, 3);
  const two = pm.randomMatrix(pm.mulberry32(7), 2, 3, 2);
  assert.equal(one.length, 2);
  assert.equal(one[0].length, 3);
  one.forEach((row, r) => row.forEach((v, c) => assert.equal(two[r][c], 2 * v, "std multiplies each draw")));
  assert.notEqual(one[0][0], one[0][1], "each entry is a new draw");
  // N(0, std²): with std = 0.5 the mean square of 10,000 draws is 0.25 (the seed fixes the draws; ±0.01 is 3 σ)
  const big = pm.randomMatrix(pm.mulberry32(3), 100, 100, 0.5).flatMap((row) => Array.from(row));
  const meanSquare = big.reduce((a, v) => a + v * v, 0) / big.length;
  assert.ok(Math.abs(meanSquare - 0.25) < 0.01, `mean square ${meanSquare}`);
  assert.ok(Math.abs(big.reduce((a, v) => a + v, 0) / big.length) < 0.015, "mean 0");
  assert.deepEqual(pm.matmul([[1, 2], [3, 4]], [[5, 6, 7], [8, 9, 10]]).map((r) => Array.from(r)), [[21, 24, 27], [47, 54, 61]]);
  assert.equal(pm.distance([0, 0], [3, 4]), 5);
  assert.equal(pm.distance([1, -1, 2], [1, -1, 2]), 0);
  const r = pm.mulberry32(0);
  const xs = Array.from({ length: 1000 }, r);
  assert.ok(xs.every((x) => x >= 0 && x < 1), "[0, 1)");
  assert.notDeepEqual(Array.from({ length: 3 }, pm.mulberry32(1)), Array.from({ length: 3 }, pm.mulberry32(2)), "the seed matters");
  assert.deepEqual(Array.from({ length: 3 }, pm.mulberry32(2 ** 32 + 5)), Array.from({ length: 3 }, pm.mulberry32(5)), "a 32-bit seed");
});

test("scaling: each function names the argument it refuses", () => {
  const cases = [
    [() => pm.linear(128, 1e6, 0.5), "factor", 0.5],
    [() => pm.ntkAwareBase(10000, 0.5, 128), "factor", 0.5],
    [() => pm.dynamicNtk(128, 1, 4, 4096), "base", 1],
    [() => pm.dynamicNtk(128, 1e4, 0.5, 4096), "factor", 0.5],
    [() => pm.dynamicNtk(128, 1e4, 4, 0), "max_position_embeddings", 0],
    [() => pm.dynamicNtk(128, 1e4, 4, 4096, 0), "seq_len", 0],
    [() => pm.yarnMscale(0.5), "factor", 0.5],
    [() => pm.yarnCorrectionDim(1, 7, 1e4, 4096), "dim", 7],
    [() => pm.yarnCorrectionDim(1, 8, 1, 4096), "base", 1],
    [() => pm.yarnCorrectionDim(1, 8, 1e4, 0), "original_context", 0],
    [() => pm.yarnCorrectionRange(8, 1e4, 4096, 0, 1), "beta_fast", 0],
    [() => pm.yarnCorrectionRange(8, 1e4, 4096, 32, 0), "beta_slow", 0],
    [() => pm.yarn(128, 1e4, 0.5, 4096), "factor", 0.5],
    [() => pm.yarn(128, 1e4, 2, 4096, { attentionFactor: 0 }), "attention_factor", 0],
    [() => pm.llama3(128, 5e5, 0.5, 1, 4, 8192), "factor", 0.5],
    [() => pm.llama3(128, 5e5, 8, 0, 4, 8192), "low_freq_factor", 0],
    [() => pm.llama3(128, 5e5, 8, 1, 0, 8192), "high_freq_factor", 0],
    [() => pm.llama3(128, 5e5, 8, 1, 4, 0), "original_context", 0],
    [() => pm.longropeAttentionFactor(0.5, 4096), "factor", 0.5],
    [() => pm.longropeAttentionFactor(2, 0), "original_context", 0],
    [() => pm.longrope(4, 1e4, [1, 1], [1, 1], 0, { factor: 2 }), "original_context", 0],
    [() => pm.longrope(4, 1e4, [1, 1], [1, 1], 4096, { maxPositionEmbeddings: 0 }), "max_position_embeddings", 0],
    [() => pm.longrope(4, 1e4, [1, 1], [1, 1], 4096, { factor: 2, attentionFactor: 0 }), "attention_factor", 0],
    [() => pm.longrope(4, 1e4, [1, 1], [1, 1], 4096, { factor: 2, seqLen: 0 }), "seq_len", 0],
  ];
  for (const [fn, name, got] of cases) refuses(fn, name, got, `${name} = ${got}`);
  // boundaries: s = 1 leaves the attention factor at 1; dynamic NTK at ℓ ≤ L is the plain base
  assert.equal(pm.yarnMscale(1), 1);
  assert.equal(pm.yarnMscale(1.0000001) > 1, true);
  assert.deepEqual(pm.dynamicNtk(4, 100, 4, 4096).invFreq, pm.dynamicNtk(4, 100, 4, 4096, 10).invFreq, "no seq_len is ℓ = L");
  assert.deepEqual(Array.from(pm.dynamicNtk(4, 100, 4, 4096).invFreq), [1, 0.1], "at ℓ = L the base is unchanged");
});

test("scaling at its edges: the documented defaults, a period exactly L, a zero LongRoPE factor, Llama 3's divided pairs", () => {
  // the paper's β_fast = 32, β_slow = 1, truncated, unless told otherwise
  assert.deepEqual(pm.yarnCorrectionRange(128, 1e6, 32768), pm.yarnCorrectionRange(128, 1e6, 32768, 32, 1, true));
  assert.notDeepEqual(pm.yarnCorrectionRange(128, 1e6, 32768), pm.yarnCorrectionRange(128, 1e6, 32768, 32, 1, false));
  assert.deepEqual(pm.yarn(128, 1e6, 4, 32768).invFreq, pm.yarn(128, 1e6, 4, 32768, { truncate: true }).invFreq);
  assert.notDeepEqual(pm.yarn(128, 1e6, 4, 32768).invFreq, pm.yarn(128, 1e6, 4, 32768, { truncate: false }).invFreq);
  // a pair whose period is exactly L has seen every angle: no overshoot (NaN), as posenc counts it
  assert.ok(Number.isNaN(pm.angleOvershoot([Math.PI / 2], [Math.PI / 4], 4, 2)[0]));
  assert.equal(pm.angleOvershoot([Math.PI / 2], [Math.PI / 4], 3, 2)[0], 1);
  assert.throws(() => pm.longrope(4, 1e4, [1, 0], [1, 1], 4096, { factor: 2 }), /short_factor 要是 2 个正数/);
  // ω = [1, 0.1]: λ = 2π < L/h = 25 kept; λ = 20π ≈ 62.8 > L/l = 50 divided by s = 2
  assert.deepEqual(Array.from(pm.llama3(4, 100, 2, 2, 4, 100).invFreq), [1, 0.05]);
});
