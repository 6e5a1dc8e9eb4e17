// sin-dot.js's words (en): the same keys and {fields} as strings/zh/sin-dot.js. Loaded with the widget (widgets/index.js), on pages of this language only.
export default {
  "sin-dot.k_over_max": "This experiment's page options do not fit: data-k = {k} is larger than data-max = {max}. The static figure drawn at build time is shown instead.",
  "sin-dot.title": "Try it: change the start p; does the curve move?",
  "sin-dot.position": "start p",
  "sin-dot.distance": "distance δ",
  "sin-dot.slider": "distance δ (slider)",
  "sin-dot.presets": "Preset starts",
  "sin-dot.presets_label": "Presets:",
  "sin-dot.plot": "Line chart: distance δ from 0 to {max} across, PE(p)·PE(p+δ) up; the wide faint line is Σcos(δωᵢ)",
  "sin-dot.axis": "distance δ (tokens)",
  "sin-dot.readout_k": ", δ = ",
  "sin-dot.readout_dot": ": PE(p)·PE(p+δ) = ",
  "sin-dot.readout_closed": "; the formula Σᵢcos(δωᵢ) = ",
  "sin-dot.readout_end": ".",
  "sin-dot.curve_1": "Largest difference of the whole curve (δ = 0 … {max}) from the formula: ",
  "sin-dot.curve_2": ". Whatever the start, the curve does not move.",
};
