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


  // --- t5-buckets.js: its keys go right below this line (replace nothing else) ---


  // --- rope-pair.js: its keys go right below this line (replace nothing else) ---
  "rope-pair.bad_pair": "The page gave this experiment an option it cannot use: d = {d} has only {pairs} pairs (pair 0 … {last}), but data-pair = {pair}. The static figure drawn at build time is shown instead.",
  "rope-pair.bad_qk": "The page gave this experiment an option it cannot use: data-q and data-k need two numbers each (one pair of dimensions); got {q} and {k}. The static figure drawn at build time is shown instead.",
  "rope-pair.title": "Try it: move m and n on together by {shift}. Which of the two scores changes?",
  "rope-pair.m": "position m of q",
  "rope-pair.n": "position n of k",
  "rope-pair.pair_option": "pair {i} (ω = {omega})",
  "rope-pair.pair": "Which pair of dimensions",
  "rope-pair.shift": "Move m and n on by +{shift}",
  "rope-pair.circle": "Two arrows on the unit circle: q turned by m·ω and k turned by n·ω; the angle between them depends only on the distance m − n",
  "rope-pair.history": "Shift log (scrolls sideways)",
  "rope-pair.limit": "One more +{shift} would pass this demo's largest position, {max} (10⁹), so the button is off for now; make m and n smaller and try again.",
  "rope-pair.now_1": "Distance m − n = ",
  "rope-pair.now_2": ". RoPE's score q_m·k_n = ",
  "rope-pair.now_3": "; the sinusoidal-added score (q + PE(m))·(k + PE(n)) = ",
  "rope-pair.now_4": ".",
  "rope-pair.caption": "One row per shift (changing m or n, or picking another pair, starts again)",
  "rope-pair.col_rope": "RoPE score",
  "rope-pair.col_added": "Sinusoidal-added score",
  "rope-pair.hint": "Press “Move m and n on by +{shift}” and see.",
  "rope-pair.change_1": "Compared with the first row, RoPE's score changed by at most ",
  "rope-pair.change_2": " (floating-point rounding); the sinusoidal-added score changed by at most ",
  "rope-pair.change_3": ".",


  // --- scaling-explorer.js: its keys go right below this line (replace nothing else) ---

};
