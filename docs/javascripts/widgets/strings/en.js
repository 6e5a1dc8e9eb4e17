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


  // --- content-position.js: its keys go right below this line (replace nothing else) ---


  // --- sin-dot.js: its keys go right below this line (replace nothing else) ---


  // --- sin-heatmap.js: its keys go right below this line (replace nothing else) ---


  // --- alibi-bias.js: its keys go right below this line (replace nothing else) ---


  // --- t5-buckets.js: its keys go right below this line (replace nothing else) ---


  // --- rope-pair.js: its keys go right below this line (replace nothing else) ---


  // --- scaling-explorer.js: its keys go right below this line (replace nothing else) ---

};
