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
  "alibi-bias.bad_options": "页面传入的参数不合要求：要 1 ≤ data-head ≤ data-heads ≤ {max}，0 ≤ data-distance ≤ data-span，data-factor > 1。下面是构建时画好的静态图。",
  "alibi-bias.title": "试一试：选头数和其中一个头，看偏置怎样随距离压低注意力权重",
  "alibi-bias.heads": "头数 n",
  "alibi-bias.distance": "距离 r（往前数几个 token）",
  "alibi-bias.distance_slider": "距离 r（滑块）",
  "alibi-bias.readout_1": "第 ",
  "alibi-bias.readout_2": " 个头的斜率 m = ",
  "alibi-bias.readout_3": "（约 1/",
  "alibi-bias.readout_4": "）。距离 r = ",
  "alibi-bias.readout_5": " 时，偏置 −m·r = ",
  "alibi-bias.readout_6": "，权重因子 exp(−m·r) = ",
  "alibi-bias.readout_7": "。",
  "alibi-bias.reach_1": "只靠偏置，把一个键的权重压到 1/{f} 的距离是 ln {f} / m = ",
  "alibi-bias.reach_2": " 个 token",
  "alibi-bias.reach_3": "。",
  "alibi-bias.reach_beyond": "（比图的横轴 {span} 还远）",
  "alibi-bias.table_scroll": "每个头的斜率表（可滚动）",
  "alibi-bias.slopes_caption": "每个头的斜率 m（纵轴是 log₂ m）",
  "alibi-bias.bias_caption": "所选的头：偏置 −m·r",
  "alibi-bias.weights_caption": "权重因子 exp(−m·r)",
  "alibi-bias.legend": "图例",
  "alibi-bias.legend_chosen": "所选的头",
  "alibi-bias.legend_others": "其他头",
  "alibi-bias.legend_ref": "1/{f} 和它的距离",
  "alibi-bias.table_summary": "每个头的斜率和“压到 1/{f}”的距离",
  "alibi-bias.head_gone": "原来看的第 {h} 个头在 {n} 个头里没有了，改看最后一个头（第 {n} 个）。",
  "alibi-bias.head_option": "第 {h} 个头（m = {m}）",
  "alibi-bias.head_pick": "看第几个头",
  "alibi-bias.rule_power": "n = {n} 是 2 的幂：斜率是首项和公比都为 2^(−8/{n}) 的等比数列，第 h 个头 m = 2^(−8h/{n})。",
  "alibi-bias.rule_other": "n = {n} 不是 2 的幂：前 {p} 个头用 {p} 个头的那组斜率，后 {rest} 个头取 {double} 个头那组斜率里的第 1、3、5…… 个，正好插在前面的斜率之间。",
  "alibi-bias.table_caption": "{n} 个头的斜率；“压到 1/{f}”的距离 = ln {f} / m",
  "alibi-bias.table_caption_extra": "；{mark}：n 不是 2 的幂时补上的头",
  "alibi-bias.extra_mark": "＊",
  "alibi-bias.col_head": "头 h",
  "alibi-bias.col_slope": "斜率 m",
  "alibi-bias.col_reach": "压到 1/{f} 的距离",
  "alibi-bias.axis_distance": "距离 r（token）",
  "alibi-bias.slopes_aria": "{n} 个头的斜率，从第 1 个头的 {first} 到最小的 {min}；选中的是第 {h} 个头",
  "alibi-bias.axis_heads": "头 h = 1 … {n}",
  "alibi-bias.axis_heads_extra": "头 h = 1 … {n}（空心：补上的 {extra} 个头）",
  "alibi-bias.bias_aria": "一条直线：偏置从距离 0 的 0 降到距离 {span} 的 {low}，斜率 −m",
  "alibi-bias.weights_aria": "曲线 exp(−m·r)：所选的头从 1 降到距离 {span} 的 {end}；虚线标出 1/{f} 和它出现的距离 {reach}",


  // --- t5-buckets.js: its keys go right below this line (replace nothing else) ---
  "t5-buckets.bad_options": "页面传入的参数不合要求：{message}。下面是构建时画好的静态图。",
  "t5-buckets.per_side": "每个方向",
  "t5-buckets.at_least": "{name} 要是不小于 {min} 的整数，收到 {raw}",
  "t5-buckets.no_exact": "num_buckets = {nb} 时{side}一个精确桶也没有；T5 用 32",
  "t5-buckets.too_near": "max_distance = {md} 要大于精确区的长度 max_exact = {max_exact}（{side}桶数的一半），否则对数桶没有位置；T5 用 128",
  "t5-buckets.field_error": "{message}。",
  "t5-buckets.title": "试一试：相对位置 j − i 落进 T5 的哪个桶",
  "t5-buckets.num_buckets": "桶数 num_buckets",
  "t5-buckets.relative": "相对位置 j − i",
  "t5-buckets.relative_hint": "负数：键在查询前面",
  "t5-buckets.direction": "方向",
  "t5-buckets.bidirectional": "双向（编码器：前后的键都看）",
  "t5-buckets.unidirectional": "单向（解码器：只看前面的键）",
  "t5-buckets.table_scroll": "每个桶管的距离（可滚动）",
  "t5-buckets.plot_caption": "距离 → 桶（键在查询前面的一侧；横轴是对数刻度）",
  "t5-buckets.table_summary": "每个桶管哪些距离",
  "t5-buckets.side_before": "键在查询前面 {r} 个 token",
  "t5-buckets.side_self": "键就是查询自己",
  "t5-buckets.side_after": "键在查询后面 {r} 个 token",
  "t5-buckets.where_after_causal": "单向模式下，查询后面的键都进桶 0，和距离 0 同桶（因果掩码反正会遮住它们）。",
  "t5-buckets.where_exact_1": "精确区：一个距离一个桶（这个桶只管距离 ",
  "t5-buckets.where_exact_2": "）。",
  "t5-buckets.where_last_1": "最后一个桶：距离 ",
  "t5-buckets.where_last_2": " 起，包括 max_distance = {md} 和更远的，都在这里，不再区分。",
  "t5-buckets.where_log_1": "对数区：这个桶管距离 ",
  "t5-buckets.where_log_2": "，共 {n} 个距离共用一个数。",
  "t5-buckets.lookup_1": "：{side}，进桶 ",
  "t5-buckets.lookup_2": "。",
  "t5-buckets.other_half": "（查询后面的键用另一半桶：桶号加 {n}。）",
  "t5-buckets.summary_bi": "双向：{nb} 个桶对半分，每个方向 ",
  "t5-buckets.summary_uni": "单向：",
  "t5-buckets.summary_exact_1": " 个桶。精确桶 0 … {last} 各管一个距离，精确区到距离 ",
  "t5-buckets.summary_exact_2": " 为止（max_exact = {max_exact}）；",
  "t5-buckets.summary_widest_1": "对数桶越往后越宽，倒数第二个桶已经管 ",
  "t5-buckets.summary_widest_2": " 个距离；",
  "t5-buckets.summary_last_1": "最后一个桶从距离 ",
  "t5-buckets.summary_last_2": " 起收下所有更远的距离。",
  "t5-buckets.summary_empty": "（有 {n} 个桶一个距离也分不到：max_distance 离 max_exact 太近，对数区太窄。）",
  "t5-buckets.table_caption": "键在查询前面的一侧（另一侧的桶号加每个方向的桶数）",
  "t5-buckets.col_bucket": "桶",
  "t5-buckets.col_from": "距离从",
  "t5-buckets.col_to": "到",
  "t5-buckets.col_count": "个数",
  "t5-buckets.col_range": "区",
  "t5-buckets.farther": "更远",
  "t5-buckets.range_exact": "精确",
  "t5-buckets.range_log": "对数",
  "t5-buckets.plot_aria": "阶梯图：距离 0 到 {last} 每个距离一个桶，之后台阶越来越宽，距离 {md} 起都是桶 {top}",
  "t5-buckets.axis_distance": "距离 |j − i|（虚线：0、max_exact、max_distance）",


  // --- rope-pair.js: its keys go right below this line (replace nothing else) ---


  // --- scaling-explorer.js: its keys go right below this line (replace nothing else) ---

};
