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
  "content-position.title": "Try it: add the index p to every dimension. How much content is left? Does the position table have row p?",
  "content-position.position": "position p",
  "content-position.presets": "Preset positions",
  "content-position.presets_label": "Presets:",
  "content-position.rms": "RMS σ of each embedding dimension",
  "content-position.p_is": "Position p = ",
  "content-position.zero": ": at position 0 the naive design adds 0, that is, nothing at all, so the ratio of content to position is undefined. Try a position of 1 or more.",
  "content-position.ratio_1": ": the position signal added to every dimension is ",
  "content-position.ratio_2": ", and the content (RMS σ = ",
  "content-position.ratio_3": " per dimension) is only ",
  "content-position.ratio_4": " of it.",
  "content-position.table_1": "The position table has ",
  "content-position.table_2": " rows (0 … ",
  "content-position.table_3": "), holding ",
  "content-position.table_4": " parameters. Row p: ",
  "content-position.has_row": "✓ found",
  "content-position.no_row": "✗ no such row",
  "content-position.found_end": ".",
  "content-position.missing_1": " (torch would raise IndexError): the table would need at least ",
  "content-position.missing_2": " rows; it is ",
  "content-position.missing_3": " short.",
  "content-position.plot": "Line chart on log–log axes: position p from 1 to {top} across, content ÷ position signal up; one line per σ, each falling as p grows, with no floor",
  "content-position.x_axis": "position p (log scale)",
  "content-position.bad_rms": "The page gave this experiment an unusable option: every value of data-rms=\"{rms}\" must be greater than 0 (it is an RMS). The static figure drawn at build time is shown below.",


  // --- sin-dot.js: its keys go right below this line (replace nothing else) ---


  // --- sin-heatmap.js: its keys go right below this line (replace nothing else) ---


  // --- alibi-bias.js: its keys go right below this line (replace nothing else) ---


  // --- t5-buckets.js: its keys go right below this line (replace nothing else) ---


  // --- rope-pair.js: its keys go right below this line (replace nothing else) ---


  // --- scaling-explorer.js: its keys go right below this line (replace nothing else) ---

};
