// The words every widget shares (Chinese): option and input messages, by key, with {name} fields
// (_ui.js t(), posenc-math's parseInput). strings/en.js has the same keys and fields (tests/test_i18n.py).
// Each widget's own words are in strings/zh/<widget>.js, keys starting with its name, loaded with it.
export default {
  kept_last: "{message}（下面仍是上一次有效输入 {last} 的结果。）",
  option_missing: "缺少 {attr}",
  option_bool: "{attr}=\"{raw}\" 要是 true 或 false",
  option_int: "{attr}=\"{raw}\" 要是整数",
  option_numbers: "{attr}=\"{raw}\" 要是用逗号隔开的数",
  option_number: "{attr}=\"{raw}\" 要是数",
  options_failed: "页内实验缺少页面传入的参数，或参数不合要求：{problems}。下面是构建时画好的静态图。",
  list_join: "；",
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
};
