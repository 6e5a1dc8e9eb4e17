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
  // the panel's words; the data's own words (stage, tensor and model names) come with the data, in the page's language
  "dataflow.no_data": "数据流面板没能读到它的数据（{error}），下面是构建时画好的静态图。",
  "dataflow.bad": "数据流面板的参数不合要求：{what}。下面是构建时画好的静态图。",
  "dataflow.bad_lesson": "data-lesson=\"{lesson}\" 要是 {choices} 之一",
  "dataflow.bad_model": "数据里没有模型「{model}」，有的是 {models}",
  "dataflow.missing_stages": "模型「{model}」的数据缺少环节 {stages}",
  "dataflow.name_join": "、",
  "dataflow.lesson": "第 {n} 课",
  "dataflow.state_learned": "已学",
  "dataflow.state_new": "本课",
  "dataflow.state_later": "还没学",
  "dataflow.title_home": "数据流：一个 token 序列怎样走到 logits，位置从哪里进入",
  "dataflow.title_lesson": "数据流：学到第 {n} 课为止（点一个环节看形状和参数）",
  "dataflow.model": "模型",
  "dataflow.stages_label": "数据流的环节（按顺序；方向键在环节之间移动）",
  "dataflow.legend": "带「每层」的环节在每一层各做一遍；◆ 标出这个模型的位置信息从哪里进入。灰色虚线框是后面的课才讲的环节。",
  "dataflow.config": "这个模型的配置（数值与核实标记）",
  "dataflow.entry_lesson": "（{lesson}）",
  "dataflow.entry_later": "（{lesson}讲，还没学到）",
  "dataflow.summary_1": "{model}：位置方案「{method}」，位置相关的参数 ",
  "dataflow.summary_2": " 个；整个模型 ",
  "dataflow.summary_3": " 个参数。",
  "dataflow.where": "位置从哪里进入：",
  "dataflow.stage_entry": "{stage}：{text}",
  "dataflow.per_layer": " · 每层 ×{n}",
  "dataflow.enters_here": "◆ 位置从这里进入",
  "dataflow.enters_later": "（{lesson}讲）",
  "dataflow.field": "{label}：{value} ",
  "dataflow.tag_V": "已核实",
  "dataflow.tag_V3": "副本核实",
  "dataflow.tag_U": "未核实",
  "dataflow.stage_where": "（{lesson} · {state}）",
  "dataflow.inputs": "输入：",
  "dataflow.outputs": "输出：",
  "dataflow.tensor_join": "；",
  "dataflow.tensor_shape": "：",
  "dataflow.part": "{name}：{factors} = ",
  "dataflow.each": "每层 {n} 个，共 {layers} 层，",
  "dataflow.params_1": "参数：{each}合计 ",
  "dataflow.params_list": " 个：",
  "dataflow.params_end": " 个。",
  "dataflow.entry_detail": "位置：{text}",
  "dataflow.toggle": "数据流",
  "dataflow.toggle_home": "一个 token 序列怎样走到 logits",
  "dataflow.toggle_lesson": "本课：{stage}",


  // --- swap-attention.js: its keys go right below this line (replace nothing else) ---
  "swap-attention.title": "试一试：交换两个字，看每个字的注意力输出变不变",
  "swap-attention.head_token": "字 原→新位置",
  "swap-attention.head_nopos": "差值（不加位置）",
  "swap-attention.head_pos": "差值（加位置）",
  "swap-attention.head_out_a": "原句里的输出",
  "swap-attention.head_out_b": "交换后的输出",
  "swap-attention.count_bad": "要 2 … {max} 个字，收到 {n} 个",
  "swap-attention.positions_bad": "要两个不同的位置 0 … {last}，收到 {i} 和 {j}",
  "swap-attention.bad": "页内实验的参数不合要求：{what}。下面是构建时画好的静态图。",
  "swap-attention.bad_preset": "data-presets 里的「{item}」{why}",
  "swap-attention.bad_start": "data-sentence、data-swap-i、data-swap-j {why}",
  "swap-attention.bad_head": "data-head 不是 JSON（{error}）",
  "swap-attention.bad_tokens_en": "data-tokens-en 里的「{raw}」要写成「字=词」",
  "swap-attention.no_word": "data-tokens-en 里没有 U+{code} 这个字的英文词",
  "swap-attention.presets": "预设句子",
  "swap-attention.presets_label": "预设：",
  "swap-attention.modes": "表格里的输出向量",
  "swap-attention.mode_nopos": "不加位置",
  "swap-attention.mode_pos": "加上位置向量 PE(p)",
  "swap-attention.table_label": "每个字的输出表（可左右滚动）",
  "swap-attention.sentence": "句子",
  "swap-attention.too_short": "句子至少要两个字，才有东西可以交换。",
  "swap-attention.too_long": "句子在这个演示里最多 {max} 个字，现在是 {n} 个。",
  "swap-attention.pick": "{k}：{token}",
  "swap-attention.swap_at": "交换位置",
  "swap-attention.swap_with": "和位置",
  "swap-attention.said_1": "原句「",
  "swap-attention.said_2": "」，交换位置 ",
  "swap-attention.said_3": " 和 ",
  "swap-attention.said_4": " 后是「",
  "swap-attention.said_5": "」。",
  "swap-attention.caption": "同一个字在两种顺序下输出的最大差值，以及它的输出向量（d = {d}，{mode}）",
  "swap-attention.caption_nopos": "不加位置",
  "swap-attention.caption_pos": "加上位置向量",
  "swap-attention.exact": "权重和字向量与本页静态图相同（posenc 用 numpy 生成，种子 {seed}）。",
  "swap-attention.drawn": "这里的随机权重和字向量由浏览器里的 mulberry32 生成（种子 {seed}），数值和静态图不同；要看的性质一样：不加位置时差值只是舍入，加上位置就不是。",
  "swap-attention.summary_1": "不加位置：每个字的输出在两种顺序下完全一样（最大差值 ",
  "swap-attention.summary_2": "，只是浮点舍入）。加上位置向量：同一个字换了位置，输出就变了（最大差值 ",
  "swap-attention.summary_3": "）。",


  // --- content-position.js: its keys go right below this line (replace nothing else) ---


  // --- sin-dot.js: its keys go right below this line (replace nothing else) ---
  "sin-dot.k_over_max": "页内实验的参数不合要求：data-k = {k} 超过了 data-max = {max}。下面是构建时画好的静态图。",
  "sin-dot.title": "试一试：换一个起点 p，曲线动不动？",
  "sin-dot.position": "起点 p",
  "sin-dot.distance": "距离 k",
  "sin-dot.slider": "距离 k（滑块）",
  "sin-dot.presets": "预设起点",
  "sin-dot.presets_label": "预设：",
  "sin-dot.plot": "折线图：横轴距离 k 从 0 到 {max}，纵轴 PE(p)·PE(p+k)；宽的浅色线是 Σcos(kωᵢ)",
  "sin-dot.axis": "距离 k（token）",
  "sin-dot.readout_k": "，k = ",
  "sin-dot.readout_dot": "：PE(p)·PE(p+k) = ",
  "sin-dot.readout_closed": "；公式 Σᵢcos(kωᵢ) = ",
  "sin-dot.readout_end": "。",
  "sin-dot.curve_1": "整条曲线（k = 0 … {max}）与公式的最大差值：",
  "sin-dot.curve_2": "。起点怎么换，曲线都不动。",


  // --- sin-heatmap.js: its keys go right below this line (replace nothing else) ---
  "sin-heatmap.too_long": "页内实验的参数不合要求：data-sentence 有 {n} 个字，这个演示最多 {max} 个。下面是构建时画好的静态图。",
  "sin-heatmap.title": "试一试：「{sentence}」两两位置的点积 PE(a)·PE(b)",
  "sin-heatmap.start": "第一个字的位置",
  "sin-heatmap.shift": "整句往后平移 +{shift}",
  "sin-heatmap.reset": "回到位置 0",
  "sin-heatmap.readout_1": "整句从位置 ",
  "sin-heatmap.readout_2": " 开始。和从位置 0 开始相比，{n}×{n} = {cells} 格里最大的差值是 ",
  "sin-heatmap.readout_3": "：只是浮点舍入，颜色一格不变。",
  "sin-heatmap.table": "点积表（可左右滚动）",
  "sin-heatmap.caption": "PE(a)·PE(b)（d = {d}，base = {base}）；行和列标出每个字和它的位置。",
  "sin-heatmap.at_limit": "再平移 +{shift}，第一个字的位置就超过这个演示的最大值 {max}（10⁹），按钮先停用；把位置改小一些再试。",


  // --- alibi-bias.js: its keys go right below this line (replace nothing else) ---


  // --- t5-buckets.js: its keys go right below this line (replace nothing else) ---


  // --- rope-pair.js: its keys go right below this line (replace nothing else) ---


  // --- scaling-explorer.js: its keys go right below this line (replace nothing else) ---

};
