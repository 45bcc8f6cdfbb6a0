// ajv's parse-and-validate throughput on a JSONL corpus: JSON.parse then a compiled draft 2020-12
// validator per line, best of N runs, in the same run as the C++ figures (bench/run.sh).
//   node validate.mjs SCHEMA.json CORPUS.jsonl [REPEAT]
import { readFileSync } from "node:fs";
import Ajv2020 from "ajv/dist/2020.js";
import addFormats from "ajv-formats";

const [schemaPath, corpusPath, repeatText] = process.argv.slice(2);
const schema = JSON.parse(readFileSync(schemaPath, "utf8"));
// unicodeRegExp: the schema's pattern is ECMA-262 with the u flag, as draft 2020-12 says
const ajv = new Ajv2020({ strict: false, allErrors: false, unicodeRegExp: true });
addFormats(ajv);
const validate = ajv.compile(schema);
const lines = readFileSync(corpusPath, "utf8").split("\n").filter((l) => l.length > 0);
const bytes = lines.reduce((n, l) => n + Buffer.byteLength(l) + 1, 0);
let best = Infinity, valid = 0;
for (let r = 0; r < Number(repeatText || 3); ++r) {
  const start = process.hrtime.bigint();
  valid = 0;
  for (const line of lines) valid += validate(JSON.parse(line)) ? 1 : 0;
  best = Math.min(best, Number(process.hrtime.bigint() - start) / 1e9);
}
console.log(`${"ajv parse + validate".padEnd(34)} ${(bytes / best / 1e6).toFixed(1).padStart(9)} MB/s ${(lines.length / best).toFixed(0).padStart(10)} docs/s  (${valid}/${lines.length} valid)`);
