// sin-heatmap.js's words (zh): the same keys and {fields} as strings/en/sin-heatmap.js. Loaded with the widget (widgets/index.js), on pages of this language only.
export default {
  "sin-heatmap.too_long": "页内实验的参数不合要求：data-sentence 有 {n} 个字，这个演示最多 {max} 个。下面是构建时画好的静态图。",
  "sin-heatmap.title": "试一试：「{sentence}」两两位置的点积 PE(m)·PE(n)",
  "sin-heatmap.start": "第一个字的位置",
  "sin-heatmap.shift": "整句往后平移 +{shift}",
  "sin-heatmap.reset": "回到位置 0",
  "sin-heatmap.readout_reference": "整句从位置 0 开始，这张表就是比较的基准：把整句往后平移，或者输入别的起点，这里会给出和它相比最大的差值。",
  "sin-heatmap.readout_1": "整句从位置 ",
  "sin-heatmap.readout_2": " 开始。和从位置 0 开始相比，{n}×{n} = {cells} 格里最大的差值是 ",
  "sin-heatmap.readout_3": "：只是浮点舍入，颜色一格不变。",
  "sin-heatmap.table": "点积表（可左右滚动）",
  "sin-heatmap.caption": "PE(m)·PE(n)（d_model = {d}，base = {base}）；行和列标出每个字和它的位置。",
  "sin-heatmap.at_limit": "再平移 +{shift}，第一个字的位置就超过这个演示的最大值 {max}（10⁹），按钮先停用；把位置改小一些再试。",
};
