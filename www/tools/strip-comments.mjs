// `cargo xtask dist`: the page's own scripts in www/dist without their comments, which are a
// third of the scripts' gzip bytes (the sources in www/src keep them). terser parses each file
// and prints it back with its names, its statements and an indented layout kept: no
// compression, no mangling, so a stack trace names the source's functions and the browser's
// source view reads as code (its lines are not the source's: read comments in www/src).
// A classic script (src/served.js) that does not parse as a module is parsed as a script.
// Usage: node tools/strip-comments.mjs FILE... (each rewritten in place).
import { readFileSync, writeFileSync } from 'node:fs';
import { minify } from 'terser';

const print = (code, module) => minify(code, {
  module, compress: false, mangle: false,
  format: { comments: false, beautify: true, indent_level: 2 },
});

for (const file of process.argv.slice(2)) {
  const code = readFileSync(file, 'utf8');
  let out;
  try {
    out = await print(code, true);
  } catch {
    out = await print(code, false);
  }
  writeFileSync(file, `${out.code}\n`);
}
