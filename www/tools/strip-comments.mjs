// `cargo xtask dist`: the page's own scripts in www/dist without their comments, which are a
// third of their bytes (the sources in www/src keep them). terser parses each file and prints
// it back with its names, its statements and an indented layout kept: no compression, no
// mangling, so a stack trace and the browser's source view still read as the source does.
// Usage: node tools/strip-comments.mjs FILE... (each rewritten in place).
import { readFileSync, writeFileSync } from 'node:fs';
import { minify } from 'terser';

for (const file of process.argv.slice(2)) {
  const code = readFileSync(file, 'utf8');
  const out = await minify(code, {
    module: true, compress: false, mangle: false,
    format: { comments: false, beautify: true, indent_level: 2 },
  });
  writeFileSync(file, `${out.code}\n`);
}
