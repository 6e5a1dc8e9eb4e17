// The widgets' words in English: the same keys and {fields} as strings/zh.js (tests/test_widget_strings.py).
export default {
  // _ui.js
  kept_last: "{message} (What follows is still the result of the last valid input.)",
  option_missing: "{attr} is missing",
  option_bool: "{attr}=\"{raw}\" must be true or false",
  option_int: "{attr}=\"{raw}\" must be a whole number",
  option_numbers: "{attr}=\"{raw}\" must be numbers separated by commas",
  option_number: "{attr}=\"{raw}\" must be a number",
  options_failed: "The page did not give this experiment the options it needs, or gave unusable ones: {problems}. The static figure drawn at build time is shown instead.",
  list_join: "; ",
  // posenc-math/format.js parseInput ({Label}: the label with a capital letter)
  input_label: "this value",
  input_empty: "Enter {label_bare}.",
  input_nan: "{Label} must be a number; “{raw}” is not one.",
  input_too_big: "{Label} cannot exceed 1,000,000,000 (10⁹); got {raw}.",
  input_negative_position: "{Label} cannot be negative: positions count from 0.",
  input_negative: "{Label} cannot be negative; got {raw}.",
  input_integer: "{Label} must be a whole number; got {raw}.",
  input_even: "{Label} must be a positive even number (sin and cos come in pairs); got {value}. Try {next}.",
  input_base: "{Label} must be greater than 1 (otherwise each pair would not turn slower than the last); got {raw}. The paper uses 10,000.",
  input_factor: "{Label} must be at least 1 (new context ÷ original context); got {raw}. For example, 4 stretches 32,768 to 131,072.",
  input_min: "{Label} is at least {min}; got {raw}.",
  input_max: "{Label} is at most {max} in this demo; got {raw}.",
  // sin-clock.js
  "sin-clock.title": "Try it: each hand's angle = p × ωᵢ",
  "sin-clock.position": "position p",
  "sin-clock.dim": "dimension d",
  "sin-clock.base": "base",
  "sin-clock.presets": "Preset positions",
  "sin-clock.presets_label": "Presets:",
  "sin-clock.play": "▶ Play",
  "sin-clock.pause": "■ Pause",
  "sin-clock.speed": "Speed",
  "sin-clock.rate": "{n} tokens a second",
  "sin-clock.readout_1": "The encoding of position p = ",
  "sin-clock.readout_2": ": ",
  "sin-clock.readout_3": " numbers, each within [−1, 1] (the largest in absolute value is ",
  "sin-clock.readout_4": ").",
  "sin-clock.at_end": "Reached the largest position this demo takes, {max} (10⁹); playing stopped. Choose a smaller position and play again.",
  "sin-clock.faces": "{n} clock faces; the hand of face i points at p × ωᵢ; periods from {shortest} to {longest} tokens",
  "sin-clock.period": "period ",
  "sin-clock.gauge": "range [−1, 1], ω = {omega}",

  // --- _ui.js (more): its keys go right below this line (replace nothing else) ---


  // --- dataflow.js: its keys go right below this line (replace nothing else) ---


  // --- swap-attention.js: its keys go right below this line (replace nothing else) ---


  // --- content-position.js: its keys go right below this line (replace nothing else) ---


  // --- sin-dot.js: its keys go right below this line (replace nothing else) ---


  // --- sin-heatmap.js: its keys go right below this line (replace nothing else) ---


  // --- alibi-bias.js: its keys go right below this line (replace nothing else) ---
  "alibi-bias.bad_options": "The page's options do not fit: it needs 1 ≤ data-head ≤ data-heads ≤ {max}, 0 ≤ data-distance ≤ data-span and data-factor > 1. The static figure drawn at build time is shown instead.",
  "alibi-bias.title": "Try it: pick a number of heads and one head, and see how the bias lowers the attention weight with distance",
  "alibi-bias.heads": "heads n",
  "alibi-bias.distance": "distance r (tokens back)",
  "alibi-bias.distance_slider": "distance r (slider)",
  "alibi-bias.readout_1": "Head ",
  "alibi-bias.readout_2": " has slope m = ",
  "alibi-bias.readout_3": " (about 1/",
  "alibi-bias.readout_4": "). At distance r = ",
  "alibi-bias.readout_5": ", the bias −m·r = ",
  "alibi-bias.readout_6": " and the weight factor exp(−m·r) = ",
  "alibi-bias.readout_7": ".",
  "alibi-bias.reach_1": "The distance at which the bias alone cuts a key's weight to 1/{f} is ln {f} / m = ",
  "alibi-bias.reach_2": " tokens",
  "alibi-bias.reach_3": ".",
  "alibi-bias.reach_beyond": " (beyond the end of the plots' axis, {span})",
  "alibi-bias.table_scroll": "Slope of every head (scrollable)",
  "alibi-bias.slopes_caption": "Each head's slope m (vertical axis: log₂ m)",
  "alibi-bias.bias_caption": "The chosen head: bias −m·r",
  "alibi-bias.weights_caption": "Weight factor exp(−m·r)",
  "alibi-bias.legend": "Legend",
  "alibi-bias.legend_chosen": "the chosen head",
  "alibi-bias.legend_others": "other heads",
  "alibi-bias.legend_ref": "1/{f} and its distance",
  "alibi-bias.table_summary": "Each head's slope and its distance to 1/{f}",
  "alibi-bias.head_gone": "Head {h} does not exist when n = {n}; now showing the last head (head {n}).",
  "alibi-bias.head_option": "head {h} (m = {m})",
  "alibi-bias.head_pick": "head shown",
  "alibi-bias.rule_power": "n = {n} is a power of 2: the slopes form a geometric sequence whose first term and ratio are both 2^(−8/{n}); head h has m = 2^(−8h/{n}).",
  "alibi-bias.rule_other": "n = {n} is not a power of 2: the first {p} heads take the slopes for {p} heads, and the remaining heads ({rest}) take terms 1, 3, 5, … of the slopes for {double} heads, which fall exactly between the earlier ones.",
  "alibi-bias.table_caption": "Slopes for n = {n}; the distance to 1/{f} = ln {f} / m",
  "alibi-bias.table_caption_extra": "; {mark}: a head added because n is not a power of 2",
  "alibi-bias.extra_mark": "*",
  "alibi-bias.col_head": "head h",
  "alibi-bias.col_slope": "slope m",
  "alibi-bias.col_reach": "distance to 1/{f}",
  "alibi-bias.axis_distance": "distance r (tokens)",
  "alibi-bias.slopes_aria": "Slopes for n = {n}, from head 1's {first} down to the smallest, {min}; head {h} is selected",
  "alibi-bias.axis_heads": "head h = 1 … {n}",
  "alibi-bias.axis_heads_extra": "head h = 1 … {n} (hollow: added heads, {extra} of them)",
  "alibi-bias.bias_aria": "A straight line: the bias falls from 0 at distance 0 to {low} at distance {span}, with slope −m",
  "alibi-bias.weights_aria": "The curve exp(−m·r): the chosen head falls from 1 to {end} at distance {span}; dashed lines mark 1/{f} and the distance where it is reached, {reach}",


  // --- t5-buckets.js: its keys go right below this line (replace nothing else) ---
  "t5-buckets.bad_options": "The page's options do not fit: {message}. The static figure drawn at build time is shown instead.",
  "t5-buckets.per_side": " in each direction",
  "t5-buckets.at_least": "{name} must be a whole number of at least {min}; got {raw}",
  "t5-buckets.no_exact": "num_buckets = {nb} leaves no exact bucket{side}; T5 uses 32",
  "t5-buckets.too_near": "max_distance = {md} must be greater than the exact range, max_exact = {max_exact} (half the buckets{side}), or the logarithmic buckets have no room; T5 uses 128",
  "t5-buckets.field_error": "{message}.",
  "t5-buckets.title": "Try it: which of T5's buckets a relative position j − i falls into",
  "t5-buckets.num_buckets": "number of buckets num_buckets",
  "t5-buckets.relative": "relative position j − i",
  "t5-buckets.relative_hint": "negative: the key is before the query",
  "t5-buckets.direction": "Direction",
  "t5-buckets.bidirectional": "bidirectional (encoder: both sides)",
  "t5-buckets.unidirectional": "unidirectional (decoder: past only)",
  "t5-buckets.table_scroll": "Distances each bucket holds (scrollable)",
  "t5-buckets.plot_caption": "Distance → bucket (keys before the query; log-scale horizontal axis)",
  "t5-buckets.table_summary": "Which distances each bucket holds",
  "t5-buckets.side_before": "the key is before the query, at distance {r}",
  "t5-buckets.side_self": "the key is the query itself",
  "t5-buckets.side_after": "the key is after the query, at distance {r}",
  "t5-buckets.where_after_causal": "In the unidirectional mode every key after the query goes into bucket 0, the bucket of distance 0 (the causal mask hides them anyway).",
  "t5-buckets.where_exact_1": "Exact range: one bucket per distance (this bucket holds only distance ",
  "t5-buckets.where_exact_2": ").",
  "t5-buckets.where_last_1": "The last bucket: from distance ",
  "t5-buckets.where_last_2": " on, max_distance = {md} and everything farther all land here, no longer told apart.",
  "t5-buckets.where_log_1": "Logarithmic range: this bucket holds distances ",
  "t5-buckets.where_log_2": ", {n} in all, sharing one number.",
  "t5-buckets.lookup_1": ": {side}; it goes into bucket ",
  "t5-buckets.lookup_2": ". ",
  "t5-buckets.other_half": " (Keys after the query use the other half of the buckets: add {n} to the bucket number.)",
  "t5-buckets.summary_bi": "Bidirectional: {nb} buckets split between the two directions, so each direction has ",
  "t5-buckets.summary_uni": "Unidirectional, one direction only: ",
  "t5-buckets.summary_exact_1": " buckets. The exact buckets 0 … {last} hold one distance each, so the exact range ends at distance ",
  "t5-buckets.summary_exact_2": " (max_exact = {max_exact}); ",
  "t5-buckets.summary_widest_1": "the logarithmic buckets widen as they go (distances in the second-to-last: ",
  "t5-buckets.summary_widest_2": "); ",
  "t5-buckets.summary_last_1": "the last bucket takes every distance from ",
  "t5-buckets.summary_last_2": " on.",
  "t5-buckets.summary_empty": " (Buckets that get no distance at all: {n}. max_distance is too close to max_exact, so the logarithmic range is too narrow.)",
  "t5-buckets.table_caption": "Keys before the query (for keys after it, add the buckets per direction to the bucket number)",
  "t5-buckets.col_bucket": "bucket",
  "t5-buckets.col_from": "from distance",
  "t5-buckets.col_to": "to",
  "t5-buckets.col_count": "count",
  "t5-buckets.col_range": "range",
  "t5-buckets.farther": "farther",
  "t5-buckets.range_exact": "exact",
  "t5-buckets.range_log": "logarithmic",
  "t5-buckets.plot_aria": "A staircase: distances 0 to {last} get one bucket each, then the steps widen, and from distance {md} on everything is bucket {top}",
  "t5-buckets.axis_distance": "distance |j − i| (dashed: 0, max_exact, max_distance)",


  // --- rope-pair.js: its keys go right below this line (replace nothing else) ---


  // --- scaling-explorer.js: its keys go right below this line (replace nothing else) ---

};
