// sin-dot.js's words (zh): the same keys and {fields} as strings/en/sin-dot.js. Loaded with the widget (widgets/index.js), on pages of this language only.
export default {
  "sin-dot.k_over_max": "页内实验的参数不合要求：data-k = {k} 超过了 data-max = {max}。下面是构建时画好的静态图。",
  "sin-dot.title": "试一试：换一个起点 p，曲线动不动？",
  "sin-dot.position": "起点 p",
  "sin-dot.distance": "距离 δ",
  "sin-dot.slider": "距离 δ（滑块）",
  "sin-dot.presets": "预设起点",
  "sin-dot.presets_label": "预设：",
  "sin-dot.plot": "折线图：横轴距离 δ 从 0 到 {max}，纵轴 PE(p)·PE(p+δ)；宽的浅色线是 Σcos(δωᵢ)",
  "sin-dot.axis": "距离 δ（token）",
  "sin-dot.readout_k": "，δ = ",
  "sin-dot.readout_dot": "：PE(p)·PE(p+δ) = ",
  "sin-dot.readout_closed": "；公式 Σᵢcos(δωᵢ) = ",
  "sin-dot.readout_end": "。",
  "sin-dot.curve_1": "整条曲线（δ = 0 … {max}）与公式的最大差值：",
  "sin-dot.curve_2": "。起点怎么换，曲线都不动。",
};
