// Material for MkDocs' own search, run in Node: the search worker the built site ships
// (assets/javascripts/workers/search.*.min.js, with the lunr language files it imports), fed the
// built search index, asked each query a reader would type. tests/test_search.py drives it.
//
//   node tests/material_search.cjs SITE_DIR [INDEX] < queries.json   →   one result list per query, as JSON
//
// INDEX: the search index to load, relative to SITE_DIR (default search/search_index.json, the Chinese pages';
// en/search/search_index.json is the English pages', tools/build/i18n.py).
//
// The worker is a plain script for a Web Worker: it registers a "message" listener and answers with
// postMessage, and loads lunr's language support with importScripts. Those three globals are
// provided here, so the ranking is the site's real ranking, not a re-implementation of it.
"use strict";
const fs = require("fs");
const path = require("path");
const vm = require("vm");

const site = process.argv[2];
const workers = path.join(site, "assets", "javascripts", "workers");
const script = fs.readdirSync(workers).find((f) => /^search\.[0-9a-f]+\.min\.js$/.test(f));
if (!script) throw new Error(`no Material search worker in ${workers}`);

let listener = null;
const answers = [];
globalThis.self = globalThis;
globalThis.addEventListener = (type, fn) => { if (type === "message") listener = fn; };
globalThis.postMessage = (message) => answers.push(message);
globalThis.importScripts = (...urls) => {
  for (const url of urls) {
    const file = path.resolve(workers, url);
    vm.runInThisContext(fs.readFileSync(file, "utf8"), { filename: file });
  }
};
vm.runInThisContext(fs.readFileSync(path.join(workers, script), "utf8"), { filename: script });
if (!listener) throw new Error(`${script} registered no message listener: has the worker changed?`);

// Message types of Material's worker protocol: SETUP 0, READY 1, QUERY 2, RESULT 3.
async function ask(message) {
  const before = answers.length;
  await listener({ data: message });
  for (let i = 0; i < 100 && answers.length === before; i++) await new Promise((r) => setImmediate(r));
  if (answers.length === before) throw new Error(`the worker did not answer ${JSON.stringify(message).slice(0, 80)}`);
  return answers[answers.length - 1];
}

(async () => {
  const index = JSON.parse(fs.readFileSync(path.join(site, process.argv[3] || path.join("search", "search_index.json")), "utf8"));
  const ready = await ask({ type: 0, data: { config: index.config, docs: index.docs, options: { suggest: false } } });
  if (ready.type !== 1) throw new Error(`setup answered ${JSON.stringify(ready)}`);
  const queries = JSON.parse(fs.readFileSync(0, "utf8"));
  const out = {};
  for (const q of queries) {
    const result = await ask({ type: 2, data: q });
    if (result.type !== 3) throw new Error(`query ${q} answered ${JSON.stringify(result).slice(0, 200)}`);
    // One group per page, in the order the search box lists them; each group's first item is its best section.
    out[q] = result.data.items.map((group) => ({
      page: group.find((item) => !item.location.includes("#"))?.location ?? group[0].location.split("#")[0],
      best: group[0].location,
      score: group[0].score,
      title: group[0].title,
      text: group[0].text,
    }));
  }
  process.stdout.write(JSON.stringify(out));
})().catch((err) => { console.error(err.stack || String(err)); process.exit(1); });
