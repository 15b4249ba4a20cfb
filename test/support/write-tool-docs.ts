// `npm run docs:tools`: rewrites the generated sections of the docs (test/support/tool-docs.ts).
import { writeFileSync } from 'node:fs';
import { docsWithSections } from './tool-docs.js';

for (const { file, committed, generated } of docsWithSections()) {
  if (generated === committed) continue;
  writeFileSync(file, generated);
  process.stdout.write(`docs:tools: updated ${file}\n`);
}
