// sin-heatmap.js's words (en): the same keys and {fields} as strings/zh/sin-heatmap.js. Loaded with the widget (widgets/index.js), on pages of this language only.
export default {
  "sin-heatmap.too_long": "This experiment's page options do not fit: data-sentence has {n} tokens, and this demo takes at most {max}. The static figure drawn at build time is shown instead.",
  "sin-heatmap.title": "Try it: the dot products PE(m)·PE(n) of every pair of positions in the example sentence",
  "sin-heatmap.start": "position of the first token",
  "sin-heatmap.shift": "Shift the sentence by +{shift}",
  "sin-heatmap.reset": "Back to position 0",
  "sin-heatmap.readout_reference": "The sentence starts at position 0, and this table is the reference: shift the sentence or type another start, and the largest difference from this table appears here.",
  "sin-heatmap.readout_1": "The sentence starts at position ",
  "sin-heatmap.readout_2": ". Compared with starting at position 0, the largest difference among the {n}×{n} = {cells} cells is ",
  "sin-heatmap.readout_3": ": only floating-point rounding; not one colour changes.",
  "sin-heatmap.table": "Dot-product table (scrolls sideways)",
  "sin-heatmap.caption": "PE(m)·PE(n) (d_model = {d}, base = {base}); rows and columns show each token and its position.",
  "sin-heatmap.at_limit": "One more shift of +{shift} would take the first token past this demo's largest position, {max} (10⁹), so the button is off for now; make the position smaller and try again.",
};
