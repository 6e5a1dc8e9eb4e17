// Argument checks shared by the formula modules (posenc/_check.py): each throws an Error with a
// Chinese message that names the argument, so a bad call never returns NaN. Not part of the public API.

export function evenDim(name, d) {
  if (!Number.isInteger(d) || d <= 0 || d % 2) throw new Error(`${name} 要是正偶数，收到 ${d}`);
  return d;
}

export function checkBase(name, b) {
  if (typeof b !== "number" || !Number.isFinite(b) || b <= 1) throw new Error(`${name} 要是大于 1 的有限数，收到 ${b}`);
  return b;
}

export function position(name, p) {
  if (!Number.isInteger(p) || p < 0) throw new Error(`${name} 要是非负整数位置，收到 ${p}`);
  return p;
}

export function positive(name, x) {
  if (typeof x !== "number" || !Number.isFinite(x) || x <= 0) throw new Error(`${name} 要是正的有限数，收到 ${x}`);
  return x;
}

export function factorArg(name, s) {
  if (typeof s !== "number" || !Number.isFinite(s) || s < 1) throw new Error(`${name} 要是不小于 1 的有限数，收到 ${s}`);
  return s;
}

export function context(name, L) {
  if (!Number.isInteger(L) || L <= 0) throw new Error(`${name} 要是正整数（token 数），收到 ${L}`);
  return L;
}

export function count(name, n, minimum = 1) {
  if (!Number.isInteger(n) || n < minimum) throw new Error(`${name} 要是不小于 ${minimum} 的整数，收到 ${n}`);
  return n;
}

export function nonNegative(name, x) {
  if (typeof x !== "number" || !Number.isFinite(x) || x < 0) throw new Error(`${name} 要是不小于 0 的有限数（往前数的 token 数），收到 ${x}`);
  return x;
}
