// The widgets' words in Chinese: UI text and messages, by key, with {name} fields (_ui.js t()).
// strings/en.js has the same keys with the same fields (tests/test_widget_strings.py). A widget
// converted to the tables takes every word it shows from here; its keys start with its name.
export default {
  // _ui.js
  kept_last: "{message}（下面仍是上一次有效输入的结果。）",
  option_missing: "缺少 {attr}",
  option_bool: "{attr}=\"{raw}\" 要是 true 或 false",
  option_int: "{attr}=\"{raw}\" 要是整数",
  option_numbers: "{attr}=\"{raw}\" 要是用逗号隔开的数",
  option_number: "{attr}=\"{raw}\" 要是数",
  options_failed: "页内实验缺少页面传入的参数，或参数不合要求：{problems}。下面是构建时画好的静态图。",
  list_join: "；",
  // posenc-math/format.js parseInput: {label} is followed by a space when it ends in a Latin letter or digit,
  // {lead} is a space when it starts with one ("位置 p 不能…", "请填写 base。")
  input_label: "这个值",
  input_empty: "请填写{lead}{label_bare}。",
  input_nan: "{label}要填数字，「{raw}」不是数字。",
  input_too_big: "{label}不能超过 1,000,000,000（10⁹），收到 {raw}。",
  input_negative_position: "{label}不能是负数：位置从 0 开始数。",
  input_negative: "{label}不能是负数，收到 {raw}。",
  input_integer: "{label}要是整数，收到 {raw}。",
  input_even: "{label}要是正偶数（sin、cos 成对出现），收到 {value}；试试 {next}。",
  input_base: "{label}要大于 1（否则频率不会一对比一对慢），收到 {raw}；论文用 10,000。",
  input_factor: "{label}要不小于 1（新上下文 ÷ 原上下文），收到 {raw}；例如 4 把 32,768 拉长到 131,072。",
  input_min: "{label}最小是 {min}，收到 {raw}。",
  input_max: "{label}在这个演示里最大是 {max}，收到 {raw}。",
  // sin-clock.js
  "sin-clock.title": "试一试：每根指针的角度 = p × ωᵢ",
  "sin-clock.position": "位置 p",
  "sin-clock.dim": "维度 d",
  "sin-clock.base": "base",
  "sin-clock.presets": "预设位置",
  "sin-clock.presets_label": "预设：",
  "sin-clock.play": "▶ 播放",
  "sin-clock.pause": "■ 暂停",
  "sin-clock.speed": "速度",
  "sin-clock.rate": "每秒 {n} 个 token",
  "sin-clock.readout_1": "位置 p = ",
  "sin-clock.readout_2": " 的编码：",
  "sin-clock.readout_3": " 个数，每个都在 [−1, 1] 之内（绝对值最大的是 ",
  "sin-clock.readout_4": "）。",
  "sin-clock.at_end": "已到这个演示的最大位置 {max}（10⁹），播放停止；换一个小一点的位置再播放。",
  "sin-clock.faces": "{n} 个钟面，第 i 个钟面的指针指向 p × ωᵢ；周期从 {shortest} 到 {longest} 个 token",
  "sin-clock.period": "周期 ",
  "sin-clock.gauge": "范围 [−1, 1]，ω = {omega}",

  // --- _ui.js (more): its keys go right below this line (replace nothing else) ---


  // --- dataflow.js: its keys go right below this line (replace nothing else) ---


  // --- swap-attention.js: its keys go right below this line (replace nothing else) ---


  // --- content-position.js: its keys go right below this line (replace nothing else) ---


  // --- sin-dot.js: its keys go right below this line (replace nothing else) ---


  // --- sin-heatmap.js: its keys go right below this line (replace nothing else) ---


  // --- alibi-bias.js: its keys go right below this line (replace nothing else) ---


  // --- t5-buckets.js: its keys go right below this line (replace nothing else) ---


  // --- rope-pair.js: its keys go right below this line (replace nothing else) ---
  "rope-pair.bad_pair": "页内实验的参数不合要求：d = {d} 只有 {pairs} 对（第 0 … {last} 对），data-pair = {pair}。下面是构建时画好的静态图。",
  "rope-pair.bad_qk": "页内实验的参数不合要求：data-q 和 data-k 各要两个数（一对维度），收到 {q} 个和 {k} 个。下面是构建时画好的静态图。",
  "rope-pair.title": "试一试：把 m 和 n 一起往后移 {shift}，两种分数谁会变？",
  "rope-pair.m": "q 的位置 m",
  "rope-pair.n": "k 的位置 n",
  "rope-pair.pair_option": "第 {i} 对（ω = {omega}）",
  "rope-pair.pair": "哪一对维度",
  "rope-pair.shift": "m、n 都往后移 +{shift}",
  "rope-pair.circle": "单位圆上的两支箭头：转过 m·ω 的 q 和转过 n·ω 的 k；两者的夹角只取决于距离 m − n",
  "rope-pair.history": "平移记录表（可左右滚动）",
  "rope-pair.limit": "再移 +{shift} 就超过这个演示的最大位置 {max}（10⁹），按钮先停用；把 m、n 改小一些再试。",
  "rope-pair.now_1": "距离 m − n = ",
  "rope-pair.now_2": "。RoPE 的分数 q_m·k_n = ",
  "rope-pair.now_3": "；正弦相加的分数 (q + PE(m))·(k + PE(n)) = ",
  "rope-pair.now_4": "。",
  "rope-pair.caption": "每次平移记一行（改 m、n 或换一对维度会重新开始）",
  "rope-pair.col_rope": "RoPE 分数",
  "rope-pair.col_added": "正弦相加的分数",
  "rope-pair.hint": "点「m、n 都往后移 +{shift}」看看。",
  "rope-pair.change_1": "和第一行相比，RoPE 分数最多变了 ",
  "rope-pair.change_2": "（浮点舍入）；正弦相加的分数最多变了 ",
  "rope-pair.change_3": "。",


  // --- scaling-explorer.js: its keys go right below this line (replace nothing else) ---

};
