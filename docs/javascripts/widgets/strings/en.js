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
  // the panel's words; the data's own words (stage, tensor and model names) come with the data, in the page's language
  "dataflow.no_data": "The data-flow panel could not read its data ({error}); below is the static chart drawn at build time.",
  "dataflow.bad": "The data-flow panel's settings are not usable: {what}. Below is the static chart drawn at build time.",
  "dataflow.bad_lesson": "data-lesson=\"{lesson}\" must be one of {choices}",
  "dataflow.bad_model": "the data has no model \"{model}\"; it has {models}",
  "dataflow.missing_stages": "the data of model \"{model}\" lacks the stages {stages}",
  "dataflow.name_join": ", ",
  "dataflow.lesson": "lesson {n}",
  "dataflow.state_learned": "learned",
  "dataflow.state_new": "this lesson",
  "dataflow.state_later": "not yet",
  "dataflow.title_home": "Data flow: how a token sequence becomes logits, and where position enters",
  "dataflow.title_lesson": "Data flow as of lesson {n} (choose a stage to see its shapes and parameters)",
  "dataflow.model": "Model",
  "dataflow.stages_label": "The stages of the data flow, in order (the arrow keys move between stages)",
  "dataflow.legend": "Stages marked \"per layer\" run once in every layer; ◆ marks where this model's position information enters. Grey dashed boxes are stages that later lessons teach.",
  "dataflow.config": "This model's configuration (values and verification marks)",
  "dataflow.entry_lesson": " ({lesson})",
  "dataflow.entry_later": " (taught in {lesson}, not reached yet)",
  "dataflow.summary_1": "{model}: position method \"{method}\"; parameters for position: ",
  "dataflow.summary_2": "; the whole model: ",
  "dataflow.summary_3": " parameters.",
  "dataflow.where": "Where position enters:",
  "dataflow.stage_entry": "{stage}: {text}",
  "dataflow.per_layer": " · per layer ×{n}",
  "dataflow.enters_here": "◆ position enters here",
  "dataflow.enters_later": " (taught in {lesson})",
  "dataflow.field": "{label}: {value} ",
  "dataflow.tag_V": "verified",
  "dataflow.tag_V3": "verified copy",
  "dataflow.tag_U": "unverified",
  "dataflow.stage_where": " ({lesson} · {state})",
  "dataflow.inputs": "Input: ",
  "dataflow.outputs": "Output: ",
  "dataflow.tensor_join": "; ",
  "dataflow.tensor_shape": ": ",
  "dataflow.part": "{name}: {factors} = ",
  "dataflow.each": "{n} per layer × {layers} layers, ",
  "dataflow.params_1": "Parameters: {each}total ",
  "dataflow.params_list": ":",
  "dataflow.params_end": ".",
  "dataflow.entry_detail": "Position: {text}",
  "dataflow.toggle": "Data flow",
  "dataflow.toggle_home": "how a token sequence becomes logits",
  "dataflow.toggle_lesson": "This lesson: {stage}",


  // --- swap-attention.js: its keys go right below this line (replace nothing else) ---
  "swap-attention.title": "Try it: swap two tokens and see whether each token's attention output changes",
  "swap-attention.head_token": "token, old→new position",
  "swap-attention.head_nopos": "difference (no positions)",
  "swap-attention.head_pos": "difference (with positions)",
  "swap-attention.head_out_a": "output in the original sentence",
  "swap-attention.head_out_b": "output after the swap",
  "swap-attention.count_bad": "needs 2 to {max} tokens, got {n}",
  "swap-attention.positions_bad": "needs two different positions from 0 to {last}, got {i} and {j}",
  "swap-attention.bad": "The page gave this experiment options it cannot use: {what}. The static figure drawn at build time is shown instead.",
  "swap-attention.bad_preset": "“{item}” in data-presets {why}",
  "swap-attention.bad_start": "data-sentence, data-swap-i, data-swap-j: {why}",
  "swap-attention.bad_head": "data-head is not JSON ({error})",
  "swap-attention.bad_tokens_en": "“{raw}” in data-tokens-en must be written character=word",
  "swap-attention.no_word": "data-tokens-en has no English word for the character U+{code}",
  "swap-attention.presets": "Preset sentences",
  "swap-attention.presets_label": "Presets:",
  "swap-attention.modes": "Output vectors in the table",
  "swap-attention.mode_nopos": "no positions",
  "swap-attention.mode_pos": "with position vectors PE(p)",
  "swap-attention.table_label": "Each token's outputs (scrolls sideways)",
  "swap-attention.sentence": "Sentence (words separated by spaces)",
  "swap-attention.too_short": "The sentence needs at least two words, so that there is something to swap.",
  "swap-attention.too_long": "In this demo a sentence has at most {max} words; this one has {n}.",
  "swap-attention.pick": "{k}: {token}",
  "swap-attention.swap_at": "Swap position",
  "swap-attention.swap_with": "with position",
  "swap-attention.said_1": "The sentence “",
  "swap-attention.said_2": "”, with positions ",
  "swap-attention.said_3": " and ",
  "swap-attention.said_4": " swapped, becomes “",
  "swap-attention.said_5": "”.",
  "swap-attention.caption": "Largest difference of each token's output between the two orders, and its output vectors (d = {d}, {mode})",
  "swap-attention.caption_nopos": "no positions",
  "swap-attention.caption_pos": "with position vectors",
  "swap-attention.exact": "The weights and token vectors are those of this page's static figure (generated by posenc with numpy, seed {seed}).",
  "swap-attention.drawn": "These random weights and token vectors are generated in the browser with mulberry32 (seed {seed}), so the numbers differ from the static figure; the property to look for is the same: without positions the differences are only rounding, with positions they are not.",
  "swap-attention.summary_1": "No positions: each token's output is exactly the same in both orders (largest difference ",
  "swap-attention.summary_2": ", only floating-point rounding). With position vectors: once a token moves, its output changes (largest difference ",
  "swap-attention.summary_3": ").",


  // --- content-position.js: its keys go right below this line (replace nothing else) ---


  // --- sin-dot.js: its keys go right below this line (replace nothing else) ---
  "sin-dot.k_over_max": "This experiment's page options do not fit: data-k = {k} is larger than data-max = {max}. The static figure drawn at build time is shown instead.",
  "sin-dot.title": "Try it: change the start p; does the curve move?",
  "sin-dot.position": "start p",
  "sin-dot.distance": "distance k",
  "sin-dot.slider": "distance k (slider)",
  "sin-dot.presets": "Preset starts",
  "sin-dot.presets_label": "Presets:",
  "sin-dot.plot": "Line chart: distance k from 0 to {max} across, PE(p)·PE(p+k) up; the wide faint line is Σcos(kωᵢ)",
  "sin-dot.axis": "distance k (tokens)",
  "sin-dot.readout_k": ", k = ",
  "sin-dot.readout_dot": ": PE(p)·PE(p+k) = ",
  "sin-dot.readout_closed": "; the formula Σᵢcos(kωᵢ) = ",
  "sin-dot.readout_end": ".",
  "sin-dot.curve_1": "Largest difference of the whole curve (k = 0 … {max}) from the formula: ",
  "sin-dot.curve_2": ". Whatever the start, the curve does not move.",


  // --- sin-heatmap.js: its keys go right below this line (replace nothing else) ---
  "sin-heatmap.too_long": "This experiment's page options do not fit: data-sentence has {n} tokens, and this demo takes at most {max}. The static figure drawn at build time is shown instead.",
  "sin-heatmap.title": "Try it: the dot products PE(a)·PE(b) of every two positions of “{sentence}”",
  "sin-heatmap.start": "position of the first token",
  "sin-heatmap.shift": "Shift the sentence later +{shift}",
  "sin-heatmap.reset": "Back to position 0",
  "sin-heatmap.readout_1": "The sentence starts at position ",
  "sin-heatmap.readout_2": ". Compared with starting at position 0, the largest difference among the {n}×{n} = {cells} cells is ",
  "sin-heatmap.readout_3": ": only floating-point rounding; not one colour changes.",
  "sin-heatmap.table": "Dot-product table (scrolls sideways)",
  "sin-heatmap.caption": "PE(a)·PE(b) (d = {d}, base = {base}); rows and columns show each token and its position.",
  "sin-heatmap.at_limit": "One more shift of +{shift} would take the first token past this demo's largest position, {max} (10⁹), so the button is off for now; make the position smaller and try again.",


  // --- alibi-bias.js: its keys go right below this line (replace nothing else) ---


  // --- t5-buckets.js: its keys go right below this line (replace nothing else) ---


  // --- rope-pair.js: its keys go right below this line (replace nothing else) ---


  // --- scaling-explorer.js: its keys go right below this line (replace nothing else) ---

};
