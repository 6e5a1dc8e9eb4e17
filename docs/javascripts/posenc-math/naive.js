// The naive design of lesson 2 (posenc/naive.py): add the raw position index p to every dim of the
// token vector. With content RMS σ per dim, content is σ / p of the position signal.
import { position, positive } from "./_check.js";

/** σ / p: content RMS divided by the added index (p ≥ 1; at p = 0 nothing is added, so no ratio). */
export function rawIndexContentRatio(p, contentRms) {
  position("p", p);
  if (p === 0) throw new Error("p 至少是 1：位置 0 上朴素方案什么也没加，比例没有定义");
  return positive("content_rms", contentRms) / p;
}

/** rawIndexContentRatio for many positions at once (each ≥ 1). */
export function rawIndexContentRatios(positions, contentRms) {
  return Float64Array.from(positions, (p) => rawIndexContentRatio(p, contentRms));
}
